"""Persona context over HTTP: user/persona state, named blocks, get_context and session_begin,
and the per-persona settings. Each route validates, calls one service method and renders.

The ``render_*`` functions give the one JSON shape of each result; the MCP tools reuse them.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.body import json_object, only_fields
from omoide.api.http.deps import App, persona_access
from omoide.api.render import (
    render_block,
    render_changes,
    render_context,
    render_session_start,
    render_state_entry,
)
from omoide.model import UNSET
from omoide.service.state import StateKind

__all__ = ["render_block", "render_changes", "render_context", "render_session_start",
           "render_state_entry", "router"]

router = APIRouter()

Persona = Annotated[str, Depends(persona_access)]

BLOCK_FIELDS = {"block_name", "content", "block_type", "max_tokens", "priority", "metadata"}
CONTEXT_FIELDS = {"user_info", "persona_state"}


# -- rendering ---------------------------------------------------------------------------

def _state_routes(path: str, kind: StateKind, noun: str) -> None:
    @router.get(f"/api/{path}/{{persona}}", tags=["state"], name=f"{kind}_state",
                summary=f"Current {noun} state: {{key: value}}")
    def current(persona: Persona, app: App) -> dict[str, Any]:
        return {"persona": persona, "state": app.state.current(persona, kind)}

    @router.put(f"/api/{path}/{{persona}}", tags=["state"], name=f"{kind}_state_update",
                summary=f"Set {noun} state from a flat {{key: value}} map (bi-temporal)")
    async def update(persona: Persona, request: Request, app: App) -> dict[str, Any]:
        values = await json_object(request)
        write = app.state.update_user_state if kind == StateKind.USER \
            else app.state.update_persona_state
        return {"persona": persona, "changed": await run_in_threadpool(write, persona, values)}

    @router.get(f"/api/{path}/{{persona}}/history", tags=["state"],
                name=f"{kind}_state_history",
                summary=f"Every value of one {noun} state key, oldest first")
    def history(persona: Persona, app: App,
                key: str | None = Query(None, description="The key, e.g. name."),
                at: str | None = Query(None, description="ISO time (a bare date is midnight "
                                                         "UTC): only the value valid then.")
                ) -> dict[str, Any]:
        entries = app.state.history(persona, kind, key, at)
        return {"persona": persona, "key": key,
                "history": [render_state_entry(e) for e in entries]}


_state_routes("user-state", StateKind.USER, "user")
_state_routes("persona-state", StateKind.PERSONA, "persona")


# -- named memory blocks -----------------------------------------------------------------

@router.get("/api/blocks/{persona}", tags=["blocks"],
            summary="Named memory blocks, priority descending")
def list_blocks(persona: Persona, app: App) -> dict[str, Any]:
    return {"persona": persona,
            "blocks": [render_block(b) for b in app.blocks.list_blocks(persona)]}


@router.post("/api/blocks/{persona}", tags=["blocks"],
             summary="Create or update a block (block_name + content required)")
async def write_block(persona: Persona, request: Request, app: App) -> dict[str, Any]:
    data = only_fields(await json_object(request), BLOCK_FIELDS, {"block_name", "content"})
    given = {k: (UNSET if v is None else v) for k, v in data.items()}
    block = await run_in_threadpool(app.blocks.write_block, persona, **given)
    return {"ok": True, "block_name": block.block_name}


@router.delete("/api/blocks/{persona}/{block_name}", tags=["blocks"], summary="Delete a block")
def delete_block(persona: Persona, block_name: str, app: App) -> dict[str, Any]:
    app.blocks.delete_block(persona, block_name)
    return {"ok": True}


# -- context -----------------------------------------------------------------------------

@router.get("/api/context/{persona}", tags=["context"],
            summary="What get_context returns (reads only)")
def get_context(persona: Persona, app: App) -> dict[str, Any]:
    return render_context(app.context.get_context(persona))


@router.post("/api/context/{persona}/session", tags=["context"], status_code=201,
             summary="session_begin: open a session and return its context")
def session_begin(persona: Persona, app: App) -> JSONResponse:
    return JSONResponse(render_session_start(app.context.session_begin(persona)),
                        status_code=201)


@router.put("/api/context/{persona}", tags=["context"],
            summary="update_context: {user_info?, persona_state?}, one transaction")
async def update_context(persona: Persona, request: Request, app: App) -> dict[str, Any]:
    data = only_fields(await json_object(request), CONTEXT_FIELDS)
    changes = await run_in_threadpool(app.context.update_context, persona, **data)
    return render_changes(persona, changes)


# -- settings ----------------------------------------------------------------------------

def _settings(app: Any, persona: str) -> dict[str, Any]:
    return {"persona": persona, "settings": app.settings_service.get(persona).as_dict(),
            "overrides": app.settings_service.overrides(persona)}


@router.get("/api/settings/{persona}", tags=["settings"],
            summary="Effective runtime settings and the persona's overrides")
def get_settings(persona: Persona, app: App) -> dict[str, Any]:
    return _settings(app, persona)


@router.put("/api/settings/{persona}", tags=["settings"],
            summary="Override some settings (validated; unknown names are refused)")
async def put_settings(persona: Persona, request: Request, app: App) -> dict[str, Any]:
    patch = await json_object(request)
    await run_in_threadpool(app.settings_service.update, persona, patch)
    return _settings(app, persona)

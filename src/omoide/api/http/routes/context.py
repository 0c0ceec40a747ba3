"""Persona context over HTTP: user/persona state, named blocks, get_context and session_begin,
and the per-persona settings. Each route validates, calls one service method and renders.

The ``render_*`` functions give the one JSON shape of each result; the MCP tools reuse them.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.deps import App, persona_access
from omoide.api.http.schemas import (
    BlockList,
    BlockOut,
    BlockWrite,
    ContextChanges,
    ContextOut,
    ContextUpdate,
    OkReply,
    SessionStartOut,
    SettingsPatch,
    SettingsReply,
    StateChanged,
    StateHistory,
    StateMap,
    StateReply,
    WriteBlockReply,
    errors,
)
from omoide.api.http.schemas.common import BLOCK_NAME_DESCRIPTION, TIMESTAMP_DESCRIPTION
from omoide.api.render import (
    render_block,
    render_changes,
    render_context,
    render_session_start,
    render_state_entry,
    render_state_history,
)
from omoide.model import UNSET
from omoide.service.state import StateKind
from omoide.service.validate import MAX_TIMESTAMP_CHARS, NAME_PATTERN, STATE_KEY_PATTERN

__all__ = [
    "render_block",
    "render_changes",
    "render_context",
    "render_session_start",
    "render_state_entry",
    "router",
]

router = APIRouter()

Persona = Annotated[str, Depends(persona_access)]
READ = errors(401, 403, 404, 422)
# a write may also lose a race with an erase of what it refers to: 409 (docs/api.md)
WRITE = errors(401, 403, 404, 409, 413, 422)
ACT = errors(401, 403, 404, 409, 422)  # a write that takes no body


def _state_routes(path: str, kind: StateKind, noun: str) -> None:
    @router.get(
        f"/api/{path}/{{persona}}",
        tags=["state"],
        name=f"{kind}_state",
        summary=f"Current {noun} state: {{key: value}}",
        response_model=None,
        responses={200: {"model": StateReply}, **READ},
    )
    def current(persona: Persona, app: App) -> dict[str, Any]:
        return {"persona": persona, "state": app.state.current(persona, kind)}

    @router.put(
        f"/api/{path}/{{persona}}",
        tags=["state"],
        name=f"{kind}_state_update",
        summary=f"Set {noun} state from a flat {{key: value}} map (bi-temporal)",
        response_model=None,
        responses={200: {"model": StateChanged}, **WRITE},
    )
    async def update(persona: Persona, values: StateMap, app: App) -> dict[str, Any]:
        write = (
            app.state.update_user_state
            if kind == StateKind.USER
            else app.state.update_persona_state
        )
        return {
            "persona": persona,
            "changed": await run_in_threadpool(write, persona, values.root, flat=True),
        }

    @router.get(
        f"/api/{path}/{{persona}}/history",
        tags=["state"],
        name=f"{kind}_state_history",
        summary=f"Every value of one {noun} state key, oldest first",
        response_model=None,
        responses={200: {"model": StateHistory}, **READ},
    )
    def history(
        persona: Persona,
        app: App,
        key: str = Query(..., pattern=STATE_KEY_PATTERN, description="The key, e.g. name or 名前."),
        at: str | None = Query(
            None,
            min_length=1,  # an empty one read the whole history, as if no `at`
            max_length=MAX_TIMESTAMP_CHARS,
            json_schema_extra={"format": "timestamp"},
            description="Only the value valid then: an " + TIMESTAMP_DESCRIPTION,
        ),
    ) -> dict[str, Any]:
        return render_state_history(persona, key, app.state.history(persona, kind, key, at))


_state_routes("user-state", StateKind.USER, "user")
_state_routes("persona-state", StateKind.PERSONA, "persona")


# -- named memory blocks -----------------------------------------------------------------


@router.get(
    "/api/blocks/{persona}",
    tags=["blocks"],
    summary="Named memory blocks, priority descending",
    response_model=None,
    responses={200: {"model": BlockList}, **READ},
)
def list_blocks(persona: Persona, app: App) -> dict[str, Any]:
    return {
        "persona": persona,
        "blocks": [render_block(b) for b in app.blocks.list_blocks(persona)],
    }


@router.get(
    "/api/blocks/{persona}/{block_name}",
    tags=["blocks"],
    summary="One block",
    response_model=None,
    responses={200: {"model": BlockOut}, **READ},
)
def get_block(
    persona: Persona,
    app: App,
    block_name: str = Path(pattern=NAME_PATTERN, description=BLOCK_NAME_DESCRIPTION),
) -> dict[str, Any]:
    return render_block(app.blocks.get_block(persona, block_name))


@router.post(
    "/api/blocks/{persona}",
    tags=["blocks"],
    summary="Create or update a block (block_name + content required)",
    response_model=None,
    responses={200: {"model": WriteBlockReply}, **WRITE},
)
async def write_block(persona: Persona, body: BlockWrite, app: App) -> dict[str, Any]:
    given = {k: (UNSET if v is None else v) for k, v in body.model_dump(exclude_unset=True).items()}
    block = await run_in_threadpool(app.blocks.write_block, persona, **given)
    return {"ok": True, "block_name": block.block_name}


@router.delete(
    "/api/blocks/{persona}/{block_name}",
    tags=["blocks"],
    summary="Delete a block",
    response_model=None,
    responses={200: {"model": OkReply}, **ACT},
)
def delete_block(
    persona: Persona,
    app: App,
    block_name: str = Path(pattern=NAME_PATTERN, description=BLOCK_NAME_DESCRIPTION),
) -> dict[str, Any]:
    app.blocks.delete_block(persona, block_name)
    return {"ok": True}


# -- context -----------------------------------------------------------------------------


@router.get(
    "/api/context/{persona}",
    tags=["context"],
    summary="What get_context returns (reads only)",
    response_model=None,
    responses={200: {"model": ContextOut}, **READ},
)
def get_context(persona: Persona, app: App) -> dict[str, Any]:
    return render_context(app.context.get_context(persona))


@router.post(
    "/api/context/{persona}/session",
    tags=["context"],
    status_code=201,
    summary="session_begin: open a session and return its context",
    response_model=None,
    responses={201: {"model": SessionStartOut}, **ACT},
)
def session_begin(persona: Persona, app: App) -> JSONResponse:
    return JSONResponse(render_session_start(app.context.session_begin(persona)), status_code=201)


@router.put(
    "/api/context/{persona}",
    tags=["context"],
    summary="update_context: {user_info?, persona_state?}, one transaction",
    response_model=None,
    responses={200: {"model": ContextChanges}, **WRITE},
)
async def update_context(persona: Persona, body: ContextUpdate, app: App) -> dict[str, Any]:
    given = {k: v.root for k, v in body if k in body.model_fields_set}
    changes = await run_in_threadpool(app.context.update_context, persona, **given)
    return render_changes(persona, changes)


# -- settings ----------------------------------------------------------------------------


def _settings(app: Any, persona: str) -> dict[str, Any]:
    return {
        "persona": persona,
        "settings": app.settings_service.get(persona).as_dict(),
        "overrides": app.settings_service.overrides(persona),
    }


@router.get(
    "/api/settings/{persona}",
    tags=["settings"],
    summary="Effective runtime settings and the persona's overrides",
    response_model=None,
    responses={200: {"model": SettingsReply}, **READ},
)
def get_settings(persona: Persona, app: App) -> dict[str, Any]:
    return _settings(app, persona)


@router.put(
    "/api/settings/{persona}",
    tags=["settings"],
    summary="Override some settings (validated; unknown names are refused)",
    response_model=None,
    responses={200: {"model": SettingsReply}, **WRITE},
)
async def put_settings(
    persona: Persona, app: App, patch: Annotated[SettingsPatch, Body()]
) -> dict[str, Any]:  # type: ignore[valid-type]
    await run_in_threadpool(
        app.settings_service.update, persona, patch.model_dump(exclude_unset=True)
    )
    return _settings(app, persona)

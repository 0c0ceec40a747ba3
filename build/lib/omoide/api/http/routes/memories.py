"""``/api/memories/{persona}``: create, list, read, update, delete, history, links, stats."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from omoide.api.http.body import json_object, only_fields
from omoide.api.http.deps import App, persona_access
from omoide.api.render import (
    render_create,
    render_link,
    render_memory,
    render_stats,
    render_version,
)

router = APIRouter(tags=["memories"])

Persona = Annotated[str, Depends(persona_access)]

CREATE_FIELDS = {"content", "importance", "tags", "emotion_type", "emotion_intensity", "kind",
                 "valid_from", "valid_until", "metadata"}
PATCH_FIELDS = CREATE_FIELDS


@router.post("/api/memories/{persona}", status_code=201,
             summary="Create a memory (dedup: 200 with status 'duplicate')")
async def create_memory(persona: Persona, request: Request, app: App) -> Any:
    data = only_fields(await json_object(request), CREATE_FIELDS, {"content"})
    new = app.memories.build_new(**data)
    outcome = await _threaded(app.memories.create, persona, new)
    return JSONResponse(render_create(outcome), status_code=201 if outcome.status == "created"
                        else 200)


@router.get("/api/memories/{persona}", summary="Recent memories, newest first")
def list_memories(persona: Persona, app: App, limit: int = Query(20), offset: int = Query(0),
                  include_deleted: bool = Query(False)) -> dict[str, Any]:
    memories = app.memories.list_recent(persona, limit=limit, offset=offset,
                                        include_deleted=include_deleted)
    return {"persona": persona, "memories": [render_memory(m) for m in memories]}


@router.get("/api/memories/{persona}/{key}", summary="Read one memory (counts as a recall)")
def read_memory(persona: Persona, key: str, app: App) -> dict[str, Any]:
    return render_memory(app.memories.get(persona, key))


@router.patch("/api/memories/{persona}/{key}", summary="Update fields (importance is immutable)")
async def update_memory(persona: Persona, key: str, request: Request, app: App) -> Any:
    data = only_fields(await json_object(request), PATCH_FIELDS)
    memory = await _threaded(app.memories.update, persona, key, **data)
    return render_memory(memory)


@router.delete("/api/memories/{persona}/{key}",
               summary="Delete: a tombstone (history is kept), or with purge=true erase it")
def delete_memory(persona: Persona, key: str, app: App, purge: bool = Query(
        False, description="Erase the memory with all its versions, links, sources and index "
                           "rows, so that its text is nowhere in the data folder (the user "
                           "asked to forget it). Cannot be undone.")) -> dict[str, Any]:
    if purge:
        app.memories.purge(persona, key)
        return {"persona": persona, "key": key, "status": "purged"}
    return render_memory(app.memories.delete(persona, key))


@router.get("/api/memories/{persona}/{key}/history", summary="Every version, oldest first")
def memory_history(persona: Persona, key: str, app: App) -> dict[str, Any]:
    return {"key": key, "versions": [render_version(v)
                                     for v in app.memories.history(persona, key)]}


@router.get("/api/memories/{persona}/{key}/links", summary="Links to related memories")
def memory_links(persona: Persona, key: str, app: App) -> dict[str, Any]:
    return {"key": key, "links": [render_link(link) for link in app.memories.links(persona, key)]}


@router.get("/api/stats/{persona}", summary="Memory statistics")
def memory_stats(persona: Persona, app: App) -> dict[str, Any]:
    return render_stats(app.memories.stats(persona))


async def _threaded(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run blocking service work (embedding, SQLite) off the event loop."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args, **kwargs)

"""``/api/memories/{persona}``: create, list, read, update, delete, history, links, stats."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.deps import App, persona_access
from omoide.api.http.schemas import (
    CreateReply,
    HistoryReply,
    LinksReply,
    MemoryCreate,
    MemoryList,
    MemoryOut,
    MemoryPatch,
    PurgeReply,
    StatsOut,
    errors,
)
from omoide.api.render import (
    render_create,
    render_history,
    render_link,
    render_memory,
    render_purged,
    render_stats,
)
from omoide.service.validate import MAX_INT, MAX_LIST_LIMIT, MAX_NAME_CHARS

router = APIRouter(tags=["memories"])

Persona = Annotated[str, Depends(persona_access)]
# a memory's key, at most 64 characters (as every stored key, and as MCP's tools take one): a
# 5,000-character key was looked up and echoed in the 404
# a memory key is a name (an import checks it as one)
Key = Annotated[
    str, Path(min_length=1, max_length=MAX_NAME_CHARS, description="A memory's key (mem_…).")
]
READ = errors(401, 403, 404, 422)
# a write may also lose a race with an erase of what it refers to: 409 (docs/api.md)
WRITE = errors(401, 403, 404, 409, 413, 422)
ACT = errors(401, 403, 404, 409, 422)  # a write that takes no body


@router.post(
    "/api/memories/{persona}",
    status_code=201,
    response_model=None,
    summary="Create a memory (dedup: 200 with status 'duplicate')",
    responses={
        201: {"model": CreateReply, "description": "Created."},
        200: {
            "model": CreateReply,
            "description": "A duplicate: not saved; duplicate_of names it.",
        },
        **WRITE,
    },
)
async def create_memory(persona: Persona, body: MemoryCreate, app: App) -> JSONResponse:
    new = app.memories.build_new(**body.model_dump(exclude_unset=True))
    outcome = await run_in_threadpool(app.memories.create, persona, new)
    return JSONResponse(
        render_create(outcome), status_code=201 if outcome.status == "created" else 200
    )


@router.get(
    "/api/memories/{persona}",
    summary="Recent memories, newest first",
    response_model=None,
    responses={200: {"model": MemoryList}, **READ},
)
def list_memories(
    persona: Persona,
    app: App,
    limit: int = Query(20, ge=1, le=MAX_LIST_LIMIT, description="How many memories (1-1000)."),
    offset: int = Query(
        0,
        ge=0,
        le=MAX_INT,
        description="How many newest memories to skip (the next page starts at offset + limit).",
    ),
    include_deleted: bool = Query(False, description="Also list tombstoned memories."),
) -> dict[str, Any]:
    memories = app.memories.list_recent(
        persona, limit=limit, offset=offset, include_deleted=include_deleted
    )
    return {"persona": persona, "memories": [render_memory(m) for m in memories]}


@router.get(
    "/api/memories/{persona}/{key}",
    summary="Read one memory (counts as a recall)",
    response_model=None,
    responses={200: {"model": MemoryOut}, **READ},
)
def read_memory(persona: Persona, key: Key, app: App) -> dict[str, Any]:
    return render_memory(app.memories.get(persona, key))


@router.patch(
    "/api/memories/{persona}/{key}",
    summary="Update fields (importance is immutable)",
    response_model=None,
    responses={200: {"model": MemoryOut}, **WRITE},
)
async def update_memory(persona: Persona, key: Key, body: MemoryPatch, app: App) -> dict[str, Any]:
    memory = await run_in_threadpool(
        app.memories.update, persona, key, **body.model_dump(exclude_unset=True)
    )
    return render_memory(memory)


@router.delete(
    "/api/memories/{persona}/{key}",
    response_model=None,
    summary="Delete: a tombstone (history is kept), or with purge=true erase it",
    responses={
        200: {
            "model": MemoryOut | PurgeReply,
            "description": "The tombstoned memory, or {status: purged}.",
        },
        **ACT,
    },
)
def delete_memory(
    persona: Persona,
    key: Key,
    app: App,
    purge: bool = Query(
        False,
        description="Erase the memory with all its versions, links, sources and index "
        "rows, so that its text is nowhere in the data folder (the user "
        "asked to forget it). Cannot be undone.",
    ),
) -> dict[str, Any]:
    if purge:
        return render_purged(persona, key, app.memories.purge(persona, key))
    return render_memory(app.memories.delete(persona, key))


@router.get(
    "/api/memories/{persona}/{key}/history",
    summary="Every version, oldest first",
    response_model=None,
    responses={200: {"model": HistoryReply}, **READ},
)
def memory_history(persona: Persona, key: Key, app: App) -> dict[str, Any]:
    return render_history(key, app.memories.history(persona, key))


@router.get(
    "/api/memories/{persona}/{key}/links",
    summary="Links to related memories",
    response_model=None,
    responses={200: {"model": LinksReply}, **READ},
)
def memory_links(persona: Persona, key: Key, app: App) -> dict[str, Any]:
    return {"key": key, "links": [render_link(link) for link in app.memories.links(persona, key)]}


@router.get(
    "/api/stats/{persona}",
    summary="Memory statistics",
    response_model=None,
    responses={200: {"model": StatsOut}, **READ},
)
def memory_stats(persona: Persona, app: App) -> dict[str, Any]:
    return render_stats(app.memories.stats(persona))

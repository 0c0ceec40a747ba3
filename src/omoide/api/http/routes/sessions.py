"""``/api/sessions/{persona}``: the Episode tier's raw log (sessions, events, episodes)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.deps import App, persona_access
from omoide.api.http.schemas import (
    EpisodesReply,
    EventsIn,
    EventsReply,
    SessionEndReply,
    SessionErased,
    SessionList,
    SessionOpen,
    SessionOpened,
    errors,
)
from omoide.api.render import render_episode, render_session, render_session_end, ts
from omoide.service.validate import MAX_INT, MAX_LIST_LIMIT, SESSION_ID_PATTERN

router = APIRouter(tags=["sessions"])

Persona = Annotated[str, Depends(persona_access)]
SessionPath = Annotated[
    str,
    Path(
        pattern=SESSION_ID_PATTERN,
        description=("Session id: 1-128 ASCII letters, digits or _ . : @ -"),
    ),
]
READ = errors(401, 403, 404, 422)
# a write may also lose a race with an erase of what it refers to: 409 (docs/api.md)
WRITE = errors(401, 403, 404, 409, 413, 422)
ACT = errors(401, 403, 404, 409, 422)  # a write that takes no body


@router.post(
    "/api/sessions/{persona}",
    status_code=201,
    response_model=None,
    summary="Open a session (idempotent for an existing session_id: 200)",
    responses={
        201: {"model": SessionOpened, "description": "Opened."},
        200: {"model": SessionOpened, "description": "Already open."},
        **WRITE,
    },
)
async def open_session(
    persona: Persona, app: App, body: Annotated[SessionOpen | None, Body()] = None
) -> JSONResponse:
    data = body.model_dump(exclude_none=True) if body is not None else {}
    session, created = await run_in_threadpool(app.sessions.open, persona, **data)
    return JSONResponse(
        {
            "session_id": session.session_id,
            "started_at": ts(session.started_at),
            "created": created,
        },
        status_code=201 if created else 200,
    )


@router.get(
    "/api/sessions/{persona}",
    response_model=None,
    summary="The persona's conversations, newest first, with their turn and episode counts",
    responses={200: {"model": SessionList}, **READ},
)
def list_sessions(
    persona: Persona,
    app: App,
    limit: int = Query(20, ge=1, le=MAX_LIST_LIMIT, description="How many sessions (1-1000)."),
    offset: int = Query(
        0,
        ge=0,
        le=MAX_INT,
        description="How many newest sessions to skip (the next page starts at offset + limit).",
    ),
) -> dict[str, Any]:
    summaries = app.sessions.list_recent(persona, limit=limit, offset=offset)
    return {"persona": persona, "sessions": [render_session(s) for s in summaries]}


@router.post(
    "/api/sessions/{persona}/{session_id}/events",
    response_model=None,
    summary="Append events in a batch (a turn re-sent under its external_id is a "
    "duplicate; another turn under a used external_id is a 409)",
    responses={200: {"model": EventsReply}, **WRITE},
)
async def record_events(
    persona: Persona, session_id: SessionPath, body: EventsIn, app: App
) -> dict[str, Any]:
    events = [e.model_dump(exclude_none=True) for e in body.events]
    accepted, duplicates = await run_in_threadpool(app.sessions.record, persona, session_id, events)
    return {"session_id": session_id, "accepted": accepted, "duplicates": duplicates}


@router.post(
    "/api/sessions/{persona}/{session_id}/end",
    response_model=None,
    summary="End a session: queues its last segmentation and the consolidation",
    responses={200: {"model": SessionEndReply}, **ACT},
)
def end_session(persona: Persona, session_id: SessionPath, app: App) -> dict[str, Any]:
    ended, queued = app.sessions.end_told(persona, session_id)
    return {**render_session_end(ended), "queued": queued, "already_ended": not queued}


@router.get(
    "/api/sessions/{persona}/{session_id}/episodes",
    response_model=None,
    summary="The session's end (null while open), its episodes with event ranges, "
    "topics and the notes consolidated from them",
    responses={200: {"model": EpisodesReply}, **READ},
)
def episodes(persona: Persona, session_id: SessionPath, app: App) -> dict[str, Any]:
    session = app.sessions.get(persona, session_id)
    return {
        **render_session_end(session),
        "episodes": [
            render_episode(ep, notes) for ep, notes in app.sessions.episodes(persona, session_id)
        ],
    }


@router.delete(
    "/api/sessions/{persona}/{session_id}",
    response_model=None,
    summary="Erase a conversation: its events and episodes (with_notes: its notes)",
    responses={200: {"model": SessionErased}, **ACT},
)
def delete_session(
    persona: Persona,
    session_id: SessionPath,
    app: App,
    with_notes: bool = Query(
        False,
        description="Also erase the notes consolidated from this "
        "conversation (found by provenance). Cannot be "
        "undone.",
    ),
) -> dict[str, Any]:
    erased = app.forget.delete_session(persona, session_id, with_notes=with_notes)
    return {
        "persona": persona,
        "session_id": session_id,
        "status": "erased",
        "events": erased.events,
        "episodes": erased.episodes,
        "notes": list(erased.keys),
        "scrub_pending": erased.scrub_pending,
    }

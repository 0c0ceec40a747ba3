"""``/api/sessions/{persona}``: the Episode tier's raw log (sessions, events, episodes)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from omoide.api.http.body import json_object, only_fields
from omoide.api.http.deps import App, persona_access
from omoide.api.render import render_episode, ts

router = APIRouter(tags=["sessions"])

Persona = Annotated[str, Depends(persona_access)]


@router.post("/api/sessions/{persona}", status_code=201,
             summary="Open a session (idempotent for an existing session_id: 200)")
async def open_session(persona: Persona, request: Request, app: App) -> Any:
    raw = await request.body()
    data = only_fields(await json_object(request), {"session_id", "started_at"}) \
        if raw.strip() else {}
    session, created = await run_in_threadpool(app.sessions.open, persona, **data)
    return JSONResponse({"session_id": session.session_id,
                         "started_at": ts(session.started_at), "created": created},
                        status_code=201 if created else 200)


@router.post("/api/sessions/{persona}/{session_id}/events",
             summary="Append events in a batch (re-sent external_ids are skipped)")
async def record_events(persona: Persona, session_id: str, request: Request,
                        app: App) -> dict[str, Any]:
    data = only_fields(await json_object(request), {"events"}, {"events"})
    accepted, duplicates = await run_in_threadpool(app.sessions.record, persona, session_id,
                                                   data["events"])
    return {"session_id": session_id, "accepted": accepted, "duplicates": duplicates}


@router.post("/api/sessions/{persona}/{session_id}/end",
             summary="End a session: queues its last segmentation and the consolidation")
def end_session(persona: Persona, session_id: str, app: App) -> dict[str, Any]:
    session = app.sessions.end(persona, session_id)
    return {"session_id": session.session_id, "ended_at": ts(session.ended_at), "queued": True}


@router.get("/api/sessions/{persona}/{session_id}/episodes",
            summary="The session's end (null while open), its episodes with event ranges, "
                    "topics and the notes consolidated from them")
def episodes(persona: Persona, session_id: str, app: App) -> dict[str, Any]:
    session = app.sessions.get(persona, session_id)
    return {"session_id": session_id, "ended_at": ts(session.ended_at),
            "episodes": [render_episode(ep, notes)
                         for ep, notes in app.sessions.episodes(persona, session_id)]}


@router.delete("/api/sessions/{persona}/{session_id}",
               summary="Erase a conversation: its events and episodes (with_notes: its notes)")
def delete_session(persona: Persona, session_id: str, app: App, with_notes: bool = Query(
        False, description="Also erase the notes consolidated from this conversation "
                           "(found by provenance). Cannot be undone.")) -> dict[str, Any]:
    erased = app.forget.delete_session(persona, session_id, with_notes=with_notes)
    return {"persona": persona, "session_id": session_id, "status": "erased",
            "events": erased.events, "episodes": erased.episodes, "notes": list(erased.keys)}

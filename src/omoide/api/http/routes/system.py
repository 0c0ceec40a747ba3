"""Personas (admin), jobs, health and metrics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from omoide import __version__
from omoide.api.http.body import json_object, only_fields
from omoide.api.http.deps import App, Caller, persona_access
from omoide.api.render import ts

router = APIRouter()

Persona = Annotated[str, Depends(persona_access)]


@router.post("/api/personas", status_code=201, tags=["personas"],
             summary="Create a persona (admin); the reply is the only time its key is shown")
async def create_persona(request: Request, caller: Caller, app: App) -> Any:
    caller.require_admin()
    data = only_fields(await json_object(request), {"name"}, {"name"})
    persona, key = app.auth.create_persona(data["name"])
    return JSONResponse({"name": persona.name, "api_key": key}, status_code=201)


@router.get("/api/personas", tags=["personas"], summary="List personas (admin)")
def list_personas(caller: Caller, app: App) -> dict[str, Any]:
    caller.require_admin()
    return {"personas": [{"name": p.name, "created_at": ts(p.created_at),
                          "memories": p.memories} for p in app.maintenance.personas()]}


@router.delete("/api/personas/{name}", tags=["personas"],
               summary="Erase a persona and everything it remembers (admin); its keys stop working")
def delete_persona(name: str, caller: Caller, app: App) -> dict[str, Any]:
    caller.require_admin()
    erased = app.forget.delete_persona(name)
    return {"name": name, "status": "erased", "memories": erased.memories,
            "sessions": erased.sessions, "events": erased.events, "episodes": erased.episodes}


@router.get("/api/jobs/{persona}", tags=["jobs"],
            summary="Background job counts; wait for pending + running == 0")
def jobs(persona: Persona, app: App) -> dict[str, Any]:
    report = app.maintenance.job_report(persona)
    counts = report.counts
    return {"persona": persona, "pending": counts.pending, "running": counts.running,
            "failed": counts.failed, "done": counts.done, "scheduled": counts.scheduled,
            "failures": report.failures}


@router.get("/api/jobs/{persona}/wait", tags=["jobs"],
            summary="Block until the persona's queue is empty (pending + running == 0)")
async def wait_for_jobs(persona: Persona, app: App,
                        timeout: float = Query(60.0, ge=0, le=600,
                                               description="Seconds to wait at most.")
                        ) -> dict[str, Any]:
    state = await run_in_threadpool(app.queue.wait, persona, timeout=timeout)
    return {"persona": persona, "drained": state.drained, "pending": state.pending,
            "running": state.running, "failed": state.failed}


@router.get("/health", tags=["system"], summary="Liveness")
def health(app: App) -> dict[str, Any]:
    app.maintenance.health()
    return {"status": "ok", "version": __version__, "embedder": app.embedder.model_id}


@router.get("/metrics", tags=["system"], response_class=PlainTextResponse,
            summary="Prometheus metrics (admin key)")
def metrics(request: Request, caller: Caller, app: App) -> PlainTextResponse:
    caller.require_admin()
    counts = app.maintenance.metric_counts()
    text = request.app.state.metrics.render(memories=counts.memories,
                                            job_depth=counts.job_depth)
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4")

"""Personas (admin), jobs, health and metrics."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from omoide import __version__
from omoide.api.http.deps import Admin, App, named_persona_access, persona_access
from omoide.api.http.schemas import (
    HealthOut,
    JobsOut,
    JobsWaitOut,
    PersonaCreate,
    PersonaCreated,
    PersonaErased,
    PersonaList,
    errors,
)
from omoide.api.render import ts
from omoide.errors import StorageUnavailable

router = APIRouter()

# The health check runs on threads of its own, never on the event loop (a database that does
# not answer would hold every other request meanwhile) nor on the pool the other routes wait
# for (a check stuck on an unreachable server keeps at most these threads).
_CHECKS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="omoide-health")
HEALTH_WAIT_S = 5.0
"""Seconds /health waits for the database's answer before its 503 (the PostgreSQL store's
own ping waits less: ``store/postgres/pool.py`` ``PING_WAIT_S``)."""

Persona = Annotated[str, Depends(persona_access)]
ADMIN = errors(401, 403)  # an admin route that names no persona
NAMED = errors(401, 403, 404, 422)  # a route on one persona named in its path


@router.post(
    "/api/personas",
    status_code=201,
    tags=["personas"],
    response_model=None,
    summary="Create a persona (admin); the reply is the only time its key is shown",
    responses={201: {"model": PersonaCreated}, **errors(401, 403, 409, 413, 422)},
)
def create_persona(body: PersonaCreate, _: Admin, app: App) -> Any:
    persona, key = app.auth.create_persona(body.name)
    return JSONResponse({"name": persona.name, "api_key": key}, status_code=201)


@router.get(
    "/api/personas",
    tags=["personas"],
    summary="List personas (admin)",
    response_model=None,
    responses={200: {"model": PersonaList}, **ADMIN},
)
def list_personas(_: Admin, app: App) -> dict[str, Any]:
    return {
        "personas": [
            {"name": p.name, "created_at": ts(p.created_at), "memories": p.memories}
            for p in app.maintenance.personas()
        ]
    }


@router.delete(
    "/api/personas/{name}",
    tags=["personas"],
    summary="Erase a persona and everything it remembers (admin); its keys stop working",
    response_model=None,
    responses={200: {"model": PersonaErased}, **NAMED},
)
def delete_persona(
    name: Annotated[str, Depends(named_persona_access)], _: Admin, app: App
) -> dict[str, Any]:
    erased = app.forget.delete_persona(name)
    return {
        "name": name,
        "status": "erased",
        "memories": erased.memories,
        "sessions": erased.sessions,
        "events": erased.events,
        "episodes": erased.episodes,
        "jobs_discarded": erased.jobs,
        "scrub_pending": erased.scrub_pending,
    }


@router.get(
    "/api/jobs/{persona}",
    tags=["jobs"],
    summary="Background job counts and the last failures (GET …/wait waits for an empty queue)",
    response_model=None,
    responses={200: {"model": JobsOut}, **NAMED},
)
def jobs(persona: Persona, app: App) -> dict[str, Any]:
    return app.maintenance.job_report(persona).as_dict()


@router.get(
    "/api/jobs/{persona}/wait",
    tags=["jobs"],
    summary="Block until the persona's queue is empty (pending + running == 0)",
    response_model=None,
    responses={200: {"model": JobsWaitOut}, **NAMED},
)
async def wait_for_jobs(
    persona: Persona,
    app: App,
    timeout: float = Query(
        60.0, ge=0, le=600, allow_inf_nan=False, description="Seconds to wait at most."
    ),
) -> dict[str, Any]:
    state = await run_in_threadpool(app.queue.wait, persona, timeout=timeout)
    return {
        "persona": persona,
        "drained": state.drained,
        "pending": state.pending,
        "running": state.running,
        "failed": state.failed,
    }


@router.get(
    "/health",
    tags=["system"],
    summary="Liveness",
    response_model=None,
    responses={200: {"model": HealthOut}},
)
async def health(app: App) -> dict[str, Any]:
    checked = asyncio.get_running_loop().run_in_executor(_CHECKS, app.maintenance.health)
    try:
        await asyncio.wait_for(checked, HEALTH_WAIT_S)
    except TimeoutError:
        raise StorageUnavailable(
            f"the database did not answer the health check within {HEALTH_WAIT_S:g} s",
            retry_after="5",
        ) from None
    return {"status": "ok", "version": __version__, "embedder": app.embedder.model_id}


@router.get(
    "/metrics",
    tags=["system"],
    response_model=None,
    summary="Prometheus metrics (admin key)",
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "Prometheus text exposition format.",
        },
        **ADMIN,
    },
)
def metrics(request: Request, _: Admin, app: App) -> PlainTextResponse:
    counts = app.maintenance.metric_counts()
    text = request.app.state.metrics.render(
        memories=counts.memories,
        job_depth=counts.job_depth,
        mcp_sessions=request.app.state.mcp.open_sessions(),
    )
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4")

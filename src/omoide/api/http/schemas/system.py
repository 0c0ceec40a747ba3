"""Personas (admin), jobs, health."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from omoide.api.http.schemas.common import PersonaName, Request, Response

__all__ = [
    "HealthOut",
    "JobsOut",
    "JobsWaitOut",
    "PersonaCreate",
    "PersonaCreated",
    "PersonaErased",
    "PersonaList",
]


class PersonaCreate(Request):
    name: PersonaName


class PersonaCreated(Response):
    """The only time the key is shown."""

    name: str
    api_key: str


class PersonaOut(Response):
    name: str
    created_at: str
    memories: int


class PersonaList(Response):
    personas: list[PersonaOut]


class PersonaErased(Response):
    name: str
    status: Literal["erased"]
    memories: int
    sessions: int
    events: int
    episodes: int
    jobs_discarded: int = Field(description=(
        "Its background jobs (segmentation, consolidation, evolution) that were queued or "
        "running: dropped with it, never run or retried."))


class JobsOut(Response):
    persona: str
    pending: int
    running: int
    failed: int
    done: int
    scheduled: int
    failures: list[dict[str, Any]]


class JobsWaitOut(Response):
    persona: str
    drained: bool
    pending: int
    running: int
    failed: int


class HealthOut(Response):
    status: Literal["ok"]
    version: str
    embedder: str

"""Personas (admin), jobs, health."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypedDict

from omoide.api.http.schemas.common import (
    PersonaName,
    Request,
    Response,
    ScrubPending,
    reply_shape,
)

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
    jobs_discarded: int = Field(
        description=(
            "Its background jobs (segmentation, consolidation, evolution) that were queued or "
            "running: dropped with it, never run or retried."
        )
    )
    scrub_pending: ScrubPending


@reply_shape
class JobFailure(TypedDict):
    """A background job that failed for good (its last attempt's error)."""

    id: int
    kind: Annotated[str, Field(description="What it did, e.g. memory.evolve.")]
    attempts: int
    last_error: str | None
    finished_at: str | None


class JobsOut(Response):
    persona: str
    pending: int
    running: int
    failed: int
    done: int
    scheduled: int
    failures: list[JobFailure] = Field(
        description="The latest failures, newest first (at most 20)."
    )


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

"""Sessions, their events and episodes (the Episode tier's raw log)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from omoide.api.http.schemas.common import (
    ExternalId,
    Int64,
    Metadata,
    NonBlank,
    Request,
    Response,
    ScrubPending,
    SessionId,
    Timestamp,
)
from omoide.engine.attachments import MAX_CAPTION_CHARS
from omoide.model import SessionEnd
from omoide.service.event_input import (
    MAX_EVENT_CHARS,
    MAX_EVENTS_PER_BATCH,
    MAX_SPEAKER_CHARS,
    ROLES,
)

__all__ = [
    "EpisodeOut",
    "EpisodesReply",
    "EventIn",
    "EventsIn",
    "EventsReply",
    "SessionEndReply",
    "SessionErased",
    "SessionList",
    "SessionOpen",
    "SessionOpened",
    "SessionSummaryOut",
]


class SessionOpen(Request):
    """Open a session; the body may be empty. Re-opening an existing id answers 200."""

    session_id: SessionId | None = Field(None, description="Default: a new random id.")
    started_at: Timestamp | None = Field(None, description="Default: now.")


class SessionOpened(Response):
    session_id: str
    started_at: str
    created: bool


class EventIn(Request):
    speaker: Annotated[
        NonBlank,
        Field(
            max_length=MAX_SPEAKER_CHARS, description=f"Who spoke (≤ {MAX_SPEAKER_CHARS} chars)."
        ),
    ]
    role: Literal[ROLES] = Field("user", description="user, assistant or other.")  # type: ignore[valid-type]
    content: Annotated[
        NonBlank,
        Field(
            max_length=MAX_EVENT_CHARS,
            description=f"What was said: not blank, ≤ {MAX_EVENT_CHARS:,} characters.",
        ),
    ]
    timestamp: Timestamp | None = Field(None, description="When it was said (default: now).")
    external_id: ExternalId | Int64 | None = Field(
        None, description="The caller's id; an event re-sent with the same id is skipped."
    )
    metadata: Metadata | None = Field(
        None,
        description=(
            f"Free JSON; image_caption (≤ {MAX_CAPTION_CHARS:,} characters, not blank) "
            "describes an image shared in the turn."
        ),
    )


class EventsIn(Request):
    events: list[EventIn] = Field(
        min_length=1,
        max_length=MAX_EVENTS_PER_BATCH,
        description=f"1-{MAX_EVENTS_PER_BATCH:,} events in order.",
    )


class EventsReply(Response):
    session_id: str
    accepted: int
    duplicates: int


# How a session was ended, as every reply that reports its end says it.
EndedBy = Annotated[
    SessionEnd | None,
    Field(
        description=(
            "How it was ended: client (session_end over HTTP or MCP), new_session (a "
            "session_begin ended it), idle (no turn for session_idle_minutes), import (a chat "
            "import ended the conversation it posted). Null while open, and for a session ended "
            "before the cause was recorded (unknown)."
        )
    ),
]


class SessionEndReply(Response):
    session_id: str
    ended_at: str | None = Field(
        description=(
            "When it was ended: now, or when it had already ended (an ended session stays as it "
            "ended)."
        )
    )
    ended_by: EndedBy
    queued: bool = Field(
        description=(
            "Whether this call queued the session's last segmentation and its consolidation: "
            "true when it ended the session, false when the session had already ended (its end "
            "queued that work then; a turn recorded since queues its own)."
        )
    )
    already_ended: bool = Field(
        description=(
            "True when the session had already ended before this call: ended_at and ended_by "
            "are that end's, and nothing was changed or queued."
        )
    )


class EpisodeOut(Response):
    id: int
    session_id: str
    first_event_id: int | None
    last_event_id: int | None
    first_seq: int
    last_seq: int
    topic: str | None
    surprise: float
    boundary_reason: str | None
    started_at: str | None
    ended_at: str | None
    consolidated_at: str | None
    content: str
    notes: list[str]


class EpisodesReply(Response):
    session_id: str
    ended_at: str | None = Field(description="When the session was ended; null while open.")
    ended_by: EndedBy
    episodes: list[EpisodeOut]


class SessionErased(Response):
    persona: str
    session_id: str
    status: Literal["erased"]
    events: int
    episodes: int
    notes: list[str]
    scrub_pending: ScrubPending


class SessionSummaryOut(Response):
    session_id: str
    status: Literal["open", "ended"] = Field(
        description=(
            "open until the session is ended (session_end, a new session_begin, or the idle "
            "timeout)."
        )
    )
    started_at: str
    ended_at: str | None = Field(description="When it was ended; null while open.")
    ended_by: EndedBy
    first_event_at: str | None = Field(description="Its first turn's time; null without turns.")
    last_event_at: str | None = Field(description="Its last turn's time; null without turns.")
    events: int = Field(description="Turns recorded.")
    episodes: int = Field(description="Episodes cut from them so far.")


class SessionList(Response):
    persona: str
    sessions: list[SessionSummaryOut] = Field(description="Newest first (by start).")

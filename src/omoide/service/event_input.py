"""Conversation turns as a client gives them (HTTP body, MCP ``session_record``, the chat proxy,
an import's event record), checked: 422 on the first mistake, naming the turn (``events[0]``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from omoide.engine.attachments import IMAGE_CAPTION, MAX_CAPTION_CHARS
from omoide.engine.counts import plural
from omoide.engine.errors import named, quoted, too_long, too_many
from omoide.errors import InvalidInput
from omoide.model import NewEvent
from omoide.service.validate import (
    NON_BLANK_RULE,
    check_external_id,
    check_happened,
    check_metadata,
    check_non_blank,
    check_text,
    is_blank,
)

__all__ = [
    "MAX_EVENTS_PER_BATCH",
    "MAX_EVENT_CHARS",
    "MAX_SPEAKER_CHARS",
    "ROLES",
    "check_event",
    "check_events",
    "check_speaker_name",
]

ROLES = ("user", "assistant", "other")
MAX_EVENTS_PER_BATCH = 1000
MAX_EVENT_CHARS = 50_000
MAX_SPEAKER_CHARS = 200


def check_speaker_name(value: str | None, where: str) -> None:
    """A speaker name given as an option (a chat import's ``user_name`` or ``assistant_name``;
    ``where`` names it as the caller gave it: ``--user-name``, ``user_name``): None is not
    given; else not blank and at most :data:`MAX_SPEAKER_CHARS` characters. Before, ``""`` fell
    back to the default without a word, and a blank or too long one was refused as the first
    turn's speaker, a turn the user never wrote."""
    if value is None:
        return
    if is_blank(value):
        raise InvalidInput(
            f"{where} {NON_BLANK_RULE}, got {quoted(value)}; leave it out for the default "
            "speaker name",
            field=where,
        )
    if len(value) > MAX_SPEAKER_CHARS:
        raise InvalidInput(too_long(where, MAX_SPEAKER_CHARS, value), field=where)


def check_events(events: Any, now: datetime) -> list[NewEvent]:
    """A batch of turns (1 to ``MAX_EVENTS_PER_BATCH``), each checked by :func:`check_event`."""
    if not isinstance(events, list) or not events:
        raise InvalidInput("events must be a non-empty list", field="events")
    if len(events) > MAX_EVENTS_PER_BATCH:
        raise InvalidInput(
            too_many("events", MAX_EVENTS_PER_BATCH, len(events), "events per request"),
            field="events",
        )
    return [check_event(e, f"events[{i}]", now) for i, e in enumerate(events)]


def check_event(event: Any, where: str, now: datetime) -> NewEvent:
    """One turn as the API takes it (HTTP, MCP, the chat proxy, an import's event record):
    ``where`` names it in messages (``events[0]``), ``now`` is the server's clock."""
    if not isinstance(event, dict):
        raise InvalidInput(f"{where} must be an object", field=where)
    unknown = set(event) - {"speaker", "role", "content", "timestamp", "external_id", "metadata"}
    if unknown:
        raise InvalidInput(
            f"{where} has {plural(len(unknown), 'unknown field')} "
            f"{', '.join(named(name) for name in sorted(unknown))}",
            field=where,
        )
    for name in ("speaker", "content"):
        if name not in event:
            raise InvalidInput(f"{where}.{name} is required", field=f"{where}.{name}")
    speaker = check_non_blank(event["speaker"], f"{where}.speaker")
    if len(speaker) > MAX_SPEAKER_CHARS:
        raise InvalidInput(
            too_long(f"{where}.speaker", MAX_SPEAKER_CHARS, speaker), field=f"{where}.speaker"
        )
    content = check_non_blank(event["content"], f"{where}.content")
    check_text(speaker, f"{where}.speaker")
    check_text(content, f"{where}.content")
    if len(content) > MAX_EVENT_CHARS:
        raise InvalidInput(
            too_long(f"{where}.content", MAX_EVENT_CHARS, content), field=f"{where}.content"
        )
    role = event.get("role", "user")
    if role not in ROLES:
        raise InvalidInput(f"{where}.role must be one of {', '.join(ROLES)}", field=f"{where}.role")
    external_id = check_external_id(event.get("external_id"), f"{where}.external_id")
    metadata = event.get("metadata")
    if metadata is not None:
        check_metadata(metadata, f"{where}.metadata")
    caption = (metadata or {}).get(IMAGE_CAPTION)
    if caption is not None and (not isinstance(caption, str) or is_blank(caption)):
        # a blank one was stored, then read as no caption: refused as blank text is elsewhere
        raise InvalidInput(
            f"{where}.metadata.{IMAGE_CAPTION} must be a string (≤ "
            f"{MAX_CAPTION_CHARS:,} characters, not blank) describing a shared image; leave "
            "it out when the turn shared none",
            field=f"{where}.metadata.{IMAGE_CAPTION}",
        )
    if caption is not None and len(caption) > MAX_CAPTION_CHARS:
        said = f"{where}.metadata.{IMAGE_CAPTION}"
        raise InvalidInput(too_long(said, MAX_CAPTION_CHARS, caption), field=said)
    timestamp = check_happened(event.get("timestamp"), f"{where}.timestamp", now)
    return NewEvent(
        speaker=speaker.strip(),
        role=role,
        content=content.strip(),
        timestamp=timestamp or now,
        external_id=external_id,
        metadata=metadata,
    )

"""What a turn and an episode read as: the text a turn's or an episode's vector is embedded
from (ingestion, reindex and restore alike) and the date header an episode opens with."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from omoide.engine.dates import local_day
from omoide.model import Event

__all__ = ["EPISODE_EMBED_CHARS", "day_header", "episode_text", "turn_passage"]

EPISODE_EMBED_CHARS = 2000


def turn_passage(speaker: str, text: str) -> str:
    """What a turn's vector is embedded from (ingestion and reindex alike)."""
    return f"{speaker}: {text}"


def day_header(when: datetime, tz: tzinfo = UTC) -> str:
    """``[YYYY-MM-DD]``: the day of ``when`` in ``tz`` (the persona's ``timezone`` setting, so
    a turn said at 08:30 in Tokyo is on that day, not on the UTC day before)."""
    return f"[{local_day(when, tz).isoformat()}]"


def episode_text(events: list[Event], tz: tzinfo = UTC) -> str:
    """An episode as text: a date header (the first turn's day in ``tz``), then one
    ``Speaker: text`` line per turn (an image caption from the event's metadata follows the
    words)."""
    header = day_header(events[0].timestamp, tz) if events else ""
    return "\n".join([header, *(f"{e.speaker}: {e.text}" for e in events)])

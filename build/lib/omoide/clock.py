"""Time as a port: services ask a Clock for ``now`` so tests can pin it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "FixedClock", "SystemClock", "iso", "parse_iso"]


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to (tests, benchmarks, imports)."""

    def __init__(self, start: datetime) -> None:
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> datetime:
        self._now = self._now + timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when.astimezone(UTC)


def iso(when: datetime) -> str:
    """Storage form: ISO-8601 UTC with microseconds, e.g. ``2026-11-30T07:54:39.000000+00:00``.

    Fixed width, so stored timestamps compare correctly as strings in SQL.
    """
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def parse_iso(text: str) -> datetime:
    """Parse a stored or user-given ISO-8601 timestamp; naive values are taken as UTC."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)

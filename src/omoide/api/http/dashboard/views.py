"""What the memory pages show, computed on the server: the forgetting-curve chart, version
diffs and the closed-fact mark. No I/O; templates draw the results.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from omoide.engine.fsrs import elapsed_days, recall_anchor, retrievability
from omoide.model import VERSIONED_FIELDS, Memory, MemoryVersion

__all__ = ["Closure", "Curve", "FieldDiff", "closure", "forgetting_curve", "version_diffs"]

HORIZON_DAYS = 90
PAST_DAYS = 30  # how much of the curve before "now" is drawn (since the last recall)
WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 14, 30
_SAMPLES = 120


@dataclass(frozen=True)
class Point:
    x: float
    y: float


@dataclass(frozen=True)
class Tick:
    at: float  # pixel position
    label: str


@dataclass(frozen=True)
class Curve:
    """A server-drawn chart of R(t) = (1 + 19·t/S)^-0.5 from the last recall to now + 90 days."""

    width: int
    height: int
    past: str  # SVG polyline points: from the last recall (or creation) to now
    future: str  # from now to now + 90 days
    now_x: float
    recall: Point | None  # the last recall, when it is inside the drawn window
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    plot: tuple[float, float, float, float]  # left, top, right, bottom
    r_now: float
    r_horizon: float


def forgetting_curve(memory: Memory, now: datetime) -> Curve:
    """Sample R over [max(last recall, now − 30 d), now + 90 d] with the memory's stability."""
    since = recall_anchor(memory.last_accessed, memory.created_at)
    past_days = min(elapsed_days(since, now), PAST_DAYS)
    start = -past_days
    span = past_days + HORIZON_DAYS
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x_of(day: float) -> float:
        return LEFT + (day - start) / span * (right - LEFT)

    def y_of(r: float) -> float:
        return bottom - r * (bottom - TOP)

    def r_at(day: float) -> float:  # day relative to now
        return retrievability(elapsed_days(since, now + timedelta(days=day)), memory.stability)

    def line(first: float, last: float) -> str:
        steps = [first + (last - first) * i / _SAMPLES for i in range(_SAMPLES + 1)]
        return " ".join(f"{x_of(d):.1f},{y_of(r_at(d)):.1f}" for d in steps)

    recall = None
    if memory.last_accessed is not None and past_days < PAST_DAYS:
        recall = Point(x_of(-past_days), y_of(1.0))
    x_ticks = [Tick(x_of(d), f"+{d:g} d" if d else "now") for d in (0, 30, 60, 90)]
    if x_of(0.0) - x_of(start) >= 48:  # room for its label beside "now"
        x_ticks.insert(0, Tick(x_of(start), f"−{past_days:.0f} d"))
    y_ticks = [Tick(y_of(r), f"{r:g}") for r in (0.0, 0.25, 0.5, 0.75, 1.0)]
    return Curve(
        width=WIDTH,
        height=HEIGHT,
        past=line(start, 0.0) if past_days > 0 else "",
        future=line(0.0, HORIZON_DAYS),
        now_x=x_of(0.0),
        recall=recall,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        plot=(LEFT, TOP, right, bottom),
        r_now=r_at(0.0),
        r_horizon=r_at(HORIZON_DAYS),
    )


@dataclass(frozen=True)
class Closure:
    """Why a fact is no longer current: its validity ended, or it was superseded."""

    until: datetime | None
    successor: str | None
    not_yet: bool = False  # valid_from is still in the future
    never_held: bool = False  # contradicted before it began: ``until`` is its planned start


def closure(memory: Memory, now: datetime) -> Closure | None:
    """The closed-fact mark (superseded, or valid_until ≤ now), None for a current memory."""
    ended = memory.valid_until is not None and memory.valid_until <= now
    if memory.superseded_by is not None or ended:
        return Closure(
            until=memory.valid_until,
            successor=memory.superseded_by,
            never_held=memory.never_held(),
        )
    if memory.valid_from is not None and memory.valid_from > now:
        return Closure(until=None, successor=None, not_yet=True)
    return None


@dataclass(frozen=True)
class FieldDiff:
    name: str
    before: Any
    after: Any
    segments: list[tuple[str, str]] | None = None  # content: ("same"|"del"|"ins", text)


def version_diffs(version: MemoryVersion) -> list[FieldDiff]:
    """The fields a version changed (every field it records, ``VERSIONED_FIELDS``, for the
    first version)."""
    before, after = version.before or {}, version.after or {}
    diffs = []
    for name in VERSIONED_FIELDS:
        old, new = before.get(name), after.get(name)
        if version.before is not None and old == new:
            continue
        if version.before is None and new in (None, [], {}, ""):
            continue
        segments = None
        if name == "content" and isinstance(old, str) and isinstance(new, str):
            segments = text_diff(old, new)
        diffs.append(FieldDiff(name=name, before=old, after=new, segments=segments))
    return diffs


def text_diff(old: str, new: str) -> list[tuple[str, str]]:
    """Character-level diff (works for Japanese, which has no spaces), as (op, text) runs."""
    out: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            out.append(("same", old[a1:a2]))
            continue
        if a2 > a1:
            out.append(("del", old[a1:a2]))
        if b2 > b1:
            out.append(("ins", new[b1:b2]))
    return out

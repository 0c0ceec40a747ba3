"""The dashboard's server-side views: the forgetting curve, the closed-fact mark, text diffs."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st
from memory_factory import a_memory

from omoide.api.http.dashboard.views import (
    HORIZON_DAYS,
    closure,
    forgetting_curve,
    text_diff,
)
from omoide.model import Memory, MemoryKind

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)


def _memory(**fields: object) -> Memory:
    base = a_memory(
        kind=MemoryKind.NOTE,
        created_at=NOW - timedelta(days=2),
        updated_at=NOW,
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def _ys(points: str) -> list[float]:
    return [float(p.split(",")[1]) for p in points.split()]


@given(stability=st.floats(0.1, 365), age_days=st.floats(0, 400))
def test_curve_never_rises_and_spans_ninety_days(stability: float, age_days: float) -> None:
    memory = _memory(stability=stability, created_at=NOW - timedelta(days=age_days))
    curve = forgetting_curve(memory, NOW)
    ys = _ys(curve.past) + _ys(curve.future)
    assert ys == sorted(ys)  # SVG y grows downwards: R never rises
    assert 0 < curve.r_horizon <= curve.r_now <= 1
    assert curve.x_ticks[-1].label == f"+{HORIZON_DAYS} d"


def test_curve_marks_a_recent_recall_at_full_retrievability() -> None:
    memory = _memory(last_accessed=NOW - timedelta(days=3), access_count=2)
    curve = forgetting_curve(memory, NOW)
    assert curve.recall is not None and curve.recall.y == curve.y_ticks[-1].at  # R = 1
    assert curve.recall.x < curve.now_x


def test_closure_marks_superseded_and_expired_facts() -> None:
    assert closure(_memory(), NOW) is None
    ended = closure(_memory(valid_until=NOW - timedelta(hours=1)), NOW)
    assert ended is not None and ended.until == NOW - timedelta(hours=1)
    assert ended.successor is None
    replaced = closure(_memory(superseded_by="mem_2", valid_until=NOW), NOW)
    assert replaced is not None and replaced.successor == "mem_2"
    later = closure(_memory(valid_until=NOW + timedelta(days=1)), NOW)
    assert later is None
    pending = closure(_memory(valid_from=NOW + timedelta(days=1)), NOW)
    assert pending is not None and pending.not_yet


@given(st.text(max_size=40), st.text(max_size=40))
def test_text_diff_rebuilds_both_sides(old: str, new: str) -> None:
    runs = text_diff(old, new)
    assert "".join(t for op, t in runs if op != "ins") == old
    assert "".join(t for op, t in runs if op != "del") == new


def test_text_diff_of_japanese_marks_the_inserted_characters() -> None:
    assert text_diff("京都に住む", "京都の左京区に住む") == [
        ("same", "京都"),
        ("ins", "の左京区"),
        ("same", "に住む"),
    ]


def test_closure_of_a_plan_given_up_says_it_never_held() -> None:
    start = NOW + timedelta(days=90)
    plan = closure(_memory(superseded_by="mem_2", valid_from=start, valid_until=start), NOW)
    assert plan is not None and plan.never_held and plan.until == start
    replaced = closure(_memory(superseded_by="mem_2", valid_until=NOW), NOW)
    assert replaced is not None and not replaced.never_held

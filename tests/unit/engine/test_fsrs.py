import math
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.fsrs import (
    current_strength,
    elapsed_days,
    initial_stability,
    recall_anchor,
    recall_counts,
    recalled_stability,
    retrievability,
    strength,
    strengths,
)

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)

DAYS = st.floats(min_value=0.0, max_value=1e5, allow_nan=False)
STABILITY = st.floats(min_value=0.01, max_value=1e4, allow_nan=False)
IMPORTANCE = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_retrievability_is_one_when_no_time_elapsed() -> None:
    assert retrievability(0.0, 1.0) == 1.0
    assert retrievability(0.0, 365.0) == 1.0


def test_retrievability_is_twenty_to_minus_half_when_elapsed_equals_stability() -> None:
    assert retrievability(1.0, 1.0) == pytest.approx(20**-0.5)
    assert retrievability(10.0, 10.0) == pytest.approx(0.22360679774997896)


def test_retrievability_follows_power_law_at_known_point() -> None:
    # 1 + 19·5/95 = 2, so R = 2^-0.5.
    assert retrievability(5.0, 95.0) == pytest.approx(0.7071067811865476)


def test_retrievability_treats_negative_elapsed_as_zero() -> None:
    assert retrievability(-3.0, 5.0) == 1.0


@pytest.mark.parametrize("stability", [0.0, -1.0, math.nan])
def test_retrievability_rejects_stability_when_not_positive(stability: float) -> None:
    with pytest.raises(ValueError, match="stability must be positive"):
        retrievability(1.0, stability)


@given(t=DAYS, s=STABILITY)
def test_retrievability_stays_in_unit_interval(t: float, s: float) -> None:
    assert 0.0 < retrievability(t, s) <= 1.0


@given(t=DAYS, later=DAYS, s=STABILITY)
def test_retrievability_never_rises_with_elapsed_time(t: float, later: float, s: float) -> None:
    assert retrievability(t + later, s) <= retrievability(t, s)


@given(t=DAYS, s=STABILITY, more=STABILITY)
def test_retrievability_never_falls_with_stability(t: float, s: float, more: float) -> None:
    assert retrievability(t, s + more) >= retrievability(t, s)


def test_strength_is_importance_times_retrievability() -> None:
    assert strength(0.8, 0.0, 1.0) == 0.8
    assert strength(0.5, 5.0, 95.0) == pytest.approx(0.5 * 2**-0.5)


@given(importance=IMPORTANCE, t=DAYS, s=STABILITY)
def test_strength_never_exceeds_importance(importance: float, t: float, s: float) -> None:
    assert 0.0 <= strength(importance, t, s) <= importance


@pytest.mark.parametrize(
    ("intensity", "expected"),
    [
        pytest.param(None, 1.0, id="none"),
        pytest.param(0.0, 1.0, id="zero"),
        pytest.param(0.5, 1.0, id="exactly-0.5"),
        pytest.param(0.51, 5.0, id="above-0.5"),
        pytest.param(0.7, 5.0, id="exactly-0.7"),
        pytest.param(0.71, 10.0, id="above-0.7"),
        pytest.param(1.0, 10.0, id="one"),
    ],
)
def test_initial_stability_follows_emotion_thresholds(
    intensity: float | None, expected: float
) -> None:
    assert initial_stability(intensity) == expected


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(1.0, 1.5, id="one-day"),
        pytest.param(10.0, 15.0, id="ten-days"),
        pytest.param(243.0, 364.5, id="just-under-cap"),
        pytest.param(300.0, 365.0, id="capped"),
        pytest.param(365.0, 365.0, id="at-cap"),
    ],
)
def test_recalled_stability_multiplies_by_one_and_a_half_up_to_cap(
    before: float, after: float
) -> None:
    assert recalled_stability(before) == after


def test_recalled_stability_uses_given_factor_and_cap() -> None:
    assert recalled_stability(10.0, factor=2.0, cap_days=15.0) == 15.0
    assert recalled_stability(4.0, factor=2.0, cap_days=15.0) == 8.0


@given(s=STABILITY, recalls=st.integers(min_value=1, max_value=60))
def test_recalled_stability_never_exceeds_cap(s: float, recalls: int) -> None:
    for _ in range(recalls):
        s = recalled_stability(s)
    assert s <= 365.0


@pytest.mark.parametrize(
    ("last_accessed", "expected"),
    [
        pytest.param(None, True, id="never-accessed"),
        pytest.param(NOW - timedelta(minutes=59), False, id="59-minutes-ago"),
        pytest.param(NOW - timedelta(hours=1), True, id="exactly-an-hour-ago"),
        pytest.param(NOW - timedelta(days=3), True, id="days-ago"),
        pytest.param(NOW, False, id="same-instant"),
        pytest.param(NOW + timedelta(hours=2), False, id="in-the-future"),
    ],
)
def test_recall_counts_at_most_hourly(last_accessed: datetime | None, expected: bool) -> None:
    assert recall_counts(last_accessed, NOW) is expected


def test_recall_counts_uses_given_interval() -> None:
    assert recall_counts(NOW - timedelta(hours=5), NOW, min_interval_hours=6.0) is False
    assert recall_counts(NOW - timedelta(hours=6), NOW, min_interval_hours=6.0) is True


def test_elapsed_days_counts_hours_over_24() -> None:
    assert elapsed_days(NOW - timedelta(hours=36), NOW) == 1.5
    assert elapsed_days(NOW - timedelta(minutes=90), NOW) == 0.0625


def test_elapsed_days_compares_instants_across_zones() -> None:
    tokyo_midnight = datetime(2026, 12, 1, 0, 0, tzinfo=ZoneInfo("Asia/Tokyo"))  # 15:00 UTC
    assert elapsed_days(NOW, tokyo_midnight) == 0.20833333333333334


def test_elapsed_days_is_zero_when_since_is_after_now() -> None:
    assert elapsed_days(NOW + timedelta(days=2), NOW) == 0.0


def test_strengths_match_known_values() -> None:
    result = strengths(
        np.array([1.0, 0.5, 0.8, 0.3]),
        np.array([1.0, 95.0, 10.0, 2.0]),
        np.array([0.0, 120.0, 240.0, -48.0]),
    )
    assert result.dtype == np.float64
    assert result.tolist() == pytest.approx([1.0, 0.5 * 2**-0.5, 0.8 * 20**-0.5, 0.3])


def test_strengths_broadcast_one_elapsed_time_over_rows() -> None:
    result = strengths(np.array([1.0, 1.0]), np.array([1.0, 95.0]), np.array(120.0))
    assert result.tolist() == pytest.approx([96**-0.5, 2**-0.5])


def test_strengths_reject_stability_when_not_positive() -> None:
    with pytest.raises(ValueError, match="stability must be positive"):
        strengths(np.array([1.0, 1.0]), np.array([1.0, 0.0]), np.array([1.0, 1.0]))


ROWS = st.lists(
    st.tuples(IMPORTANCE, STABILITY, st.floats(min_value=-100.0, max_value=1e6)),
    min_size=1,
    max_size=50,
)


@given(rows=ROWS)
def test_strengths_equal_scalar_strength_row_by_row(
    rows: list[tuple[float, float, float]],
) -> None:
    importance, stability, hours = (np.array(column) for column in zip(*rows, strict=True))
    expected = [strength(i, h / 24.0, s) for i, s, h in rows]
    assert strengths(importance, stability, hours).tolist() == pytest.approx(
        expected, rel=1e-12, abs=1e-300
    )


def test_strengths_handle_a_million_rows_well_under_a_second() -> None:
    rows = 1_000_000
    importance = np.linspace(0.0, 1.0, rows)
    stability = np.linspace(1.0, 365.0, rows)
    hours = np.linspace(0.0, 24.0 * 3650, rows)
    started = time.perf_counter()
    result = strengths(importance, stability, hours)
    took = time.perf_counter() - started
    assert result.shape == (rows,)
    assert bool(np.all((result >= 0.0) & (result <= importance)))
    assert took < 1.0  # typically 10-80 ms on a shared 2-core machine


_HOURS = st.floats(min_value=0.0, max_value=24 * 3650, allow_nan=False)
_T0 = datetime(2026, 1, 1, tzinfo=UTC)


@given(
    importance=st.floats(0.0, 1.0),
    stability=st.floats(0.1, 365.0),
    age=_HOURS,
    recalled=st.one_of(st.none(), _HOURS),
    later=_HOURS,
)
def test_current_strength_counts_from_the_last_recall_else_from_creation(
    importance: float, stability: float, age: float, recalled: float | None, later: float
) -> None:
    created = _T0
    last = None if recalled is None else created + timedelta(hours=min(recalled, age))
    now = created + timedelta(hours=age + later)
    since = created if last is None else last
    expected = strength(importance, elapsed_days(since, now), stability)
    got = current_strength(importance, stability, last_accessed=last, created_at=created, now=now)
    assert got == expected
    assert got <= importance


def test_recall_anchor_works_on_any_time_scale() -> None:
    """The decay job passes Julian day numbers; services pass datetimes."""
    assert recall_anchor(None, 2461000.5) == 2461000.5
    assert recall_anchor(2461003.25, 2461000.5) == 2461003.25
    assert recall_anchor(None, _T0) == _T0

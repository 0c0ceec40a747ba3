"""Properties of the spec ↔ raw cosine calibration map (engine/calibration.py)."""

from __future__ import annotations

import math
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.calibration import IDENTITY, Calibration

_gaps = st.lists(st.floats(min_value=1e-3, max_value=1.0), min_size=1, max_size=5)


@st.composite
def calibrations(draw: st.DrawFn) -> Calibration:
    spec_gaps = draw(_gaps)
    raw_gaps = draw(
        st.lists(
            st.floats(min_value=1e-3, max_value=1.0),
            min_size=len(spec_gaps),
            max_size=len(spec_gaps),
        )
    )
    spec_start = draw(st.floats(min_value=-1.0, max_value=1.0))
    raw_start = draw(st.floats(min_value=-1.0, max_value=1.0))
    spec = list(accumulate(spec_gaps, initial=spec_start))
    raw = list(accumulate(raw_gaps, initial=raw_start))
    return Calibration(anchors=tuple(zip(spec, raw, strict=True)))


values = st.floats(min_value=-3.0, max_value=3.0)


@given(calibrations())
def test_to_raw_returns_anchor_exactly_when_asked_at_an_anchor(cal: Calibration) -> None:
    for spec, raw in cal.anchors:
        assert cal.to_raw(spec) == raw
        assert cal.to_spec(raw) == spec


@given(calibrations(), values)
def test_to_spec_inverts_to_raw_when_value_is_anywhere(cal: Calibration, spec: float) -> None:
    assert cal.to_spec(cal.to_raw(spec)) == pytest.approx(spec, abs=1e-9)


@given(calibrations(), values)
def test_to_raw_inverts_to_spec_when_value_is_anywhere(cal: Calibration, raw: float) -> None:
    assert cal.to_raw(cal.to_spec(raw)) == pytest.approx(raw, abs=1e-9)


@given(calibrations(), values, values)
def test_to_raw_is_monotone_when_values_are_ordered(cal: Calibration, a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert cal.to_raw(lo) <= cal.to_raw(hi)
    assert cal.to_spec(lo) <= cal.to_spec(hi)


@given(calibrations())
def test_to_raw_is_monotone_when_stepping_one_ulp_across_an_anchor(cal: Calibration) -> None:
    for spec, _ in cal.anchors:
        below, above = math.nextafter(spec, -math.inf), math.nextafter(spec, math.inf)
        assert cal.to_raw(below) <= cal.to_raw(spec) <= cal.to_raw(above)


@given(calibrations(), values, values)
def test_to_raw_is_strictly_increasing_when_values_differ_clearly(
    cal: Calibration, a: float, b: float
) -> None:
    lo, hi = sorted((a, b))
    if hi - lo > 1e-6:
        assert cal.to_raw(lo) < cal.to_raw(hi)


def test_to_raw_interpolates_linearly_when_between_anchors() -> None:
    cal = Calibration(anchors=((0.0, 0.2), (0.8, 0.6), (1.0, 1.0)))
    assert cal.to_raw(0.4) == pytest.approx(0.4)
    assert cal.to_raw(0.9) == pytest.approx(0.8)
    assert cal.to_spec(0.8) == pytest.approx(0.9)


def test_to_raw_extends_end_segments_when_outside_the_anchors() -> None:
    cal = Calibration(anchors=((0.0, 0.2), (1.0, 1.0)))
    assert cal.to_raw(-0.5) == pytest.approx(-0.2)
    assert cal.to_raw(1.5) == pytest.approx(1.4)


def test_identity_maps_value_to_itself_when_used() -> None:
    assert IDENTITY.to_raw(0.85) == 0.85
    assert IDENTITY.to_spec(0.3) == pytest.approx(0.3)


def test_calibration_rejects_anchors_when_fewer_than_two() -> None:
    with pytest.raises(ValueError, match="at least two"):
        Calibration(anchors=((0.0, 0.0),))


@pytest.mark.parametrize(
    "anchors",
    [
        ((0.0, 0.5), (0.8, 0.5), (1.0, 1.0)),
        ((0.0, 0.5), (0.0, 0.6), (1.0, 1.0)),
        ((0.0, 0.9), (0.8, 0.7), (1.0, 1.0)),
    ],
)
def test_calibration_rejects_anchors_when_not_increasing(
    anchors: tuple[tuple[float, float], ...],
) -> None:
    with pytest.raises(ValueError, match="increase"):
        Calibration(anchors=anchors)


def test_calibration_rejects_anchors_when_not_finite() -> None:
    with pytest.raises(ValueError, match="finite"):
        Calibration(anchors=((0.0, 0.0), (1.0, math.inf)))


def test_to_raw_rejects_nan_when_given_one() -> None:
    with pytest.raises(ValueError, match="NaN"):
        IDENTITY.to_raw(math.nan)

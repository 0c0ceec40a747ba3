"""Fitting a calibration for a new embedder (pure)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.engine.calibration_fit import (
    CalibrationError,
    dedup_score,
    fit_calibration,
    split_pairs,
)

cosine = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)


@settings(max_examples=100, deadline=None)
@given(
    dup=st.lists(cosine, min_size=3, max_size=30),
    rel=st.lists(cosine, min_size=3, max_size=30),
    unrel=st.lists(cosine, min_size=3, max_size=30),
)
def test_anchors_increase_or_the_embedder_is_refused(
    dup: list[float], rel: list[float], unrel: list[float]
) -> None:
    values = {"duplicate": np.array(dup), "related": np.array(rel), "unrelated": np.array(unrel)}
    try:
        calibration = fit_calibration(values)
    except CalibrationError:
        assert np.median(rel) <= np.median(unrel) + 1e-4 or np.median(rel) >= 1.0 - 1e-4
        return
    spec = [s for s, _ in calibration.anchors]
    raw = [r for _, r in calibration.anchors]
    assert spec == [0.0, 0.8, 0.85, 1.0]
    assert all(a < b for a, b in itertools.pairwise(raw))
    assert calibration.to_raw(0.8) == raw[1] and calibration.to_raw(0.85) == raw[2]


def test_a_separating_embedder_gets_its_threshold_between_the_groups() -> None:
    rng = np.random.default_rng(1)
    values = {
        "duplicate": rng.uniform(0.90, 0.98, 40),
        "related": rng.uniform(0.60, 0.85, 40),
        "unrelated": rng.uniform(0.0, 0.3, 40),
    }
    calibration = fit_calibration(values)
    threshold = calibration.to_raw(0.85)
    assert 0.85 <= threshold < 0.90
    score = dedup_score(values, threshold)
    assert (score.recall, score.false_rate) == (1.0, 0.0)
    assert abs(calibration.to_raw(0.0) - np.median(values["unrelated"])) < 1e-4


def test_too_few_pairs_are_refused_and_the_split_alternates() -> None:
    with pytest.raises(CalibrationError, match="at least 3 related"):
        fit_calibration({"duplicate": np.ones(5), "related": np.ones(2), "unrelated": np.zeros(5)})
    labels = ["d", "d", "r", "d", "r", "r"]
    tune, hold = split_pairs(labels, list(range(6)))
    assert (tune, hold) == ([0, 2, 3, 5], [1, 4])

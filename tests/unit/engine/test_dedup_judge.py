"""Dedup's learned judge: the aligned difference, the feature row, the model and its fit.

None of these sentences is in the dedup sets under ``bench/data``; ``bench/train_dedup.py``
measures the judge there (leave one source out), these tests pin its parts.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import ChangeKind, ValueChange
from omoide.engine.classify.dedup_judge import (
    DEDUP_FEATURES,
    DedupModel,
    changed_parts,
    dedup_features,
    fit_logistic,
)


def row_of(first: str, second: str, **kw: object) -> dict[str, float]:
    args = {"cosine": 0.97, "part_cosine": None, "change": None, **kw}
    return dict(zip(DEDUP_FEATURES, dedup_features(first, second, **args), strict=True))


@pytest.mark.parametrize(
    ("first", "second", "removed", "added"),
    [
        pytest.param(
            "The user drinks green tea.",
            "The user drinks black coffee.",
            "green tea",
            "black coffee",
            id="en-swap",
        ),
        pytest.param(
            "The user rides a bike.",
            "The user rides a bike to work.",
            "",
            "to work",
            id="en-added-clause",
        ),
        pytest.param(
            "ユーザーは毎朝散歩する",
            "ユーザーは毎朝ジョギングする",
            "散歩",
            "ジョギング",
            id="ja-swap",
        ),
        pytest.param("The user has 2 cats.", "The user has 2 cats!", "", "", id="punctuation-only"),
        pytest.param(
            "ユーザーの貯金は8万5千円", "ユーザーの貯金は85,000円", "", "", id="ja-one-notation"
        ),
        pytest.param(
            "The user's uncle is sixty-seven.",
            "The user's uncle is 67.",
            "",
            "",
            id="en-number-words",
        ),
        pytest.param(
            "The one the user likes has four wheels.",
            "The one the user likes has 5 wheels.",
            "4",
            "5",
            id="en-number-word-changed-and-one-left-alone",
        ),
    ],
)
def test_changed_parts(first: str, second: str, removed: str, added: str) -> None:
    assert changed_parts(first, second) == (removed, added)


def test_feature_row_reads_the_difference_and_the_veto() -> None:
    swap = row_of(
        "The user drinks green tea.",
        "The user drinks black coffee.",
        part_cosine=0.4,
        change=ValueChange(ChangeKind.NAME, ("tea",), ("coffee",)),
    )
    assert swap["veto_word"] == 1 and swap["veto_value"] == 0
    assert swap["part_cosine"] == 0.4 and swap["one_sided"] == 0
    assert swap["blocks"] == 0.25 and swap["japanese"] == 0
    added = row_of(
        "The user rides a bike.",
        "The user rides a bike to work.",
        change=ValueChange(ChangeKind.NUMBER, (), ("1",)),
    )
    assert added["only_added"] == 1 and added["only_removed"] == 0 and added["one_sided"] == 1
    assert added["veto_value"] == 1 and added["part_cosine"] == 0
    assert row_of("ユーザーは猫が好き", "ユーザーは犬が好き")["japanese"] == 1
    assert (
        row_of("The user doesn't bake on Sundays.", "The user doesn't bake every Sunday.")["scope"]
        == 1
    )
    assert swap["scope"] == 0


def model(weights: list[float], bias: float = 0.0, threshold: float = 0.5) -> DedupModel:
    n = len(DEDUP_FEATURES)
    return DedupModel(
        "e", "p", DEDUP_FEATURES, np.zeros(n), np.ones(n), np.array(weights), bias, threshold
    )


def test_a_statement_is_a_duplicate_of_itself_whatever_the_weights() -> None:
    against = model([-5.0] * len(DEDUP_FEATURES), bias=-5.0, threshold=0.99)
    text = "The user has been learning the cello since 2019."
    assert against.is_duplicate(
        dedup_features(text, text + " ", cosine=1.0, part_cosine=None, change=None)
    )
    vetoed = dedup_features(
        text,
        text,
        cosine=1.0,
        part_cosine=None,
        change=ValueChange(ChangeKind.NUMBER, ("1",), ("2",)),
    )
    assert not against.is_duplicate(vetoed)


def test_a_pair_in_the_band_meets_the_band_threshold() -> None:
    m = DedupModel(
        "e",
        "p",
        DEDUP_FEATURES,
        np.zeros(len(DEDUP_FEATURES)),
        np.ones(len(DEDUP_FEATURES)),
        np.zeros(len(DEDUP_FEATURES)),
        0.0,
        0.4,
        floor_margin=0.05,
        floor_threshold=0.6,
    )
    row = dedup_features(
        "The user swims.", "The user runs.", cosine=0.9, part_cosine=0.5, change=None
    )  # probability 0.5
    assert m.is_duplicate(row) and not m.is_duplicate(row, in_band=True)


def test_probability_is_the_logistic_of_the_standardised_row() -> None:
    weights = [0.0] * len(DEDUP_FEATURES)
    weights[DEDUP_FEATURES.index("cosine")] = 2.0
    m = model(weights, bias=-1.0)
    x = dedup_features(
        "The user swims.", "The user runs.", cosine=0.9, part_cosine=0.5, change=None
    )
    assert m.probability(x) == pytest.approx(1 / (1 + np.exp(-(2.0 * 0.9 - 1.0))))


def test_a_model_for_other_features_is_refused() -> None:
    n = len(DEDUP_FEATURES)
    stale = DedupModel("e", "p", ("cosine", "gone"), np.zeros(2), np.ones(2), np.zeros(2), 0.0, 0.5)
    with pytest.raises(ValueError, match="retrain"):
        stale.probability(np.zeros(n))


def test_a_model_on_some_features_reads_only_those() -> None:
    own = ("cosine", "notation_cosine")
    m = DedupModel("e", "p", own, np.zeros(2), np.ones(2), np.array([2.0, 3.0]), -1.0, 0.5)
    x = dedup_features(
        "The user swims.",
        "The user runs.",
        cosine=0.9,
        part_cosine=0.5,
        change=None,
        notation_cosine=0.95,
    )
    assert m.probability(x) == pytest.approx(1 / (1 + np.exp(-(2.0 * 0.9 + 3.0 * 0.95 - 1.0))))


def test_the_notation_cosine_is_the_raw_one_when_the_notation_changed_nothing() -> None:
    same = row_of("The user swims.", "The user runs.", cosine=0.9, part_cosine=0.5)
    assert same["notation_cosine"] == 0.9
    read = row_of(
        "The user swims.", "The user runs.", cosine=0.9, part_cosine=0.5, notation_cosine=0.97
    )
    assert read["notation_cosine"] == 0.97 and read["cosine"] == 0.9


def test_model_round_trips_through_its_dict() -> None:
    n = len(DEDUP_FEATURES)
    m = DedupModel(
        "e",
        "p",
        DEDUP_FEATURES,
        np.zeros(n),
        np.ones(n),
        np.full(n, 0.5),
        0.25,
        0.8,
        floor_margin=0.03,
        floor_threshold=0.9,
    )
    back = DedupModel.from_dict(json.loads(json.dumps(m.to_dict())))
    assert back.to_dict() == m.to_dict()
    older = {k: v for k, v in m.to_dict().items() if not k.startswith("floor")}
    assert DedupModel.from_dict(older).floor_margin == 0  # no floor: the threshold gates


def test_the_packaged_models_hold_today_s_features() -> None:
    data = json.loads(
        resources.files("omoide.engine.classify")
        .joinpath("dedup_judge.json")
        .read_text(encoding="utf-8")
    )
    for entry in data["models"]:
        m = DedupModel.from_dict(entry)
        assert m.features == DEDUP_FEATURES
        assert len(m.weights) == len(m.features) == len(m.mean)
        assert 0 < m.threshold < 1 and entry["part_embedder_name"]
        # the floor stays at or above the default threshold's 0.80, evolution's anchor
        assert 0 <= m.floor_margin <= 0.05 and 0 < m.floor_threshold <= 1


@given(st.lists(st.floats(-3, 3), min_size=20, max_size=60))
def test_fit_is_deterministic_and_follows_the_signal(xs: list[float]) -> None:
    x = np.array(xs).reshape(-1, 1)
    y = (x[:, 0] > 0).astype(float)
    if y.min() == y.max():
        return
    first, again = fit_logistic(x, y, 1.0), fit_logistic(x, y, 1.0)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert first[2][0] > 0  # a larger x means a duplicate more often here

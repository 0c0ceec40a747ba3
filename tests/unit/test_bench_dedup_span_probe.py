"""The dedup span probe's pure pieces: aligned views, extra columns, the vectorised judge."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from _train_dedup_choice import fit  # noqa: E402
from _train_dedup_data import DEDUP_FEATURES, Rows  # noqa: E402
from dedup_span_probe import scored, shift_rate, subset, views, with_columns  # noqa: E402
from omoide.engine.classify import DedupModel  # noqa: E402


def test_views_join_each_side_and_the_shared_words() -> None:
    a, b, shared = views("The user walks the dog daily.", "The user walks the cat daily.")
    assert (a, b, shared) == (
        "the user walks the dog daily",
        "the user walks the cat daily",
        "the user walks the daily",
    )
    a, b, shared = views("ユーザーは犬を飼っている。", "ユーザーは猫を飼っている。")
    assert shared == "ユーザーはを飼っている" and a.endswith("犬を飼っている")


def _rows(n: int = 40) -> Rows:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, len(DEDUP_FEATURES)))
    x[:, DEDUP_FEATURES.index("changed_share")] = np.abs(x[:, 0]) + 0.1
    label = (rng.random(n) > 0.5).astype(int)
    return Rows(
        np.array(["s1", "s2"] * (n // 2)),
        np.array(["en"] * n),
        label,
        np.full(n, 0.97),
        np.zeros(n, bool),
        np.zeros(n, bool),
        x,
    )


def test_with_columns_appends_named_columns_and_products() -> None:
    rows = _rows()
    extra = {"use:ctx": np.linspace(0, 1, 40)}
    probe = with_columns(rows, extra, ["use:ctx", "use:ctx*japanese"])
    assert probe.own.shape == (40, len(DEDUP_FEATURES) + 2)
    assert np.allclose(probe.own[:, -2], extra["use:ctx"])
    japanese = rows.x[:, DEDUP_FEATURES.index("japanese")]
    assert np.allclose(probe.own[:, -1], extra["use:ctx"] * japanese)
    assert len(subset(probe, probe.source == "s1").label) == 20


def test_scored_equals_the_engine_judge_without_extra_columns() -> None:
    rows = with_columns(_rows(), {}, [])
    rows.x[0, DEDUP_FEATURES.index("changed_share")] = 0.0  # two texts alike once read
    for name in ("veto_value", "veto_word", "scope"):
        rows.x[0, DEDUP_FEATURES.index(name)] = 0.0
    model = fit(rows, np.ones(40, dtype=bool), 0.0, 10.0)
    engine = DedupModel(
        "", "", DEDUP_FEATURES, model.mean, model.scale, model.weights, model.bias, 0.5
    )
    mask = np.ones(40, dtype=bool)
    p = scored(model, rows, mask)
    assert p[0] == 1.0
    assert np.allclose(p, [engine.probability(row) for row in rows.x])


def test_rate_is_the_log_of_the_move_per_changed_share() -> None:
    rows = _rows(4)
    rows.x[:, DEDUP_FEATURES.index("notation_cosine")] = [0.99, 0.98, 1.0, 0.99]
    rows.x[:, DEDUP_FEATURES.index("changed_share")] = [0.1, 0.1, 0.2, 0.0]
    rate = shift_rate(rows)
    # twice the move for the same share: log 2 more; no move or no share: the floors
    assert np.isclose(rate[1] - rate[0], np.log(2.0))
    assert np.isclose(rate[2], np.log(1e-4 / 0.2))
    assert np.isclose(rate[3], np.log(0.01 / 0.01))
    probe = with_columns(rows, {}, ["rate", "rate*japanese"])
    assert np.allclose(probe.own[:, -2], rate)
    assert np.allclose(probe.own[:, -1], rate * rows.x[:, DEDUP_FEATURES.index("japanese")])

"""Dedup training's threshold rule: per-fold, pooled, and pooled with a cap on every fold."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from _train_dedup_choice import Rule  # noqa: E402


def test_parse_reads_kind_limit_cap_and_margin() -> None:
    assert Rule.parse("fold:0.02") == Rule(0.02, False, 0.0, 0.0)
    assert Rule.parse("pooled:0.025") == Rule(0.025, True, 0.0, 0.0)
    assert Rule.parse("pooled:0.02/0.04") == Rule(0.02, True, 0.0, 0.04)
    assert Rule.parse("pooled:0.02/0.04+0.01") == Rule(0.02, True, 0.01, 0.04)
    assert str(Rule.parse("pooled:0.02/0.04+0.01")) == "pooled:0.02/0.04+0.01"
    assert Rule.parse_each("e5=pooled:0.02/0.04,use=fold:0.02") == {
        "e5": Rule(0.02, True, 0.0, 0.04),
        "use": Rule(0.02, False, 0.0, 0.0),
    }


def test_holds_bounds_each_fold_the_pool_and_the_cap() -> None:
    n_diff = np.array([100, 100, 100])
    one_high = np.array([5.0, 0.0, 0.0])  # 5% on one fold, 1.7% pooled
    assert not Rule.parse("fold:0.02").holds(one_high, n_diff)
    assert Rule.parse("pooled:0.02").holds(one_high, n_diff)
    assert not Rule.parse("pooled:0.02/0.04").holds(one_high, n_diff)
    assert Rule.parse("pooled:0.02/0.05").holds(one_high, n_diff)
    # another limit in place of the rule's own (the floors' 3% check), the cap kept
    assert not Rule.parse("pooled:0.01").holds(one_high, n_diff)
    assert Rule.parse("pooled:0.01").holds(one_high, n_diff, 0.03)
    # a grid of choices at once: the folds are the last axis
    grid = np.array([[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]])
    assert Rule.parse("pooled:0.02").holds(grid, n_diff).tolist() == [True, False]


def test_a_run_for_one_embedder_keeps_the_other_embedders_model(tmp_path: Path) -> None:
    import json

    from train_dedup import kept_models

    judge = tmp_path / "dedup_judge.json"
    old = [{"embedder": "e5", "threshold": 0.7}, {"embedder": "use", "threshold": 0.8}]
    judge.write_text(json.dumps({"models": old}), encoding="utf-8")
    fitted = [{"embedder": "e5", "threshold": 0.6, "sources": ["a", "b"]}]
    assert kept_models(judge, fitted) == [fitted[0], old[1]]
    assert kept_models(tmp_path / "none.json", fitted) == fitted


def _rows(x: np.ndarray, label: np.ndarray, source: np.ndarray):  # type: ignore[no-untyped-def]
    from _train_dedup_data import Rows

    n = len(label)
    return Rows(
        source=source,
        lang=np.array(["en"] * n),
        label=label,
        cosine=np.full(n, 0.99),
        traded=np.zeros(n, dtype=bool),
        vetoed=np.zeros(n, dtype=bool),
        x=x,
    )


def test_probabilities_of_all_rows_at_once_equal_the_models_own() -> None:
    from _train_dedup_choice import probabilities
    from omoide.engine.classify import DEDUP_FEATURES, DedupModel

    rng = np.random.default_rng(3)
    x = rng.random((40, len(DEDUP_FEATURES)))
    for name in ("changed_share", "veto_value", "veto_word", "scope"):
        x[:5, DEDUP_FEATURES.index(name)] = 0.0  # read the same in one notation: probability 1
    rows = _rows(x, rng.integers(0, 2, 40), np.array(["a"] * 40))
    features = DEDUP_FEATURES[:-1]  # a model may leave a feature out
    k = len(features)
    model = DedupModel(
        "e", "p", features, rng.random(k), rng.random(k) + 0.5, rng.normal(size=k), 0.3, 0.5
    )
    mask = np.arange(40) % 3 != 0
    want = [model.probability(x[i]) if mask[i] else 0.0 for i in range(40)]
    assert np.allclose(probabilities(model, rows, mask), want, rtol=0, atol=1e-12)
    assert probabilities(model, rows, mask)[1] == 1.0


def test_grid_counts_count_each_folds_scores_above_every_grid_threshold() -> None:
    from _train_dedup_choice import GRID, _grid_counts

    rng = np.random.default_rng(4)
    n = 60
    p = np.round(rng.random(n), 3)  # some scores exactly on a grid threshold (not above it)
    label = rng.integers(0, 2, n)
    source = np.array(["a", "b", "c"])[np.arange(n) % 3]
    rows = _rows(np.zeros((n, 1)), label, source)
    zone = np.arange(n) % 4 != 0
    caught, dropped = _grid_counts(rows, p, zone, ("a", "b"))
    for k, s in enumerate(("a", "b")):
        fold = zone & (source == s)
        for counts, lab in ((caught, 1), (dropped, 0)):
            want = [int(((p > g) & fold & (label == lab)).sum()) for g in GRID]
            assert counts[:, k].tolist() == want

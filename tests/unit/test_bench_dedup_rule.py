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

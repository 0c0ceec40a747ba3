"""The companion probe (``bench/companion_property.py``): the offline re-rank is the engine's
blend, a per-candidate weight reorders only by the weights it is given, and the sought note's
language follows the query's kind."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import companion_property as probe  # noqa: E402


def _rec() -> dict[str, Any]:
    # fused order 1, 2, 3; the companion prefers 3, then 2, then 1; note 3 is the relevant one
    return {"query": "tea", "head": [[1, 0.9], [2, 0.8], [3, 0.7]],
            "use": {"1": 0.1, "2": 0.5, "3": 0.9}, "e5": {"1": 0.9, "2": 0.8, "3": 0.7},
            "texts": {"1": "green tea", "2": "black tea", "3": "緑茶"},
            "relevant_rows": [3]}


def test_one_weight_is_the_engines_blend() -> None:
    rec = _rec()
    assert probe.reciprocal_rank(rec, lambda _t: 0.0) == 1 / 3
    assert probe.reciprocal_rank(rec, lambda _t: 0.7) == 1.0


def test_a_weight_per_candidate_script() -> None:
    rec = _rec()
    # only the CJK candidate takes the companion's view: it passes note 2 (0.8 > 0.5) but not
    # note 1, which keeps its whole fused score (1.0): the weights no longer share one scale
    assert probe.reciprocal_rank(rec, lambda t: 0.8 if probe.language_of(t) else 0.0) == 0.5
    assert probe.cjk_share(rec) == 1 / 3


def test_properties_and_target_language() -> None:
    props = probe.properties(_rec(), "tea")
    assert props["agree_fused_use"] == -1.0  # opposite orders
    assert props["head_other_script"] == 1 / 3
    assert probe.target_group("お茶", "paraphrase") == "ja target"
    assert probe.target_group("tea", "crosslingual") == "ja target"
    assert probe.target_group("tea", "paraphrase") == "en target"
    assert probe.target_group("tea", "keyword") is None

"""The split-gap probe (``bench/locomo_split_gap.py``): per-category numbers of both splits and
the gap split into what the category mix and what the per-category scores explain."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_split_gap as gap  # noqa: E402


def _row(conv: str, category: int, recall: float, contained: bool) -> dict[str, Any]:
    return {
        "system": "omoide",
        "conversation": conv,
        "category": category,
        "evidence": ["D1:1"],
        "recall": recall,
        "contained": contained,
        "included": 1,
        "top": [{"kind": "note", "dia_ids": ["D1:1"] if recall else ["D2:1"], "chars": 9}],
    }


def test_the_mix_part_and_the_score_part_add_up_to_the_gap() -> None:
    # tuning: 1 multi-hop (0.0) + 3 single-hop (1.0); validation: 3 multi-hop + 1 single-hop,
    # scored as tuning per category: the whole gap is the mix
    rows = (
        [_row("1", 1, 0.0, False)]
        + [_row("1", 4, 1.0, True)] * 3
        + [_row("2", 1, 0.0, False)] * 3
        + [_row("2", 4, 1.0, True)]
    )
    cells = {
        s: gap.split_cells(
            [r for r in rows if r["conversation"] == c], lambda r: int(r["category"])
        )
        for s, c in (("t", "1"), ("v", "2"))
    }
    assert gap.mix_adjusted(cells["t"], cells["v"]) == pytest.approx((0.25, 0.25))
    lines = gap.report(rows, {"1"}, {"2"})
    assert "| …of which the mix (adjusted − tuning) | -0.500 | -0.500 |" in lines
    assert (
        "| …of which the per-category scores (validation − adjusted) | +0.000 | +0.000 |" in lines
    )
    assert "| …of which the finer mix, category × evidence turns | -0.500 | -0.500 |" in lines
    assert gap.where(rows[:2]) == {
        "in budget": 0.5,
        "below it in the first 15": 0.0,
        "beyond the 15th or in none": 0.5,
    }

"""The budget-mix probe (``bench/locomo_budget_mix.py``): only results that fitted the budget
count, per kind, and a question's evidence sessions are counted as reached by any kind."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_budget_mix as budget_mix  # noqa: E402


def _result(kind: str, chars: int, *turns: str) -> dict[str, Any]:
    return {"kind": kind, "dia_ids": list(turns), "chars": chars}


def test_counts_only_what_fitted_by_kind_and_session() -> None:
    rows = [
        {
            "system": "plan:default",
            "category": 1,
            "evidence": ["D1:2", "D3:4"],
            "included": 2,
            "top": str(
                [
                    _result("note", 200, "D1:2"),
                    _result("episode", 600, "D2:1", "D2:2", "D2:3"),
                    _result("note", 100, "D3:4"),
                ]
            ),
        }
    ]  # written as the bench writes it
    sums = budget_mix.mix(rows)[1]
    assert sums["note_results"] == 1 and sums["episode_results"] == 1
    assert sums["note_evidence"] == 1 and sums["episode_evidence"] == 0
    assert sums["episode_chars"] / sums["episode_turns"] == pytest.approx(200)
    assert (sums["evidence_sessions"], sums["evidence_sessions_reached"]) == (2, 1)
    table = budget_mix.report(budget_mix.mix(rows))
    assert table[2].startswith("| multi-hop | 1 | 1.0 | 200 | 1.00 | 5.00 |")

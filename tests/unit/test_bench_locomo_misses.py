"""The LoCoMo miss probe (``bench/locomo_misses.py``): where an evidence turn was ranked, and
which turns a result shows whole (a line cut short does not count)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_misses as misses  # noqa: E402
from lib.metrics import Retrieved, lines_result  # noqa: E402


def test_an_evidence_turn_is_placed_in_the_budget_just_after_it_further_or_nowhere() -> None:
    ranked = [Retrieved("note", "a", (f"D1:{i}",)) for i in range(20)]
    assert misses.where("D1:1", ranked, included=3) == "budget"
    assert misses.where("D1:3", ranked, included=3) == "next15"
    assert misses.where("D1:16", ranked, included=3) == "beyond"
    assert misses.where("D9:9", ranked, included=3) == "none"


def test_a_line_cut_short_is_not_a_turn_shown_whole() -> None:
    excerpt = lines_result(
        "episode",
        ["[2023-05-08]"],
        [("Ann: the whole turn", "D1:1"), ("Bob: the start of a …", "D1:2")],
    )
    assert misses.whole_lines(excerpt) == {"D1:1"}
    assert misses.whole_lines(Retrieved("note", "Ann said so …", ("D1:3",))) == {"D1:3"}

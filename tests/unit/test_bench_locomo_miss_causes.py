"""The LoCoMo miss-cause probe (``bench/locomo_miss_causes.py``): what of a budget is spent on
turns already shown, and the sentence-score blend of ``bench/locomo_sentence_scores.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_miss_causes as causes  # noqa: E402
import locomo_sentence_scores as sentences  # noqa: E402
from lib.metrics import Retrieved, lines_result  # noqa: E402


def test_waste_counts_notes_and_lines_whose_turns_a_result_above_shows() -> None:
    excerpt = lines_result(
        "episode", ["[2024-02-01]"], [("Ann: we moved the piano", "D1:1"), ("Bob: nice", "D1:2")]
    )
    again = Retrieved("note", "Ann moved the piano.", ("D1:1",))
    new = Retrieved("note", "Bob likes jazz.", ("D1:5",))
    bare = Retrieved("note", "Evolved.", ())
    second = lines_result(
        "episode", ["[2024-02-01]"], [("Bob: nice", "D1:2"), ("Ann: thanks", "D1:3")]
    )
    dup, unsourced, lines = causes.waste([excerpt, again, new, bare, second])
    assert dup == len(again.content) + 1
    assert unsourced == len(bare.content) + 1
    assert lines == len("Bob: nice") + 1  # the line and its newline


def test_nothing_is_waste_when_every_result_shows_new_turns() -> None:
    results = [Retrieved("note", "A.", ("D1:1",)), Retrieved("note", "B.", ("D1:2",))]
    assert causes.waste(results) == (0, 0, 0)


def test_maxp_lifts_a_note_by_its_best_sentence_only() -> None:
    assert sentences.maxp(0.4, [0.2, 0.8], 0.5) == pytest.approx(0.6)
    assert sentences.maxp(0.4, [0.1, 0.3], 0.5) == pytest.approx(0.4)  # never lowered
    assert sentences.maxp(0.4, [], 0.5) == 0.4
    assert sentences.maxp(0.4, [0.9], 0.0) == 0.4  # β 0: the search as it is

"""The note-hub probe's pure parts (``bench/locomo_note_hubs.py``): a note's sentences without
its caption and closing date, the rank correlation, and the binned table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_note_hubs as hubs  # noqa: E402


def test_sentences_leave_out_the_caption_and_the_closing_date() -> None:
    note = (
        "Melanie ran a charity race last Saturday (20 May 2023). It was rewarding! "
        "(Melanie shared an image showing a photo of a medal (gold)) (25 May 2023)"
    )
    assert hubs.sentences(note) == [
        "Melanie ran a charity race last Saturday (20 May 2023).",
        "It was rewarding!",
    ]


def test_spearman_is_a_rank_correlation() -> None:
    assert hubs.spearman([1, 2, 3, 4], [10, 20, 30, 400]) == pytest.approx(1.0)
    assert hubs.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)


def test_binned_rows_give_idle_and_useful_places_per_note_and_the_idle_share() -> None:
    notes = [
        {"chars": 100, "idle": 2, "useful": 0},
        {"chars": 120, "idle": 4, "useful": 1},
        {"chars": 400, "idle": 6, "useful": 1},
    ]
    rows = hubs.binned(notes, "chars", (150,))
    assert rows == [
        "| chars (-inf, 150] | 2 | 3.00 | 0.50 | 0.50 |",
        "| chars (150, inf] | 1 | 6.00 | 1.00 | 0.50 |",
    ]

"""The prior probe (``bench/locomo_priors.py``): which days a question names, how a prior
scales, and how lifts re-order notes and turns."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_priors as probe  # noqa: E402
from omoide.engine.fusion import Scored  # noqa: E402
from omoide.model import SearchHit, Source  # noqa: E402


def test_a_question_names_a_day_or_a_month() -> None:
    assert probe.date_span("What did she say on 3 June, 2023?") == (
        date(2023, 6, 3),
        date(2023, 6, 4),
    )
    assert probe.date_span("What painting did she show on October 13, 2023?", pad=1) == (
        date(2023, 10, 12),
        date(2023, 10, 15),
    )
    assert probe.date_span("What class did she start in December 2023?") == (
        date(2023, 12, 1),
        date(2024, 1, 1),
    )
    assert probe.date_span("When did she move?") is None


def test_minmax_scales_to_the_unit_interval() -> None:
    assert probe.minmax(np.array([0.2, 0.4, 0.3])).tolist() == pytest.approx([0.0, 1.0, 0.5])
    assert probe.minmax(np.array([0.3, 0.3])).tolist() == [0.0, 0.0]


def _note(key: str, score: float, turn: int) -> SearchHit:
    return SearchHit(
        type="note",
        id=key,
        content=key,
        score=score,
        similarity=None,
        sources=(Source(turn, None),),
    )


def test_a_lift_reorders_notes_by_their_best_source_turn_and_turns_by_their_own() -> None:
    notes = [_note("a", 0.5, 1), _note("b", 0.45, 2)]
    assert [n.id for n in probe.lifted_notes(notes, {2: 0.1})] == ["b", "a"]
    assert [n.id for n in probe.lifted_notes(notes, {})] == ["a", "b"]
    turns = [Scored(1, 0.5), Scored(2, 0.45)]
    assert [s.id for s in probe.lifted_turns(turns, {2: 0.1})] == [2, 1]

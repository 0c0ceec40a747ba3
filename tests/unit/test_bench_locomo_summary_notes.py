"""The summary-note probe (``bench/locomo_summary_notes.py``): which notes a summary gathers
(per segment, per topic across episodes, per shared word) and what text it carries."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

import locomo_summary_notes as probe  # noqa: E402


def note(
    i: int, content: str, episode: str, speaker: str = "Ann", importance: float = 0.5
) -> probe.Note:
    return probe.Note(i, content, episode, f"2023-05-0{i % 9 + 1}", importance, speaker, (i,))


def args(**kw: object) -> argparse.Namespace:
    base = {"tau": 0.9, "min": 2, "max": 3, "maxdf": 8, "chars": 120, "span": 0, "overlap": 0.5}
    return argparse.Namespace(**{**base, **kw})


def test_a_piece_is_the_first_sentence_with_the_note_date() -> None:
    assert probe.split_date("Ann bakes bread. (8 May 2023)") == ("Ann bakes bread.", "8 May 2023")
    assert (
        probe.first_sentence("Ann bakes bread. It is rye. (8 May 2023)", 120)
        == "Ann bakes bread (8 May 2023)"
    )
    assert probe.first_sentence("Ann bakes bread every single day", 16) == "Ann bakes bread…"
    assert probe.stem("painted") == "paint" and probe.stem("paints") == "paint"
    assert probe.stem("bus") == "bus"


def test_a_shared_word_piece_is_the_sentence_or_the_words_around_it() -> None:
    content = "Ann went out. Ann painted a red barn by the river. (3 June 2023)"
    assert (
        probe.sentence_on(content, "paint", 120, 0)
        == "Ann painted a red barn by the river (3 June 2023)"
    )
    assert probe.sentence_on(content, "paint", 120, 1) == "…Ann painted a… (3 June 2023)"


def test_a_segment_summary_takes_the_most_important_notes_in_order() -> None:
    notes = [
        note(0, "A one.", "1", importance=0.2),
        note(1, "A two.", "1", importance=0.9),
        note(2, "A three.", "1", importance=0.8),
        note(3, "B one.", "2"),
    ]
    groups = probe.segment_groups(notes, args(max=2))
    assert groups == [([1, 2], "A two; A three")]


def test_a_topic_summary_joins_near_notes_of_the_same_speaker_from_other_episodes() -> None:
    notes = [
        note(0, "Ann rows.", "1"),
        note(1, "Ann rows again.", "2"),
        note(2, "Ann rows once more.", "2"),
        note(3, "Bob rows.", "3", speaker="Bob"),
        note(4, "Ann cooks.", "4"),
    ]
    sims = np.full((5, 5), 0.5)
    for i, j in ((0, 1), (0, 2), (0, 3), (1, 2)):
        sims[i, j] = sims[j, i] = 0.95
    groups = probe.topic_groups(notes, sims, args())
    # one note per other episode, never another speaker's; note 1's group is note 0's again
    assert [g for g, _ in groups] == [[0, 1], [2, 0]]
    assert [text for _, text in groups] == [
        "Ann rows; Ann rows again",
        "Ann rows; Ann rows once more",
    ]
    assert probe.topic_groups(notes, sims, args(overlap=0.3)) == groups[:1]


def test_a_word_summary_gathers_one_note_per_episode_that_uses_the_word() -> None:
    notes = [
        note(0, "Ann painted a barn. (1 May 2023)", "1"),
        note(1, "Ann paints boats now. (9 May 2023)", "2"),
        note(2, "Ann painting again. (2 June 2023)", "2"),
        note(3, "Ann swims.", "3"),
    ]
    groups = probe.keyword_groups(notes, args())
    assert groups == [
        ([0, 1], "Ann painted a barn (1 May 2023); Ann paints boats now (9 May 2023)")
    ]

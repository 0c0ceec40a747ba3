"""Round 33's note-sentence probe (``bench/lib/note_sentences.py``): distinctive question words
are the ones few candidate notes hold; a note is trimmed to, or scored by, its sentences that
hold them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # scripts run as `python bench/x.py` import `lib.*`

from lib.note_sentences import distinctive_terms, proximity_hit, trim_hit  # noqa: E402
from omoide.model import SearchHit  # noqa: E402

NOTES = [
    "Ana went hiking on Sunday.",
    "Ana likes tea.",
    "Ana painted a sunset. It hangs in the hall.",
    "Ana adopted a dog.",
]


def _note(content: str, score: float = 0.5) -> SearchHit:
    return SearchHit(type="note", id="k", content=content, score=score, similarity=None)


def test_a_word_most_candidates_hold_is_not_distinctive() -> None:
    terms = distinctive_terms("When did Ana paint the sunset?", NOTES)
    assert "ana" not in terms
    assert {"paint", "sunse"} <= terms  # compared by their first five letters


def test_without_candidates_every_question_word_counts() -> None:
    assert distinctive_terms("Ana's sunset", []) >= {"sunse"}


def test_trim_keeps_the_sentences_with_a_distinctive_word() -> None:
    hit = _note("Ana went out on Sunday. She painted a sunset. It hangs in the hall.")
    terms = {"paint", "sunse"}
    assert trim_hit(hit, terms).content == "She painted a sunset."
    assert trim_hit(hit, terms, keep_first=True).content == (
        "Ana went out on Sunday. She painted a sunset."
    )
    assert trim_hit(hit, terms, keep_next=True).content == (
        "She painted a sunset. It hangs in the hall."
    )


@pytest.mark.parametrize("content", ["She painted a sunset.", "Ana likes tea. She runs."])
def test_one_sentence_or_no_match_is_shown_whole(content: str) -> None:
    assert trim_hit(_note(content), {"paint", "sunse"}).content == content


def test_proximity_lowers_a_note_whose_words_are_apart() -> None:
    terms = {"paint", "sunse"}
    together = proximity_hit(_note("She painted a sunset. It hangs here."), terms, 0.5)
    apart = proximity_hit(_note("She painted. The sunset was red."), terms, 0.5)
    assert together.score == pytest.approx(0.5)
    assert apart.score == pytest.approx(0.5 * (1 - 0.5 * 0.5))

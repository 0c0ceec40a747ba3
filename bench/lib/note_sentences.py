"""A note's sentences against a question's distinctive words (round 33's probe, no production code).

Two levers over a search's notes, measured by ``bench/locomo_budget.py`` (variants ``ntrim``,
``ntrim_first``, ``ntrim_next``, ``nprox:B``):

- **trim**: a note of several sentences is shown by only the sentences that hold a distinctive
  word of the question (optionally also its first sentence, or the sentence after each one
  kept), so more notes fit a context budget;
- **proximity**: a note whose distinctive question words are spread over several sentences is
  scored lower than one that holds them in one sentence (``score × (1 − β × (1 − share))``,
  share = the best sentence's words / the note's words).

A distinctive word is a question word (search stopwords aside, compared by its first five
letters, a crude stem) held by fewer than ``share`` of the question's candidate notes: the
person's name, held by most of them, is not one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from omoide.engine.consolidate import split_sentences
from omoide.engine.lang import query_terms
from omoide.model import SearchHit

__all__ = ["distinctive_terms", "proximity_hit", "trim_hit"]

STEM = 5  # letters a word is compared by


def _stems(text: str) -> set[str]:
    return {word[:STEM] for word in query_terms(text).words}


def distinctive_terms(question: str, notes: Iterable[str], share: float = 0.3) -> set[str]:
    """The question's word stems held by fewer than ``share`` of ``notes`` (all of them when
    there are no notes)."""
    asked = _stems(question)
    bags = [_stems(note) for note in notes]
    if not bags:
        return asked
    return {term for term in asked if sum(term in bag for bag in bags) < share * len(bags)}


def _sentences(text: str, terms: set[str]) -> list[tuple[str, set[str]]]:
    return [(sentence, _stems(sentence) & terms) for sentence in split_sentences(text)]


def trim_hit(
    hit: SearchHit, terms: set[str], *, keep_first: bool = False, keep_next: bool = False
) -> SearchHit:
    """``hit`` shown by its sentences that hold one of ``terms`` (and its first sentence with
    ``keep_first``, the sentence after each one kept with ``keep_next``); the whole hit when it
    has one sentence or none holds a term."""
    parts = _sentences(hit.content, terms)
    if len(parts) < 2 or not any(held for _, held in parts):
        return hit
    kept = [
        sentence
        for i, (sentence, held) in enumerate(parts)
        if held or (keep_first and i == 0) or (keep_next and i > 0 and parts[i - 1][1])
    ]
    return replace(hit, content=" ".join(kept))


def proximity_hit(hit: SearchHit, terms: set[str], beta: float) -> SearchHit:
    """``hit`` with its score × (1 − β × (1 − the share of its held terms its best sentence
    holds)); unchanged with one sentence or no term held."""
    parts = _sentences(hit.content, terms)
    held = set().union(*(found for _, found in parts)) if parts else set()
    if len(parts) < 2 or not held:
        return hit
    share = max(len(found) for _, found in parts) / len(held)
    return replace(hit, score=hit.score * (1.0 - beta * (1.0 - share)))

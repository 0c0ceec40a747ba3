"""Which current memories a new memory is classified against (write path step 4; pure).

The evolution job ranks the persona's current memories by raw cosine with the new one (best
first) and judges only those from the classification band's lower edge up, at most a fixed
number of them (settings ``classify_band_low`` through the embedder's calibration, and
``classify_max_candidates``). The service (``service.evolution``) and the end-to-end benchmark
(``bench/classify_store.py``) both choose through this function, so the benchmark measures the
choice the server makes.

Of the candidates the judge finds contradicted, only the nearest is closed
(:func:`close_order`, :func:`closable`). Measured in a store of every old memory of a labelled
set, closing any candidate judged CONTRADICTORY also closed unrelated memories of the same
domain when the new memory told of a strong change (26 of every 100 new Japanese memories, 4 of
every 100 English ones; `bench/results/classify_store.md`); the nearest alone cut those closes
about fourteen-fold for 2–4 points of recall.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TypeVar

__all__ = ["closable", "close_order", "select_candidates"]

T = TypeVar("T")
K = TypeVar("K")


def select_candidates(
    ranked: Sequence[tuple[T, float]], band: float, cap: int
) -> list[tuple[T, float]]:
    """The first ``cap`` of ``ranked`` (items with their raw cosine, best first) whose cosine
    is at least ``band``: a memory ranked below the cap is never judged, however close.

    >>> select_candidates([("a", 0.95), ("b", 0.9), ("c", 0.8)], band=0.85, cap=5)
    [('a', 0.95), ('b', 0.9)]
    >>> select_candidates([("a", 0.95), ("b", 0.9), ("c", 0.8)], band=0.0, cap=1)
    [('a', 0.95)]
    """
    return [(item, score) for item, score in ranked if score >= band][: max(cap, 0)]


def closable(candidates: Sequence[K], contradicted: Collection[K]) -> list[K]:
    """Which of ``candidates`` (judged, nearest first) a new memory closes: the nearest one,
    when the judge found it contradicted; never one further down. A new memory tells of one
    change, and the memory it changes is its nearest: a farther memory judged contradicted is
    far more often another fact of the same kind ("moved to Sendai" against a memory about a
    gym) than a second fact the same words undo.

    >>> closable(["home", "gym"], {"home", "gym"})
    ['home']
    >>> closable(["home", "gym"], {"gym"})
    []
    """
    return [candidates[0]] if candidates and candidates[0] in contradicted else []


def close_order(ranked: Sequence[tuple[K, float]], contradicted: Collection[K], *,
                same_fact: float) -> list[K]:
    """The judged candidates (with their raw cosine, nearest first) a close may fall on, in
    order: all but those at or above ``same_fact`` (the raw duplicate threshold) that the judge
    did not find contradicted — the same fact said before (a note of the conversation, then
    the user saving it in other words), which is not what the new memory changes.

    >>> close_order([("note", 0.97), ("home", 0.91), ("gym", 0.88)], {"home"}, same_fact=0.95)
    ['home', 'gym']
    """
    return [key for key, score in ranked if score < same_fact or key in contradicted]

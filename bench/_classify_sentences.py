"""The sentence-level reading of a new note of several sentences, for the judge's training.

A new memory of several sentences (a consolidated note: "Jon quit the bakery. Gina's words
keep him going.") is never CONTRADICTORY as a whole (``offline.one_statement``). Read sentence
by sentence instead, each sentence is judged against the old memory as a one-statement memory
would be, and the note closes the old one only when one sentence is CONTRADICTORY with a
probability at or above the sentence threshold (``JudgeModel.sentence_threshold``), chosen on
the notes folds (``SENTENCE_FOLDS``) for CONTRADICTORY precision ≥ the target. A chatty
sentence reads INDEPENDENT or EXTENDABLE and closes nothing.

The threshold needs evidence, not only a clean record: a few calls all right at the top of the
grid (10 of 10, 3 of 3) said nothing about real notes, where the threshold they chose (0.99)
closed 7 of 1,304 LoCoMo notes, every one falsely. So a threshold is taken only where the
lower end of the Wilson 95% interval of the notes folds' pooled precision reaches the target
(``SENTENCE_Z``); until the notes folds hold that many right calls, no threshold is chosen and
the guard stays.

``sentence_rows`` measures every sentence of every several-sentence new memory once (rows of
their own, with the pair's source and label); ``sentence_scores`` turns a fold's predictions of
them into one score per pair (the highest CONTRADICTORY probability of its sentences, a sure
rule counting 1 or 0); ``choose_sentence_threshold`` picks the threshold.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from _classify_common import Pair
from lib.metrics import wilson_lower
from omoide.engine.classify import statements

# where the sentence threshold is chosen
SENTENCE_FOLDS = (
    "notes1",
    "notes2",
    "notes3",
    "notes4",
    "notes5",
    "notes6",
    "notes7",
    "notes8",
    "notes9",
    "notes10",
    "notes11",
    "notes12",
    "notes13",
    "notes14",
    "notes15",
    "notes16",
    "notes17",
    "notes18",
    "notes19",
)
SENTENCE_MIN_CALLS = 5  # a fold's precision counts at a threshold where it makes this many calls
SENTENCE_Z = 1.96  # the pooled precision's Wilson interval (95%) must clear the target


def sentence_pairs(pairs: list[Pair], several: np.ndarray) -> tuple[list[Pair], np.ndarray]:
    """(old, one sentence of the new memory) for every pair whose new memory has several
    sentences, and the index of the pair each comes from."""
    out, parent = [], []
    for i, p in enumerate(pairs):
        if not several[i]:
            continue
        for k, sentence in enumerate(statements(p.new, p.lang)):
            out.append(replace(p, id=f"{p.id}#s{k}", new=sentence))
            parent.append(i)
    return out, np.array(parent, dtype=int)


def sentence_scores(
    n_pairs: int,
    parent: np.ndarray,
    probs: np.ndarray,
    ruled: np.ndarray,
    rule_says: np.ndarray,
    contra: int,
    rows: np.ndarray,
) -> np.ndarray:
    """Per pair, the highest CONTRADICTORY score of its sentences among ``rows`` (a sure rule
    scores 1 when it says CONTRADICTORY, else 0); -1 for a pair without sentence rows."""
    score = np.full(n_pairs, -1.0)
    for k, row in enumerate(rows):
        value = float(rule_says[row] == contra) if ruled[k] else float(probs[k, contra])
        score[parent[row]] = max(score[parent[row]], value)
    return score


def choose_sentence_threshold(
    score: np.ndarray,
    y: np.ndarray,
    sources: np.ndarray,
    contra: int,
    thresholds: tuple[float, ...],
    target: float,
) -> tuple[float, list[dict[str, float]]]:
    """The lowest threshold from which every notes fold's precision of the several-sentence
    pairs' CONTRADICTORY calls stays ≥ ``target`` all the way up (a fold counts where it makes
    SENTENCE_MIN_CALLS calls) and the notes folds' pooled precision is ≥ ``target`` with 95%
    confidence (``wilson_lower``), and the curve over the notes folds together (inf when no
    threshold keeps it)."""
    curve, ok = [], []
    for t in thresholds:
        said = score >= t
        row: dict[str, float] = {"threshold": t}
        worst = 1.0
        pooled = np.isin(sources, SENTENCE_FOLDS) & said
        row["pooled_lower"] = round(
            wilson_lower(int((pooled & (y == contra)).sum()), int(pooled.sum()), SENTENCE_Z), 4
        )
        for fold in SENTENCE_FOLDS:
            part = sources == fold
            calls = int((said & part).sum())
            right = int((said & part & (y == contra)).sum())
            gold = int(((y == contra) & part & (score >= 0)).sum())
            row[f"{fold}_calls"], row[f"{fold}_right"] = calls, right
            row[f"{fold}_gold"] = gold
            if calls >= SENTENCE_MIN_CALLS:
                worst = min(worst, right / calls)
        curve.append(row)
        ok.append(worst >= target and row["pooled_lower"] >= target)
    at = None
    for i in reversed(range(len(thresholds))):
        if not ok[i]:
            break
        at = i
    return (thresholds[at] if at is not None else float("inf")), curve

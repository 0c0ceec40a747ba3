"""One language's rows of the training data (``bench/train_classifier.py --by-language``): a
judge per language is fitted, scored leave-one-source-out and given its thresholds on the pairs
of its own language only.

``language_rows`` keeps every pair of one language with the rows that hang on them: the
sentence rows of its several-sentence new memories (``Data.sentences``, ``parent`` renumbered)
and the extra rows fitted on beside them (distractors of a kept pair; dedup duplicates fitted
on in every fold, of that language).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from _classify_data import Data

LANGUAGES = ("en", "ja")


def _take(data: Data, idx: np.ndarray) -> Data:
    """The rows ``idx`` of ``data``'s per-row fields (sentences and extra rows left as they
    are: ``language_rows`` renumbers them)."""
    return replace(
        data,
        x=data.x[idx],
        blocks=[b[idx] for b in data.blocks],
        y=data.y[idx],
        langs=data.langs[idx],
        sources=data.sources[idx],
        groups=data.groups[idx],
        rules=[data.rules[i] for i in idx],
        rule_says=data.rule_says[idx],
        forced=data.forced[idx],
        several=data.several[idx],
        note=data.note[idx],
    )


def _renumbered(parent: np.ndarray, kept: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows whose ``parent`` is among ``kept`` (of ``size`` pairs) and their parents'
    new numbers; a parent of -1 (a row of every fold) is not among them."""
    number = np.full(size, -1)
    number[kept] = np.arange(len(kept))
    rows = np.flatnonzero((parent >= 0) & (number[np.maximum(parent, 0)] >= 0))
    return rows, number[parent[rows]]


def language_rows(data: Data, lang: str) -> Data:
    """The pairs of language ``lang`` with their sentence rows and extra rows."""
    kept = np.flatnonzero(data.langs == lang)
    out = _take(data, kept)
    if data.sentences is not None and data.parent is not None:
        rows, parent = _renumbered(data.parent, kept, len(data.y))
        out = replace(out, sentences=_take(data.sentences, rows), parent=parent)
    if data.extra is not None and data.extra_parent is not None:
        rows, parent = _renumbered(data.extra_parent, kept, len(data.y))
        every = np.flatnonzero((data.extra_parent < 0) & (data.extra.langs == lang))
        rows = np.concatenate([rows, every])
        parent = np.concatenate([parent, np.full(len(every), -1)])
        order = np.argsort(rows, kind="stable")  # the extra rows keep their order
        assert data.extra_weight is not None
        out = replace(
            out,
            extra=_take(data.extra, rows[order]),
            extra_parent=parent[order],
            extra_weight=data.extra_weight[rows[order]],
        )
    return out

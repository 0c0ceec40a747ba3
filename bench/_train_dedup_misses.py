"""Train dedup (misses): the LOSO misses the judge said no to, by shape and by the feature
that pushed each one down most.

A part of ``bench/train_dedup.py``. A paraphrase above the dedup threshold whose parts did not
trade places reaches the judge; when its left-out probability is below the threshold, the
feature with the most negative contribution (standardised value times weight, in the model
fitted without its source) is the one that pushed it down most. The sets' ``shape`` field
names the paraphrase's kind (the calibration pairs have none).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from _train_dedup_choice import fit
from _train_dedup_data import SOURCES, Rows
from lib.reports import md_table

__all__ = ["misses_by_shape"]


def _pushed_down(rows: Rows, floor: float, l2: float) -> np.ndarray:
    """Per pair, the index of the feature with the most negative contribution in the model
    fitted without the pair's source."""
    out = np.zeros(len(rows.label), dtype=int)
    for source in SOURCES:
        held = rows.source == source
        model = fit(rows, np.isin(rows.source, [s for s in SOURCES if s != source]), floor, l2)
        contribution = (rows.own[held] - model.mean) / model.scale * model.weights
        out[held] = np.argmin(contribution, axis=1)
    return out


def misses_by_shape(
    rows: Rows, shapes: list[str], decided: np.ndarray, raw: float, floor: float, l2: float
) -> list[str]:
    """A markdown table: per shape, the paraphrases, those the judge missed above the dedup
    threshold, and the features that pushed those down most (how many each)."""
    judged = (rows.label == 1) & (rows.cosine > raw) & ~rows.traded
    missed = judged & ~decided
    pushed = _pushed_down(rows, floor, l2)
    shape = np.array(shapes)
    table = []
    order = Counter(shape[missed]).most_common()
    for name, count in order:
        mask = missed & (shape == name)
        features = Counter(rows.features[k] for k in pushed[mask]).most_common(3)
        table.append(
            [
                name,
                str(int(((rows.label == 1) & (shape == name)).sum())),
                str(int((judged & (shape == name)).sum())),
                str(count),
                ", ".join(f"{f} {n}" for f, n in features),
            ]
        )
    features = Counter(rows.features[k] for k in pushed[missed]).most_common()
    table.append(
        [
            "all",
            str(int((rows.label == 1).sum())),
            str(int(judged.sum())),
            str(int(missed.sum())),
            ", ".join(f"{f} {n}" for f, n in features),
        ]
    )
    return [
        "LOSO misses the judge said no to (above the dedup threshold, no traded parts), by "
        "shape, with the feature that pushed each down most:",
        "",
        md_table(
            ["shape", "paraphrases", "reach the judge", "judge said no", "pushed down most by"],
            table,
        ),
        "",
    ]

"""Choices measured beside the learned judge, on the same leave-one-source-out probabilities
(``bench/train_classifier.py``): the EXTENDABLE fallback and the mean of both judges.
"""

from __future__ import annotations

import numpy as np

from _classify_data import CLASSES, CONTRA, Data, folds_of
from _classify_loso import predictions
from _classify_thresholds import choose_thresholds, curve, scores
from omoide.engine.classify import Relation


def fallback_to_extendable(
    probs: np.ndarray, ruled: np.ndarray, data: Data, thresholds: dict[str, float]
) -> np.ndarray:
    """The verdicts when a pair the judge finds most likely CONTRADICTORY, but under the
    threshold, is EXTENDABLE (linked, both kept) instead of the likelier of the other two."""
    pred = predictions(data, probs, ruled, thresholds)
    unsure = (~ruled) & (probs.argmax(axis=1) == CONTRA) & (pred != CONTRA)
    return np.where(unsure, CLASSES.index(Relation.EXTENDABLE), pred)


def alternatives(summaries: dict[str, dict], target: float) -> list[dict[str, object]]:
    """Two choices measured on the same LOSO probabilities as the chosen judges: each judge
    with the EXTENDABLE fallback, and the mean of both judges' probabilities (its thresholds
    chosen as for one judge)."""
    rows = []
    for name, s in summaries.items():
        best, data = s["best"], s["data"]
        pred = fallback_to_extendable(best["probs"], best["ruled"], data, best["threshold"])
        rows.append(_scored(f"{name}, fallback EXTENDABLE", data, pred, best["threshold"]))
    if len(summaries) == 2:
        (a, b) = summaries.values()
        data = a["data"]
        probs = (a["best"]["probs"] + b["best"]["probs"]) / 2
        ruled = a["best"]["ruled"]
        folds = folds_of(data)
        threshold = choose_thresholds(
            {f: curve(data, probs, ruled, data.sources == f) for f in folds}, target
        )
        rows.append(
            _scored(
                "mean of both judges", data, predictions(data, probs, ruled, threshold), threshold
            )
        )
    return rows


def _scored(
    label: str, data: Data, pred: np.ndarray, threshold: dict[str, float]
) -> dict[str, object]:
    by_source = {f: scores(data, pred, data.sources == f) for f in folds_of(data)}
    return {
        "label": label,
        "threshold": threshold,
        "cross": by_source,
        "cross_f1": round(float(np.mean([v["all_f1"] for v in by_source.values()])), 4),
    }

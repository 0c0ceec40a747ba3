"""Fit a :class:`Calibration` for a new embedder from labelled pair cosines (pure).

The anchors follow the bundled embedders' recipe (``embed/calibrations.py``): spec 0.0 ↦ the
median cosine of unrelated pairs, 0.8 ↦ the median of related pairs, 0.85 ↦ the dedup
threshold, 1.0 ↦ 1.0. The dedup threshold maximises F0.5 of "cosine > t means duplicate"
(duplicates against related and unrelated pairs; precision weighs twice, because a false
duplicate drops a memory while a missed one only stores a near-copy), ties to the higher
threshold, and is kept strictly between the related median and 1.

:func:`split_pairs` parts the pairs before fitting (every other pair of each label), so that
``omoide calibrate`` reports the threshold on pairs it was not chosen on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from omoide.engine.calibration import Calibration

__all__ = [
    "LABELS",
    "CalibrationError",
    "DedupScore",
    "dedup_score",
    "fit_calibration",
    "split_pairs",
]


class CalibrationError(ValueError):
    """Cosines from which no calibration can be fitted."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


LABELS = ("duplicate", "related", "unrelated")
SPEC_EVOLUTION = 0.8
SPEC_DEDUP = 0.85
DECIMALS = 4
BETA = 0.5

T = TypeVar("T")


@dataclass(frozen=True)
class DedupScore:
    """What ``cosine > threshold`` does on one set of pairs."""

    threshold: float
    duplicates_caught: int
    duplicates: int
    others_dropped: int  # related or unrelated pairs wrongly called duplicates
    others: int

    @property
    def recall(self) -> float:
        return self.duplicates_caught / self.duplicates if self.duplicates else 0.0

    @property
    def false_rate(self) -> float:
        return self.others_dropped / self.others if self.others else 0.0


def split_pairs(labels: Sequence[str], items: Sequence[T]) -> tuple[list[T], list[T]]:
    """(tuning, validation): alternate pairs of each label, in file order."""
    seen: dict[str, int] = {}
    tune: list[T] = []
    hold: list[T] = []
    for label, item in zip(labels, items, strict=True):
        n = seen.get(label, 0)
        seen[label] = n + 1
        (tune if n % 2 == 0 else hold).append(item)
    return tune, hold


def dedup_score(cosines: dict[str, np.ndarray], threshold: float) -> DedupScore:
    dup = np.asarray(cosines.get("duplicate", ()), dtype=float)
    others = np.concatenate(
        [np.asarray(cosines.get(k, ()), dtype=float) for k in ("related", "unrelated")]
    )
    return DedupScore(
        threshold=threshold,
        duplicates_caught=int((dup > threshold).sum()),
        duplicates=len(dup),
        others_dropped=int((others > threshold).sum()),
        others=len(others),
    )


def fit_calibration(cosines: dict[str, np.ndarray], *, note: str = "") -> Calibration:
    """Anchors from cosines by label; InvalidInput when the embedder does not separate them
    (fewer than 3 pairs of a label, or related pairs not above unrelated ones)."""
    values = {label: np.asarray(cosines.get(label, ()), dtype=float) for label in LABELS}
    for label, found in values.items():
        if len(found) < 3 or not np.isfinite(found).all():
            raise CalibrationError(
                f"calibration needs at least 3 {label} pairs with finite cosines"
            )
    zero = round(float(np.median(values["unrelated"])), DECIMALS)
    related = round(float(np.median(values["related"])), DECIMALS)
    if not zero < related < 1.0:
        raise CalibrationError(
            f"this embedder scores related pairs (median cosine {related:.3f}) no higher than "
            f"unrelated ones ({zero:.3f}); its similarity cannot carry the spec's thresholds"
        )
    dedup = _dedup_threshold(values)
    low, high = related + (1.0 - related) * 0.05, 1.0 - (1.0 - related) * 0.05
    dedup = round(min(max(dedup, low), high), DECIMALS)
    return Calibration(
        anchors=((0.0, zero), (SPEC_EVOLUTION, related), (SPEC_DEDUP, dedup), (1.0, 1.0)), note=note
    )


def _dedup_threshold(values: dict[str, np.ndarray]) -> float:
    dup = values["duplicate"]
    others = np.concatenate([values["related"], values["unrelated"]])
    scores = np.unique(np.concatenate([dup, others]))
    candidates = np.concatenate([(scores[:-1] + scores[1:]) / 2, scores[-1:]])
    caught = (dup[None, :] > candidates[:, None]).sum(axis=1)
    wrong = (others[None, :] > candidates[:, None]).sum(axis=1)
    precision = np.divide(
        caught, caught + wrong, out=np.zeros(len(candidates)), where=(caught + wrong) > 0
    )
    recall = caught / len(dup)
    b2 = BETA * BETA
    denominator = b2 * precision + recall
    f = np.divide(
        (1 + b2) * precision * recall,
        denominator,
        out=np.zeros(len(candidates)),
        where=denominator > 0,
    )
    best = np.flatnonzero(f >= f.max() - 1e-12)[-1]
    return float(candidates[best])

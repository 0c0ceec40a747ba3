"""The learned judge's CONTRADICTORY threshold and scores (``bench/train_classifier.py``).

``curve`` gives a source's CONTRADICTORY precision and recall at each threshold;
``choose_thresholds`` picks one threshold per language from the left-out sources' curves;
``scores`` (macro-F1, C precision / recall) and ``pick_best`` (precision first) rank
configurations.
"""

from __future__ import annotations

import numpy as np

from _classify_data import CLASSES, CONTRA, Data

THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.30, 1.00, 0.01))
# A threshold on a cliff (one step lower, some left-out source's precision falls by more
# than CLIFF under the target) is raised by MARGIN steps: a new writer moves the curve.
CLIFF = 0.05
MARGIN = 2
MIN_CALLS = 10  # a source's precision counts at a threshold where it makes this many C calls


def curve(data: Data, probs: np.ndarray, ruled: np.ndarray, mask: np.ndarray | None = None
          ) -> list[dict[str, float]]:
    """CONTRADICTORY precision and recall of the final verdicts at each threshold, overall and
    per language (a rule that decides counts as it says)."""
    mask = np.ones(len(data.y), dtype=bool) if mask is None else mask
    rows = []
    for t in THRESHOLDS:
        said_all = np.where(ruled, data.rule_says == CONTRA, probs[:, CONTRA] >= t) & (
            ~data.several)
        row: dict[str, float] = {"threshold": t}
        for name, part in [("all", mask)] + [(lang, mask & (data.langs == lang))
                                             for lang in ("en", "ja")]:
            said, gold = said_all & part, (data.y == CONTRA) & part
            row[f"{name}_precision"] = float((said & gold).sum() / said.sum()) if said.any() \
                else 1.0
            row[f"{name}_calls"] = float(said.sum())
            row[f"{name}_recall"] = float((said & gold).sum() / gold.sum()) if gold.any() else 0.0
        rows.append(row)
    return rows


def choose_thresholds(curves: dict[str, list[dict[str, float]]], target: float
                      ) -> dict[str, float]:
    """Per language, the lowest threshold from which its precision ≥ target all the way up,
    in every source's curve (each scored by a model fitted on the other sources), where the
    source still has MIN_CALLS CONTRADICTORY calls (above that the precision of a handful of
    calls is noise); raised by MARGIN steps when it sits on a cliff (one step lower, a source
    falls below target − CLIFF)."""
    chosen = {}
    for lang in ("en", "ja"):
        def worst(i: int, lang: str = lang) -> float:
            return min((rows[i][f"{lang}_precision"] for rows in curves.values()
                        if rows[i][f"{lang}_calls"] >= MIN_CALLS), default=1.0)
        at = len(THRESHOLDS) - 1
        for i in reversed(range(len(THRESHOLDS))):
            if worst(i) < target:
                break
            at = i
        if 0 < at < len(THRESHOLDS) - 1 and worst(at - 1) < target - CLIFF:
            at = min(at + MARGIN, len(THRESHOLDS) - 1)
        chosen[lang] = THRESHOLDS[at]
    return chosen


def scores(data: Data, pred: np.ndarray, mask: np.ndarray) -> dict[str, float]:
    """Macro-F1 and CONTRADICTORY precision / recall on the rows of ``mask``, by language."""
    out: dict[str, float] = {}
    for name, part in [("all", mask)] + [(lang, mask & (data.langs == lang))
                                         for lang in ("en", "ja")]:
        said, gold = (pred == CONTRA) & part, (data.y == CONTRA) & part
        out[f"{name}_f1"] = round(macro_f1(pred[part], data.y[part]), 4)
        out[f"{name}_cp"] = round(float((said & gold).sum() / max(said.sum(), 1)), 4)
        out[f"{name}_cr"] = round(float((said & gold).sum() / max(gold.sum(), 1)), 4)
    return out


def macro_f1(pred: np.ndarray, y: np.ndarray) -> float:
    f1s = []
    for k in range(len(CLASSES)):
        tp = float(((pred == k) & (y == k)).sum())
        p = tp / max((pred == k).sum(), 1)
        r = tp / max((y == k).sum(), 1)
        f1s.append(2 * p * r / (p + r) if p + r else 0.0)
    return float(np.mean(f1s))


def keeps_precision(result: dict[str, object], target: float) -> bool:
    """Whether a configuration's LOSO CONTRADICTORY precision, at its chosen thresholds, is
    at least ``target`` in every left-out source and language."""
    cross = result["cross"]
    assert isinstance(cross, dict)
    return all(s[f"{lang}_cp"] >= target for s in cross.values() for lang in ("en", "ja"))


def pick_best(results: list[dict[str, object]], target: float) -> dict[str, object]:
    """Precision first: a configuration whose chosen thresholds keep the target in every
    left-out source and language beats any that does not; then the higher LOSO macro-F1."""
    return max(results, key=lambda r: (keeps_precision(r, target), r["cross_f1"]))

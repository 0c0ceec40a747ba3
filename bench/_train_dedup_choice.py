"""Train dedup (choices): LOSO scores, the floor and the probability thresholds, nested LOSO.

A part of ``bench/train_dedup.py`` (see its docstring). The thresholds are chosen by a *rule*
(:class:`Rule`): the most paraphrases caught (mean over the folds) whose related-but-different
pairs are wrongly dropped at most ``limit`` on every fold (``per-fold``) or over all the folds'
pairs together (``pooled``, optionally with a ``cap`` on every fold), the probability threshold
then raised by ``margin``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from _train_dedup_data import SOURCES, Rows
from omoide.engine.classify import DEDUP_FEATURES, DedupModel, fit_logistic

MAX_DROPPED = 0.03  # the target: wrongly dropped at most 3% on unseen pairs
GRID = np.round(np.arange(0.05, 0.9951, 0.005), 3)
# a pair with none of these reads the same in one notation: probability 1 (DedupModel.probability)
_SAME = ("changed_share", "veto_value", "veto_word", "scope")


@dataclass(frozen=True)
class Rule:
    """How the thresholds are chosen: wrong drops at most ``limit`` on every fold
    (``pooled`` False) or over all the folds' pairs (True), then with a ``cap`` on every fold
    too (0: none); the threshold above the dedup threshold then raised by ``margin``
    (probability)."""

    limit: float = 0.02
    pooled: bool = False
    margin: float = 0.0
    cap: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Rule:
        """ "fold:0.02", "pooled:0.025", "pooled:0.02/0.04" (a 4% cap on every fold),
        "fold:0.03+0.01"."""
        kind, _, rest = text.partition(":")
        rest, _, margin = rest.partition("+")
        limit, _, cap = rest.partition("/")
        return cls(float(limit), kind == "pooled", float(margin or 0.0), float(cap or 0.0))

    @classmethod
    def parse_each(cls, text: str) -> dict[str, Rule]:
        """ "e5=fold:0.025,use=fold:0.02" (one rule per embedder) or one rule for all (key "")."""
        if "=" not in text:
            return {"": cls.parse(text)}
        pairs = (part.split("=", 1) for part in text.split(",") if part.strip())
        return {name.strip(): cls.parse(rule.strip()) for name, rule in pairs}

    def __str__(self) -> str:
        kind = "pooled" if self.pooled else "fold"
        return (
            f"{kind}:{self.limit:g}"
            + (f"/{self.cap:g}" if self.cap else "")
            + (f"+{self.margin:g}" if self.margin else "")
        )

    def holds(
        self, dropped: np.ndarray, n_diff: np.ndarray, limit: float | None = None
    ) -> np.ndarray:
        """Whether per-fold drop counts (last axis: folds) keep the rule (``limit`` in place
        of the rule's own when given)."""
        bound = self.limit if limit is None else limit
        if self.pooled:
            ok = dropped.sum(axis=-1) / n_diff.sum() <= bound + 1e-12
            if self.cap:
                ok &= (dropped / n_diff <= self.cap + 1e-12).all(axis=-1)
            return ok
        return (dropped / n_diff <= bound + 1e-12).all(axis=-1)


@dataclass(frozen=True)
class Choice:
    margin: float  # the floor, in spec units below the dedup threshold
    floor: float  # raw
    threshold: float  # probability, above the dedup threshold
    floor_threshold: float  # probability, between floor and threshold


def fit(rows: Rows, mask: np.ndarray, floor: float, l2: float) -> DedupModel:
    train = mask & (rows.cosine > floor)
    mean, scale, weights, bias = fit_logistic(rows.own[train], rows.label[train], l2)
    return DedupModel("", "", rows.features, mean, scale, weights, bias, 0.5)


def probabilities(model: DedupModel, rows: Rows, mask: np.ndarray) -> np.ndarray:
    """``model.probability`` of every row in ``mask`` (0 elsewhere), all rows in one product:
    the model's standardised features times its weights, and 1 for a pair that reads the
    same in one notation (no changed share, no veto finding, no scope word)."""
    out = np.zeros(len(rows.label))
    index = np.flatnonzero(mask)
    if not len(index):
        return out
    x = rows.x[index]
    own = x[:, [DEDUP_FEATURES.index(f) for f in model.features]]
    z = ((own - model.mean) / model.scale) @ model.weights + model.bias
    p = 1.0 / (1.0 + np.exp(-z))
    same = ~x[:, [DEDUP_FEATURES.index(f) for f in _SAME]].any(axis=1)
    p[same] = 1.0
    out[index] = p
    return out


def loso(rows: Rows, sources: tuple[str, ...], floor: float, l2: float) -> np.ndarray:
    """Each pair of ``sources`` scored by the model fitted on the other sources (0 below the
    floor and outside ``sources``)."""
    p = np.zeros(len(rows.label))
    for source in sources:
        held = (rows.source == source) & (rows.cosine > floor)
        train = np.isin(rows.source, [s for s in sources if s != source])
        p[held] = probabilities(fit(rows, train, floor, l2), rows, held)[held]
    return p


def decide(rows: Rows, p: np.ndarray, raw: float, choice: Choice) -> np.ndarray:
    high = rows.cosine > raw
    band = (rows.cosine > choice.floor) & ~high & ~rows.vetoed  # below: a value change keeps
    return ~rows.traded & ((high & (p > choice.threshold)) | (band & (p > choice.floor_threshold)))


def rates(decided: np.ndarray, rows: Rows, mask: np.ndarray) -> tuple[float, float]:
    """(paraphrases caught, related-but-different wrongly dropped) within ``mask``."""
    dup, diff = mask & (rows.label == 1), mask & (rows.label == 0)
    return (
        float(decided[dup].mean()) if dup.any() else float("nan"),
        float(decided[diff].mean()) if diff.any() else float("nan"),
    )


def _grid_counts(
    rows: Rows, p: np.ndarray, zone: np.ndarray, sources: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """Per grid threshold and fold: paraphrases caught and different pairs dropped in zone
    (counts)."""
    caught = np.zeros((len(GRID), len(sources)))
    dropped = np.zeros((len(GRID), len(sources)))
    z = zone & ~rows.traded
    for k, source in enumerate(sources):
        fold = z & (rows.source == source)
        for counts, label in ((caught, 1), (dropped, 0)):
            scores = np.sort(p[fold & (rows.label == label)])
            counts[:, k] = len(scores) - np.searchsorted(scores, GRID, side="right")
    return caught, dropped


def _fold_sizes(rows: Rows, sources: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each fold's paraphrases and different pairs (at least 1)."""
    dup = np.array([max(int(((rows.source == s) & (rows.label == 1)).sum()), 1) for s in sources])
    diff = np.array([max(int(((rows.source == s) & (rows.label == 0)).sum()), 1) for s in sources])
    return dup, diff


def choose(
    rows: Rows,
    sources: tuple[str, ...],
    calibration,
    margins: list[float],
    l2: float,
    threshold_setting: float,
    rule: Rule = Rule(),
) -> tuple[Choice, np.ndarray]:
    """The floor and two probability thresholds with the most paraphrases caught (mean over
    folds) whose wrong drops stay within the ``rule``; and its LOSO scores."""
    raw = calibration.to_raw(threshold_setting)
    n_dup, n_diff = _fold_sizes(rows, sources)
    best: tuple[float, Choice, np.ndarray] | None = None
    for margin in margins:
        floor = calibration.to_raw(threshold_setting - margin) if margin else raw
        p = loso(rows, sources, floor, l2)
        high_c, high_d = _grid_counts(rows, p, rows.cosine > raw, sources)
        band = (rows.cosine > floor) & (rows.cosine <= raw) & ~rows.vetoed
        band_c, band_d = _grid_counts(rows, p, band, sources)
        # every (high, band) pair of thresholds at once: shape (grid, grid, folds)
        dropped = high_d[:, None, :] + band_d[None, :, :]
        caught = ((high_c[:, None, :] + band_c[None, :, :]) / n_dup).mean(axis=2)
        ok = rule.holds(dropped, n_diff)
        if not margin:
            ok &= np.arange(len(GRID))[None, :] == len(GRID) - 1  # no band: one threshold
        score = np.where(ok, caught, -1.0)
        i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        value = float(score[i, j])
        if best is None or value > best[0] + 1e-12:
            threshold = min(float(GRID[i]) + rule.margin, 0.995)
            best = (
                value,
                Choice(margin, floor, round(threshold, 3), float(GRID[j]) if margin else 1.0),
                p,
            )
    assert best is not None
    return best[1], best[2]


def nested(
    rows: Rows, calibration, margins: list[float], l2: float, setting: float, rule: Rule
) -> tuple[np.ndarray, dict[str, Choice]]:
    """Each left-out source decided with the choice made on the other sources' inner LOSO
    scores and the model fitted on them."""
    raw = calibration.to_raw(setting)
    decided = np.zeros(len(rows.label), dtype=bool)
    choices = {}
    for source in SOURCES:
        inner = tuple(s for s in SOURCES if s != source)
        choice, _ = choose(rows, inner, calibration, margins, l2, setting, rule)
        choices[source] = choice
        held = rows.source == source
        model = fit(rows, np.isin(rows.source, inner), choice.floor, l2)
        p = probabilities(model, rows, held & (rows.cosine > choice.floor))
        decided[held] = decide(rows, p, raw, choice)[held]
    return decided, choices


def safe_margins(
    rows: Rows, calibration, margins: list[float], l2: float, setting: float, rule: Rule
) -> list[float]:
    """The floors whose nested LOSO (each fold's thresholds chosen without it) keeps wrong drops
    at most MAX_DROPPED the rule's way (on every fold; pooled, and every fold within the cap):
    a floor that only LOSO vouches for is not kept (0, no floor, always is)."""
    kept = [0.0]
    _, n_diff = _fold_sizes(rows, SOURCES)
    for margin in margins:
        if margin:
            decided, _ = nested(rows, calibration, [margin], l2, setting, rule)
            dropped = np.array(
                [(decided & (rows.source == s) & (rows.label == 0)).sum() for s in SOURCES],
                dtype=float,
            )
            if rule.holds(dropped, n_diff, MAX_DROPPED):
                kept.append(margin)
    return kept

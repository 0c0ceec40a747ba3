"""The labelled pairs, result types and statistics behind ``bench/calibrate.py`` (which see)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np

from omoide.embed import Embedder
from omoide.engine.calibration import Calibration
from omoide.engine.classify import find_value_change

SPEC_DEDUP = 0.85
SPEC_EVOLUTION = 0.8
LANGS = ("en", "ja", "cross")
CONSTANT_NAMES = {"use": "USE_CALIBRATION", "e5": "E5_CALIBRATION"}
BOOTSTRAP_ROUNDS = 1000
ANCHOR_DECIMALS = 4


class Label(StrEnum):
    DUPLICATE = "duplicate"
    RELATED = "related"
    UNRELATED = "unrelated"


class Objective(StrEnum):
    """What the dedup threshold maximises, duplicate vs related pairs."""

    BALANCED = "balanced"  # mean of duplicate recall and related specificity
    F1 = "f1"
    F05 = "f0.5"  # weighs precision twice: a false duplicate drops a memory


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    label: Label
    lang: str


@dataclass(frozen=True)
class Distribution:
    n: int
    min: float
    p10: float
    median: float
    p90: float
    max: float


@dataclass(frozen=True)
class DedupOutcome:
    """What ``cosine > threshold → duplicate`` does on a set of pairs."""

    threshold: float
    precision: float | None
    recall: float | None
    balanced_accuracy: float | None
    duplicates_caught: int
    duplicates: int
    related_flagged: int
    related: int
    unrelated_flagged: int
    unrelated: int


@dataclass(frozen=True)
class BandShare:
    """Share of each label whose cosine lands in the evolution band [low, high]."""

    low: float
    high: float
    duplicate: float
    related: float
    unrelated: float


@dataclass(frozen=True)
class ScoredPair:
    cosine: float
    a: str
    b: str
    lang: str


@dataclass(frozen=True)
class EmbedderReport:
    name: str
    model_id: str
    note: str
    seconds: float
    anchors: tuple[tuple[float, float], ...]
    anchor_notes: tuple[str, ...]
    objective: str
    by_objective: dict[str, dict[str, DedupOutcome]]
    dedup_threshold_interval: tuple[float, float]
    distributions: dict[str, dict[str, Distribution]]
    calibrated: dict[str, DedupOutcome]
    uncalibrated: dict[str, DedupOutcome]
    calibrated_band: BandShare
    uncalibrated_band: BandShare
    missed_duplicates: tuple[ScoredPair, ...]
    flagged_related: tuple[ScoredPair, ...]
    dedup_choice: DedupChoice | None = None


@dataclass(frozen=True)
class DedupChoice:
    """The dedup anchor chosen on the dedup set's train split, with the value-change veto."""

    threshold: float
    max_false_rate: float
    pairs: int
    recall: float
    false_rate: float


def dedup_anchor_with_veto(
    embedder: Embedder, rows: list[dict], calibration: list[Pair], max_false_rate: float
) -> DedupChoice:
    """Highest-recall threshold of "cosine > t and no value change" within the false-rate
    budget, on the ``train`` rows of a dedup set (labels ``duplicate`` / ``different``) pooled
    with the calibration pairs (``related`` and ``unrelated`` count as different)."""
    train = [(r["a"], r["b"], r["label"] == "duplicate") for r in rows if r["split"] == "train"]
    train += [(p.a, p.b, p.label is Label.DUPLICATE) for p in calibration]
    pairs = [Pair(a=a, b=b, label=Label.RELATED, lang="en") for a, b, _ in train]
    scores = pair_cosines(embedder, pairs)
    kept = np.array([find_value_change(a, b) is None for a, b, _ in train])
    duplicate = np.array([is_duplicate for _, _, is_duplicate in train])
    values = np.unique(scores)
    candidates = np.concatenate([(values[:-1] + values[1:]) / 2, [values[-1]]])
    flagged = (scores[None, :] > candidates[:, None]) & kept[None, :]
    recall = (flagged & duplicate).sum(axis=1) / duplicate.sum()
    false_rate = (flagged & ~duplicate).sum(axis=1) / (~duplicate).sum()
    feasible = false_rate <= max_false_rate + 1e-12
    best = np.flatnonzero(feasible & (recall >= recall[feasible].max() - 1e-12))[-1]
    return DedupChoice(
        threshold=round(float(candidates[best]), ANCHOR_DECIMALS),
        max_false_rate=max_false_rate,
        pairs=len(train),
        recall=round(float(recall[best]), 3),
        false_rate=round(float(false_rate[best]), 3),
    )


def load_pairs(path: Path) -> list[Pair]:
    """Read the labelled pairs; a malformed line stops the run with its line number."""
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            pair = Pair(a=row["a"], b=row["b"], label=Label(row["label"]), lang=row["lang"])
        except (ValueError, KeyError) as exc:
            raise SystemExit(f"{path}:{number}: bad pair ({exc})") from exc
        if pair.lang not in LANGS:
            raise SystemExit(f"{path}:{number}: lang must be one of {', '.join(LANGS)}")
        pairs.append(pair)
    return pairs


def pair_cosines(embedder: Embedder, pairs: list[Pair]) -> np.ndarray:
    """Cosine of each pair, with every distinct text embedded once as a passage."""
    texts = sorted({text for pair in pairs for text in (pair.a, pair.b)})
    index = {text: i for i, text in enumerate(texts)}
    vectors = embedder.embed_passages(texts)
    a = vectors[[index[pair.a] for pair in pairs]]
    b = vectors[[index[pair.b] for pair in pairs]]
    return np.einsum("ij,ij->i", a, b).astype(np.float64)


def describe(scores: np.ndarray) -> Distribution:
    return Distribution(
        n=len(scores),
        min=round(float(scores.min()), 4),
        p10=round(float(np.quantile(scores, 0.1)), 4),
        median=round(float(np.median(scores)), 4),
        p90=round(float(np.quantile(scores, 0.9)), 4),
        max=round(float(scores.max()), 4),
    )


def best_dedup_threshold(
    duplicate: np.ndarray, related: np.ndarray, objective: Objective = Objective.BALANCED
) -> float:
    """Midpoint between adjacent scores that maximises ``objective``; highest on a tie."""
    values = np.unique(np.concatenate([duplicate, related]))
    candidates = np.concatenate([(values[:-1] + values[1:]) / 2, [values[-1]]])
    caught = (duplicate[None, :] > candidates[:, None]).sum(axis=1)
    false = (related[None, :] > candidates[:, None]).sum(axis=1)
    recall = caught / len(duplicate)
    if objective is Objective.BALANCED:
        score = (recall + 1 - false / len(related)) / 2
    else:
        beta2 = 1.0 if objective is Objective.F1 else 0.25
        precision = np.divide(caught, caught + false, out=np.zeros(len(caught)), where=caught > 0)
        denominator = beta2 * precision + recall
        score = np.divide(
            (1 + beta2) * precision * recall,
            denominator,
            out=np.zeros(len(caught)),
            where=denominator > 0,
        )
    best = np.flatnonzero(score >= score.max() - 1e-12)
    return float(candidates[best[-1]])


def bootstrap_interval(
    duplicate: np.ndarray, related: np.ndarray, objective: Objective
) -> tuple[float, float]:
    """5th-95th percentile of the dedup threshold over resampled pair sets (seeded)."""
    rng = np.random.default_rng(0)
    found = [
        best_dedup_threshold(
            rng.choice(duplicate, size=len(duplicate)),
            rng.choice(related, size=len(related)),
            objective,
        )
        for _ in range(BOOTSTRAP_ROUNDS)
    ]
    return round(float(np.quantile(found, 0.05)), 4), round(float(np.quantile(found, 0.95)), 4)


def derive_anchors(
    scores: np.ndarray,
    labels: np.ndarray,
    evolution_quantile: float,
    objective: Objective,
    choice: DedupChoice | None = None,
) -> tuple[tuple[tuple[float, float], ...], tuple[str, ...]]:
    """The four anchors, rounded as they will be shipped, and how each was chosen."""
    duplicate, related = scores[labels == Label.DUPLICATE], scores[labels == Label.RELATED]
    zero = round(float(np.median(scores[labels == Label.UNRELATED])), ANCHOR_DECIMALS)
    dedup = round(best_dedup_threshold(duplicate, related, objective), ANCHOR_DECIMALS)
    dedup_note = f"best {objective.value} score, duplicate vs related"
    if choice is not None:
        dedup = choice.threshold
        dedup_note = (
            f"{choice.pairs} pairs (dedup set train split + these), with the value-change "
            f"veto: recall {choice.recall:.3f}, "
            f"false duplicates {choice.false_rate:.3f} (budget {choice.max_false_rate:.3f})"
        )
    evolution = round(float(np.quantile(related, evolution_quantile)), ANCHOR_DECIMALS)
    notes = [
        "median unrelated pair",
        f"related pairs' {evolution_quantile:.2f} quantile",
        dedup_note,
        "identical text",
    ]
    if not zero < evolution < dedup:
        # The related quantile fell outside the gap: fall back to the spec's own spacing.
        evolution = round(zero + (dedup - zero) * SPEC_EVOLUTION / SPEC_DEDUP, ANCHOR_DECIMALS)
        notes[1] = "related quantile out of range; linear between the 0.0 and 0.85 anchors"
    anchors = ((0.0, zero), (SPEC_EVOLUTION, evolution), (SPEC_DEDUP, dedup), (1.0, 1.0))
    Calibration(anchors=anchors)  # refuses anchors that are not increasing
    return anchors, tuple(notes)


def dedup_outcome(threshold: float, scores: np.ndarray, labels: np.ndarray) -> DedupOutcome:
    flagged = scores > threshold
    counts = {label: int((labels == label).sum()) for label in Label}
    hits = {label: int((flagged & (labels == label)).sum()) for label in Label}
    n_flagged = int(flagged.sum())
    recall = _share(hits[Label.DUPLICATE], counts[Label.DUPLICATE])
    flagged_related = _share(hits[Label.RELATED], counts[Label.RELATED])
    balanced = None
    if recall is not None and flagged_related is not None:
        balanced = (recall + 1 - flagged_related) / 2
    return DedupOutcome(
        threshold=threshold,
        precision=_rounded(hits[Label.DUPLICATE] / n_flagged if n_flagged else None),
        recall=_rounded(recall),
        balanced_accuracy=_rounded(balanced),
        duplicates_caught=hits[Label.DUPLICATE],
        duplicates=counts[Label.DUPLICATE],
        related_flagged=hits[Label.RELATED],
        related=counts[Label.RELATED],
        unrelated_flagged=hits[Label.UNRELATED],
        unrelated=counts[Label.UNRELATED],
    )


def band_share(low: float, high: float, scores: np.ndarray, labels: np.ndarray) -> BandShare:
    inside = (scores >= low) & (scores <= high)
    share = {label: round(float(inside[labels == label].mean()), 3) for label in Label}
    return BandShare(
        low=low,
        high=high,
        duplicate=share[Label.DUPLICATE],
        related=share[Label.RELATED],
        unrelated=share[Label.UNRELATED],
    )


def by_lang(
    threshold: float, scores: np.ndarray, labels: np.ndarray, langs: np.ndarray
) -> dict[str, DedupOutcome]:
    outcomes = {"all": dedup_outcome(threshold, scores, labels)}
    for lang in LANGS:
        mask = langs == lang
        outcomes[lang] = dedup_outcome(threshold, scores[mask], labels[mask])
    return outcomes


def distributions(
    scores: np.ndarray, labels: np.ndarray, langs: np.ndarray
) -> dict[str, dict[str, Distribution]]:
    table: dict[str, dict[str, Distribution]] = {}
    for label in Label:
        row = {"all": describe(scores[labels == label])}
        for lang in LANGS:
            mask = (labels == label) & (langs == lang)
            if mask.any():
                row[lang] = describe(scores[mask])
        table[label.value] = row
    return table


def errors_at(
    threshold: float, scores: np.ndarray, pairs: list[Pair], label: Label, flagged: bool
) -> tuple[ScoredPair, ...]:
    """Pairs of ``label`` on the wrong side of the threshold, the worst first."""
    wrong = [
        ScoredPair(round(float(score), 4), pair.a, pair.b, pair.lang)
        for score, pair in zip(scores, pairs, strict=True)
        if pair.label == label and (score > threshold) == flagged
    ]
    return tuple(sorted(wrong, key=lambda p: p.cosine, reverse=flagged))


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)

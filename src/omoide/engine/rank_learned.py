"""Learned ranking of one tier's candidates: a logistic model over general features (pure).

The hand-set fusion (``engine.fusion``) combines the keyword and vector lists with one weight
each. A :class:`LinearRanker` instead scores every candidate of the two lists by a dot product
over features both lists already carry — no text, no extra reads:

- ``kw_coverage``: the keyword score (the matched share of the query's BM25 weight), 0 when absent;
- ``kw_present`` / ``kw_rank``: whether the keyword side found it, and 1 / (1 + log2 rank) there;
- ``sem_cosine``: the vector side's cosine (language-centred), the list's lowest when absent;
- ``sem_minmax``: that cosine min-max normalised within the query's list, 0 when absent;
- ``sem_present`` / ``sem_rank``: as for the keyword side;
- ``sem_gap``: how far below the list's best cosine it is (0 for the best);
- ``length``: its text's length in hundreds of estimated tokens (capped at 5), where the tier
  has read the text anyway (conversation turns; 0 for notes);
- ``cited``: for a turn, 1 / (1 + log2 r) for the best-ranked note r above that stands for it
  (it is one of the note's source turns), else 0.

The score is the logistic of the dot product: an estimate that the candidate holds what the
question asks for, so note and excerpt scores mean the same and merge by score. When the keyword
side is gated off (the query and its best vector hit are in different scripts), keyword features
read as absent. The weights are fitted by ``bench/locomo_rank.py`` and live in
``engine.rank_weights``; a model names the embedder it was fitted with, and callers use it only
with that embedder. No I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from omoide.engine.errors import ParameterError
from omoide.engine.fusion import Scored

__all__ = ["FEATURES", "LinearRanker", "RankModel", "candidate_features", "cited_feature",
           "learned_rank", "learned_scores", "length_feature"]

FEATURES = ("kw_coverage", "kw_present", "kw_rank", "sem_cosine", "sem_minmax", "sem_present",
            "sem_rank", "sem_gap", "length", "cited", "turn_rank", "turn_score")
_EXTRA = FEATURES[8:]  # given by the tier, per candidate (0 when not given)


@dataclass(frozen=True)
class LinearRanker:
    """score = logistic(bias + Σ weights[f] × feature f); features by name, any subset."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float

    def __post_init__(self) -> None:
        if len(self.features) != len(self.weights):
            raise ParameterError("one weight per feature")
        unknown = set(self.features) - set(FEATURES)
        if unknown:
            raise ParameterError(f"unknown ranking features: {', '.join(sorted(unknown))}")
        if not all(math.isfinite(w) for w in (*self.weights, self.bias)):
            raise ParameterError("ranking weights must be finite")


@dataclass(frozen=True)
class RankModel:
    """One ranker per tier name (``note``, ``turn``), fitted with the embedder ``embedder``."""

    embedder: str
    tiers: tuple[tuple[str, LinearRanker], ...]

    def for_tier(self, tier: str, embedder: str) -> LinearRanker | None:
        if embedder != self.embedder:
            return None
        return dict(self.tiers).get(tier)


def length_feature(chars: int) -> float:
    """``length``: estimated tokens (characters / 4) in hundreds, capped at 5."""
    return min(chars / 400.0, 5.0)


def cited_feature(note_rank: int) -> float:
    """``cited``: by the note at ``note_rank`` (from 1)."""
    return _rank_feature(note_rank)


def _rank_feature(rank: int) -> float:
    return 1.0 / (1.0 + math.log2(rank))


def _best(items: Sequence[Scored]) -> dict[int, tuple[int, float]]:
    """id → (rank from 1, score), each id at its best score, best first."""
    ordered = sorted(items, key=lambda s: (-s.score, s.id))
    out: dict[int, tuple[int, float]] = {}
    for item in ordered:
        if item.id not in out:
            out[item.id] = (len(out) + 1, item.score)
    return out


def candidate_features(keyword: Sequence[Scored], semantic: Sequence[Scored], *,
                       keyword_gated: bool = False,
                       extra: Mapping[str, Mapping[int, float]] | None = None
                       ) -> tuple[list[int], np.ndarray]:
    """The candidates (ids, sorted) and their feature rows (columns in ``FEATURES`` order);
    ``extra`` gives the tier's own features (``length``, ``cited``) by candidate id."""
    kw = _best(keyword)
    sem = _best(semantic)
    ids = sorted(kw.keys() | sem.keys())
    if keyword_gated:
        kw = {}
    rows = np.zeros((len(ids), len(FEATURES)), dtype=np.float64)
    if not ids:
        return ids, rows
    cosines = [score for _, score in sem.values()]
    high = max(cosines, default=0.0)
    low = min(cosines, default=0.0)
    span = high - low
    for row, item in enumerate(ids):
        if item in kw:
            rank, score = kw[item]
            rows[row, 0:3] = (min(max(score, 0.0), 1.0), 1.0, _rank_feature(rank))
        if item in sem:
            rank, score = sem[item]
            rows[row, 3:8] = (score, (score - low) / span if span > 0 else 1.0, 1.0,
                              _rank_feature(rank), high - score)
        else:
            rows[row, 3] = low
            rows[row, 7] = span
    for name, values in (extra or {}).items():
        if name not in _EXTRA:
            raise ParameterError(f"{name!r} is not a tier feature")
        column = FEATURES.index(name)
        for row, item in enumerate(ids):
            rows[row, column] = values.get(item, 0.0)
    return ids, rows


def learned_scores(keyword: Sequence[Scored], semantic: Sequence[Scored],
                   ranker: LinearRanker, *, keyword_gated: bool = False,
                   extra: Mapping[str, Mapping[int, float]] | None = None) -> list[Scored]:
    """The candidates of both lists scored by ``ranker`` (in (0, 1)), best first (ties by id)."""
    ids, rows = candidate_features(keyword, semantic, keyword_gated=keyword_gated, extra=extra)
    if not ids:
        return []
    column = {name: i for i, name in enumerate(FEATURES)}
    weights = np.zeros(len(FEATURES))
    for name, weight in zip(ranker.features, ranker.weights, strict=True):
        weights[column[name]] = weight
    logits = rows @ weights + ranker.bias
    scores = 1.0 / (1.0 + np.exp(-np.clip(logits, -40.0, 40.0)))
    return sorted((Scored(i, float(s)) for i, s in zip(ids, scores, strict=True)),
                  key=lambda s: (-s.score, s.id))


def learned_rank(keyword: Sequence[Scored], semantic: Sequence[Scored], fused: Sequence[Scored],
                 ranker: LinearRanker, *, keyword_gated: bool = False,
                 extra: Mapping[str, Mapping[int, float]] | None = None) -> list[Scored]:
    """The candidates in ``ranker``'s order, carrying ``fused``'s scores in rank order: the
    n-th candidate gets the n-th best fused score. The model decides the order within the
    tier; the fused scores' spread — what places a tier's results among the other tier's — is
    the fusion's, as without a model."""
    order = learned_scores(keyword, semantic, ranker, keyword_gated=keyword_gated, extra=extra)
    values = sorted((s.score for s in fused), reverse=True)
    if len(values) != len(order):
        raise ParameterError("the fused list must hold the candidates of both lists")
    return [Scored(item.id, value) for item, value in zip(order, values, strict=True)]


def model_from(data: Mapping[str, object]) -> RankModel:
    """A :class:`RankModel` from its plain form (``engine.rank_weights.MODEL``)."""
    tiers = data["tiers"]
    if not isinstance(tiers, Mapping):
        raise ParameterError("a rank model's tiers must be a mapping")
    built = []
    for name, spec in sorted(tiers.items()):
        built.append((str(name), LinearRanker(features=tuple(spec["features"]),
                                              weights=tuple(float(w) for w in spec["weights"]),
                                              bias=float(spec["bias"]))))
    return RankModel(embedder=str(data["embedder"]), tiers=tuple(built))

"""Fuse keyword and semantic candidate lists into one ranking, and blend in memory strength (pure).

Methods (chosen by ``bench/search_study.py``; see ``bench/results/embedder_comparison.md``):

- ``rrf``: weighted reciprocal rank fusion, Σ wᵢ / (k + rankᵢ). Uses ranks only, so it needs no
  calibration between BM25 and cosine, but it throws away how far ahead the leader is.
- ``minmax``: each list's scores min-max normalised to [0, 1] within the query (an item missing
  from a list gets 0 there), then a weighted sum. Keeps score gaps: a lone exact keyword hit
  far above the rest stays on top.
- ``zscore``: each list's scores as z-scores within the query, then a weighted sum; an item
  missing from a list counts as that list's average (z = 0): falling outside one side's pool is
  weak evidence, and punishing it as the list's worst lets a confident one-sided outlier (an
  English keyword hit for a question whose answer is written in Japanese) win too easily. The
  weighted mean z goes through the logistic function, so scores lie in (0, 1) like the others.
- ``convex``: the keyword scores taken as they are, clipped to [0, 1] — ``fts.search`` returns
  *coverage*, the matched share of the query's BM25 weight, which means the same in every query —
  plus min-max normalised semantic scores. A list of weak keyword hits (only the user's name
  matched) then stays weak instead of being stretched to 1 as ``minmax`` would.

The default is ``convex``. ``zscore`` was the default until the search study was repeated through
the whole pipeline (language-centred vectors, excerpts ranked beside notes): with e5, convex
raised LoCoMo evidence recall within 1,000 tokens on the tuning conversations 26, 30 and 41 from
0.838 to 0.850 (containment 0.470 → 0.472) and retrieval_ja hybrid MRR from 0.831 to 0.838 (USE:
0.890 → 0.904); see ``bench/results/locomo_variants.md``. z-scores stretch whatever the keyword
side found to the same spread in every query, so a list of weak matches (common words of a long
question) weighs as much as a list with an exact match; coverage does not. Ties are broken by id,
so the result never depends on input order. Scores here are for ranking only; thresholds such as
dedup use raw cosine (DESIGN principle 4). No I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from omoide.engine.errors import ParameterError

__all__ = [
    "DEFAULT_METHOD",
    "DEFAULT_WEIGHTS",
    "FusionMethod",
    "FusionWeights",
    "Scale",
    "Scored",
    "blend_strength",
    "credit_cross_script",
    "fuse",
    "gate_keyword",
    "lift_successors",
    "rrf",
    "shared_scale",
]


# (low, high) to min-max normalise semantic scores over; a low of None: the list's own lowest
Scale = tuple[float | None, float]


@dataclass(frozen=True)
class Scored:
    id: int
    score: float


class FusionMethod(StrEnum):
    RRF = "rrf"
    MINMAX = "minmax"
    ZSCORE = "zscore"
    CONVEX = "convex"


@dataclass(frozen=True)
class FusionWeights:
    """Relative weight of each list; ``k`` is RRF's rank offset (unused by score methods).

    The defaults are the study's pick for USE with ``zscore``; the persona settings (e5, the
    default embedder) are keyword 0.4 / semantic 0.6 (``bench/results/embedder_comparison.md``).
    """

    keyword: float = 0.5
    semantic: float = 0.5
    k: float = 60.0

    def __post_init__(self) -> None:
        if self.keyword < 0 or self.semantic < 0 or self.keyword + self.semantic == 0:
            raise ParameterError("fusion weights must be non-negative and not both zero")
        if self.k < 0:
            raise ParameterError("RRF k must be non-negative")


DEFAULT_WEIGHTS = FusionWeights()
DEFAULT_METHOD = FusionMethod.CONVEX


def _ranked(totals: dict[int, float]) -> list[Scored]:
    return [Scored(i, s) for i, s in sorted(totals.items(), key=lambda item: (-item[1], item[0]))]


def rrf(
    ranked_lists: Sequence[Sequence[int]], weights: Sequence[float], *, k: float = 60.0
) -> list[Scored]:
    """Weighted reciprocal rank fusion of id lists (best first); an id repeated within one list
    counts at its best rank."""
    if len(ranked_lists) != len(weights):
        raise ParameterError("one weight per ranked list")
    totals: dict[int, float] = {}
    for ids, weight in zip(ranked_lists, weights, strict=True):
        seen: set[int] = set()
        for rank, item in enumerate(ids, start=1):
            if item in seen:
                continue
            seen.add(item)
            totals[item] = totals.get(item, 0.0) + weight / (k + rank)
    return _ranked(totals)


def _by_score(items: Sequence[Scored]) -> list[Scored]:
    """Best first, one entry per id (its best score)."""
    best: dict[int, float] = {}
    for item in items:
        if item.id not in best or item.score > best[item.id]:
            best[item.id] = item.score
    return _ranked(best)


def _minmax(items: Sequence[Scored], bounds: Scale | None = None) -> tuple[dict[int, float], float]:
    """Scores min-max normalised within the list, or over the given ``bounds`` (lowest,
    highest: a scale shared with another list, :func:`shared_scale`; a lowest of None is the
    list's own), clipped to [0, 1]."""
    if not items:
        return {}, 0.0
    scores = [item.score for item in items]
    low, high = min(scores), max(scores)
    if bounds is not None:
        low, high = low if bounds[0] is None else bounds[0], bounds[1]
    span = high - low
    # One candidate, or all tied: they are all as good as this list can say, so all get 1.
    return {
        i.id: min(max((i.score - low) / span, 0.0), 1.0) if span > 0 else 1.0 for i in items
    }, 0.0


def shared_scale(scores: Sequence[float], depth: int = 0) -> Scale | None:
    """The (low, high) over which several candidate lists are min-max normalised as one:
    high is the best score of all of them; low the ``depth``-th best of all of them (the
    lowest when there are fewer), or with ``depth`` 0 None: each list keeps its own lowest,
    so only the top of the scale is shared. None when there is no score."""
    if not scores:
        return None
    ordered = sorted(scores, reverse=True)
    low = None if depth == 0 else ordered[min(depth, len(ordered)) - 1]
    return low, ordered[0]


def _zscore(items: Sequence[Scored]) -> tuple[dict[int, float], float]:
    if not items:
        return {}, 0.0
    scores = [item.score for item in items]
    mean = sum(scores) / len(scores)
    std = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    if std == 0:
        return {i.id: 0.0 for i in items}, 0.0
    return {i.id: (i.score - mean) / std for i in items}, 0.0


def _clipped(items: Sequence[Scored]) -> tuple[dict[int, float], float]:
    return {i.id: min(max(i.score, 0.0), 1.0) for i in items}, 0.0


# (keyword normaliser, semantic normaliser) per score-based method.
_NORMALISERS = {
    FusionMethod.MINMAX: (_minmax, _minmax),
    FusionMethod.ZSCORE: (_zscore, _zscore),
    FusionMethod.CONVEX: (_clipped, _minmax),
}


def fuse(
    keyword: Sequence[Scored],
    semantic: Sequence[Scored],
    *,
    weights: FusionWeights = DEFAULT_WEIGHTS,
    method: str = DEFAULT_METHOD,
    semantic_span: Scale | None = None,
) -> list[Scored]:
    """One ranking from the keyword (BM25) and semantic (cosine) candidates, best first.

    ``semantic_span`` (``minmax`` and ``convex``): min-max normalise the semantic scores over
    this (low, high) instead of the list's own, so that two lists ranked beside each other (a
    persona's notes and its conversation turns) are on one scale: their best candidate scores
    1 only if it is the best of both (:func:`shared_scale`)."""
    method = FusionMethod(method)
    keyword, semantic = _by_score(keyword), _by_score(semantic)
    if method == FusionMethod.RRF:
        return rrf(
            [[i.id for i in keyword], [i.id for i in semantic]],
            [weights.keyword, weights.semantic],
            k=weights.k,
        )
    kw_normaliser, sem_normaliser = _NORMALISERS[method]
    kw, kw_floor = kw_normaliser(keyword)
    if sem_normaliser is _minmax and semantic_span is not None:
        sem, sem_floor = _minmax(semantic, semantic_span)
    else:
        sem, sem_floor = sem_normaliser(semantic)
    totals = {
        item: weights.keyword * kw.get(item, kw_floor) + weights.semantic * sem.get(item, sem_floor)
        for item in kw.keys() | sem.keys()
    }
    if method == FusionMethod.ZSCORE:
        # z-sums are negative for below-average items, and blend_strength needs scores >= 0.
        total_weight = weights.keyword + weights.semantic
        totals = {item: _logistic(z / total_weight) for item, z in totals.items()}
    return _ranked(totals)


def gate_keyword(
    weights: FusionWeights, *, query_script: int, top_semantic_script: int | None
) -> FusionWeights:
    """Keyword matching cannot cross scripts: when the best semantic hit is written in another
    script than the query (an English question answered by a Japanese memory), the keyword list
    holds only same-script noise, so it gets no weight for this query.

    Measured through the pipeline (bench/retrieval.py, e5): cross-lingual MRR 0.47 → 0.79
    with no change on single-language data.
    """
    if top_semantic_script is None or top_semantic_script == query_script:
        return weights
    return FusionWeights(keyword=0.0, semantic=max(weights.semantic, 1e-9), k=weights.k)


def credit_cross_script(
    keyword: Sequence[Scored],
    semantic: Sequence[Scored],
    *,
    script_of: Mapping[int, int | None],
    query_script: int,
    share: float,
) -> list[Scored]:
    """The keyword list completed with a stand-in score for each semantic candidate written in
    another script than the query, which keyword matching cannot reach (an English question
    about a memory written in Japanese): ``share`` × the best keyword score of the query ×
    the candidate's semantic score min-max normalised within the query. A candidate that had
    been written in the query's language would have matched about as well as the query's best
    match, in proportion to how close it is in meaning; without the stand-in, every same-script
    candidate that shares a name or a common word with the query is ranked above it. When the
    keyword side found nothing, nothing is credited: the ranking stays the semantic one.

    ``script_of`` maps candidate ids to their script group (``store.centring.language_of``);
    an id missing there, or mapped to None, is not credited. ``share`` = 0 returns the keyword
    list as it is. A candidate that has a keyword score of its own keeps the larger of the two.
    Measured through the pipeline (``bench/fusion_study.py``; ``bench/results/search15.md``).
    """
    if not 0.0 <= share <= 1.0:
        raise ParameterError("share must be within [0, 1]", field="share")
    if share == 0.0 or not keyword or not semantic:
        return list(keyword)
    best = min(max(item.score for item in keyword), 1.0)
    if best <= 0.0:
        return list(keyword)
    normalised, _ = _minmax(_by_score(semantic))
    own = {item.id: item.score for item in _by_score(keyword)}
    credited = []
    for item_id, closeness in normalised.items():
        script = script_of.get(item_id)
        if script is None or script == query_script:
            continue
        stand_in = share * best * closeness
        if stand_in > own.get(item_id, 0.0):
            credited.append(Scored(item_id, stand_in))
    return [*keyword, *credited]


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def blend_strength(score: float, strength: float, importance_weight: float) -> float:
    """``score × ((1 − w) + w·strength)``: w = 0 ignores strength, w = 1 multiplies by it.

    ``score`` is a fused score, never negative (every method above returns scores >= 0), so a
    stronger memory never ranks lower. ``strength`` (importance × R(t), spec §FSRS) is clamped to
    [0, 1]; ``importance_weight`` outside [0, 1] is a caller bug.
    """
    if not 0.0 <= importance_weight <= 1.0:
        raise ParameterError("importance_weight must be within [0, 1]", field="importance_weight")
    strength = min(max(strength, 0.0), 1.0)
    return score * ((1.0 - importance_weight) + importance_weight * strength)


def lift_successors(
    scores: dict[str, float], successor_of: Mapping[str, str | Sequence[str]]
) -> dict[str, float]:
    """Scores in which no closed fact outranks the fact that superseded it.

    ``scores`` maps result keys to ranking scores; ``successor_of`` maps the key of each closed
    fact to the key of its *current* successor (the end of its ``superseded_by`` chain), or to
    the whole chain, from the fact that closed it to the current one. Every fact of the chain
    gets at least the best score of the facts it closed, so a question that matches an old fact
    better than its replacement ("Where does the user live?" → "lives in Osaka", closed by
    "moved from Osaka to Kyoto") still shows the present first, and a fact changed twice shows
    its versions newest first; callers break ties with the current fact first, then the fact
    closed last. Keys in ``successor_of`` whose successor is not in ``scores`` are given the
    closed fact's score, so the successor can be placed into the results. Pure.
    """
    lifted = dict(scores)
    for closed, chain in successor_of.items():
        if closed not in scores:
            continue
        for successor in (chain,) if isinstance(chain, str) else chain:
            lifted[successor] = max(lifted.get(successor, float("-inf")), scores[closed])
    return lifted

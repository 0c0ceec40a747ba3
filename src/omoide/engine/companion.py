"""A second opinion on the head of a fused ranking: blend in a companion embedder's cosine (pure).

Search ranks candidates with the server's embedder (the *primary*) fused with keyword scores.
The other bundled embedder (the *companion*) was trained differently and errs on other
queries, so its raw cosine of the query and each candidate is a useful second vote
(``bench/results/search16.md``). Over the top ``top_n`` candidates by fused score,

    relevance = (1 − w) · minmax(fused score) + w · minmax(companion cosine)

and the relevance, min-max stretched, is mapped back onto the fused scores' own range in that
head (its lowest to its highest), so the head is reordered while its best keeps the best fused
score and the rest stay where fused scores lie: what
comes after (strength blend, current facts first, notes merged with conversation excerpts by
score) sees scores on the same scale as before, and a candidate below the head never rises
above it. ``w`` = 0 gives back the fused scores. A candidate without a companion cosine counts
as the head's least similar. Scores here are for ranking only: thresholds keep the primary
embedder's raw cosine (DESIGN principle 4). No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from omoide.engine.errors import ParameterError
from omoide.engine.fusion import Scored

__all__ = ["blend_companion", "companion_head"]


def _by_fused(item: Scored) -> tuple[float, int]:
    return (-item.score, item.id)


def companion_head(ranked: Sequence[Scored], top_n: int) -> list[Scored]:
    """The head :func:`blend_companion` re-scores: the ``top_n`` best by (fused score, id)."""
    return sorted(ranked, key=_by_fused)[:top_n]


def blend_companion(
    ranked: Sequence[Scored], cosines: Mapping[int, float], *, weight: float, top_n: int
) -> list[Scored]:
    """``ranked`` (one entry per id) best first with its head of ``top_n`` re-scored by the
    companion's ``cosines`` (id → raw cosine) at ``weight``; the rest keep their scores. The
    result does not depend on the input's order: the head is the ``top_n`` best by (score, id),
    and ties in the blend keep the fused order (by fused score, then id)."""
    if not 0.0 <= weight <= 1.0:
        raise ParameterError("companion weight must be within [0, 1]", field="weight")
    if top_n < 1:
        raise ParameterError("companion top_n must be at least 1", field="top_n")
    ordered = sorted(ranked, key=_by_fused)
    head, tail = ordered[:top_n], ordered[top_n:]
    known = [cosines[s.id] for s in head if s.id in cosines]
    if weight == 0.0 or len(head) < 2 or not known:
        return ordered
    low, high = head[-1].score, head[0].score
    span = high - low
    if span <= 0.0:  # the head is one tie: no room on the score scale to reorder it
        return ordered
    c_low, c_high = min(known), max(known)
    c_span = c_high - c_low

    def closeness(item: Scored) -> float:
        cosine = cosines.get(item.id)
        if cosine is None or c_span <= 0.0:
            return 0.0 if cosine is None else 1.0
        return (cosine - c_low) / c_span

    relevance = [((1.0 - weight) * (s.score - low) / span + weight * closeness(s), s) for s in head]
    relevance.sort(key=lambda pair: (-pair[0], -pair[1].score, pair[1].id))
    r_low, r_high = relevance[-1][0], relevance[0][0]
    if r_high <= r_low:
        return ordered
    # stretched back onto [low, high]: the head's best keeps the best fused score, so the head
    # weighs against conversation excerpts (or notes) as much as it did before
    return [
        Scored(s.id, max(high - span * (r_high - r) / (r_high - r_low), low)) for r, s in relevance
    ] + tail

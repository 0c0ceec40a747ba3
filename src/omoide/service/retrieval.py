"""The hybrid retriever: keyword candidates + vector candidates → one fused ranking.

Notes and conversation turns are searched by the same skeleton, run by a :class:`SearchPlan`:
the keyword side (BM25 coverage from FTS5) runs on a worker thread while the query is embedded
and the vector side is searched (the FTS query and the embedding + matrix product all release
the GIL, so on two cores they overlap); filters given as ``allowed`` row ids apply before the
pool cut on both sides; then the lists are fused with the plan's method and weights, the keyword
side gated by script. What is searched is a :class:`Tier` — :class:`NoteTier` over a persona's
memories, :class:`TurnTier` over its session turns — so the retriever never knows which.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.fusion import Scored, fuse
from omoide.engine.rank_learned import cited_feature, learned_rank, length_feature
from omoide.engine.search_plan import SearchPlan, plan_weights
from omoide.errors import InvalidInput
from omoide.model import Event, SearchMode
from omoide.store.port import MemoryHandle, SessionHandle
from omoide.store.vectors import language_of

__all__ = ["Candidates", "HybridRetriever", "NoteTier", "Tier", "TurnTier"]

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="omoide-search")


class Tier(Protocol):
    """One searchable tier as candidate lists of (row id, score), best first."""

    name: str  # the tier's name in a learned rank model (``note``, ``turn``)

    def keyword(self, query: str, *, limit: int) -> list[Scored]: ...

    def semantic(self, query_vector: np.ndarray, *, query: str, limit: int,
                 allowed: np.ndarray | None) -> list[Scored]: ...

    def script(self, row_id: int) -> int | None:
        """The script group the row's text was indexed with (None when it has no vector)."""
        ...

    def features(self, ids: list[int]) -> Mapping[str, Mapping[int, float]]:
        """The tier's own ranking features of the candidates (``engine.rank_learned``), from
        what the tier reads of them anyway."""
        ...


class NoteTier:
    """A persona's notes (memories): FTS over their text, their vector index."""

    name = "note"

    def __init__(self, memories: MemoryHandle,
                 turns: Mapping[int, tuple[int, float]] | None = None) -> None:
        """``turns``: the turn tier's fused ranking, event id → (rank from 1, score)."""
        self.memories = memories
        self.turns = turns

    def keyword(self, query: str, *, limit: int) -> list[Scored]:
        return [Scored(h.rowid, h.score) for h in self.memories.keyword_search(query, limit=limit)]

    def semantic(self, query_vector: np.ndarray, *, query: str, limit: int,
                 allowed: np.ndarray | None) -> list[Scored]:
        return [Scored(i, s) for i, s in self.memories.vectors.search(
            query_vector, limit=limit, allowed=allowed, centred_for=query)]

    def script(self, row_id: int) -> int | None:
        return self.memories.vectors.language(row_id)

    def features(self, ids: list[int]) -> Mapping[str, Mapping[int, float]]:
        if self.turns is None:
            return {}
        turns = self.turns
        found = self.memories.by_ids(ids)  # PROTOTYPE: one more statement
        rank: dict[int, float] = {}
        score: dict[int, float] = {}
        for i, memory in found.items():
            hits = [turns[s.event_id] for s in memory.sources if s.event_id in turns]
            if hits:
                rank[i] = cited_feature(min(r for r, _ in hits))
                score[i] = max(v for _, v in hits)
        return {"turn_rank": rank, "turn_score": score}


class TurnTier:
    """A persona's conversation turns: the turn-level FTS index and the turn vectors."""

    name = "turn"

    def __init__(self, sessions: SessionHandle, cited: Mapping[int, int] | None = None) -> None:
        """``cited``: event id → rank (from 1) of the best note above that stands for it."""
        self.sessions = sessions
        self._index = sessions.event_index  # read once: the property checks the revision
        self.cited = cited or {}
        self.events: dict[int, Event] = {}  # the candidates read by :meth:`features`

    def keyword(self, query: str, *, limit: int) -> list[Scored]:
        return [Scored(h.rowid, h.score) for h in self.sessions.keyword_events(query, limit=limit)]

    def semantic(self, query_vector: np.ndarray, *, query: str, limit: int,
                 allowed: np.ndarray | None) -> list[Scored]:
        return [Scored(i, s) for i, s in self._index.search(
            query_vector, limit=limit, allowed=allowed, centred_for=query)]

    def script(self, row_id: int) -> int | None:
        return self._index.language(row_id)

    def features(self, ids: list[int]) -> Mapping[str, Mapping[int, float]]:
        self.events = self.sessions.events_by_ids(ids)
        return {"length": {i: length_feature(len(e.text)) for i, e in self.events.items()},
                "cited": {i: cited_feature(r) for i, r in self.cited.items() if i in self.events}}

    def similarities(self, query_vector: np.ndarray, ids: Iterable[int]) -> dict[int, float]:
        """Raw cosine of the query with each turn (for the hits' ``similarity``)."""
        return self._index.similarities(query_vector, ids)


@dataclass(frozen=True)
class Candidates:
    ranked: list[Scored]  # fused (or one side's, in keyword / semantic mode), best first
    query_vector: np.ndarray


class HybridRetriever:
    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def retrieve(self, tier: Tier, query: str, *, plan: SearchPlan, pool: int,
                 keyword_weight: float, semantic_weight: float,
                 mode: SearchMode = SearchMode.HYBRID, allowed: np.ndarray | None = None,
                 query_vector: np.ndarray | None = None) -> Candidates:
        """Up to ``pool`` candidates per side, fused. ``allowed`` (sorted row ids) restricts
        both sides; ``query_vector`` is embedded here (beside the keyword side) when not given.
        ``keyword_weight``/``semantic_weight`` are the persona's, used where the plan has none.
        """
        def keyword_side() -> list[Scored]:
            if mode not in (SearchMode.HYBRID, SearchMode.KEYWORD):
                return []
            hits = tier.keyword(query, limit=plan.keyword_limit(pool, filtered=allowed is not None))
            if allowed is not None:
                hits = [h for h in hits if member(allowed, h.id)]
            return hits[:pool]

        pending = _POOL.submit(keyword_side)
        if query_vector is None:
            query_vector = self.embedder.embed_query(query)
        semantic: list[Scored] = []
        if mode in (SearchMode.HYBRID, SearchMode.SEMANTIC):
            semantic = tier.semantic(query_vector, query=query, limit=pool, allowed=allowed)
        keyword = pending.result()
        if mode == SearchMode.KEYWORD:
            return Candidates(keyword, query_vector)
        if mode == SearchMode.SEMANTIC:
            return Candidates(semantic, query_vector)
        if plan.keyword_weight is not None:
            keyword_weight = plan.keyword_weight
        if plan.semantic_weight is not None:
            semantic_weight = plan.semantic_weight
        if keyword_weight + semantic_weight == 0:
            raise InvalidInput("keyword_weight and semantic_weight cannot both be 0")
        weights = plan_weights(
            plan, keyword=keyword_weight, semantic=semantic_weight,
            query_script=language_of(query),
            top_script=tier.script(semantic[0].id) if semantic else None)
        fused = fuse(keyword, semantic, weights=weights, method=plan.fusion)
        ranker = None if plan.ranker is None \
            else plan.ranker.for_tier(tier.name, self.embedder.model_id)
        if ranker is not None:
            fused = learned_rank(keyword, semantic, fused, ranker,
                                 keyword_gated=weights.keyword == 0,
                                 extra=tier.features(sorted(s.id for s in fused)))
        return Candidates(fused, query_vector)


def member(sorted_ids: np.ndarray, value: int) -> bool:
    """Whether ``value`` is in the sorted id array."""
    pos = int(np.searchsorted(sorted_ids, value))
    return pos < sorted_ids.size and int(sorted_ids[pos]) == value

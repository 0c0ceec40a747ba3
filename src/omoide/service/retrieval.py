"""The hybrid retriever: keyword candidates + vector candidates → one fused ranking.

Notes and conversation turns are searched by the same skeleton, run by a :class:`SearchPlan`:
the keyword side (BM25 coverage from FTS5) runs on a worker thread while the query is embedded
and the vector side is searched (the FTS query and the embedding + matrix product all release
the GIL, so on two cores they overlap); filters given as ``allowed`` row ids apply before the
pool cut on both sides; then the lists are fused with the plan's method and weights, the keyword
side gated by script, and completed with stand-in scores for the vector candidates written in
another script than the query (``fusion.credit_cross_script``). With the plan's embedders
(e5), the note tier's vector search mixes in the query embedded without the Latin words a large
share of the persona's notes hold (its ``common_words``; in practice the user's own name),
while the whole query's vector alone gives the similarities shown and the conversation tier.
What is searched is a :class:`Tier` — :class:`NoteTier` over a persona's memories,
:class:`TurnTier` over its session turns — so the retriever never knows which.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.fusion import FusionWeights, Scale, Scored, credit_cross_script, fuse
from omoide.engine.lang import query_terms, without_words
from omoide.engine.search_plan import SearchPlan, plan_weights
from omoide.errors import InvalidInput
from omoide.model import SearchMode
from omoide.service.passages import turn_passage
from omoide.service.vector_cache import VectorCache
from omoide.store.port import MemoryHandle, SessionHandle
from omoide.store.vectors import language_of

__all__ = ["Candidates", "HybridRetriever", "NoteTier", "Tier", "TurnTier"]

# The most not yet embedded turns one search embeds itself (TurnTier.unembedded): the job
# embeds a posted turn within seconds, so only the last few turns of open sessions are missing.
FRESH_TURNS = 16

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="omoide-search")


class Tier(Protocol):
    """One searchable tier as candidate lists of (row id, score), best first."""

    def keyword(self, query: str, *, limit: int) -> list[Scored]: ...

    def semantic(
        self, query_vector: np.ndarray, *, query: str, limit: int, allowed: np.ndarray | None
    ) -> list[Scored]: ...

    def script(self, row_id: int) -> int | None:
        """The script group the row's text was indexed with (None when it has no vector)."""
        ...

    def common_words(self, words: Sequence[str], *, share: float, least: int) -> frozenset[str]:
        """Those of ``words`` that at least ``share`` of the tier's rows hold (and at least
        ``least`` rows); empty for a tier that does not leave words out of its query."""
        ...

    def unembedded(
        self, ids: Sequence[int], query_vector: np.ndarray, *, query: str, embedder: Embedder
    ) -> list[Scored]:
        """Semantic scores for the rows of ``ids`` that have no vector yet, embedded now, on
        the scale of :meth:`semantic` (empty when the tier has none such)."""
        ...


class NoteTier:
    """A persona's notes (memories): FTS over their text, their vector index."""

    def __init__(self, memories: MemoryHandle) -> None:
        self.memories = memories

    def keyword(self, query: str, *, limit: int) -> list[Scored]:
        return [Scored(h.rowid, h.score) for h in self.memories.keyword_search(query, limit=limit)]

    def semantic(
        self, query_vector: np.ndarray, *, query: str, limit: int, allowed: np.ndarray | None
    ) -> list[Scored]:
        return [
            Scored(i, s)
            for i, s in self.memories.vectors.search(
                query_vector, limit=limit, allowed=allowed, centred_for=query
            )
        ]

    def script(self, row_id: int) -> int | None:
        return self.memories.vectors.language(row_id)

    def common_words(self, words: Sequence[str], *, share: float, least: int) -> frozenset[str]:
        return self.memories.common_words(words, share=share, least=least)

    def unembedded(
        self, ids: Sequence[int], query_vector: np.ndarray, *, query: str, embedder: Embedder
    ) -> list[Scored]:
        return []  # a note is embedded when it is written


class TurnTier:
    """A persona's conversation turns: the turn-level FTS index and the turn vectors."""

    def __init__(self, sessions: SessionHandle) -> None:
        self.sessions = sessions
        self._index = sessions.event_index  # read once: the property checks the revision

    def keyword(self, query: str, *, limit: int) -> list[Scored]:
        return [Scored(h.rowid, h.score) for h in self.sessions.keyword_events(query, limit=limit)]

    def semantic(
        self, query_vector: np.ndarray, *, query: str, limit: int, allowed: np.ndarray | None
    ) -> list[Scored]:
        return [
            Scored(i, s)
            for i, s in self._index.search(
                query_vector, limit=limit, allowed=allowed, centred_for=query
            )
        ]

    def script(self, row_id: int) -> int | None:
        return self._index.language(row_id)

    def common_words(self, words: Sequence[str], *, share: float, least: int) -> frozenset[str]:
        return frozenset()  # turns are searched by the whole query (measured: search30.md)

    def unembedded(
        self, ids: Sequence[int], query_vector: np.ndarray, *, query: str, embedder: Embedder
    ) -> list[Scored]:
        """A turn posted moments ago is keyword-searchable before the background job embeds
        it: such keyword hits (up to :data:`FRESH_TURNS`) are embedded here, so they are ranked
        by the same fused score as every other turn rather than by their keyword side alone.
        The vectors are not stored (the job does that)."""
        missing = [i for i in ids if self._index.language(i) is None][:FRESH_TURNS]
        events = self.sessions.events_by_ids(missing) if missing else {}
        found = [i for i in missing if i in events]
        if not found:
            return []
        texts = [turn_passage(events[i].speaker, events[i].text) for i in found]
        scores = self._index.score_vectors(
            query_vector,
            embedder.embed_passages(texts),
            [language_of(t) for t in texts],
            centred_for=query,
        )
        return [Scored(i, s) for i, s in zip(found, scores, strict=True)]

    def similarities(self, query_vector: np.ndarray, ids: Iterable[int]) -> dict[int, float]:
        """Raw cosine of the query with each turn (for the hits' ``similarity``)."""
        return self._index.similarities(query_vector, ids)


@dataclass(frozen=True)
class Candidates:
    ranked: list[Scored]  # fused (or one side's, in keyword / semantic mode), best first
    query_vector: np.ndarray
    # the two sides as fused (hybrid mode only), to fuse them again on a shared scale
    keyword: list[Scored] = field(default_factory=list)
    semantic: list[Scored] = field(default_factory=list)
    weights: FusionWeights | None = None
    method: str = ""

    def on_scale(self, semantic_span: Scale | None) -> list[Scored]:
        """The candidates fused again with their semantic scores min-max normalised over
        ``semantic_span`` (``fusion.fuse``); ``ranked`` as it is outside hybrid mode."""
        if self.weights is None or semantic_span is None:
            return self.ranked
        return fuse(
            self.keyword,
            self.semantic,
            weights=self.weights,
            method=self.method,
            semantic_span=semantic_span,
        )


class HybridRetriever:
    """``vectors``: the server's shared cache (``service.vector_cache``), which keeps each
    query's vector, so a query searched again (a client repeating a search, a page read
    twice) is not embedded again; without it every query is embedded."""

    def __init__(self, embedder: Embedder, vectors: VectorCache | None = None) -> None:
        self.embedder = embedder
        self.vectors = vectors

    def embed_query(self, query: str) -> np.ndarray:
        """The query's vector on the server's embedder: the cache's when held."""
        if self.vectors is None:
            return self.embedder.embed_query(query)
        return self.vectors.query(self.embedder, query)

    def retrieve(
        self,
        tier: Tier,
        query: str,
        *,
        plan: SearchPlan,
        pool: int,
        keyword_weight: float,
        semantic_weight: float,
        mode: SearchMode = SearchMode.HYBRID,
        allowed: np.ndarray | None = None,
        query_vector: np.ndarray | None = None,
        semantic_span: Scale | None = None,
    ) -> Candidates:
        """Up to ``pool`` candidates per side, fused. ``allowed`` (sorted row ids) restricts
        both sides; ``query_vector`` is embedded here (beside the keyword side) when not given.
        ``keyword_weight``/``semantic_weight`` are the persona's, used where the plan has none.
        ``semantic_span``: the (low, high) to normalise semantic scores over instead of the
        list's own, shared with another tier ranked beside this one (``fusion.fuse``).
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
            query_vector = self.embed_query(query)
        semantic: list[Scored] = []
        if mode in (SearchMode.HYBRID, SearchMode.SEMANTIC):
            semantic = tier.semantic(
                self._semantic_vector(tier, query, query_vector, plan),
                query=query,
                limit=pool,
                allowed=allowed,
            )
        keyword = pending.result()
        if mode == SearchMode.KEYWORD:
            return Candidates(keyword, query_vector)
        if mode == SearchMode.HYBRID and keyword:
            semantic = [
                *semantic,
                *tier.unembedded(
                    [h.id for h in keyword], query_vector, query=query, embedder=self.embedder
                ),
            ]
        if mode == SearchMode.SEMANTIC:
            return Candidates(semantic, query_vector)
        if plan.keyword_weight is not None:
            keyword_weight = plan.keyword_weight
        if plan.semantic_weight is not None:
            semantic_weight = plan.semantic_weight
        if keyword_weight + semantic_weight == 0:
            raise InvalidInput("keyword_weight and semantic_weight cannot both be 0")
        query_script = language_of(query)
        weights = plan_weights(
            plan,
            keyword=keyword_weight,
            semantic=semantic_weight,
            query_script=query_script,
            top_script=tier.script(semantic[0].id) if semantic else None,
        )
        if weights.keyword > 0 and plan.cross_script_credit > 0 and keyword:
            keyword = credit_cross_script(
                keyword,
                semantic,
                script_of={s.id: tier.script(s.id) for s in semantic},
                query_script=query_script,
                share=plan.cross_script_credit,
            )
        return Candidates(
            fuse(
                keyword, semantic, weights=weights, method=plan.fusion, semantic_span=semantic_span
            ),
            query_vector,
            keyword,
            semantic,
            weights,
            plan.fusion,
        )

    def _semantic_vector(
        self, tier: Tier, query: str, query_vector: np.ndarray, plan: SearchPlan
    ) -> np.ndarray:
        """The vector the tier's semantic side searches with: the query's, or, where the plan
        leaves common words out for this embedder, normalise(mix × the query embedded without
        the Latin words a large share of the tier's rows hold + (1 − mix) × the query's), when
        the shortened query keeps a content word."""
        words = query_terms(query).words
        if not words or not plan.leaves_out_common_words(self.embedder.model_id):
            return query_vector
        common = tier.common_words(
            words, share=plan.common_word_share, least=plan.common_word_least
        )
        shorter = without_words(query, common)
        if shorter == query or query_terms(shorter).empty:
            return query_vector
        searched = self.embed_query(shorter)
        if plan.common_word_mix >= 1.0:
            return searched
        mixed = plan.common_word_mix * searched + (1.0 - plan.common_word_mix) * query_vector
        return (mixed / max(float(np.linalg.norm(mixed)), 1e-12)).astype(np.float32)


def member(sorted_ids: np.ndarray, value: int) -> bool:
    """Whether ``value`` is in the sorted id array."""
    pos = int(np.searchsorted(sorted_ids, value))
    return pos < sorted_ids.size and int(sorted_ids[pos]) == value

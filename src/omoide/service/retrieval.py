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

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.fusion import Scored, fuse
from omoide.engine.retrieval_centring import pool_centred_scores
from omoide.engine.search_plan import SearchPlan, plan_weights
from omoide.errors import InvalidInput
from omoide.model import SearchMode
from omoide.store.port import MemoryHandle, SessionHandle
from omoide.store.vectors import VectorIndex, language_of

__all__ = ["Candidates", "HybridRetriever", "NoteTier", "Tier", "TurnTier"]

_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="omoide-search")


class Tier(Protocol):
    """One searchable tier as candidate lists of (row id, score), best first."""

    def keyword(self, query: str, *, limit: int) -> list[Scored]: ...

    def semantic(self, query_vector: np.ndarray, *, query: str, limit: int,
                 allowed: np.ndarray | None) -> list[Scored]: ...

    def script(self, row_id: int) -> int | None:
        """The script group the row's text was indexed with (None when it has no vector)."""
        ...


class NoteTier:
    """A persona's notes (memories): FTS over their text, their vector index."""

    centring_field = "pool_centring_notes"

    def __init__(self, memories: MemoryHandle) -> None:
        self.memories = memories

    @property
    def index(self) -> VectorIndex:
        return self.memories.vectors

    def keyword(self, query: str, *, limit: int) -> list[Scored]:
        return [Scored(h.rowid, h.score) for h in self.memories.keyword_search(query, limit=limit)]

    def semantic(self, query_vector: np.ndarray, *, query: str, limit: int,
                 allowed: np.ndarray | None) -> list[Scored]:
        return [Scored(i, s) for i, s in self.memories.vectors.search(
            query_vector, limit=limit, allowed=allowed, centred_for=query)]

    def script(self, row_id: int) -> int | None:
        return self.memories.vectors.language(row_id)


class TurnTier:
    """A persona's conversation turns: the turn-level FTS index and the turn vectors."""

    def __init__(self, sessions: SessionHandle) -> None:
        self.sessions = sessions
        self._index = sessions.event_index  # read once: the property checks the revision

    centring_field = "pool_centring_turns"

    @property
    def index(self) -> VectorIndex:
        return self._index

    def keyword(self, query: str, *, limit: int) -> list[Scored]:
        return [Scored(h.rowid, h.score) for h in self.sessions.keyword_events(query, limit=limit)]

    def semantic(self, query_vector: np.ndarray, *, query: str, limit: int,
                 allowed: np.ndarray | None) -> list[Scored]:
        return [Scored(i, s) for i, s in self._index.search(
            query_vector, limit=limit, allowed=allowed, centred_for=query)]

    def script(self, row_id: int) -> int | None:
        return self._index.language(row_id)

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
            kq = query
            if plan.common_share < 1.0:
                kq = _without_common(tier, query, plan.common_share)
            limit = plan.keyword_limit(pool, filtered=allowed is not None)
            if plan.keyword_fill > 1:
                limit = max(limit, pool * plan.keyword_fill)
            hits = tier.keyword(kq, limit=limit)
            if allowed is not None:
                hits = [h for h in hits if member(allowed, h.id)]
            return hits

        pending = _POOL.submit(keyword_side)
        if query_vector is None:
            query_vector = self.embedder.embed_query(query)
        semantic: list[Scored] = []
        if mode in (SearchMode.HYBRID, SearchMode.SEMANTIC):
            semantic = tier.semantic(query_vector, query=query, limit=pool, allowed=allowed)
        top_script = tier.script(semantic[0].id) if semantic else None
        if plan.hub_penalty and len(semantic) > 1 and (
                plan.hub_tiers == "both" or plan.hub_tiers == getattr(tier, "centring_field", "")[-5:]):
            semantic = _hub_scored(tier.index, semantic, plan.hub_penalty, plan.hub_k)  # type: ignore[attr-defined]
        if plan.session_best and isinstance(tier, TurnTier) and semantic:
            semantic = _session_widened(tier, query, query_vector, semantic, plan.session_best,
                                        plan.session_top, allowed)
        if plan.abtt and len(semantic) > 1 and (
                plan.hub_tiers == "both" or plan.hub_tiers == getattr(tier, "centring_field", "")[-5:]):
            semantic = _abtt_scored(tier.index, query, query_vector, semantic, plan.abtt)  # type: ignore[attr-defined]
        weight = getattr(plan, getattr(tier, "centring_field", ""), 0.0)
        if weight and len(semantic) > 1:
            semantic = _pool_centred(tier.index, query, query_vector, semantic, weight,  # type: ignore[attr-defined]
                                     plan.centring_top)
        keyword = pending.result()
        if plan.keyword_fill > 1:  # semantic candidates keep their keyword score
            wanted = {c.id for c in semantic}
            keyword = keyword[:pool] + [h for h in keyword[pool:] if h.id in wanted]
        else:
            keyword = keyword[:pool]
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
            top_script=top_script)
        return Candidates(fuse(keyword, semantic, weights=weights, method=plan.fusion),
                          query_vector)


def member(sorted_ids: np.ndarray, value: int) -> bool:
    """Whether ``value`` is in the sorted id array."""
    pos = int(np.searchsorted(sorted_ids, value))
    return pos < sorted_ids.size and int(sorted_ids[pos]) == value


def _pool_centred(index: VectorIndex, query: str, query_vector: np.ndarray,
                  semantic: list[Scored], weight: float, top: int) -> list[Scored]:
    """The semantic pool re-scored by ``engine.retrieval_centring`` (prototype)."""
    with index._lock:
        mu = index._centroids()
        rows = [index._row[s.id] for s in semantic]
        mat = index._mat[rows] - mu[index._lang[rows]]
        q_c = np.asarray(query_vector, dtype=np.float32) - mu[language_of(query)]
    scores = pool_centred_scores(q_c, mat, weight=weight, top=top)
    return sorted((Scored(s.id, float(v)) for s, v in zip(semantic, scores, strict=True)),
                  key=lambda x: (-x.score, x.id))


def _without_common(tier: object, query: str, share: float) -> str:
    """Prototype: the query without words held by more than ``share`` of the persona's rows."""
    from omoide.engine.lang.words import query_terms
    from omoide.store.sqlite.fts import quote_fts
    terms = query_terms(query)
    if not terms.words:
        return query
    if isinstance(tier, NoteTier):
        h = tier.memories
        conn, pid = h.db.conn(), h.persona_id
        total = conn.execute("SELECT count(*) FROM memories WHERE persona_id = ? AND "
                             "status = 'active'", (pid,)).fetchone()[0]
        low = pid << 32
        def df(word: str) -> int:
            return conn.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ? "
                                "AND rowid BETWEEN ? AND ?",
                                (quote_fts(word), low, low + (1 << 32) - 1)).fetchone()[0]
    else:
        h = tier.sessions  # type: ignore[attr-defined]
        conn, pid = h.db.conn(), h.persona_id
        total = conn.execute("SELECT count(*) FROM session_events WHERE persona_id = ?",
                             (pid,)).fetchone()[0]
        def df(word: str) -> int:
            return conn.execute(
                "SELECT count(*) FROM session_events_fts f JOIN session_events b ON "
                "b.rowid = f.rowid WHERE session_events_fts MATCH ? AND b.persona_id = ?",
                (quote_fts(word), pid)).fetchone()[0]
    if not total:
        return query
    kept = [w for w in terms.words if df(w) <= share * total]
    if len(kept) == len(terms.words) or not kept and not terms.cjk:
        return query
    return " ".join([*kept, *terms.cjk])


def _hub_scored(index: VectorIndex, semantic: list[Scored], beta: float, k: int
                ) -> list[Scored]:
    """Prototype (CSLS): score − beta × the row's mean centred cosine to its k nearest rows."""
    with index._lock:
        n = index._n
        key = (n, len(index._row), k)
        cache = getattr(index, "_hub_cache", None)
        if cache is None or cache[0] != key:
            mu = index._centroids()
            alive = np.flatnonzero(index._alive[:n])
            mat = index._mat[alive] - mu[index._lang[alive]]
            mat = mat / np.maximum(np.linalg.norm(mat, axis=1, keepdims=True), 1e-12)
            gram = mat @ mat.T
            np.fill_diagonal(gram, -np.inf)
            kk = min(k, max(1, len(alive) - 1))
            top = -np.sort(-gram, axis=1)[:, :kk]
            hub = {int(index._ids[r]): float(v) for r, v in zip(alive, top.mean(axis=1), strict=True)}
            index._hub_cache = (key, hub)  # type: ignore[attr-defined]
        hub = index._hub_cache[1]  # type: ignore[attr-defined]
    return sorted((Scored(s.id, s.score - beta * hub.get(s.id, 0.0)) for s in semantic),
                  key=lambda x: (-x.score, x.id))


def _abtt_scored(index: VectorIndex, query: str, query_vector: np.ndarray,
                 semantic: list[Scored], d: int) -> list[Scored]:
    """Prototype (all-but-the-top): centred cosine after removing the persona's top d
    principal directions."""
    with index._lock:
        n = index._n
        key = (n, len(index._row), d)
        mu = index._centroids()
        cache = getattr(index, "_abtt_cache", None)
        if cache is None or cache[0] != key:
            alive = np.flatnonzero(index._alive[:n])
            mat = index._mat[alive] - mu[index._lang[alive]]
            mat = mat - mat.mean(axis=0)
            _, _, vt = np.linalg.svd(mat.astype(np.float64), full_matrices=False)
            index._abtt_cache = (key, vt[:d])  # type: ignore[attr-defined]
        top = index._abtt_cache[1]  # type: ignore[attr-defined]
        rows = [index._row[s.id] for s in semantic]
        mat = (index._mat[rows] - mu[index._lang[rows]]).astype(np.float64)
        q = (np.asarray(query_vector, dtype=np.float64) - mu[language_of(query)])
    mat = mat - (mat @ top.T) @ top
    q = q - (top @ q) @ top
    scores = (mat @ q) / np.maximum(np.linalg.norm(mat, axis=1) * np.linalg.norm(q), 1e-12)
    return sorted((Scored(s.id, float(v)) for s, v in zip(semantic, scores, strict=True)),
                  key=lambda x: (-x.score, x.id))


def _session_widened(tier: TurnTier, query: str, query_vector: np.ndarray,
                     semantic: list[Scored], k: int, sessions: int,
                     allowed: np.ndarray | None) -> list[Scored]:
    """Prototype: the pool plus the best ``k`` turns of each of the ``sessions`` sessions whose
    best turn scores highest."""
    index = tier.index
    every = index.search(query_vector, limit=len(index), allowed=allowed, centred_for=query)
    cache = getattr(index, "_session_of", None)
    if cache is None or cache[0] != len(index):
        ids = [i for i, _ in every]
        events = tier.sessions.events_by_ids(ids)
        cache = (len(index), {i: e.session_id for i, e in events.items()})
        index._session_of = cache  # type: ignore[attr-defined]
    session_of = cache[1]
    per: dict[str, list[tuple[int, float]]] = {}
    order: list[str] = []
    for i, score in every:
        sid = session_of.get(i)
        if sid is None:
            continue
        if sid not in per:
            per[sid] = []
            order.append(sid)
        if len(per[sid]) < k:
            per[sid].append((i, score))
    have = {c.id for c in semantic}
    extra = [Scored(i, sc) for sid in order[:sessions] for i, sc in per[sid] if i not in have]
    return sorted([*semantic, *extra], key=lambda x: (-x.score, x.id))

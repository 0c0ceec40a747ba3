"""The notes a search returns, from its fused candidates: live strength blended into each
score, no closed fact above its successor, each row read from the store once
(:class:`NoteRows`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

import numpy as np

from omoide.config import PersonaSettings
from omoide.engine.fsrs import current_strength
from omoide.engine.fusion import Scored, blend_strength, lift_successors
from omoide.engine.hit_order import ordered_hits, tie_order
from omoide.engine.search_plan import SearchPlan
from omoide.model import Memory, RankFacts, SearchFilters, SearchHit
from omoide.service.memory_reads import successor_chain, with_live_strength
from omoide.service.retrieval import member
from omoide.service.search_request import SearchRequest
from omoide.store.port import MemoryHandle

__all__ = ["NoteRows", "ids_without_validity", "may_be_due", "note_hits"]

_Row = TypeVar("_Row", Memory, RankFacts)
# Whole rows a search may read beyond top_k rather than rank the candidates first, which takes
# one more statement: a row read whole costs ~60 µs on SQLite (50 of them took 3–4 ms at 100k),
# a statement ~0.1 ms there and a round trip on PostgreSQL ~0.3–1 ms.
_WHOLE_ROWS_PER_STATEMENT = 10


class NoteRows:
    """The whole rows one search reads, each from the store once: the companion's texts of
    the head it re-scores are the rows the search then shows."""

    def __init__(self, memories: MemoryHandle) -> None:
        self.memories = memories
        self._read: dict[int, Memory | None] = {}  # None: asked for, not found

    def read(self, ids: Sequence[int]) -> dict[int, Memory]:
        """The rows of ``ids`` that exist, by row id in ascending order (as the store reads
        them: the similarities taken over these keys round the same way)."""
        missing = [i for i in dict.fromkeys(ids) if i not in self._read]
        if missing:
            found = self.memories.by_ids(missing)
            self._read.update({i: found.get(i) for i in missing})
        return {i: memory for i in sorted(set(ids)) if (memory := self._read[i]) is not None}


def note_hits(
    rows: NoteRows,
    ranked: list[Scored],
    *,
    query_vector: np.ndarray,
    request: SearchRequest,
    cfg: PersonaSettings,
    now: datetime,
    plan: SearchPlan,
    allowed: np.ndarray | None,
) -> list[tuple[int, SearchHit]]:
    """The notes to return, best first: (row id, hit) pairs, ``request.top_k`` of them or
    more. With few candidates beyond ``top_k``, all are read whole at once (one statement
    less). Otherwise they are ranked by fused score blended with live strength from a few
    columns each (``rank_facts``), and only the first ``top_k`` are read whole
    (:func:`_head_hits`) — unless the plan puts current facts first and a candidate is
    superseded: then every candidate is read whole and re-ranked by
    :func:`_current_first` (which can bring in the successor the query did not match).
    Either way the ranking is the one :func:`_hydrate` gives."""
    if len(ranked) - request.top_k > _WHOLE_ROWS_PER_STATEMENT:  # many: rank them first
        facts = rows.memories.rank_facts([s.id for s in ranked])
        if not (
            plan.current_first
            and any(f.superseded_by for f in facts.values() if f.status == "active")
        ):
            return _head_hits(
                rows,
                ranked,
                facts,
                query_vector,
                request.top_k,
                _strength_weight(request, cfg, plan),
                now,
                allowed,
            )
    hits = _hydrate(rows, ranked, query_vector, request, cfg, now, plan)
    if plan.current_first:
        hits = _current_first(rows.memories, hits, query_vector, allowed, now)
    return [hit for hit in hits if allowed is None or member(allowed, hit[0])]


def _hydrate(
    rows: NoteRows,
    ranked: list[Scored],
    query_vector: np.ndarray,
    request: SearchRequest,
    cfg: PersonaSettings,
    now: datetime,
    plan: SearchPlan,
) -> list[tuple[int, SearchHit]]:
    """(row id, hit) pairs, best first, with live strength blended into the score (when the
    plan blends strength)."""
    found = rows.read([s.id for s in ranked])
    sims = rows.memories.vectors.similarities(query_vector, found.keys())
    live = {
        row_id: with_live_strength(memory, now)
        for row_id, memory in found.items()
        if memory.status == "active"
    }
    return ordered_hits(
        [
            (item.id, _note_hit(memory, score, sims.get(item.id), now))
            for item, memory, score in _active_scored(
                ranked,
                live,
                _strength_weight(request, cfg, plan),
                lambda memory: memory.strength,
            )
        ]
    )


def _current_first(
    memories: MemoryHandle,
    hits: list[tuple[int, SearchHit]],
    query_vector: np.ndarray,
    allowed: np.ndarray | None,
    now: datetime,
) -> list[tuple[int, SearchHit]]:
    """Re-rank so that no closed fact outranks the current fact that superseded it; a
    successor the query did not match is brought in beside its predecessor (when it
    passes the request's filters), so the present is shown whenever the past is."""
    closed = {
        hit.id: hit.memory.superseded_by
        for _, hit in hits
        if hit.memory is not None and hit.memory.superseded_by
    }
    if not closed:
        return hits
    present = {hit.id: row_id for row_id, hit in hits}
    heads: dict[str, str] = {}
    chains: dict[str, tuple[str, ...]] = {}
    fetched: dict[str, tuple[int, Memory]] = {}
    for key, successor in closed.items():
        chain = successor_chain(memories, successor, fetched)
        if chain is None:
            continue
        head = chain[-1]
        row_id = present.get(head) or fetched[head][0]
        if allowed is None or member(allowed, row_id):
            heads[key], chains[key] = head, chain
    lifted = lift_successors({hit.id: hit.score for _, hit in hits}, chains)
    out = [(row_id, replace(hit, score=lifted[hit.id])) for row_id, hit in hits]
    missing = {h for h in heads.values() if h not in present}
    sims = memories.vectors.similarities(query_vector, [fetched[h][0] for h in missing])
    for head in missing:
        row_id, memory = fetched[head]
        out.append(
            (
                row_id,
                _note_hit(with_live_strength(memory, now), lifted[head], sims.get(row_id), now),
            )
        )
    return ordered_hits(out)


def _head_hits(
    rows: NoteRows,
    ranked: list[Scored],
    facts: Mapping[int, RankFacts],
    query_vector: np.ndarray,
    top_k: int,
    weight: float,
    now: datetime,
    allowed: np.ndarray | None,
) -> list[tuple[int, SearchHit]]:
    """The first ``top_k`` allowed candidates by ``facts`` (their score blended with live
    strength by ``weight``), read whole: as :func:`_hydrate` would rank
    them, without reading the others."""

    def live(fact: RankFacts) -> float:
        return current_strength(
            fact.importance,
            fact.stability,
            last_accessed=fact.last_accessed,
            created_at=fact.created_at,
            now=now,
        )

    order = [
        (score, item.id, tie_order(score, fact.closed_at(now), fact.closed_since(), item.id))
        for item, fact, score in _active_scored(ranked, facts, weight, live)
    ]
    order.sort(key=lambda t: t[2])  # as ordered_hits
    chosen = [t for t in order if allowed is None or member(allowed, t[1])][:top_k]
    found = rows.read([row_id for _, row_id, _ in chosen])
    # of every candidate, as _hydrate: the product's float32 rounding depends on its rows
    sims = rows.memories.vectors.similarities(query_vector, facts.keys())
    hits = []
    for score, row_id, _ in chosen:
        memory = found.get(row_id)
        if memory is not None and memory.status == "active":  # else changed meanwhile
            hits.append(
                (row_id, _note_hit(with_live_strength(memory, now), score, sims.get(row_id), now))
            )
    return hits


def _active_scored(
    ranked: list[Scored], rows: Mapping[int, _Row], weight: float, strength: Callable[[_Row], float]
) -> Iterator[tuple[Scored, _Row, float]]:
    """Each candidate whose row is present and active, in ``ranked``'s order, with its fused
    score blended with the row's live ``strength`` by ``weight`` (unblended at 0)."""
    for item in ranked:
        row = rows.get(item.id)
        if row is None or row.status != "active":
            continue
        yield item, row, blend_strength(item.score, strength(row), weight) if weight else item.score


def ids_without_validity(memories: MemoryHandle, filters: SearchFilters) -> np.ndarray | None:
    """The rows the other filters allow, ignoring ``valid_at`` (None: no other filter)."""
    rest = replace(filters, valid_at=None)
    return None if rest.empty else memories.allowed_ids(rest)


def may_be_due(hit: SearchHit, cutoff: datetime) -> bool:
    """Whether the note's recall may be due, by the row this search read: one recalled after
    ``cutoff`` is skipped by ``record_recalls`` too (its rule, on the same column), so when no
    returned note is due the search asks nothing more of the store."""
    memory = hit.memory
    return memory is None or memory.last_accessed is None or memory.last_accessed <= cutoff


def _strength_weight(request: SearchRequest, cfg: PersonaSettings, plan: SearchPlan) -> float:
    """How much live strength weighs in the score (0 when the plan does not blend it)."""
    if not plan.strength_blend:
        return 0.0
    return cfg.importance_weight if request.importance_weight is None else request.importance_weight


def _note_hit(memory: Memory, score: float, similarity: float | None, now: datetime) -> SearchHit:
    return SearchHit(
        type="note",
        id=memory.key,
        content=memory.content,
        score=score,
        similarity=similarity,
        memory=memory,
        sources=memory.sources,
        extra={"current": not memory.closed_at(now)},
    )

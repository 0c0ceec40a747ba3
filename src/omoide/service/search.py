"""Search use case (DESIGN read path): candidates → filters before top-k → fusion → strength
blend → top-k → recall. Notes first; episodes are added by the episode tier when notes are few.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

import numpy as np

from omoide.clock import Clock
from omoide.config import PersonaSettings
from omoide.embed.base import Embedder
from omoide.engine.budget import FOLDED_KEY
from omoide.engine.dates import parse_date_range
from omoide.engine.errors import too_long
from omoide.engine.fsrs import current_strength
from omoide.engine.fusion import (
    Scale,
    Scored,
    blend_strength,
    lift_successors,
    shared_scale,
)
from omoide.engine.hit_order import merge_ranked, ordered_hits, shown_score
from omoide.engine.script_slot import other_script_slot
from omoide.engine.search_plan import DEFAULT_PLAN, EpisodeRule, SearchPlan
from omoide.errors import InvalidInput
from omoide.model import Memory, RankFacts, SearchFilters, SearchHit, SearchMode
from omoide.service.companion import Companion
from omoide.service.memories import record_recalls, successor_chain, with_live_strength
from omoide.service.retrieval import HybridRetriever, NoteTier, member
from omoide.service.settings import SettingsService
from omoide.service.validate import (
    MAX_FILTER_TAGS,
    check_kind,
    check_tags,
    check_text,
    check_timestamp,
    check_unit_interval,
    engine_input,
    is_blank,
)
from omoide.service.vector_cache import VectorCache
from omoide.store.port import MemoryHandle, Store
from omoide.store.vectors import language_of

__all__ = [
    "EpisodeSearcher",
    "SearchRequest",
    "SearchResult",
    "SearchService",
]

logger = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000
_Row = TypeVar("_Row", Memory, RankFacts)
# Whole rows a search may read beyond top_k rather than rank the candidates first, which takes
# one more statement: a row read whole costs ~60 µs on SQLite (50 of them took 3–4 ms at 100k),
# a statement ~0.1 ms there and a round trip on PostgreSQL ~0.3–1 ms.
_WHOLE_ROWS_PER_STATEMENT = 10
MAX_TOP_K = 100


@dataclass(frozen=True)
class SearchRequest:
    query: str
    top_k: int = 10
    mode: SearchMode = SearchMode.HYBRID
    filters: SearchFilters = field(default_factory=SearchFilters)
    importance_weight: float | None = None  # None → the persona's setting
    # None → the persona's episode_search_enabled; True → always; False → notes only
    include_episodes: bool | None = None


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: SearchMode
    results: list[SearchHit]


class EpisodeSearcher(Protocol):
    """Port for the Episode tier (2-tier retrieval, spec §Episode)."""

    def search_episodes(
        self,
        persona: str,
        query: str,
        query_vector: np.ndarray,
        *,
        limit: int,
        filters: SearchFilters,
        plan: SearchPlan = DEFAULT_PLAN,
        mode: SearchMode = SearchMode.HYBRID,
        semantic_span: Scale | None = None,
    ) -> list[SearchHit]: ...

    def semantic_scores(
        self,
        persona: str,
        query: str,
        query_vector: np.ndarray,
        *,
        filters: SearchFilters,
        plan: SearchPlan = DEFAULT_PLAN,
    ) -> list[float]: ...


class SearchService:
    """Runs searches by a :class:`SearchPlan`: ``plan`` here is the default of every search,
    and ``search(..., plan=...)`` runs one search by another (the benchmarks' variants)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        clock: Clock,
        settings: SettingsService,
        episodes: EpisodeSearcher | None = None,
        plan: SearchPlan = DEFAULT_PLAN,
        companion: Companion | None = None,
        vectors: VectorCache | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.episodes = episodes
        self.plan = plan
        self.companion = companion  # the second embedder's opinion (service/companion.py)
        self.retriever = HybridRetriever(embedder, vectors)  # queries embedded once (LRU)

    def build_request(
        self,
        persona: str,
        *,
        query: Any,
        top_k: Any = 10,
        mode: Any = None,
        tags: Any = None,
        date_range: Any = None,
        valid_at: Any = None,
        min_importance: Any = None,
        kind: Any = None,
        importance_weight: Any = None,
        include_episodes: bool | None = None,
    ) -> SearchRequest:
        """Validate raw parameters (HTTP query string, MCP tool arguments) into a request."""
        if not isinstance(query, str) or is_blank(query):
            raise InvalidInput(
                "query must be a non-empty string (not only whitespace or invisible characters)",
                field="q",
            )
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInput(too_long("q", MAX_QUERY_CHARS, len(query)), field="q")
        check_text(query, "q")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
            raise InvalidInput(f"top_k must be an integer from 1 to {MAX_TOP_K}", field="top_k")
        try:
            search_mode = SearchMode(mode or SearchMode.HYBRID)
        except ValueError:
            raise InvalidInput(
                f"mode must be one of hybrid, semantic, keyword; got {mode!r}", field="mode"
            ) from None
        filters = self.build_filters(
            persona,
            tags=tags,
            date_range=date_range,
            valid_at=valid_at,
            min_importance=min_importance,
            kind=kind,
        )
        weight = (
            None
            if importance_weight is None
            else check_unit_interval(importance_weight, "importance_weight")
        )
        return SearchRequest(
            query=query.strip(),
            top_k=top_k,
            mode=search_mode,
            filters=filters,
            importance_weight=weight,
            include_episodes=include_episodes,
        )

    def build_filters(
        self,
        persona: str,
        *,
        tags: Any = None,
        date_range: Any = None,
        valid_at: Any = None,
        min_importance: Any = None,
        kind: Any = None,
    ) -> SearchFilters:
        """Validate a search's filters (the same with a query or without one: the dashboard's
        list applies them alone)."""
        cfg = self.settings.get(persona)
        created_from = created_until = None
        if date_range is not None and str(date_range).strip():
            with engine_input():
                span = parse_date_range(
                    check_text(str(date_range), "date_range"), now=self.clock.now(), tz=cfg.zone
                )
            created_from, created_until = span.start, span.end
        return SearchFilters(
            tags=check_tags(tags, limit=MAX_FILTER_TAGS),
            created_from=created_from,
            created_until=created_until,
            min_importance=None
            if min_importance is None
            else check_unit_interval(min_importance, "min_importance"),
            kind=None if kind is None else check_kind(kind),
            valid_at=self._valid_at(valid_at),
        )

    def _valid_at(self, value: Any) -> datetime | None:
        if value is None or value == "":
            return None
        if isinstance(value, str) and value.strip().lower() == "now":
            return self.clock.now()
        return check_timestamp(value, "valid_at")

    def search(
        self,
        persona: str,
        request: SearchRequest,
        *,
        recall: bool = True,
        plan: SearchPlan | None = None,
    ) -> SearchResult:
        plan = plan or self.plan
        memories = self.store.memories(persona)
        cfg = self.settings.get(persona)
        now = self.clock.now()
        pool = plan.note_pool(request.top_k)
        allowed = None if request.filters.empty else memories.allowed_ids(request.filters)
        # valid_at picks which facts are shown, not which ones rank: a fact closed before that
        # time still lifts its successor (_current_first), as it does without the filter
        ranking = (
            allowed
            if request.filters.valid_at is None
            else _ids_without_validity(memories, request.filters)
        )
        found = self.retriever.retrieve(
            NoteTier(memories),
            request.query,
            plan=plan,
            pool=pool,
            mode=request.mode,
            allowed=ranking,
            keyword_weight=cfg.keyword_weight,
            semantic_weight=cfg.semantic_weight,
        )
        query_vector = found.query_vector
        ranked = found.ranked
        scale = self._scale(persona, request, found.semantic, cfg, plan, query_vector)
        if scale is not None:  # one scale for notes and excerpts ranked together
            ranked = found.on_scale(scale)
        ranked = ranked[:pool]
        rows = _Rows(memories)  # the companion's texts and the hits: each row read once
        if request.mode == SearchMode.HYBRID:
            ranked = self._second_opinion(rows, request.query, ranked, plan)
            ranked = self._other_script_slot(rows, request.query, found.semantic, ranked, plan)
        top = self._note_hits(rows, ranked, query_vector, request, cfg, now, plan, allowed)[
            : request.top_k
        ]
        notes = [hit for _, hit in top]
        episodes = self._episodes(persona, request, query_vector, cfg, plan, notes, scale)
        results = merge_ranked(
            notes, episodes, request.top_k, trim=plan.trim_cited, fold=plan.fold_notes
        )
        if recall:  # only the notes actually returned are recalled (alone or in an excerpt)
            returned = {id(hit) for hit in results}
            folded = {key for hit in results for key in hit.extra.get(FOLDED_KEY, ())}
            cutoff = now - timedelta(hours=cfg.recall_min_interval_hours)
            recalled = [
                row_id
                for row_id, hit in top
                if (id(hit) in returned or hit.id in folded) and _may_be_due(hit, cutoff)
            ]
            if recalled:
                record_recalls(memories, recalled, now=now, cfg=cfg)
        return SearchResult(query=request.query, mode=request.mode, results=results)

    def search_episodes(
        self, persona: str, request: SearchRequest, *, plan: SearchPlan | None = None
    ) -> SearchResult:
        """The Episode tier alone: conversation excerpts, with sources (``episode_search``)."""
        self.store.get_persona(persona)
        if self.episodes is None:
            return SearchResult(query=request.query, mode=request.mode, results=[])
        hits = self.episodes.search_episodes(
            persona,
            request.query,
            self.retriever.embed_query(request.query),
            limit=request.top_k,
            filters=request.filters,
            plan=plan or self.plan,
            mode=request.mode,
        )
        return SearchResult(query=request.query, mode=request.mode, results=hits)

    def _second_opinion(
        self, rows: _Rows, query: str, ranked: list[Scored], plan: SearchPlan
    ) -> list[Scored]:
        """The fused candidates with their head re-scored by the companion embedder
        (``engine.companion``), before strength, current facts first and the merge with
        excerpts; unchanged without a companion or at weight 0."""
        if self.companion is None:
            return ranked
        return self.companion.rescore(
            query,
            ranked,
            lambda ids: {row_id: memory.content for row_id, memory in rows.read(ids).items()},
            weight=plan.companion_weight,
            pool=plan.companion_pool,
        )

    def _other_script_slot(
        self,
        rows: _Rows,
        query: str,
        semantic: list[Scored],
        ranked: list[Scored],
        plan: SearchPlan,
    ) -> list[Scored]:
        """The ranked notes with the best one written in another script than the query moved
        up to the plan's slot when it is close enough (``engine.script_slot``); unchanged
        when the plan gives no such slot to this embedder, or when fewer than
        ``other_script_least`` of the vector candidates (``semantic``) are in another script.
        Every note's script is the one its vector was indexed under (``VectorSearch.language``);
        beside a companion, its cosines of the head can veto the move (``other_script_margin``)."""
        if not plan.gives_other_script_slot(self.embedder.model_id):
            return ranked
        query_script = language_of(query)
        vectors = rows.memories.vectors
        others = sum(
            1
            for s in semantic
            if (script := vectors.language(s.id)) is not None and script != query_script
        )
        if others < plan.other_script_least:
            return ranked
        head = [s.id for s in ranked[: plan.other_script_within]]
        second = None
        if self.companion is not None and plan.other_script_margin is not None:
            # the companion's vectors of the head are cached since it re-scored it
            second = self.companion.cosines(
                query, {row_id: memory.content for row_id, memory in rows.read(head).items()}
            )
        return other_script_slot(
            ranked,
            {row_id: vectors.language(row_id) for row_id in head},
            query_script,
            slot=plan.other_script_slot,
            within=plan.other_script_within,
            floor=plan.other_script_floor,
            second_opinion=second,
            margin=plan.other_script_margin or 0.0,
        )

    def _note_hits(
        self,
        rows: _Rows,
        ranked: list[Scored],
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
        :meth:`_current_first` (which can bring in the successor the query did not match).
        Either way the ranking is the one :meth:`_hydrate` gives."""
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
        hits = self._hydrate(rows, ranked, query_vector, request, cfg, now, plan)
        if plan.current_first:
            hits = self._current_first(rows.memories, hits, query_vector, allowed, now)
        return [hit for hit in hits if allowed is None or member(allowed, hit[0])]

    def _hydrate(
        self,
        rows: _Rows,
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
        self,
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

    def _scale(
        self,
        persona: str,
        request: SearchRequest,
        notes: list[Scored],
        cfg: PersonaSettings,
        plan: SearchPlan,
        query_vector: np.ndarray,
    ) -> Scale | None:
        """The (low, high) over which notes and turns normalise their semantic scores when
        the plan ranks them on one scale and this search may show excerpts (hybrid mode):
        ``fusion.shared_scale`` of both tiers' semantic candidates. None otherwise."""
        if (
            not plan.shared_scale
            or self.episodes is None
            or request.mode != SearchMode.HYBRID
            or request.include_episodes is False
        ):
            return None
        # no notes yet: a fallback rule may still add excerpts, the others decide as they will
        if request.include_episodes is None and not self._wants_episodes(cfg, plan, []):
            return None
        turns = self.episodes.semantic_scores(
            persona, request.query, query_vector, filters=request.filters, plan=plan
        )
        if not turns:
            return None
        return shared_scale([*(s.score for s in notes), *turns], plan.scale_depth)

    def _episodes(
        self,
        persona: str,
        request: SearchRequest,
        query_vector: np.ndarray,
        cfg: PersonaSettings,
        plan: SearchPlan,
        notes: list[SearchHit],
        semantic_span: Scale | None = None,
    ) -> list[SearchHit]:
        """Conversation excerpts to rank beside the notes: ``include_episodes`` true/false
        forces it; otherwise the plan's rule decides (by default, the persona's
        ``episode_search_enabled``)."""
        if self.episodes is None or request.include_episodes is False:
            return []
        if request.include_episodes is None and not self._wants_episodes(cfg, plan, notes):
            return []
        return self.episodes.search_episodes(
            persona,
            request.query,
            query_vector,
            limit=request.top_k,
            filters=request.filters,
            plan=plan,
            mode=request.mode,
            semantic_span=semantic_span,
        )

    def _wants_episodes(
        self, cfg: PersonaSettings, plan: SearchPlan, notes: list[SearchHit]
    ) -> bool:
        if plan.episodes == EpisodeRule.PERSONA:
            return cfg.episode_search_enabled
        if plan.episodes == EpisodeRule.FALLBACK:  # too few relevant notes
            floor = self.embedder.calibration.to_raw(plan.fallback_similarity)
            relevant = sum(1 for n in notes if (n.similarity or 0.0) >= floor)
            return relevant < plan.fallback_notes
        return plan.episodes == EpisodeRule.ALWAYS


class _Rows:
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


def _head_hits(
    rows: _Rows,
    ranked: list[Scored],
    facts: Mapping[int, RankFacts],
    query_vector: np.ndarray,
    top_k: int,
    weight: float,
    now: datetime,
    allowed: np.ndarray | None,
) -> list[tuple[int, SearchHit]]:
    """The first ``top_k`` allowed candidates by ``facts`` (their score blended with live
    strength by ``weight``), read whole: as :meth:`SearchService._hydrate` would rank
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
        (score, fact.closed_at(now), fact.key, item.id)
        for item, fact, score in _active_scored(ranked, facts, weight, live)
    ]
    # as ordered_hits: the score as shown, current first, then the older row
    order.sort(key=lambda t: (-shown_score(t[0]), t[1], t[3]))
    chosen = [t for t in order if allowed is None or member(allowed, t[3])][:top_k]
    found = rows.read([row_id for *_, row_id in chosen])
    # of every candidate, as _hydrate: the product's float32 rounding depends on its rows
    sims = rows.memories.vectors.similarities(query_vector, facts.keys())
    hits = []
    for score, _, _, row_id in chosen:
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


def _ids_without_validity(memories: MemoryHandle, filters: SearchFilters) -> np.ndarray | None:
    """The rows the other filters allow, ignoring ``valid_at`` (None: no other filter)."""
    rest = replace(filters, valid_at=None)
    return None if rest.empty else memories.allowed_ids(rest)


def _may_be_due(hit: SearchHit, cutoff: datetime) -> bool:
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

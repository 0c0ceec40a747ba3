"""Search use case (DESIGN read path): candidates → filters before top-k → fusion → strength
blend → top-k → recall. Notes first; episodes are added by the episode tier when notes are few.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Protocol

import numpy as np

from omoide.clock import Clock
from omoide.config import PersonaSettings
from omoide.embed.base import Embedder
from omoide.engine.budget import FOLDED_KEY
from omoide.engine.fusion import Scale, Scored, shared_scale
from omoide.engine.hit_order import corroborated, merge_ranked
from omoide.engine.script_slot import other_script_slot
from omoide.engine.search_plan import DEFAULT_PLAN, EpisodeRule, SearchPlan
from omoide.model import SearchFilters, SearchHit, SearchMode
from omoide.service.companion import Companion
from omoide.service.memory_reads import record_recalls
from omoide.service.note_hits import NoteRows, ids_without_validity, may_be_due, note_hits
from omoide.service.retrieval import HybridRetriever, NoteTier
from omoide.service.search_request import SearchRequest, SearchResult, check_filters, check_query
from omoide.service.settings import SettingsService
from omoide.service.validate import check_unit_interval
from omoide.service.vector_cache import VectorCache
from omoide.store.port import Store
from omoide.store.vectors import language_of

__all__ = ["EpisodeSearcher", "SearchService"]


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
        text, count, search_mode = check_query(query, top_k, mode)
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
            query=text,
            top_k=count,
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
        """Validate a search's filters in the persona's time zone (``check_filters``)."""
        cfg = self.settings.get(persona)
        return check_filters(
            tags=tags,
            date_range=date_range,
            valid_at=valid_at,
            min_importance=min_importance,
            kind=kind,
            clock=self.clock,
            zone=cfg.zone,
        )

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
        # time still lifts its successor (note_hits._current_first), as it does without the filter
        ranking = (
            allowed
            if request.filters.valid_at is None
            else ids_without_validity(memories, request.filters)
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
        rows = NoteRows(memories)  # the companion's texts and the hits: each row read once
        if request.mode == SearchMode.HYBRID:
            ranked = self._second_opinion(rows, request.query, ranked, plan)
            ranked = self._other_script_slot(rows, request.query, found.semantic, ranked, plan)
        top = note_hits(
            rows,
            ranked,
            query_vector=query_vector,
            request=request,
            cfg=cfg,
            now=now,
            plan=plan,
            allowed=allowed,
        )[: request.top_k]
        notes = [hit for _, hit in top]
        episodes = self._episodes(persona, request, query_vector, cfg, plan, notes, scale)
        notes = corroborated(notes, episodes, plan.corroboration)
        results = merge_ranked(
            notes, episodes, request.top_k, trim=plan.trim_cited, fold=plan.fold_notes
        )
        if recall:  # only the notes actually returned are recalled (alone or in an excerpt)
            returned = {hit.id for hit in results if hit.type == "note"}
            returned |= {key for hit in results for key in hit.extra.get(FOLDED_KEY, ())}
            cutoff = now - timedelta(hours=cfg.recall_min_interval_hours)
            recalled = [
                row_id for row_id, hit in top if hit.id in returned and may_be_due(hit, cutoff)
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
        self, rows: NoteRows, query: str, ranked: list[Scored], plan: SearchPlan
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
        rows: NoteRows,
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

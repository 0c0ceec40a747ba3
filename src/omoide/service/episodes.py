"""Episode-tier search (2-tier retrieval, spec §Episode): the raw turns behind the notes.

Every turn is searched like a note (BM25 over a turn-level FTS index fused with exact cosine
over turn vectors), whether its episode is closed or its session is still open: a turn is
keyword-searchable as soon as it is posted and semantically once its vector is stored (the
segmentation job embeds new turns within seconds). Each matching turn is shown with its
neighbours inside its episode — or inside the not yet segmented tail of its session — (the
plan's ``neighbours`` turns either side, overlapping windows merged up to its ``max_window``),
headed by the date it was said, so a hit carries the words *and* the when; its ``sources`` are
exactly those turns. Candidates come from the same hybrid retriever as notes
(``service.retrieval``), with the plan's ``episode_pool``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.fusion import Scale, Scored
from omoide.engine.search_plan import DEFAULT_PLAN, SearchPlan
from omoide.model import Event, SearchFilters, SearchHit, SearchMode, Source
from omoide.service.companion import Companion
from omoide.service.passages import day_header, turn_passage
from omoide.service.retrieval import HybridRetriever, TurnTier
from omoide.service.settings import SettingsService
from omoide.store.port import Store

__all__ = ["EpisodeSearch"]


@dataclass
class _Window:
    episode_id: int | None  # None: the still unsegmented turns of an open session
    session_id: str
    first: int  # seq
    last: int
    score: float


class EpisodeSearch:
    """Implements the search service's ``EpisodeSearcher`` port."""

    def __init__(
        self,
        store: Store,
        settings: SettingsService,
        embedder: Embedder,
        companion: Companion | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.retriever = HybridRetriever(embedder)
        self.companion = companion  # the second embedder's opinion (service/companion.py)

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
    ) -> list[SearchHit]:
        """Turns ranked as the notes are, in the search's ``mode`` (keyword: their words only;
        it ranked them by meaning too), shown as windows of their episode. ``semantic_span``:
        the (low, high) to normalise semantic scores over, shared with the notes (one scale).
        """
        if not _searchable(filters):
            return []
        store = self.store.sessions(persona)
        cfg = self.settings.get(persona)
        tier = TurnTier(store)
        ranked = self.retriever.retrieve(
            tier,
            query,
            plan=plan,
            pool=plan.episode_pool,
            query_vector=query_vector,
            keyword_weight=cfg.keyword_weight,
            semantic_weight=cfg.semantic_weight,
            mode=mode,
            semantic_span=semantic_span,
        ).ranked
        events = store.events_by_ids([s.id for s in ranked])
        if self.companion is not None and mode == SearchMode.HYBRID:
            ranked = self.companion.rescore(
                query,
                ranked,
                lambda ids: {
                    i: turn_passage(events[i].speaker, events[i].text) for i in ids if i in events
                },
                weight=plan.episode_companion_weight,
                pool=plan.companion_pool,
            )
        sims = tier.similarities(query_vector, events.keys())
        return self.excerpts(
            persona,
            ranked,
            events,
            sims,
            plan=plan,
            limit=limit,
            zone=cfg.zone,
            keep=lambda event, _: _in_range(event, filters),
        )

    def excerpts(
        self,
        persona: str,
        ranked: Sequence[Scored],
        events: Mapping[int, Event],
        sims: Mapping[int, float],
        *,
        plan: SearchPlan,
        limit: int,
        zone: tzinfo,
        keep: Callable[[Event, float], bool],
    ) -> list[SearchHit]:
        """Ranked turns (best first) shown as at most ``limit`` windows of their episode, each
        turn's window merged into an overlapping one (``plan``'s ``neighbours``/``max_window``);
        a turn ``keep(event, score)`` rejects, or missing from ``events``, is skipped. ``sims``:
        each turn's cosine (a hit's ``similarity`` is its best turn's); ``zone``: the persona's,
        for the date headers."""
        windows: list[_Window] = []
        for item in ranked:
            event = events.get(item.id)
            if event is None or not keep(event, item.score):
                continue
            _place(windows, event, item.score, plan)
            if len(windows) >= limit:
                break
        return [self._hit(persona, w, sims, zone) for w in windows]

    def semantic_scores(
        self,
        persona: str,
        query: str,
        query_vector: np.ndarray,
        *,
        filters: SearchFilters,
        plan: SearchPlan = DEFAULT_PLAN,
    ) -> list[float]:
        """The semantic scores of the turns a search would rank (none when the filters are
        ones no turn can pass), for notes and turns to be put on one scale."""
        if not _searchable(filters):
            return []
        tier = TurnTier(self.store.sessions(persona))
        return [
            s.score
            for s in tier.semantic(query_vector, query=query, limit=plan.episode_pool, allowed=None)
        ]

    def _hit(
        self, persona: str, window: _Window, sims: Mapping[int, float], tz: tzinfo
    ) -> SearchHit:
        store = self.store.sessions(persona)
        turns = [
            e
            for e in store.events_between(window.session_id, window.first, window.last)
            if e.episode_id == window.episode_id
        ]
        header = day_header(turns[0].timestamp, tz) if turns else ""
        content = "\n".join([header, *(f"{e.speaker}: {e.text}" for e in turns)])
        best = max((sims.get(e.id, 0.0) for e in turns), default=0.0)
        ident = (
            str(window.episode_id) if window.episode_id is not None else f"open:{window.session_id}"
        )
        return SearchHit(
            type="episode",
            id=ident,
            content=content,
            score=window.score,
            similarity=best,
            sources=tuple(Source(e.id, e.external_id) for e in turns),
            extra={
                "session_id": window.session_id,
                "open": window.episode_id is None,
                "said_at": turns[0].timestamp.isoformat() if turns else None,
            },
        )


def _place(windows: list[_Window], event: Event, score: float, plan: SearchPlan) -> None:
    """Add the turn's window, merging it with overlapping or touching windows of the same
    episode (the merged window keeps the earlier, better rank) up to ``plan.max_window`` turns
    (so that one hit cannot eat a context budget)."""
    new = _Window(
        event.episode_id,
        event.session_id,
        event.seq - plan.neighbours,
        event.seq + plan.neighbours,
        score,
    )
    for window in windows:
        if _touches(window, new) and _span(window, new) <= plan.max_window:
            window.first, window.last = min(window.first, new.first), max(window.last, new.last)
            _absorb(windows, window, plan.max_window)
            return
    windows.append(new)


def _searchable(filters: SearchFilters) -> bool:
    """False for note-only filters: turns have no tags, kind or importance."""
    return not (filters.tags or filters.kind is not None or filters.min_importance is not None)


def _in_range(event: Event, filters: SearchFilters) -> bool:
    if filters.created_from is not None and event.timestamp < filters.created_from:
        return False
    return filters.created_until is None or event.timestamp < filters.created_until


def _touches(a: _Window, b: _Window) -> bool:
    return (
        (a.session_id, a.episode_id) == (b.session_id, b.episode_id)
        and b.first <= a.last + 1
        and b.last >= a.first - 1
    )


def _span(a: _Window, b: _Window) -> int:
    return max(a.last, b.last) - min(a.first, b.first) + 1


def _absorb(windows: list[_Window], grown: _Window, max_window: int) -> None:
    """Fold later windows that now touch ``grown`` into it."""
    for other in [w for w in windows if w is not grown]:
        if _touches(grown, other) and _span(grown, other) <= max_window:
            grown.first, grown.last = min(grown.first, other.first), max(grown.last, other.last)
            grown.score = max(grown.score, other.score)
            windows.remove(other)

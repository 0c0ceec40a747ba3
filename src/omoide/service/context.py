"""session_begin / get_context / update_context: what an LLM reads at the start of a conversation.

``get_context`` only reads. ``session_begin`` opens a session row, then builds the same context
with the time since the previous session. ``update_context`` writes the user's facts and the
persona's own state, bi-temporally, in one transaction. The text itself (sections, budget,
English/Japanese wording) is assembled by the pure ``engine/context.py``.

"Time since the last session" is measured from the previous session's end, or its start when it
never ended (a session ended by ``session_begin`` or for being idle ends at its last turn).
For ``get_context``, a most recent session that is still open is taken as the
current one: the gap is then the one before it (what ``session_begin`` reported).

What was said in a conversation that ended is in the context at once, whatever the background
work has done: a session ended by ``session_end``, by ``session_begin`` or by the idle sweep is
segmented and consolidated by durable jobs seconds later, and until its turns have become notes
the context shows the turns themselves (section "last conversation", with their event ids).
Those are the turns of the :data:`PENDING_SESSIONS` most recent sessions other than the current
one that are in no consolidated episode: not yet cut into an episode, or in an episode not yet
consolidated. Once consolidation has run, the notes it made are the newest memories and show
under "recent memories" instead. Reading them is a few indexed queries: nothing waits for the
jobs.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from omoide.clock import Clock, parse_iso
from omoide.config import PersonaSettings
from omoide.engine.block_text import block_text
from omoide.engine.context import (
    AssembledContext,
    BlockText,
    ContextInput,
    ContextStats,
    MemoryLine,
    TurnLine,
    assemble_context,
    choose_language,
    user_address,
)
from omoide.engine.fsrs import current_strength
from omoide.errors import InvalidInput, NotFound
from omoide.model import Event, Memory, OpenedSession, SessionMark
from omoide.service.blocks import BlockService
from omoide.service.memory_reads import with_live_strength
from omoide.service.settings import SettingsService
from omoide.service.state import StateChanges, StateService
from omoide.store.port import MemoryHandle, Store

__all__ = [
    "IMPORTANT_MIN_STRENGTH",
    "PENDING_SESSIONS",
    "ContextResult",
    "ContextService",
    "SessionStart",
]

# Below this, a memory is nearly forgotten (importance 0.5 at R ≈ 0.1): not "still strong".
IMPORTANT_MIN_STRENGTH = 0.05
# How many of the latest sessions (besides the current one) the context looks into for turns
# not yet consolidated: session_begin may have just ended several left open.
PENDING_SESSIONS = 3
# The language of the context is judged on the user's name, the recent memories and the user's
# latest turns not yet consolidated (no more: the judgement reads every character).
LANGUAGE_TURNS = 10


@dataclass(frozen=True)
class ContextResult:
    persona: str
    last_session_at: datetime | None  # the previous session's end (or start); None: first
    context: AssembledContext
    tz: tzinfo = UTC  # the persona's time zone: the days shown are its days

    @property
    def text(self) -> str:
        return self.context.text


@dataclass(frozen=True)
class SessionStart:
    session_id: str
    started_at: datetime
    previous_session_at: datetime | None
    context: ContextResult


class ContextService:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        settings: SettingsService,
        state: StateService,
        blocks: BlockService,
        begin_session: Callable[..., OpenedSession] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings
        self.state = state
        self.blocks = blocks
        # ends the persona's open sessions and opens one, in one transaction (SessionService)
        self.begin_session = begin_session

    def get_context(self, persona: str) -> ContextResult:
        """The context as of now; reads only."""
        now = self.clock.now()
        latest = self.store.sessions_meta(persona).latest(PENDING_SESSIONS + 1)
        previous, reference = _gap(latest, now)
        current = latest[0].session_id if latest and latest[0].ended_at is None else None
        return self._build(
            persona,
            now=now,
            previous_at=previous,
            reference=reference,
            pending=self._pending(persona, latest, current=current),
        )

    def session_begin(self, persona: str) -> SessionStart:
        """End the persona's other open sessions (as ``session_end`` would), then open a
        session and return its id with the context for it."""
        now = self.clock.now()
        meta = self.store.sessions_meta(persona)
        opened = (
            meta.begin(now=now)
            if self.begin_session is None
            else self.begin_session(persona, now=now)
        )
        previous = None if opened.previous is None else opened.previous.last_seen
        current = opened.session.session_id
        pending = self._pending(persona, meta.latest(PENDING_SESSIONS + 1), current=current)
        context = self._build(
            persona, now=now, previous_at=previous, reference=now, pending=pending
        )
        return SessionStart(
            session_id=opened.session.session_id,
            started_at=now,
            previous_session_at=previous,
            context=context,
        )

    def update_context(
        self, persona: str, *, user_info: Any = None, persona_state: Any = None
    ) -> StateChanges:
        """Update the user's facts and/or the persona's state in one transaction."""
        if user_info is None and persona_state is None:
            raise InvalidInput(
                'give user_info and/or persona_state, e.g. user_info={"name": "Rau"}',
                field="user_info",
            )
        return self.state.update(persona, user=user_info, persona_state=persona_state)

    def _pending(
        self, persona: str, latest: list[SessionMark], *, current: str | None
    ) -> list[Event]:
        """The turns of the latest sessions but ``current`` that are in no consolidated
        episode, oldest session first, each in the order said."""
        sessions = self.store.sessions(persona)
        out: list[Event] = []
        for mark in reversed(latest):
            if mark.session_id == current:
                continue
            try:
                session = sessions.get(mark.session_id)
            except NotFound:  # erased since the list was read
                continue
            for episode in sessions.episodes_of(session):
                if episode.consolidated_at is None:
                    out += sessions.events_between(
                        session.session_id, episode.first_seq, episode.last_seq
                    )
            out += sessions.events_after(session, session.segmented_upto_seq)
        return out

    def _build(
        self,
        persona: str,
        *,
        now: datetime,
        previous_at: datetime | None,
        reference: datetime,
        pending: list[Event],
    ) -> ContextResult:
        cfg = self.settings.get(persona)
        memories = self.store.memories(persona)
        recent = [
            with_live_strength(m, now)
            for m in memories.list_recent(limit=cfg.context_recent_count, only_current=True)
        ]
        scored = _live_strengths(memories, now)
        important = _strongest(
            memories, now, scored, cfg.context_important_count, exclude={m.key for m in recent}
        )
        user = self.state.get_current_user_state(persona)
        inp = ContextInput(
            persona=persona,
            language=choose_language(
                cfg.language,
                [
                    user.get("name") or user_address(user) or "",
                    *(m.content for m in recent),
                    *[e.content for e in pending if e.role == "user"][-LANGUAGE_TURNS:],
                ],
            ),
            since_last_session=None if previous_at is None else reference - previous_at,
            persona_state=self.state.get_current_persona_state(persona),
            user_state=user,
            recent=[_line(m) for m in recent],
            important=[_line(m) for m in important],
            stats=_stats(memories, scored),
            blocks=self._blocks(persona, cfg),
            conversation=[_turn(e) for e in pending],
            tz=cfg.zone,
        )
        assembled = assemble_context(inp, budget_tokens=cfg.context_budget_tokens)
        return ContextResult(
            persona=persona, last_session_at=previous_at, context=assembled, tz=inp.tz
        )

    def _blocks(self, persona: str, cfg: PersonaSettings) -> list[BlockText]:
        if not cfg.context_include_blocks:  # spec: blocks are not injected by default
            return []
        return [block_text(b) for b in self.blocks.list_blocks(persona)]


def _gap(latest: list[SessionMark], now: datetime) -> tuple[datetime | None, datetime]:
    """(when the previous session was last seen, the time the gap runs to)."""
    if latest and latest[0].ended_at is None:  # an open session is the current one
        previous = latest[1].last_seen if len(latest) > 1 else None
        return previous, latest[0].started_at
    return (latest[0].last_seen if latest else None), now


def _live_strengths(memories: MemoryHandle, now: datetime) -> list[tuple[float, int]]:
    """(strength now, id) of every current memory; superseded and closed ones are left out.

    Computed for ``now`` from the FSRS formula, so neither the ranking nor the mean depends on
    when the decay job last ran.
    """
    out = []
    for row in memories.active_rows_for_strength():
        last_accessed = row["last_accessed"]
        value = current_strength(
            row["importance"],
            row["stability"],
            now=now,
            last_accessed=None if last_accessed is None else parse_iso(last_accessed),
            created_at=parse_iso(row["created_at"]),
        )
        out.append((value, int(row["id"])))
    return out


def _strongest(
    memories: MemoryHandle,
    now: datetime,
    scored: list[tuple[float, int]],
    count: int,
    *,
    exclude: set[str],
) -> list[Memory]:
    """The ``count`` strongest memories (at least IMPORTANT_MIN_STRENGTH), not in ``exclude``."""
    if count <= 0:
        return []
    strong = [(value, -memory_id) for value, memory_id in scored if value >= IMPORTANT_MIN_STRENGTH]
    top = heapq.nlargest(count + len(exclude), strong)  # ties: the older memory first
    found = memories.by_ids([-neg_id for _, neg_id in top])
    ranked = [with_live_strength(found[-neg_id], now) for _, neg_id in top if -neg_id in found]
    return [m for m in ranked if m.key not in exclude][:count]


def _turn(event: Event) -> TurnLine:
    return TurnLine(
        session_id=event.session_id,
        event_id=event.id,
        external_id=event.external_id,
        speaker=event.speaker,
        role=event.role,
        content=event.text,
        said_at=event.timestamp,
    )


def _line(memory: Memory) -> MemoryLine:
    return MemoryLine(
        key=memory.key,
        content=memory.content,
        created_at=memory.created_at,
        strength=memory.strength,
    )


def _stats(memories: MemoryHandle, scored: list[tuple[float, int]]) -> ContextStats:
    stats = memories.stats()
    mean = sum(value for value, _ in scored) / len(scored) if scored else 0.0
    return ContextStats(
        active=stats.active, superseded=stats.superseded, mean_strength=mean, links=stats.links
    )

"""The episode tier's background work, the jobs a session's events queue: incremental
segmentation (``session.segment``) and consolidation (``episode.consolidate``).

- segmentation cuts only the turns after the last closed episode (closed episodes are never
  rewritten); every segment but the still-open last one becomes an episode (all of them once
  the session has ended), with its FTS entry and vector, and queues ``episode.consolidate``.
- consolidation turns an episode into notes through the normal write path (dedup, evolution,
  classification) with ``source = consolidation``, ``source_ref`` = the episode and provenance
  to the exact events; profile facts also update the bi-temporal user state.

:class:`~omoide.service.sessions.SessionService` (recording, ending, listing) is this work's
service too: it queues these jobs in the transactions that store and end sessions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from omoide.clock import Clock
from omoide.embed.base import Embedder
from omoide.engine.attachments import image_caption
from omoide.engine.consolidate import Consolidator, EventText
from omoide.engine.counts import how_many
from omoide.engine.segment import Segmenter, SegmentParams, Turn
from omoide.errors import Conflict
from omoide.model import Event, MemoryKind, NewEpisode, NewMemory
from omoide.service.memories import MemoryService
from omoide.service.passages import EPISODE_EMBED_CHARS, episode_text, turn_passage
from omoide.service.settings import SettingsService
from omoide.store.port import Store, UnitOfWork

__all__ = ["CONSOLIDATE_JOB", "SEGMENT_JOB", "EpisodeWork"]

logger = logging.getLogger("omoide.service.sessions")  # the session service's log, as before

SEGMENT_JOB = "session.segment"
_SEGMENT_ATTEMPTS = 5  # cuts of one segmentation job before a Conflict goes to the job queue
CONSOLIDATE_JOB = "episode.consolidate"

_KIND = {
    "fact": MemoryKind.FACT,
    "preference": MemoryKind.PREFERENCE,
    "profile": MemoryKind.PROFILE,
}


class EpisodeWork:
    """Segmentation and consolidation, on the collaborators the session service holds."""

    store: Store
    embedder: Embedder
    clock: Clock
    settings: SettingsService
    memories: MemoryService
    consolidator_for: Callable[[Any], Consolidator]
    update_user_state: Callable[..., Any] | None
    on_enqueue: Callable[[], None] | None
    segmenter_for: Callable[[Any], Segmenter]

    def _queue(self, work: UnitOfWork, persona_id: int, kind: str, payload: dict[str, Any]) -> None:
        work.enqueue(kind=kind, persona_id=persona_id, payload=payload, now=self.clock.now())

    def segment(self, persona: str, session_id: str, *, final: bool) -> list[int]:
        """Cut the turns after the last closed episode into episodes; returns new episode ids.

        Two segmentations of one session at once (a job per posted batch, taken by two workers
        or processes; a session ended while one runs): the one that commits second finds the
        session moved on (``add_episodes`` refuses its stale cut with a :class:`Conflict`) and
        cuts again from where the other stopped, at once: no attempt of the job used, no
        backoff, no failure logged."""
        for _ in range(_SEGMENT_ATTEMPTS - 1):
            try:
                return self._segment(persona, session_id, final=final)
            except Conflict:
                logger.debug(
                    "session %s persona=%s was segmented meanwhile; cutting again",
                    session_id,
                    persona,
                )
        return self._segment(persona, session_id, final=final)  # a Conflict now: job retry

    def _segment(self, persona: str, session_id: str, *, final: bool) -> list[int]:
        store = self.store.sessions(persona)
        session = store.get(session_id)
        final = final or session.ended_at is not None
        events = store.events_after(session, session.segmented_upto_seq)
        if not events:
            return []
        vectors = self._event_vectors(persona, events)
        cfg = self.settings.get(persona)
        params = SegmentParams(
            surprise_threshold=cfg.surprise_threshold, min_turns=cfg.min_segment_turns
        )
        turns = [
            Turn(index=e.seq, speaker=e.speaker, text=e.content, timestamp=e.timestamp)
            for e in events
        ]
        segments = self.segmenter_for(cfg).segment(turns, vectors, params=params, final=final)
        closed = segments if final else segments[:-1]
        if not closed:
            return []
        by_seq = {e.seq: e for e in events}
        drafts = []
        # The first segment of this run continues the segment a previous run left open.
        first = replace(
            closed[0], boundary_reason=session.open_reason, surprise=session.open_surprise
        )
        for seg in (first, *closed[1:]):
            members = [by_seq[s] for s in range(seg.start, seg.end + 1) if s in by_seq]
            text = episode_text(members, cfg.zone)
            drafts.append(
                NewEpisode(
                    first_seq=seg.start,
                    last_seq=seg.end,
                    content=text,
                    topic=seg.topic,
                    surprise=seg.surprise,
                    boundary_reason=str(seg.boundary_reason),
                    vector=self.embedder.embed_passages([text[:EPISODE_EMBED_CHARS]])[0],
                )
            )

        def queue(work: UnitOfWork, ids: list[int]) -> None:
            if cfg.episode_consolidation_enabled:
                for episode_id in ids:
                    self._queue(work, store.persona_id, CONSOLIDATE_JOB, {"episode_id": episode_id})

        still_open = segments[-1] if not final else None
        ids = store.add_episodes(
            session,
            drafts,
            expected_upto=session.segmented_upto_seq,
            now=self.clock.now(),
            open_reason=str(still_open.boundary_reason) if still_open else "start",
            open_surprise=still_open.surprise if still_open else 0.0,
            after=queue,
        )
        logger.info(
            "segmented session %s persona=%s: %s",
            session_id,
            persona,
            how_many(len(ids), "episode"),
        )
        if self.on_enqueue:
            self.on_enqueue()
        return ids

    def _event_vectors(self, persona: str, events: list[Event]) -> np.ndarray:
        """Passage vectors of the events, embedding (and storing) only the missing ones."""
        store = self.store.sessions(persona)
        known = store.event_vectors([e.id for e in events])
        missing = [e for e in events if e.id not in known]
        if missing:
            fresh = self.embedder.embed_passages([turn_passage(e.speaker, e.text) for e in missing])
            store.save_event_vectors(missing, fresh)
            known.update({e.id: v for e, v in zip(missing, fresh, strict=True)})
        return np.stack([known[e.id] for e in events]).astype(np.float32)

    def consolidate(self, persona: str, episode_id: int) -> int:
        """Turn one closed episode into notes (normal write path); returns notes created."""
        store = self.store.sessions(persona)
        episode = store.get_episode(episode_id)
        if episode.consolidated_at is not None:
            return 0
        events = store.events_of_episode(episode_id)
        cfg = self.settings.get(persona)
        # Times in the persona's zone: a note's date and the days its relative dates resolve
        # to ("yesterday (7 May 2023)") are the user's calendar days, not UTC's.
        tz = cfg.zone
        result = self.consolidator_for(cfg).consolidate(
            [
                EventText(
                    event_id=e.id,
                    speaker=e.speaker,
                    role=e.role,
                    text=e.content,
                    timestamp=e.timestamp.astimezone(tz),
                    image_caption=image_caption(e.metadata),
                )
                for e in events
            ]
        )
        when = {e.id: e.timestamp for e in events}
        news = [
            NewMemory(
                content=note.content,
                kind=_KIND.get(str(note.kind), MemoryKind.FACT),
                importance=note.importance,
                tags=note.tags,
                source="consolidation",
                source_ref=str(episode_id),
                source_event_ids=note.source_event_ids,
                created_at=min(
                    max(
                        (when[i] for i in note.source_event_ids if i in when),
                        default=episode.ended_at,
                    ),
                    self.clock.now(),
                ),
            )
            for note in result.notes
        ]
        # Embedded before the write lock is taken; the notes, the state they teach and the
        # episode's marker then commit in one transaction, guarded by the marker: a second run
        # (a job taken back after its lease expired, a concurrent worker) writes nothing.
        vectors = self.embedder.embed_passages([n.content for n in news]) if news else []
        latest = {update.key: update.value for update in result.profile}
        # One note per turn: the episode's notes are never each other's duplicates. Answer
        # notes share their wording (「…」という質問に「…」と答えた), which embeds close enough
        # for dedup to fold one into another and lose what the second answer said.
        made: set[str] = set()
        with store.consolidating(episode_id, now=self.clock.now()) as first:
            if not first:
                return 0
            for new, vector in zip(news, vectors, strict=True):
                outcome = self.memories.create(
                    persona,
                    new,
                    changed_by="consolidation",
                    vector=vector,
                    distinct_from=frozenset(made),
                )
                if outcome.status == "created" and outcome.memory is not None:
                    made.add(outcome.memory.key)
            if latest and self.update_user_state is not None:
                self.update_user_state(persona, latest, source_session=episode.session_id)
        created = len(made)
        logger.info(
            "consolidated episode %d persona=%s: %s, %s",
            episode_id,
            persona,
            how_many(created, "note"),
            how_many(len(result.profile), "profile update"),
        )
        return created

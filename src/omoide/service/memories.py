"""Memory use cases (Note tier): create with dedup, read with recall, update, delete, history.

DESIGN write path steps 1–3 happen here, synchronously; step 4 (evolution and 3-op
classification) is enqueued in the same transaction as the insert and runs in the background
(``service/evolution.py``), so nothing in the write path waits for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from omoide.clock import Clock
from omoide.embed.base import Embedder
from omoide.engine.errors import named
from omoide.engine.fsrs import initial_stability
from omoide.errors import Conflict
from omoide.model import (
    UNSET,
    CreateOutcome,
    Link,
    Memory,
    MemoryStats,
    MemoryVersion,
    NewMemory,
    Purged,
    Unset,
)
from omoide.service.dedup import DedupDecider
from omoide.service.dedup_write import Pending, write_deduplicated
from omoide.service.keyed_locks import KeyedLocks
from omoide.service.memory_input import checked_changes, checked_new
from omoide.service.memory_reads import record_recalls, with_live_strength
from omoide.service.settings import SettingsService
from omoide.service.validate import check_page
from omoide.store.port import Store, UnitOfWork

__all__ = [
    "EVOLVE_JOB",
    "MAX_CONTENT_CHARS",
    "MemoryService",
]

logger = logging.getLogger(__name__)

EVOLVE_JOB = "memory.evolve"
MAX_CONTENT_CHARS = 50_000


class MemoryService:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        clock: Clock,
        settings: SettingsService,
        *,
        max_content_chars: int = MAX_CONTENT_CHARS,
        on_enqueue: Callable[[], None] | None = None,
        dedup: DedupDecider | None = None,
    ) -> None:
        self.store = store
        # default: the dedup judge when the server's own embedder is its part embedder,
        # else the value veto alone (the wiring passes a decider that can build it)
        self.dedup = dedup if dedup is not None else DedupDecider(embedder)
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.max_content_chars = max_content_chars
        self.on_enqueue = on_enqueue
        # dedup and insert of one persona run one at a time in this process, so its writes
        # queue here rather than decide again (a persona's lock lives only while someone holds
        # or waits for it); another process is kept apart by the store (``create``)
        self.create_locks = KeyedLocks()

    # -- create --------------------------------------------------------------------------

    def build_new(
        self,
        *,
        content: Any,
        importance: Any = None,
        tags: Any = None,
        emotion_type: Any = None,
        emotion_intensity: Any = None,
        kind: Any = None,
        valid_from: Any = None,
        valid_until: Any = None,
        metadata: Any = None,
    ) -> NewMemory:
        """Validate user-supplied fields into a :class:`NewMemory` (422 on the first mistake)."""
        return checked_new(
            content=content,
            importance=importance,
            tags=tags,
            emotion_type=emotion_type,
            emotion_intensity=emotion_intensity,
            kind=kind,
            valid_from=valid_from,
            valid_until=valid_until,
            metadata=metadata,
            max_chars=self.max_content_chars,
        )

    def create(
        self,
        persona: str,
        new: NewMemory,
        *,
        changed_by: str = "user",
        vector: Any = None,
        distinct_from: frozenset[str] = frozenset(),
    ) -> CreateOutcome:
        """Write path steps 1-3 (embed, dedup, insert + queue evolution); ``vector`` is the
        content's passage vector when the caller already embedded it. ``distinct_from``: keys
        of memories the new one is known not to restate, so never its duplicate (the other
        notes one consolidation made of the same episode, each from its own turns)."""
        memories = self.store.memories(persona)
        cfg = self.settings.get(persona)
        now = self.clock.now()
        if vector is None:
            vector = self.embedder.embed_passages([new.content])[0]

        def queue_evolution(work: UnitOfWork, memory: Memory) -> None:
            work.enqueue(
                kind=EVOLVE_JOB,
                persona_id=memories.persona_id,
                payload={"key": memory.key},
                now=now,
            )

        def decide() -> tuple[Memory | Pending, float] | None:
            return self._find_duplicate(
                persona, new.content, vector, cfg.dedup_threshold, now, distinct_from=distinct_from
            )

        def write(
            duplicate: tuple[Memory | Pending, float] | None, seen: int | None
        ) -> CreateOutcome | Memory | None:
            if duplicate is not None:
                found, similarity = duplicate
                assert isinstance(found, Memory)  # no memory written before it here
                logger.info(
                    "memory_create persona=%s duplicate of %s (cos %.3f)",
                    persona,
                    found.key,
                    similarity,
                )
                # the turns that restated it are its sources too: erasing the conversation
                # that first said it must not take a fact another one still states
                memories.add_sources(found.key, new.source_event_ids)
                return CreateOutcome(status="duplicate", duplicate_of=found, similarity=similarity)
            return memories.insert(
                new,
                vector=vector,
                now=now,
                changed_by=changed_by,
                stability=initial_stability(new.emotion_intensity),
                after_insert=queue_evolution,
                if_revision=seen,
            )

        with self.create_locks.hold(persona):
            done = write_deduplicated(
                memories.revision, decide, write, what=f"memory_create persona={persona}"
            )
        if isinstance(done, CreateOutcome):
            return done
        if self.on_enqueue is not None:
            self.on_enqueue()
        return CreateOutcome(status="created", memory=with_live_strength(done, now))

    def _find_duplicate(
        self,
        persona: str,
        content: str,
        vector: Any,
        threshold: float,
        now: datetime,
        written_before: Sequence[Pending] = (),
        distinct_from: frozenset[str] = frozenset(),
    ) -> tuple[Memory | Pending, float] | None:
        """The closest *current* memory above the calibrated dedup threshold that states the
        same values, if any (spec §dedup; DESIGN write path step 2).

        Closed (superseded or expired) memories are not duplicates: restating a fact that was
        true before and is true again must be saved, not swallowed. Nor is a near-copy in which
        a value changed or was added ("2 dogs" → "3 dogs", a negation, another name, place or
        date, a bound, "for $9,000", 釣り → キャンプ): embeddings score such pairs as high as
        paraphrases, so :class:`DedupDecider` (the value veto weighed by the learned dedup
        judge) decides, and a new memory it does not call a duplicate is saved for
        classification to handle. Paraphrases (other words, order, voice, spelling,
        politeness) are duplicates, as far as the judge tells them apart, and a judge's drop
        is vetoed when the new memory tells a change in so many words that the old one does
        not ("now", "no longer", 最近, やめた: ``engine.classify.change_told``) or states
        content the old one lacks (a detail, a reason, a number, restated in another sentence
        shape: ``engine.classify.added_information``). A judge trained
        with a floor also weighs candidates a little below the threshold, down to it, with the
        band's own probability threshold (:meth:`DedupDecider.floor`; the bundled judges have
        none).

        ``written_before``: memories written in the same transaction before this one (a merge
        import's batch), not yet in the store; they are weighed as stored ones, so a batch
        deduplicates as the same writes made one after another. ``distinct_from``: keys that
        are never the duplicate (see :meth:`create`).
        """
        memories = self.store.memories(persona)
        calibration = self.embedder.calibration
        floor = min(calibration.to_raw(threshold), self.dedup.floor(calibration, threshold))
        # the nearest 5 of the stored memories and those written before it, as the store's
        # search would rank them once those were stored (raw cosine, best first)
        hits: list[tuple[int | Pending, float]] = list(memories.vectors.search(vector, limit=5))
        hits += [(p, float(np.dot(p.vector, vector))) for p in written_before]
        hits = sorted(hits, key=lambda hit: -hit[1])[:5]
        hits = [(i, s) for i, s in hits if s > floor]
        ids = [i for i, _ in hits if isinstance(i, int)]
        found = memories.by_ids(ids) if ids else {}
        candidates: list[tuple[Memory | Pending, float]] = [
            (memory, similarity)
            for memory_id, similarity in hits
            if (memory := (memory_id if isinstance(memory_id, Pending) else found.get(memory_id)))
            is not None
            and memory.superseded_by is None
            and memory.valid_at(now)
            and (isinstance(memory, Pending) or memory.key not in distinct_from)
        ]
        # every candidate judged at once: their notation cosines come from one embed call
        first = self.dedup.duplicate_among(
            content, [(m.content, s) for m, s in candidates], calibration, threshold
        )
        if first is None:
            if candidates:
                logger.debug(
                    "not a duplicate of %s: a value changed or a change told",
                    ", ".join(f"{m.key} (cos {s:.3f})" for m, s in candidates),
                )
            return None
        return candidates[first]

    def find_duplicate(
        self, persona: str, content: str, vector: Any, *, written_before: Sequence[Pending] = ()
    ) -> tuple[str, float] | None:
        """The key of the current memory that a write of ``content`` would be refused as a
        duplicate of, and its cosine (imports with ``merge`` deduplicate as a normal write
        does); ``written_before`` as in :meth:`_find_duplicate`."""
        found = self._find_duplicate(
            persona,
            content,
            vector,
            self.settings.get(persona).dedup_threshold,
            self.clock.now(),
            written_before,
        )
        return None if found is None else (found[0].key, found[1])

    # -- read ----------------------------------------------------------------------------

    def get(self, persona: str, key: str, *, recall: bool = True) -> Memory:
        """Read by key; counts as a recall (spec §FSRS) unless ``recall`` is False."""
        memories = self.store.memories(persona)
        memory = memories.get(key)
        now = self.clock.now()
        if recall and memory.status == "active":
            cfg = self.settings.get(persona)
            if record_recalls(memories, [memories.id_of(key)], now=now, cfg=cfg):
                memory = memories.get(key)
        return with_live_strength(memory, now)

    def list_recent(
        self, persona: str, *, limit: int = 20, offset: int = 0, include_deleted: bool = False
    ) -> list[Memory]:
        check_page(limit, offset)
        now = self.clock.now()
        return [
            with_live_strength(m, now)
            for m in self.store.memories(persona).list_recent(
                limit=limit, offset=offset, include_tombstoned=include_deleted
            )
        ]

    def history(self, persona: str, key: str) -> list[MemoryVersion]:
        return self.store.memories(persona).history(key)

    def links(self, persona: str, key: str) -> list[Link]:
        return self.store.memories(persona).links(key)

    def stats(self, persona: str) -> MemoryStats:
        return self.store.memories(persona).stats()

    # -- update / delete -----------------------------------------------------------------

    def update(
        self,
        persona: str,
        key: str,
        *,
        content: Any = UNSET,
        importance: Any = UNSET,
        tags: Any = UNSET,
        emotion_type: Any = UNSET,
        emotion_intensity: Any = UNSET,
        kind: Any = UNSET,
        valid_from: Any = UNSET,
        valid_until: Any = UNSET,
        metadata: Any = UNSET,
        changed_by: str = "user",
    ) -> Memory:
        """Partial update; UNSET leaves a field alone. ``importance`` is immutable (422)."""
        memories = self.store.memories(persona)
        current = memories.get(key, with_links=False)
        # Both refusals depend on the memory's state, not on the request alone: 409.
        if current.status != "active":
            raise Conflict(f"memory {named(key)} is deleted and cannot be updated", key=key)
        if not isinstance(importance, Unset) and importance != current.importance:
            raise Conflict(
                "importance is immutable after creation (spec §FSRS); create a new memory instead",
                field="importance",
                key=key,
            )
        changes = checked_changes(
            current,
            max_chars=self.max_content_chars,
            content=content,
            tags=tags,
            emotion_type=emotion_type,
            emotion_intensity=emotion_intensity,
            kind=kind,
            valid_from=valid_from,
            valid_until=valid_until,
            metadata=metadata,
        )
        if not changes:
            return with_live_strength(current, self.clock.now())
        vector = None
        if "content" in changes:
            vector = self.embedder.embed_passages([changes["content"]])[0]
        memory = memories.update(
            key, changes, now=self.clock.now(), changed_by=changed_by, vector=vector
        )
        return with_live_strength(memory, self.clock.now())

    def delete(self, persona: str, key: str) -> Memory:
        """Tombstone: never a hard delete; the memory and its history remain readable."""
        return with_live_strength(
            self.store.memories(persona).tombstone(key, now=self.clock.now()), self.clock.now()
        )

    def purge(self, persona: str, key: str) -> Purged:
        """Forget: erase the memory, its versions, links, sources, vectors and index rows, so
        that its text is nowhere in the data folder (DESIGN §2's one exception). The remainders
        evolution split off from it (the unchanged part of a closed compound memory, which
        holds part of its text) are erased with it; returns their keys. A memory that pointed
        at it keeps a version row of the cleared pointer. NotFound for an unknown key; a
        tombstoned memory can be purged too.

        The conversations it was drawn from are not touched (erasing a conversation is the
        user's own step, ``ForgetService.delete_session``): the result names them
        (``said_in``), as their turns may still hold its words."""
        erased = self.store.purge_memory(persona, key, now=self.clock.now())
        logger.info(
            "memory_purge persona=%s key=%s (%d erased, said in %d sessions)",
            persona,
            key,
            erased.memories,
            len(erased.said_in),
        )
        return Purged(
            also=tuple(k for k in erased.keys if k != key),
            said_in=erased.said_in,
            scrub_pending=erased.scrub_pending,
        )

"""Write path step 4, run by the job queue: A-MEM evolution and 3-op classification.

Trigger: a ``memory.evolve`` job enqueued in the same transaction as the new memory.
Why: linking related memories and closing contradicted ones must never delay the reply.
Outcome (spec §Memory Evolution, §3-op): up to N neighbours from the evolution threshold up
(the spec's band [evolution, dedup], plus memories above dedup that were kept because a value
changed) get access + a symmetric SEMANTIC link + ``summary_ref``; candidates from the
classification band (none there: the nearest memory from ``classify_nearest_low`` up, closed
only on a verdict of ``classify_nearest_confidence``, ``engine.candidates.nearest_under_band``)
are judged INDEPENDENT / EXTENDABLE (merge tags, importance = max) /
CONTRADICTORY (close: ``valid_until`` = new valid_from or created_at, not before the old
fact's own start (one contradicted before it began gets an empty window), ``superseded_by``;
only the nearest candidate still open when the effects are applied is ever closed, passing
over the same fact said before only on a sure verdict, and none when another contradicted
candidate sits as near: ``engine.candidates.verdict_effects`` here, ``closable`` in the
store's transaction).
A closed memory that held more than the fact that changed ("lives in Tokyo with her two
cats" → "moved to Osaka") leaves its unchanged part behind as a new current memory
(``engine.classify.split_compound``)
with ``source = evolution``, ``source_ref`` = the closed key and
``metadata.remainder_of``, so nothing true is lost (issue 9). It is computed (its parts
embedded) for the one memory that closes, not for every candidate judged CONTRADICTORY; another
of those is offered the store's transaction (should an evolution at once close the nearest
first) only when closing it leaves nothing behind.
A new memory that states again a fact already closed ("lives in Nara" saved again after "moved
from Nara to Kobe" closed it) closes that fact's current successor instead: the fact changed
back, and the newest statement is the current one (:meth:`EvolutionService._restated`).
Dated before the successor began (its own ``valid_from`` earlier), it is instead a fact about
that earlier time: the new memory itself is closed at the successor's start, ``superseded_by``
the successor, in the same transaction (``ended_by``), and closes nothing of the chain.
Everything is applied in one transaction guarded by ``evolved_at`` — exactly once in effect.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

import numpy as np

from omoide.clock import Clock
from omoide.config import PersonaSettings
from omoide.embed.base import Embedder
from omoide.engine.candidates import (
    closable,
    close_lead,
    judged_candidates,
    said_again,
    verdict_effects,
)
from omoide.engine.classify import (
    Candidate,
    Classifier,
    PassageVectors,
    Relation,
    remainder,
    split_compound,
)
from omoide.engine.width import text_columns
from omoide.model import Memory, NewMemory
from omoide.service.dedup import DedupDecider
from omoide.service.memory_reads import successor_chain
from omoide.service.settings import SettingsService
from omoide.store.port import MemoryHandle, Store, VectorSearch

__all__ = ["EvolutionService"]

logger = logging.getLogger(__name__)

# The nearest memories a new one is ranked against (the benchmarks that replay this job rank
# as many).
NEIGHBOUR_POOL = 50
_RESTATED_POOL = 5  # the nearest closed memories a new one may state again (as dedup's 5)
LINK_INCREMENT = 0.2
LINK_CAP = 1.0


class EvolutionService:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        clock: Clock,
        settings: SettingsService,
        classifier_for: Callable[[PersonaSettings], Classifier],
        dedup: DedupDecider | None = None,
    ) -> None:
        self.store = store
        # dedup's judgement, which tells a closed fact stated again (:meth:`_restated`)
        self.dedup = dedup if dedup is not None else DedupDecider(embedder)
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.classifier_for = classifier_for

    def evolve(self, persona: str, key: str) -> bool:
        """Run step 4 for memory ``key``; False when there was nothing (left) to do."""
        memories = self.store.memories(persona)
        memory = memories.get(key, with_links=False)
        if memory.status != "active" or memory.evolved_at is not None:
            return False
        cfg = self.settings.get(persona)
        memory_id = memories.id_of(key)
        vector = memories.vectors.get(memory_id)
        if vector is None:
            vector = self.embedder.embed_passages([memory.content])[0]
        scored = [
            (i, s)
            for i, s in memories.vectors.search(vector, limit=NEIGHBOUR_POOL)
            if i != memory_id
        ]
        others = memories.by_ids([i for i, _ in scored])
        now = self.clock.now()
        # Only memories written before this one (row ids grow with inserts): a job that runs
        # late must not judge memories that arrived after it, whatever their timestamps say.
        current = [
            (others[i], s)
            for i, s in scored
            if i < memory_id
            and i in others
            and others[i].superseded_by is None
            and others[i].valid_at(now)
        ]
        ids = {m.key: i for i, m in others.items()}

        to_raw = self.embedder.calibration.to_raw
        low = to_raw(cfg.evolution_threshold)
        neighbours = []
        if text_columns(memory.content) >= cfg.evolution_min_chars:
            # The spec's band ends at the dedup threshold because nothing above it used to be
            # saved. Now a memory above it is saved when a value changed ("2 dogs" → "3 dogs"):
            # the closest relative of all, so it is linked too (issue 8).
            neighbours = [ids[m.key] for m, s in current if s >= low]
            neighbours = neighbours[: cfg.evolution_max_neighbours]

        # none in the band: the nearest from the lower edge up, closed only on a sure verdict
        chosen, under = judged_candidates(
            current,
            to_raw(cfg.classify_band_low),
            to_raw(cfg.classify_nearest_low),
            cfg.classify_max_candidates,
        )
        candidates = [Candidate(m.key, m.content, s) for m, s in chosen]
        by_key = {m.key: m for m, _ in current}
        known = PassageVectors(
            self.embedder.model_id,
            {memory.content: vector, **_stored_vectors(memories.vectors, candidates, ids)},
        )
        effects = verdict_effects(
            [(c.key, c.similarity) for c in candidates],
            self._verdicts(memory, candidates, cfg, known),
            under_band=under,
            sure=cfg.classify_nearest_confidence,
            same_fact=to_raw(cfg.dedup_threshold),
            repeated={c.key for c in candidates if said_again(c.content, memory.content)},
            lead=close_lead(memory.content),
        )
        extends = [
            (
                k,
                tuple(dict.fromkeys(by_key[k].tags + memory.tags)),
                max(by_key[k].importance, memory.importance),
            )
            for k in effects.extended
        ]
        supersedes = [(k, _close_time(memory, by_key[k])) for k in effects.contradicted]
        order = effects.order
        restated = self._restated(
            memories,
            memory,
            memory_id,
            [(others[i], s) for i, s in scored if i < memory_id and i in others],
            cfg,
            now,
        )
        ended_by = None
        if restated is not None and _start(memory) > _start(restated[1]):
            # the fact changed back: its successor is the one to close
            back_id, successor = restated
            ids[successor.key], by_key[successor.key] = back_id, successor
            supersedes, order = [(successor.key, _close_time(memory, successor))], [successor.key]
        elif restated is not None and _dated_before(memory, restated[1]):
            # a statement about the time before the change: true until the successor began
            successor_id, successor = restated
            ended_by = (successor_id, _start(successor))
            supersedes = [(k, until) for k, until in supersedes if k != successor.key]
        # The one memory that closes (the first of the order, when contradicted; all open now)
        # has its unchanged part computed; another judged contradicted closes only if an
        # evolution at once closed that one first, and is offered the store only when it leaves
        # no part.
        closing = closable(order, {k for k, _ in supersedes})
        supersedes = [
            (k, until)
            for k, until in supersedes
            if k in closing or split_compound(by_key[k].content, cfg.language) is None
        ]
        remainders = self._remainders(memory, vector, [by_key[k] for k in closing], cfg)
        judged = [ids[k] for k in order]
        applied = memories.apply_evolution(
            key,
            now=now,
            neighbour_ids=neighbours,
            link_increment=LINK_INCREMENT,
            link_cap=LINK_CAP,
            extends=[(ids[k], tags, imp) for k, tags, imp in extends],
            supersedes=[(ids[k], until) for k, until in supersedes],
            remainders=remainders,
            judged=judged,
            ended_by=ended_by,
        )
        logger.info(
            "evolved %s persona=%s: %d linked, %d extended, %d superseded, %d kept remainders%s",
            key,
            persona,
            len(neighbours),
            len(extends),
            len(supersedes),
            len(remainders),
            ", ended by its successor" if ended_by else "",
        )
        return applied

    def _restated(
        self,
        memories: MemoryHandle,
        memory: Memory,
        memory_id: int,
        nearest: list[tuple[Memory, float]],
        cfg: PersonaSettings,
        now: datetime,
    ) -> tuple[int, Memory] | None:
        """The current successor of a superseded fact that ``memory`` states again, with its
        row id, or None.

        "Lives in Nara" was closed by "moved from Nara to Kobe"; the user then saves "lives in
        Nara" again. Dedup passed it (a closed fact is no duplicate), and the judge, comparing
        it with the successor alone, often finds no contradiction in two texts that share the
        place. Left so, the two would be current side by side. When the new memory starts
        after the successor, the fact changed back and the successor is closed (the newest
        statement is the current truth); when it is dated before the successor began, it was
        true only until that change and is the one closed (:meth:`evolve`). Which closed fact
        is stated again is dedup's judgement (the same one that would refuse the new memory
        were that fact current), over the nearest closed memories written before it
        (``nearest``: (memory, raw cosine), nearest first). None when the new memory is itself
        a past fact (its own end given, or already closed)."""
        if memory.closed_at(now):
            return None
        closed = [
            (m, s) for m, s in nearest if m.status == "active" and m.superseded_by is not None
        ][:_RESTATED_POOL]
        if not closed:
            return None
        first = self.dedup.duplicate_among(
            memory.content,
            [(m.content, s) for m, s in closed],
            self.embedder.calibration,
            cfg.dedup_threshold,
        )
        if first is None:
            return None
        fetched: dict[str, tuple[int, Memory]] = {}
        chain = successor_chain(memories, closed[first][0].superseded_by or "", fetched)
        if chain is None:
            return None
        head_id, head = fetched[chain[-1]]
        if head_id >= memory_id or head.closed_at(now):
            return None
        return head_id, head

    def _remainders(
        self, memory: Memory, vector: np.ndarray, closed: list[Memory], cfg: PersonaSettings
    ) -> list[tuple[NewMemory, np.ndarray, float]]:
        """The unchanged part of each closed compound memory, as a new memory to write."""
        out: list[tuple[NewMemory, np.ndarray, float]] = []
        for old in closed:
            compound = split_compound(old.content, cfg.language)
            if compound is None:
                continue
            part_vectors = self.embedder.embed_passages(list(compound.parts))
            sims = [float(np.dot(v, vector)) for v in part_vectors]
            text = remainder(old.content, memory.content, lang=cfg.language, part_similarities=sims)
            if text is None:
                continue
            new = NewMemory(
                content=text,
                kind=old.kind,
                importance=old.importance,
                tags=old.tags,
                emotion_type=old.emotion_type,
                emotion_intensity=old.emotion_intensity,
                source="evolution",
                source_ref=old.key,
                valid_from=old.valid_from,
                metadata={"remainder_of": old.key, "superseded_by": memory.key},
                # the old memory's turns: erasing the conversation erases the remainder too
                source_event_ids=tuple(source.event_id for source in old.sources),
            )
            out.append((new, self.embedder.embed_passages([text])[0], old.stability))
        return out

    def _verdicts(
        self,
        memory: Memory,
        candidates: list[Candidate],
        cfg: PersonaSettings,
        known: PassageVectors,
    ) -> dict[str, tuple[Relation, float]]:
        """The persona's classifier's verdict on each candidate (relation and confidence by
        key; one call, none when there is no candidate)."""
        if not candidates:
            return {}
        verdicts = self.classifier_for(cfg).classify(
            memory.content,
            candidates,
            note=memory.source == "consolidation",
            lang=cfg.language,
            known=known,
        )
        return {v.key: (v.relation, v.confidence) for v in verdicts}


def _start(memory: Memory) -> datetime:
    """When a memory's fact began: its own start, else when it was written."""
    return memory.valid_from or memory.created_at


def _dated_before(memory: Memory, successor: Memory) -> bool:
    """Whether ``memory``, stating again a fact that ``successor`` replaced, is dated before the
    successor began (its own ``valid_from``, no end of its own): a fact about that earlier
    time. A restatement with no date is a statement of now and never qualifies."""
    return (
        memory.valid_from is not None
        and memory.valid_until is None
        and memory.valid_from < _start(successor)
    )


def _close_time(new: Memory, old: Memory) -> datetime:
    """The ``valid_until`` that ``new`` gives ``old`` when it closes it: when the new fact
    starts; when that is not after the old one's start, when the new fact was said. Never
    before the old one's start: a fact contradicted before it started (a plan given up) never
    held, and is closed where it would have begun (an empty window; it stays in history)."""
    until = _start(new)
    if old.valid_from is None or until > old.valid_from:
        return until
    return max(new.created_at, old.valid_from)


def _stored_vectors(
    vectors: VectorSearch, candidates: list[Candidate], ids: dict[str, int]
) -> dict[str, np.ndarray]:
    """Each candidate's stored passage vector by its text (the judge reuses a vector when it
    reads this embedder's cosines, instead of embedding the memory again)."""
    out = {}
    for candidate in candidates:
        vec = vectors.get(ids[candidate.key])
        if vec is not None:
            out[candidate.content] = vec
    return out

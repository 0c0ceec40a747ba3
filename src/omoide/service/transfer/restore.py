"""An import's second pass: the file's records restored in batches, one transaction each,
skipping what is already there; a merge skips a memory a normal write would call a duplicate.
Texts without a vector of the configured embedder in the file are embedded here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from omoide.config import RETIRED_SETTINGS
from omoide.engine.attachments import turn_text
from omoide.engine.errors import named
from omoide.engine.transfer_format import remap_memory
from omoide.errors import Conflict, InvalidInput
from omoide.service.dedup_write import Pending, write_deduplicated
from omoide.service.memories import EVOLVE_JOB
from omoide.service.passages import EPISODE_EMBED_CHARS, turn_passage
from omoide.service.sessions import CONSOLIDATE_JOB, SEGMENT_JOB
from omoide.service.transfer.chains import StoredChains
from omoide.service.transfer.records import Lines, is_current, named_keys, read_records
from omoide.service.transfer.scan import FileScan, file_vector, uses_file_vectors
from omoide.service.validate import check_timestamp
from omoide.store.port import PersonaRestoreHandle

if TYPE_CHECKING:
    from omoide.service.transfer.service import Progress, TransferService

__all__ = ["ImportReport", "RestoreRun"]


@dataclass
class ImportReport:
    persona: str
    memories: int = 0
    duplicates: int = 0
    skipped: int = 0  # sessions and memories already present (a re-run, or a request at once)
    sessions: int = 0
    events: int = 0
    episodes: int = 0
    blocks: int = 0
    state: int = 0
    links: int = 0
    embedded: int = 0
    # control characters in tags, emotion labels and state values of the file (written before
    # they were refused), each read as a space (``records._replace_controls``)
    controls_replaced: int = 0
    moved_keys: dict[str, str] = field(default_factory=dict)
    # merge: current memories found duplicates but written as their own (key -> the memory it
    # duplicates), as the pointers naming them, sent to that memory, would have run in a ring
    duplicates_kept: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class RestoreRun:
    """One pass of restoring; batches flushed as their section ends or fills."""

    def __init__(
        self,
        service: TransferService,
        restore: PersonaRestoreHandle,
        scan: FileScan,
        keys: dict[str, str],
        merge: bool,
        on_progress: Progress | None,
        held: set[tuple[str, str, str, str]],
        chains: StoredChains,
    ) -> None:
        self.service = service
        self.chains = chains  # the pointers as stored, kept free of rings by _deduplicate
        self.held = held  # the file's state rows stored already, controls and all
        persona = restore.persona
        self.persona = persona
        self.scan = scan
        self.keys = dict(keys)
        self.merge = merge
        self.on_progress = on_progress
        self.restore = restore
        self.persona_id = self.restore.persona_id
        self.report = ImportReport(persona=persona, moved_keys=dict(keys))
        self.pending: list[dict[str, Any]] = []
        self.pending_kind = ""
        self.session: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.episodes: list[dict[str, Any]] = []
        self.seen: set[str] = set()  # the file's memory keys read so far
        self.deferred: list[dict[str, Any]] = []  # merge: memories naming one not read yet

    def run(self, lines: Lines) -> ImportReport:
        for _number, kind, record, replaced in read_records(lines):
            self.report.controls_replaced += replaced
            if kind in ("header", "end"):
                continue
            if kind in ("event", "episode"):
                (self.events if kind == "event" else self.episodes).append(record)
                continue
            self._flush_session()
            if kind == "session":
                self.session = record
                continue
            if (
                kind == "state"
                and (record["kind"], record["key"], record["value"], record["valid_from"])
                in self.held
            ):
                continue  # stored with the control characters the file's copy has as spaces
            if kind == "memory" and self.merge:
                self.seen.add(record["key"])
                if named_keys(record) & (self.scan.current_keys - self.seen):
                    self.deferred.append(record)
                    continue
            elif self.deferred:
                self._flush()
                self._flush_deferred()
            if kind != self.pending_kind or len(self.pending) >= self.service.batch:
                self._flush()
            self.pending_kind = kind
            self.pending.append(record)
        self._flush_session()
        self._flush()
        self._flush_deferred()
        return self.report

    def _flush_deferred(self) -> None:
        """Merge: the memories that named a current memory of the file read after them (a
        closed fact names its successor, which comes later), once every current memory is
        written or found a duplicate: a pointer to one found a duplicate goes to the memory
        it duplicates (through ``keys``), where it was left naming a key never written."""
        deferred, self.deferred = self.deferred, []
        for start in range(0, len(deferred), self.service.batch):
            self._memories(deferred[start : start + self.service.batch])

    def _embed(self, records: list[dict[str, Any]], texts: list[str]) -> np.ndarray:
        """Each record's vector from the file, or embedded now (progress reported)."""
        out = np.zeros((len(records), self.service.embedder.dim), dtype=np.float32)
        todo = []
        for i, record in enumerate(records):
            vector = file_vector(self.scan, record, self.service.embedder)
            if vector is None:
                todo.append(i)
            else:
                out[i] = vector
        self._embed_rows(out, todo, texts)
        return out

    def _turn_vectors(self, events: list[dict[str, Any]]) -> list[np.ndarray | None]:
        """Turns' vectors. A file with vectors of this model keeps a turn without one as it
        was (the segmentation job queued for it embeds it, as it would have at the source)."""
        keep_missing = uses_file_vectors(self.scan, self.service.embedder)
        texts = [turn_passage(e["speaker"], turn_text(e["content"], e["metadata"])) for e in events]
        found = [file_vector(self.scan, e, self.service.embedder) for e in events]
        if keep_missing:
            return found
        out = np.zeros((len(events), self.service.embedder.dim), dtype=np.float32)
        for i, vector in enumerate(found):
            if vector is not None:
                out[i] = vector
        self._embed_rows(out, [i for i, v in enumerate(found) if v is None], texts)
        return list(out)

    def _embed_rows(self, out: np.ndarray, todo: list[int], texts: list[str]) -> None:
        if todo:
            out[todo] = self.service.embedder.embed_passages([texts[i] for i in todo])
            self.report.embedded += len(todo)
            if self.on_progress is not None:
                self.on_progress(len(todo))

    def _flush(self) -> None:
        kind, records = self.pending_kind, self.pending
        self.pending = []
        if not records:
            return
        if kind == "settings":
            self._settings(records[-1]["overrides"])
        elif kind == "block":
            self.report.blocks += self.restore.restore_blocks(records)
        elif kind == "state":
            self.report.state += self.restore.restore_state(records)
        elif kind == "memory":
            self._memories(records)
        elif kind == "link":
            moved = [
                {**r, "a": self.keys.get(r["a"], r["a"]), "b": self.keys.get(r["b"], r["b"])}
                for r in records
            ]
            self.report.links += self.restore.restore_links(moved)

    def _settings(self, overrides: dict[str, Any]) -> None:
        current = self.service.settings.overrides(self.persona)
        patch = {
            k: v
            for k, v in overrides.items()
            if k not in RETIRED_SETTINGS  # an older Omoide's (records._check_settings)
            and (k not in current or (not self.merge and current[k] != v))
        }
        if patch:
            try:
                self.service.settings.update(self.persona, patch)
            except (InvalidInput, Conflict) as exc:  # a pair against the persona's own: 409
                raise type(exc)(f"settings record: {exc.message}", **exc.fields) from None

    def _flush_session(self) -> None:
        session, events, episodes = self.session, self.events, self.episodes
        self.session, self.events, self.episodes = None, [], []
        if session is None:
            if events or episodes:
                raise InvalidInput("event or episode record before its session record")
            return
        for row in (*events, *episodes):
            if row["session_id"] != session["session_id"]:
                raise InvalidInput(
                    f"turn or episode of session {named(row['session_id'])} inside "
                    f"session {named(session['session_id'])}"
                )
        if self.restore.has_session(session["session_id"]):
            self.report.skipped += 1
            return
        event_vectors = self._turn_vectors(events)
        episode_vectors = self._embed(
            episodes, [ep["content"][:EPISODE_EMBED_CHARS] for ep in episodes]
        )
        upto = session["segmented_upto_seq"]
        pending_turns = any(e["seq"] > upto for e in events)

        def queue(work: Any, episode_ids: list[int]) -> None:
            now = self.service.clock.now()
            for ep, episode_id in zip(episodes, episode_ids, strict=True):
                if ep["consolidated_at"] is None:
                    work.enqueue(
                        kind=CONSOLIDATE_JOB,
                        persona_id=self.persona_id,
                        payload={"episode_id": episode_id},
                        now=now,
                    )
            if pending_turns:
                work.enqueue(
                    kind=SEGMENT_JOB,
                    persona_id=self.persona_id,
                    payload={
                        "session_id": session["session_id"],
                        "final": session["ended_at"] is not None,
                    },
                    now=now,
                )

        if not self.restore.restore_session(
            session, events, episodes, event_vectors, episode_vectors, after=queue
        ):
            # another import wrote it since has_session above (the same file sent twice at
            # once): this request wrote none of it, and says so
            self.report.skipped += 1
            return
        self.report.sessions += 1
        self.report.events += len(events)
        self.report.episodes += len(episodes)

    def _memories(self, records: list[dict[str, Any]]) -> None:
        records = [remap_memory(r, self.keys) for r in records]
        existing = self.restore.present_keys([r["key"] for r in records])
        fresh = []
        for record in records:
            if record["key"] in existing:
                self.report.skipped += 1
            else:
                fresh.append(record)
        if not fresh:
            return
        vectors = self._embed(fresh, [r["content"] for r in fresh])
        evolve = {r["key"] for r in fresh if r["evolved_at"] is None and r["status"] == "active"}

        def queue(work: Any, keys: list[str]) -> None:
            for key in keys:
                if key in evolve:
                    work.enqueue(
                        kind=EVOLVE_JOB,
                        persona_id=self.persona_id,
                        payload={"key": key},
                        now=self.service.clock.now(),
                    )

        def write(dedup: _Dedup, seen: int | None) -> int | None:
            """How many were written; None, nothing written, when the revision moved."""
            # a record of the batch naming one found a duplicate names that memory instead
            records = [remap_memory(r, dedup.moved) for r in dedup.records]
            written = self.restore.restore_memories(
                records, dedup.vectors, after=queue, if_revision=seen
            )
            if written is None:
                return None
            # a key the file's memory was moved to (another persona holds it) and then found a
            # duplicate: the file's key goes to the duplicated memory too
            self.keys = {k: dedup.moved.get(v, v) for k, v in self.keys.items()}
            self.keys.update(dedup.moved)
            self.chains.merge(dedup.moved)
            self.report.duplicates += len(dedup.moved)
            self.report.duplicates_kept.update(dedup.kept)
            self.report.memories += written
            # this very record found stored by the check, or by the write: written by
            # another import meanwhile
            self.report.skipped += dedup.skipped + len(dedup.records) - written
            return written

        if not self.merge:
            write(_Dedup(fresh, vectors, {}, {}, 0), None)
            return
        # Merging, as a normal write: the batch is written only if the persona's memories are
        # still at the revision its duplicate check read (else the check is made again)
        write_deduplicated(
            self.service.store.memories(self.persona).revision,
            lambda: self._deduplicate(fresh, vectors),
            write,
            what=f"import persona={self.persona}",
        )

    def _deduplicate(self, records: list[dict[str, Any]], vectors: np.ndarray) -> _Dedup:
        """Merge: a current memory that a normal write would refuse is not imported; links
        that named it go to the memory it duplicates (``moved``, applied once written). The
        batch is checked as the same writes made one after another: a record is checked against
        the stored memories and the batch's records before it that will be written. One whose
        pointers naming it, sent to the memory it duplicates, would run in a ring (that memory's
        ``superseded_by`` or ``summary_ref`` chain leads to a memory naming it) is written as
        its own (``kept``): the file held no ring, and its merge makes none."""
        keep = []
        moved: dict[str, str] = {}
        kept: dict[str, str] = {}
        skipped = 0
        before: list[Pending] = []  # the records before it that will be written and searched
        for i, record in enumerate(records):
            current = is_current(record)
            found = (
                self.service.memories.find_duplicate(
                    self.persona, record["content"], vectors[i], written_before=before
                )
                if current
                else None
            )
            if (
                found is not None
                and found[0] != record["key"]
                and self.chains.ring_if_merged(record["key"], found[0], moved) is not None
            ):
                kept[record["key"]] = found[0]
                found = None
            if found is None:
                keep.append(i)
                if record["status"] == "active":  # a tombstoned memory is not searched
                    before.append(
                        Pending(
                            key=record["key"],
                            content=record["content"],
                            vector=vectors[i],
                            superseded_by=record["superseded_by"],
                            valid_from=check_timestamp(record["valid_from"], "valid_from"),
                            valid_until=check_timestamp(record["valid_until"], "valid_until"),
                        )
                    )
            elif found[0] == record["key"]:
                skipped += 1  # this very record, written by another import meanwhile
            else:
                moved[record["key"]] = found[0]
        return _Dedup([records[i] for i in keep], vectors[keep], moved, kept, skipped)


@dataclass(frozen=True)
class _Dedup:
    """A merge batch's duplicate check: the records to write (and their vectors), the keys of
    those not written mapped to the memories they duplicate, those written though duplicates
    (a ring) mapped so, and how many were this very record already stored."""

    records: list[dict[str, Any]]
    vectors: np.ndarray
    moved: dict[str, str]
    kept: dict[str, str]
    skipped: int

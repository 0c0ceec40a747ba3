"""Lossless export and import of one persona (issue 15 item 1).

Export streams the persona as JSON Lines (``engine/transfer_format.py``) from one read
snapshot. Import reads the file twice: a first pass checks every line and decides what is
there to restore; the second restores it in batches, one transaction each, skipping what is
already there, so a re-run after an interruption finishes the job and a finished import run
again changes nothing. A persona that already holds other data is refused unless ``merge``,
which skips a memory a normal write would call a duplicate. Without vectors in the file (or
with vectors of another model) the texts are embedded again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

import numpy as np

from omoide.clock import Clock, iso
from omoide.embed.base import Embedder
from omoide.engine.attachments import turn_text
from omoide.engine.transfer_format import (
    MEMORY_POINTERS,
    FormatError,
    decode_line,
    decode_vector,
    encode_line,
    end,
    header,
    moved_key,
    remap_memory,
)
from omoide.errors import Conflict, InvalidInput
from omoide.model.transfer import ExistingRows
from omoide.service.blocks import check_block
from omoide.service.memories import EVOLVE_JOB, MemoryService, Pending, write_deduplicated
from omoide.service.sessions import (
    CONSOLIDATE_JOB,
    EPISODE_EMBED_CHARS,
    SEGMENT_JOB,
    check_event,
    turn_passage,
)
from omoide.service.settings import SettingsService
from omoide.service.state import check_state_key, check_state_value
from omoide.service.transfer_sessions import SessionScan, check_present_sessions
from omoide.service.validate import (
    check_content,
    check_emotion_type,
    check_happened,
    check_metadata,
    check_name,
    check_session_id,
    check_tags,
    check_text,
    check_timestamp,
    check_unit_interval,
    holds_nul,
    is_blank,
    nfc,
    replace_controls,
)
from omoide.store.port import PersonaRestoreHandle, Store, TransferStore

__all__ = ["ImportReport", "Lines", "TransferService", "supports_transfer"]

logger = logging.getLogger(__name__)

Lines = Callable[[], Iterable[str]]  # the file, readable more than once
Progress = Callable[[int], None]

_SECTION_ORDER = ("header", "settings", "block", "state", "session", "memory", "link", "end")


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
    # they were refused), each read as a space (``_replace_controls``)
    controls_replaced: int = 0
    moved_keys: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class _Scan:
    header: dict[str, Any]
    memory_keys: list[str]
    session_ids: set[str]
    block_names: set[str]
    state_rows: set[tuple[str, str, str, str]]
    to_embed: int
    records: int = 0  # between the header and the end record
    ended: bool = False  # the end record was read
    sessions: SessionScan = field(default_factory=SessionScan)  # turns per session
    lines: dict[tuple[str, str], int] = field(default_factory=dict)  # (type, name) -> line
    current_keys: set[str] = field(default_factory=set)  # current memories: a merge may dedup
    # memory keys a memory's pointer or a link names -> where first named (line, type, field)
    named: dict[str, tuple[int, str, str]] = field(default_factory=dict)


class TransferService:
    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        clock: Clock,
        settings: SettingsService,
        memories: MemoryService,
        *,
        batch: int = 256,
        on_enqueue: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.memories = memories
        self.batch = batch
        self.on_enqueue = on_enqueue

    # -- export --------------------------------------------------------------------------

    def _bulk(self) -> TransferStore:
        """The store's bulk dump/restore (both adapters have them)."""
        return cast(TransferStore, self.store)

    def export(self, persona: str, *, with_vectors: bool = False) -> Iterator[str]:
        """The persona as JSON Lines, header first (NotFound before the first line)."""
        dump = self._bulk().dump(persona)
        return self._lines(dump, persona, with_vectors)

    def _lines(self, dump: Any, persona: str, with_vectors: bool) -> Iterator[str]:
        records = 0
        for line in self._records(dump, persona, with_vectors):
            yield line
            records += 1
        yield encode_line("end", end(records - 1))  # the records after the header

    def _records(self, dump: Any, persona: str, with_vectors: bool) -> Iterator[str]:
        model = self.embedder.model_id
        with dump:
            yield encode_line(
                "header",
                header(
                    persona=persona,
                    model_id=model,
                    dim=self.embedder.dim,
                    exported_at=iso(self.clock.now()),
                    with_vectors=with_vectors,
                ),
            )
            yield encode_line("settings", {"overrides": dump.settings()})
            for block in dump.blocks():
                yield encode_line("block", block)
            for row in dump.state():
                yield encode_line("state", row)
            for kind, record in dump.sessions(with_vectors=with_vectors):
                yield encode_line(kind, record, model_id=model)
            for record in dump.memories(with_vectors=with_vectors):
                yield encode_line("memory", record, model_id=model)
            for link in dump.links():
                yield encode_line("link", link)

    # -- import --------------------------------------------------------------------------

    def count_to_embed(self, lines: Lines) -> int:
        """How many texts an import of the file embeds (for a progress bar's length)."""
        return self._scan(lines).to_embed

    def import_lines(
        self,
        persona: str,
        lines: Lines,
        *,
        merge: bool = False,
        on_progress: Progress | None = None,
    ) -> ImportReport:
        restore = self._bulk().restore(persona)
        scan = self._scan(lines)
        existing = restore.existing()
        keys = {k: moved_key(persona, k) for k in restore.keys_elsewhere(scan.memory_keys)}
        _check_named(scan, restore)
        check_present_sessions(restore, persona, scan.sessions.sessions, existing.session_ids)
        # a stored state row is the file's row when it reads as the import reads the file's
        # (its control characters as spaces): an own export of values stored before controls
        # were refused, imported back, finds them there (it was a 409, or with merge a second,
        # empty row beside each)
        held = {_as_imported(row) for row in existing.state_rows} & scan.state_rows
        if not merge and not existing.empty:
            foreign = _foreign(existing, scan, keys)
            if foreign:
                raise Conflict(
                    f"persona {persona!r} already holds data that is not in this "
                    f"file ({foreign}); import into an empty persona, or merge "
                    "with --merge (HTTP: ?merge=true), which adds the file's "
                    "records to what the persona holds",
                    persona=persona,
                )
        report = _Run(
            self, restore, scan, keys, merge, on_progress, held - set(existing.state_rows)
        ).run(lines)
        if self.on_enqueue is not None:
            self.on_enqueue()
        logger.info("import persona=%s %s", persona, report.as_dict())
        return report

    def _scan(self, lines: Lines) -> _Scan:
        scan: _Scan | None = None
        last = 0
        now = self.clock.now()
        number = 0
        for number, kind, record, _ in _records(lines):
            if scan is None:
                if kind != "header":
                    raise InvalidInput(
                        f"line {number}: the file must start with an Omoide "
                        f"export header; {NOT_AN_EXPORT}",
                        line=number,
                    )
                scan = _Scan(record, [], set(), set(), set(), 0)
                continue
            if scan.ended:
                raise InvalidInput(
                    f"line {number}: a {kind} record after the end record; "
                    "the end record is the file's last line",
                    line=number,
                )
            if kind == "end":
                _check_end(record["records"], scan.records, number)
                scan.ended = True
                continue
            scan.records += 1
            order = _SECTION_ORDER.index(kind) if kind not in ("event", "episode") else 4
            if order < last or kind == "header":
                raise InvalidInput(f"line {number}: {kind} record out of order", line=number)
            last = order
            _check_record(
                kind, record, number, now=now, max_content_chars=self.memories.max_content_chars
            )
            if kind in _NAMED:
                _once(scan.lines, kind, record[_NAMED[kind]], number)
            for name in _POINTERS.get(kind, ()):
                if record[name] is not None:
                    scan.named.setdefault(record[name], (number, kind, name))
            if kind == "memory":
                scan.memory_keys.append(record["key"])
                if _is_current(record):
                    scan.current_keys.add(record["key"])
            elif kind == "session":
                scan.session_ids.add(record["session_id"])
                scan.sessions.session(record, number)
            elif kind == "event":
                scan.sessions.event(record, number)
            elif kind == "episode":
                scan.sessions.episode(record, number)
            elif kind == "block":
                scan.block_names.add(record["block_name"])
            elif kind == "state":
                scan.state_rows.add(
                    (record["kind"], record["key"], record["value"], record["valid_from"])
                )
            if (
                kind in ("memory", "event", "episode")
                and self._vector(scan, record) is None
                and not (kind == "event" and self.uses_file_vectors(scan))
            ):
                scan.to_embed += 1
        if scan is None:
            raise InvalidInput("the file is empty", line=1)
        scan.sessions.finish()
        if scan.header["ends"] and not scan.ended:
            raise InvalidInput(
                f"the file stops after line {number} without its end record: "
                "it was cut off (an interrupted download or copy); nothing was "
                "imported. Import the whole file",
                line=number,
            )
        return scan

    def uses_file_vectors(self, scan: _Scan) -> bool:
        """The file carries vectors of the configured embedder (they are used as they are)."""
        embedder = scan.header["embedder"]
        return (
            bool(scan.header["with_vectors"])
            and isinstance(embedder, dict)
            and (embedder.get("model_id"), embedder.get("dim"))
            == (self.embedder.model_id, self.embedder.dim)
        )

    def _vector(self, scan: _Scan, record: dict[str, Any]) -> np.ndarray | None:
        if not self.uses_file_vectors(scan):
            return None
        return decode_vector(record, self.embedder.dim)


def supports_transfer(store: Any) -> bool:
    """Whether the store has the bulk dump/restore adapters (SQLite's and PostgreSQL's do)."""
    return callable(getattr(store, "dump", None)) and callable(getattr(store, "restore", None))


def _check_record(
    kind: str, record: dict[str, Any], number: int, *, now: datetime, max_content_chars: int
) -> None:
    """A record holds what the API would accept, checked by the API's own validators: a file
    edited by hand cannot store what a client could not (a tag too long, a blank note, a turn
    dated years ahead, a session id that could never be named in a path). Refused with the
    line, the record and the field; the import has written nothing yet (this is the first
    pass)."""
    try:
        if holds_nul(record):
            raise InvalidInput("a text holds a NUL character (U+0000), which text cannot hold")
        _RECORD_CHECKS[kind](record, now, max_content_chars)
    except InvalidInput as exc:
        field = exc.fields.get("field")
        raise InvalidInput(
            f"line {number}: {kind} record: {exc.message}", line=number, record=kind, field=field
        ) from None


def _times(record: Mapping[str, Any], names: tuple[str, ...], now: datetime) -> None:
    """When things happened (written, said, ended): at most a day past the server's clock."""
    for name in names:
        check_happened(record[name], name, now)


def _check_block(record: dict[str, Any], now: datetime, _: int) -> None:
    check_block(record)
    _times(record, ("created_at", "updated_at"), now)


def _check_state(record: dict[str, Any], now: datetime, _: int) -> None:
    key = check_state_key(record["key"])
    check_state_value(key, record["value"])
    if record["source_session"] is not None:
        check_session_id(record["source_session"], "source_session")
    since = check_timestamp(record["valid_from"], "valid_from")
    until = check_timestamp(record["valid_until"], "valid_until")
    if since is not None and until is not None and until < since:
        # such a row is true at no time: the value vanished from the state and its history
        raise InvalidInput(
            f"valid_until ({record['valid_until']}) is before valid_from "
            f"({record['valid_from']}): a value ends when or after it begins",
            field="valid_until",
        )
    _times(record, ("created_at",), now)


def _check_session(record: dict[str, Any], now: datetime, _: int) -> None:
    check_session_id(record["session_id"])
    check_metadata(record["metadata"])
    _times(record, ("started_at", "ended_at", "last_event_at"), now)
    if record["ended_at"] is None and record["ended_by"] is not None:
        raise InvalidInput("an open session (ended_at null) has no ended_by", field="ended_by")


def _check_event(record: dict[str, Any], now: datetime, _: int) -> None:
    check_session_id(record["session_id"])
    check_event({name: record[name] for name in _EVENT_FIELDS}, "event", now)
    _times(record, ("created_at",), now)


def _check_episode(record: dict[str, Any], now: datetime, _: int) -> None:
    check_session_id(record["session_id"])
    check_text(record["content"], "content")
    check_text(record["topic"], "topic")
    _times(record, ("started_at", "ended_at", "created_at", "consolidated_at"), now)


def _check_memory(record: dict[str, Any], now: datetime, max_content_chars: int) -> None:
    for name in ("key", *MEMORY_POINTERS):
        if record[name] is not None:
            check_name(record[name], name, "memory key")
    check_content(record["content"], max_chars=max_content_chars)
    check_unit_interval(record["importance"], "importance")
    check_unit_interval(record["emotion_intensity"], "emotion_intensity")
    check_tags(record["tags"])
    check_emotion_type(record["emotion_type"])
    check_metadata(record["metadata"])
    check_timestamp(record["valid_from"], "valid_from")
    check_timestamp(record["valid_until"], "valid_until")
    _times(
        record, ("created_at", "updated_at", "last_accessed", "evolved_at", "last_decay_at"), now
    )
    for i, version in enumerate(record["versions"]):
        check_happened(version["changed_at"], f"versions[{i}].changed_at", now)
    for source in record["sources"]:
        check_session_id(source["session_id"], "sources session_id")


def _check_link(record: dict[str, Any], now: datetime, _: int) -> None:
    check_name(record["a"], "a", "memory key")
    check_name(record["b"], "b", "memory key")
    _times(record, ("last_activated",), now)


def _check_settings(record: dict[str, Any], now: datetime, _: int) -> None:
    """Overrides are checked by the settings service as they are applied (its own rules)."""


_EVENT_FIELDS = ("speaker", "role", "content", "timestamp", "external_id", "metadata")
_RECORD_CHECKS: dict[str, Callable[[dict[str, Any], datetime, int], None]] = {
    "settings": _check_settings,
    "block": _check_block,
    "state": _check_state,
    "session": _check_session,
    "event": _check_event,
    "episode": _check_episode,
    "memory": _check_memory,
    "link": _check_link,
}


def _is_current(record: Mapping[str, Any]) -> bool:
    """A memory a merge checks for a duplicate (a normal write's duplicate: a current one)."""
    return (
        record["status"] == "active"
        and record["superseded_by"] is None
        and record["valid_until"] is None
    )


# The fields that name another memory by its key, stored as they are (a pointer) or joined on
# it (a link, whose two ends must be memories of the persona).
_POINTERS = {"memory": MEMORY_POINTERS, "link": ("a", "b")}


def _names(record: Mapping[str, Any]) -> set[str]:
    """The other memories' keys a memory record names (what ``remap_memory`` passes on): its
    pointers (:data:`_POINTERS`), in the record and in its versions' images, the memory it is
    the remainder of and the causes of its versions."""
    named = {record[name] for name in _POINTERS["memory"]}
    metadata = record["metadata"]
    if isinstance(metadata, dict):
        named.add(metadata.get("remainder_of"))
    for version in record["versions"]:
        named.add(version.get("cause"))
        for side in ("before", "after"):
            image = version.get(side)
            if isinstance(image, dict):
                named.update(image.get(name) for name in _POINTERS["memory"])
    return {key for key in named if isinstance(key, str) and key != record["key"]}


# Records restored by a name of their own: a second record under one name was skipped as
# "already there" by the restore, its content lost without a word (a memory with other text,
# a block with other content).
_NAMED = {"memory": "key", "block": "block_name"}


def _once(lines: dict[tuple[str, str], int], kind: str, name: str, number: int) -> None:
    """Refuse a record whose name an earlier record of the file already holds."""
    first = lines.setdefault((kind, name), number)
    if first != number:
        field = _NAMED[kind]
        raise InvalidInput(
            f"line {number}: {kind} {name!r} is described a second time (first "
            f"at line {first}); each {kind} is one record, so one of them would "
            "be lost; nothing was imported",
            line=number,
            record=kind,
            field=field,
        )


def _check_named(scan: _Scan, restore: PersonaRestoreHandle) -> None:
    """Refuse a file whose memory pointer or link names a key that is neither one of its
    memories nor (a merge) one the persona holds: the link was dropped without a word and the
    pointer stored naming nothing (a file edited by hand). A key of the file moved on import
    (another persona holds it) or found a duplicate is followed by the restore, so it counts
    as the file's. Checked before anything is written; the persona's keys are read once."""
    missing = set(scan.named) - set(scan.memory_keys)
    if missing:
        missing -= restore.present_keys(sorted(missing))
    if not missing:
        return
    key = min(missing, key=lambda k: scan.named[k][0])
    number, kind, name = scan.named[key]
    what = "the link would be dropped" if kind == "link" else "it would be stored naming no memory"
    others = len(missing) - 1
    more = f" ({others} other missing key{'' if others == 1 else 's'} named too)" if others else ""
    raise InvalidInput(
        f"line {number}: {kind} record: {name} names memory {key!r}, which is "
        f"neither in the file nor held by persona {restore.persona!r}: {what}"
        f"{more}; nothing was imported",
        line=number,
        record=kind,
        field=name,
        key=key,
    )


def _check_end(counted: int, read: int, number: int) -> None:
    """The end record's count against the records read: another count means lines were
    lost or added since the export (a file cut and joined, or edited)."""
    if counted != read:
        raise InvalidInput(
            f"line {number}: the end record counts {counted} records after the "
            f"header but the file holds {read}: lines were lost or added since "
            "it was exported; nothing was imported",
            line=number,
        )


# What a file that is not an Omoide export is told (a Mem0 list, a chat export, a file
# pretty-printed over many lines): the refusal of its first line said only "unknown record type
# None" or "a record must be a JSON object".
NOT_AN_EXPORT = (
    'an Omoide export (JSON Lines) starts with its header record {"type": '
    '"header", "format": "omoide-export", …}; a Mem0, MCP memory or chat '
    "file is imported with source=mem0, mcp-memory or chat (omoide import --from)"
)


def _records(lines: Lines) -> Iterator[tuple[int, str, dict[str, Any], int]]:
    """Each record (number, type, record, control characters replaced in it). Both passes
    read the file through here, each decoding its own copy of a record: the scan checks the
    record as it will be stored (controls already spaces, which the validators require), the
    restore stores it; only the restore adds the count to the report (once per file)."""
    first = True
    for number, line in enumerate(lines(), start=1):
        if line.strip():
            try:
                kind, record = decode_line(line, number)
                record = nfc(record, kind)  # user text is kept in NFC (validate.nfc)
            except FormatError as exc:
                hint = f"; {NOT_AN_EXPORT}" if first and not exc.is_export else ""
                raise InvalidInput(exc.message + hint, line=exc.line) from None
            except InvalidInput as exc:
                raise InvalidInput(
                    f"line {number}: {exc.message}", line=number, field=exc.fields.get("field")
                ) from None
            first = False
            yield number, kind, record, _replace_controls(kind, record)


def _foreign(existing: ExistingRows, scan: _Scan, keys: dict[str, str]) -> str:
    """What the persona holds that the file does not, in words ("2 memories, e.g.
    'mem_…'; 1 state value: user 'name'"), or "" when it holds nothing else."""
    said = []
    for what, extra in (
        ("memory", set(existing.memory_keys) - {keys.get(k, k) for k in scan.memory_keys}),
        ("session", set(existing.session_ids) - scan.session_ids),
        ("block", set(existing.block_names) - scan.block_names),
    ):
        if extra:
            plural = "memories" if what == "memory" else f"{what}s"
            said.append(f"{len(extra)} {what if len(extra) == 1 else plural}, e.g. {min(extra)!r}")
    rows = {row for row in existing.state_rows if _as_imported(row) not in scan.state_rows}
    if rows:
        kind, key, _, _ = min(rows)
        said.append(f"{len(rows)} state value{'' if len(rows) == 1 else 's'}, e.g. {kind} {key!r}")
    return "; ".join(said)


def _as_imported(row: tuple[str, str, str, str]) -> tuple[str, str, str, str]:
    """A stored state row (kind, key, value, valid_from) as an import reads the same row of a
    file: its value's control characters as spaces (:func:`_state_value`)."""
    kind, key, value, valid_from = row
    return kind, key, _state_value(value)[0], valid_from


def _state_value(value: str) -> tuple[str, int]:
    """A state value of a file, its control characters read as spaces, and how many there
    were; a value left blank is U+FFFD (its key stays)."""
    value, count = replace_controls(value.strip(), lines=True)
    return ("\ufffd" if count and is_blank(value) else value), count


def _replace_controls(kind: str, record: dict[str, Any]) -> int:
    """A file written before control characters were refused in tags, emotion labels and state
    values (``validate.check_controls``) still imports: each one is read as a space, and they
    are counted (the report's ``controls_replaced``). A tag left blank is dropped, a label left
    blank is none, a state value left blank is U+FFFD (its key stays)."""
    count = 0
    if kind == "memory":
        if isinstance(record.get("tags"), list):
            tags = []
            for tag in record["tags"]:
                if isinstance(tag, str):
                    tag, n = replace_controls(tag.strip())
                    count += n
                    if n and is_blank(tag):
                        continue
                tags.append(tag)
            record["tags"] = tags
        if isinstance(record.get("emotion_type"), str):
            label, n = replace_controls(record["emotion_type"].strip())
            count += n
            record["emotion_type"] = None if n and is_blank(label) else label
    elif kind == "state" and isinstance(record.get("value"), str):
        record["value"], n = _state_value(record["value"])
        count += n
    return count


class _Run:
    """One pass of restoring; batches flushed as their section ends or fills."""

    def __init__(
        self,
        service: TransferService,
        restore: PersonaRestoreHandle,
        scan: _Scan,
        keys: dict[str, str],
        merge: bool,
        on_progress: Progress | None,
        held: set[tuple[str, str, str, str]],
    ) -> None:
        self.s = service
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
        for _number, kind, record, replaced in _records(lines):
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
                if _names(record) & (self.scan.current_keys - self.seen):
                    self.deferred.append(record)
                    continue
            elif self.deferred:
                self._flush()
                self._flush_deferred()
            if kind != self.pending_kind or len(self.pending) >= self.s.batch:
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
        for start in range(0, len(deferred), self.s.batch):
            self._memories(deferred[start : start + self.s.batch])

    def _embed(self, records: list[dict[str, Any]], texts: list[str]) -> np.ndarray:
        """Each record's vector from the file, or embedded now (progress reported)."""
        out = np.zeros((len(records), self.s.embedder.dim), dtype=np.float32)
        todo = []
        for i, record in enumerate(records):
            vector = self.s._vector(self.scan, record)
            if vector is None:
                todo.append(i)
            else:
                out[i] = vector
        self._embed_rows(out, todo, texts)
        return out

    def _turn_vectors(self, events: list[dict[str, Any]]) -> list[np.ndarray | None]:
        """Turns' vectors. A file with vectors of this model keeps a turn without one as it
        was (the segmentation job queued for it embeds it, as it would have at the source)."""
        keep_missing = self.s.uses_file_vectors(self.scan)
        texts = [turn_passage(e["speaker"], turn_text(e["content"], e["metadata"])) for e in events]
        found = [self.s._vector(self.scan, e) for e in events]
        if keep_missing:
            return found
        out = np.zeros((len(events), self.s.embedder.dim), dtype=np.float32)
        for i, vector in enumerate(found):
            if vector is not None:
                out[i] = vector
        self._embed_rows(out, [i for i, v in enumerate(found) if v is None], texts)
        return list(out)

    def _embed_rows(self, out: np.ndarray, todo: list[int], texts: list[str]) -> None:
        if todo:
            out[todo] = self.s.embedder.embed_passages([texts[i] for i in todo])
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
        current = self.s.settings.overrides(self.persona)
        patch = {
            k: v
            for k, v in overrides.items()
            if k not in current or (not self.merge and current[k] != v)
        }
        if patch:
            try:
                self.s.settings.update(self.persona, patch)
            except InvalidInput as exc:
                raise InvalidInput(f"settings record: {exc.message}") from None

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
                    f"turn or episode of session {row['session_id']!r} inside "
                    f"session {session['session_id']!r}"
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
            now = self.s.clock.now()
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
                        now=self.s.clock.now(),
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
            self.report.duplicates += len(dedup.moved)
            self.report.memories += written
            # this very record found stored by the check, or by the write: written by
            # another import meanwhile
            self.report.skipped += dedup.skipped + len(dedup.records) - written
            return written

        if not self.merge:
            write(_Dedup(fresh, vectors, {}, 0), None)
            return
        # Merging, as a normal write: the batch is written only if the persona's memories are
        # still at the revision its duplicate check read (else the check is made again)
        write_deduplicated(
            self.s.store.memories(self.persona).revision,
            lambda: self._deduplicate(fresh, vectors),
            write,
            what=f"import persona={self.persona}",
        )

    def _deduplicate(self, records: list[dict[str, Any]], vectors: np.ndarray) -> _Dedup:
        """Merge: a current memory that a normal write would refuse is not imported; links
        that named it go to the memory it duplicates (``moved``, applied once written). The
        batch is checked as the same writes made one after another: a record is checked against
        the stored memories and the batch's records before it that will be written."""
        keep = []
        moved: dict[str, str] = {}
        skipped = 0
        before: list[Pending] = []  # the records before it that will be written and searched
        for i, record in enumerate(records):
            current = _is_current(record)
            found = (
                self.s.memories.find_duplicate(
                    self.persona, record["content"], vectors[i], written_before=before
                )
                if current
                else None
            )
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
        return _Dedup([records[i] for i in keep], vectors[keep], moved, skipped)


@dataclass(frozen=True)
class _Dedup:
    """A merge batch's duplicate check: the records to write (and their vectors), the keys of
    those not written mapped to the memories they duplicate, and how many were this very
    record already stored."""

    records: list[dict[str, Any]]
    vectors: np.ndarray
    moved: dict[str, str]
    skipped: int

"""An import's first pass over an Omoide export file: every record checked in its order, the
names it gives and the keys it points at, what it holds beside what the persona holds, and how
many texts the restore will embed. A refused file writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.counts import how_many
from omoide.engine.errors import named
from omoide.engine.transfer_format import decode_vector
from omoide.errors import InvalidInput
from omoide.model.transfer import ExistingRows
from omoide.service.transfer.chains import CHAINS, check_cycles
from omoide.service.transfer.records import (
    NOT_AN_EXPORT,
    POINTERS,
    Lines,
    as_imported,
    check_record,
    is_current,
    read_records,
)
from omoide.service.transfer.sessions import SessionScan
from omoide.store.port import PersonaRestoreHandle

__all__ = [
    "FileScan",
    "check_named",
    "check_outside",
    "file_vector",
    "not_in_file",
    "scan_file",
    "uses_file_vectors",
]

_SECTION_ORDER = ("header", "settings", "block", "state", "session", "memory", "link", "end")


@dataclass
class FileScan:
    """What the first pass read of a file: its header, the keys and names it holds, how many
    texts the restore will embed, and where each name and pointer first stands."""

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
    # sessions a memory's provenance names that the file does not hold -> (line, field)
    outside: dict[str, tuple[int, str]] = field(default_factory=dict)
    # superseded_by, summary_ref -> {a memory's key -> (the key it names there, its line)}, in
    # the file's order
    chains: dict[str, dict[str, tuple[str, int]]] = field(
        default_factory=lambda: {name: {} for name in CHAINS}
    )


def scan_file(
    lines: Lines, *, now: datetime, max_content_chars: int, embedder: Embedder
) -> FileScan:
    """The first pass: every record checked (422 naming the line, nothing written yet), and
    what the file holds that the restore and its checks need."""
    scan: FileScan | None = None
    last = 0
    number = 0
    for number, kind, record, _ in read_records(lines):
        if scan is None:
            if kind != "header":
                raise InvalidInput(
                    f"line {number}: the file must start with an Omoide "
                    f"export header; {NOT_AN_EXPORT}",
                    line=number,
                )
            scan = FileScan(record, [], set(), set(), set(), 0)
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
        check_record(kind, record, number, now=now, max_content_chars=max_content_chars)
        if kind in _NAMED:
            _once(scan.lines, kind, record[_NAMED[kind]], number)
        for name in POINTERS.get(kind, ()):
            if record[name] is not None:
                scan.named.setdefault(record[name], (number, kind, name))
        if kind == "memory":
            scan.sessions.finish()  # the last session's turns are all read
            _check_provenance(scan, record, number)
            scan.memory_keys.append(record["key"])
            for name in CHAINS:
                if record[name] is not None:
                    scan.chains[name][record["key"]] = (record[name], number)
            if is_current(record):
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
            and file_vector(scan, record, embedder) is None
            and not (kind == "event" and uses_file_vectors(scan, embedder))
        ):
            scan.to_embed += 1
    if scan is None:
        raise InvalidInput("the file is empty", line=1)
    scan.sessions.finish()
    for name in CHAINS:
        check_cycles(scan.chains[name], name)
    if scan.header["ends"] and not scan.ended:
        raise InvalidInput(
            f"the file stops after line {number} without its end record: "
            "it was cut off (an interrupted download or copy); nothing was "
            "imported. Import the whole file",
            line=number,
        )
    return scan


def uses_file_vectors(scan: FileScan, embedder: Embedder) -> bool:
    """The file carries vectors of the configured embedder (they are used as they are)."""
    written_by = scan.header["embedder"]
    return (
        bool(scan.header["with_vectors"])
        and isinstance(written_by, dict)
        and (written_by.get("model_id"), written_by.get("dim")) == (embedder.model_id, embedder.dim)
    )


def file_vector(scan: FileScan, record: dict[str, Any], embedder: Embedder) -> np.ndarray | None:
    """The record's vector from the file, when the file's vectors are used (else None)."""
    if not uses_file_vectors(scan, embedder):
        return None
    return decode_vector(record, embedder.dim)


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
            f"line {number}: {kind} {named(name)} is described a second time (first "
            f"at line {first}); each {kind} is one record, so one of them would "
            "be lost; nothing was imported",
            line=number,
            record=kind,
            field=field,
        )


def _check_provenance(scan: FileScan, record: dict[str, Any], number: int) -> None:
    """Refuse a memory whose sources or episode (``source_ref``) name a turn or an episode
    that a session of the file lacks; note the sessions it names that the file does not hold
    (:func:`check_outside`). Why: the restore stored such a memory with no provenance, without
    a word, so ``said_in`` forgot where it was said and erasing that conversation
    (``with_notes``) no longer took the note with it (a file edited by hand)."""
    refs = [(s["session_id"], s["seq"], "sources") for s in record["sources"]]
    ref = record["source_ref"]
    if isinstance(ref, dict):
        refs.append((ref["episode"]["session_id"], ref["episode"]["first_seq"], "source_ref"))
    for session_id, seq, name in refs:
        if session_id not in scan.sessions.sessions:
            scan.outside.setdefault(session_id, (number, name))
            continue
        if name == "sources" and scan.sessions.has_turn(session_id, seq):
            continue
        if name == "source_ref" and (session_id, seq) in scan.sessions.episode_starts:
            continue
        what = "turn" if name == "sources" else "episode starting at turn"
        raise InvalidInput(
            f"line {number}: memory record: {name} names the {what} {seq} of session "
            f"{named(session_id)}, which the file does not hold: the memory would be stored "
            "without its provenance; nothing was imported",
            line=number,
            record="memory",
            field=name,
        )


def check_outside(scan: FileScan, present: frozenset[str], persona: str) -> None:
    """Refuse a file whose memory's provenance names a session that is neither in the file
    nor (a merge) held by the persona (:func:`_check_provenance`)."""
    missing = set(scan.outside) - present
    if not missing:
        return
    session_id = min(missing, key=lambda s: scan.outside[s][0])
    number, name = scan.outside[session_id]
    raise InvalidInput(
        f"line {number}: memory record: {name} names session {named(session_id)}, which is "
        f"neither in the file nor held by persona {named(persona)}: the memory would be stored "
        "without its provenance; nothing was imported",
        line=number,
        record="memory",
        field=name,
    )


def check_named(scan: FileScan, restore: PersonaRestoreHandle) -> None:
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
    more = f" ({how_many(others, 'other missing key')} named too)" if others else ""
    raise InvalidInput(
        f"line {number}: {kind} record: {name} names memory {named(key)}, which is "
        f"neither in the file nor held by persona {named(restore.persona)}: {what}"
        f"{more}; nothing was imported",
        line=number,
        record=kind,
        field=name,
        key=key,
    )


def check_moved_keys(scan: FileScan, keys: dict[str, str], persona: str) -> None:
    """Refuse a file holding a memory under the key another of its memories is moved to
    (``keys``: another persona of the folder holds that one's key): the two were one key, the
    second written skipped as already there, its text lost without a word (a file edited by
    hand). Checked before anything is written."""
    clashes = sorted(
        (scan.lines[("memory", to)], key, to)
        for key, to in keys.items()
        if ("memory", to) in scan.lines
    )
    if not clashes:
        return
    number, key, to = clashes[0]
    raise InvalidInput(
        f"line {number}: memory record: key {named(to)} is the key the file's memory {named(key)} "
        f"(line {scan.lines[('memory', key)]}) is stored under in persona {named(persona)}, since "
        f"another persona of this folder holds {named(key)}: one of the two would be lost; give "
        "this memory another key; nothing was imported",
        line=number,
        record="memory",
        field="key",
        key=to,
    )


def _check_end(counted: int, read: int, number: int) -> None:
    """The end record's count against the records read: another count means lines were
    lost or added since the export (a file cut and joined, or edited)."""
    if counted != read:
        raise InvalidInput(
            f"line {number}: the end record counts {how_many(counted, 'record')} after the "
            f"header but the file holds {read}: lines were lost or added since "
            "it was exported; nothing was imported",
            line=number,
        )


def not_in_file(existing: ExistingRows, scan: FileScan, keys: dict[str, str]) -> str:
    """What the persona holds that the file does not, in words ("2 memories, e.g.
    'mem_…'; 1 state value: user 'name'"), or "" when it holds nothing else."""
    said = []
    for what, extra in (
        ("memory", set(existing.memory_keys) - {keys.get(k, k) for k in scan.memory_keys}),
        ("session", set(existing.session_ids) - scan.session_ids),
        ("block", set(existing.block_names) - scan.block_names),
    ):
        if extra:
            said.append(f"{how_many(len(extra), what)}, e.g. {named(min(extra))}")
    rows = {row for row in existing.state_rows if as_imported(row) not in scan.state_rows}
    if rows:
        kind, key, _, _ = min(rows)
        said.append(f"{how_many(len(rows), 'state value')}, e.g. {kind} {named(key)}")
    return "; ".join(said)

"""The export file format (JSON Lines), pure: records to lines and back, checked.

One persona per file. The first line is the header; then, in this order, ``settings``,
``block``, ``state``, ``session`` (each followed by its ``event`` and ``episode`` lines),
``memory`` and ``link`` lines; last, the ``end`` line, which counts the records between the
header and itself, so that a file cut off at a line boundary is not read as a whole one (a
header with ``"ends": true`` promises it; files written before it existed have none).
Rows are named by what survives a move between folders (memory
key, session id, (session id, seq) for a turn, (session id, first seq) for an episode); vectors
are optional base64 float32. Format reference: ``docs/import.md``; what each field holds, and
its check: ``engine/transfer_check.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from omoide.engine import json_text
from omoide.engine.errors import quoted
from omoide.engine.transfer_check import header_problem, record_problem, unknown_problem

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MEMORY_POINTERS",
    "OPTIONAL_FIELDS",
    "OPTIONAL_VERSION_FIELDS",
    "RECORD_FIELDS",
    "FormatError",
    "decode_line",
    "decode_vector",
    "encode_line",
    "end",
    "header",
    "is_export",
    "moved_key",
    "remap_memory",
]


class FormatError(ValueError):
    """A line of an export file that is not what the format says (``line``: its number)."""

    def __init__(self, message: str, *, line: int | None = None, is_export: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.is_export = is_export  # the line is an Omoide export's header, just not one we read


FORMAT = "omoide-export"
FORMAT_VERSION = 1

RECORD_FIELDS: dict[str, tuple[str, ...]] = {
    "header": ("format", "version", "persona", "embedder", "exported_at", "with_vectors"),
    "settings": ("overrides",),
    "block": (
        "block_name",
        "content",
        "block_type",
        "max_tokens",
        "priority",
        "metadata",
        "created_at",
        "updated_at",
    ),
    "state": ("kind", "key", "value", "valid_from", "valid_until", "created_at"),
    "session": (
        "session_id",
        "started_at",
        "ended_at",
        "metadata",
        "segmented_upto_seq",
        "open_reason",
        "open_surprise",
        "last_event_at",
    ),
    "event": (
        "session_id",
        "seq",
        "speaker",
        "role",
        "content",
        "timestamp",
        "external_id",
        "metadata",
        "created_at",
    ),
    "episode": (
        "session_id",
        "first_seq",
        "last_seq",
        "content",
        "topic",
        "surprise",
        "boundary_reason",
        "started_at",
        "ended_at",
        "created_at",
        "consolidated_at",
    ),
    "memory": (
        "key",
        "content",
        "kind",
        "importance",
        "tags",
        "emotion_type",
        "emotion_intensity",
        "source",
        "source_ref",
        "created_at",
        "updated_at",
        "access_count",
        "last_accessed",
        "valid_from",
        "valid_until",
        "superseded_by",
        "summary_ref",
        "status",
        "metadata",
        "evolved_at",
        "strength",
        "stability",
        "last_decay_at",
        "versions",
        "sources",
    ),
    "link": ("a", "b", "link_type", "weight", "co_activation_count", "last_activated"),
    "end": ("records",),
}
# Fields a file may lack (files written before they existed): the value a missing one reads as.
# Provenance of forgetting: a state row's ``source_session`` (deleting that conversation erases
# the value) and a version's ``cause`` (the key of the memory whose evolution wrote it).
# A header's ``ends``: the file ends with its ``end`` record (written since session 13).
# A session's ``ended_by``: how it was ended (client, new_session, idle, import); null while
# open or when unknown (ended before causes were recorded, or a file written before them).
OPTIONAL_FIELDS: dict[str, dict[str, Any]] = {
    "state": {"source_session": None},
    "session": {"ended_by": None},
    "header": {"ends": False},
}
OPTIONAL_VERSION_FIELDS: dict[str, Any] = {"cause": None}
_VECTOR_TYPES = {"event", "episode", "memory"}
# Every field a record of each type may hold besides its "type", checked by
# ``transfer_check.unknown_problem`` (a field not among them is refused).
_ALLOWED: dict[str, tuple[str, ...]] = {
    kind: (
        *fields,
        *OPTIONAL_FIELDS.get(kind, {}),
        *(("vector",) if kind in _VECTOR_TYPES else ()),
    )
    for kind, fields in RECORD_FIELDS.items()
}


def header(
    *, persona: str, model_id: str, dim: int, exported_at: str, with_vectors: bool
) -> dict[str, Any]:
    return {
        "type": "header",
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "persona": persona,
        "embedder": {"model_id": model_id, "dim": dim},
        "exported_at": exported_at,
        "with_vectors": with_vectors,
        "ends": True,
    }


def end(records: int) -> dict[str, Any]:
    """The last record: how many records lie between the header and it."""
    return {"records": records}


def encode_line(kind: str, record: Mapping[str, Any], *, model_id: str | None = None) -> str:
    """One line (with its newline). A raw ``vector`` (bytes) is written as base64 only when
    its ``vector_model`` is ``model_id`` (the header's embedder)."""
    out: dict[str, Any] = {"type": kind}
    for name in RECORD_FIELDS[kind]:
        out[name] = record[name]
    for name, default in OPTIONAL_FIELDS.get(kind, {}).items():
        out[name] = record.get(name, default)
    vector = record.get("vector")
    if kind in _VECTOR_TYPES and vector is not None and record.get("vector_model") == model_id:
        out["vector"] = base64.b64encode(bytes(vector)).decode("ascii")
    return json.dumps(out, ensure_ascii=False) + "\n"


def is_export(text: str) -> bool:
    """Whether the text's first line is an Omoide export's header record (what a file given to
    another importer is told it is)."""
    try:
        first = json_text.loads(text.lstrip().split("\n", 1)[0])
    except json_text.JsonTextError:
        return False
    return (
        isinstance(first, dict) and first.get("type") == "header" and first.get("format") == FORMAT
    )


def decode_line(line: str, number: int) -> tuple[str, dict[str, Any]]:
    """(type, record) of one line; InvalidInput naming the line on anything malformed."""
    try:
        record = json_text.loads(line)
    except json_text.JsonTextError as exc:
        raise FormatError(f"line {number}: {exc.message}", line=number) from None
    if not isinstance(record, dict):
        raise FormatError(f"line {number}: a record must be a JSON object", line=number)
    kind = record.get("type")
    if not isinstance(kind, str) or kind not in RECORD_FIELDS:  # a list or object is no type
        got = (
            "none"
            if "type" not in record
            else json.dumps(kind, ensure_ascii=False, default=str)[:60]
        )
        raise FormatError(
            f'line {number}: unknown record type ({got}): a record\'s "type" '
            f"is one of {', '.join(RECORD_FIELDS)}",
            line=number,
        )
    missing = [name for name in RECORD_FIELDS[kind] if name not in record]
    if missing:
        raise FormatError(f"line {number}: {kind} record lacks {', '.join(missing)}", line=number)
    unknown = unknown_problem(
        (name for name in record if name != "type"), _ALLOWED[kind], f"a {kind} record"
    )
    if unknown is not None:
        raise FormatError(f"line {number}: {kind} record: {unknown}", line=number)
    _check(kind, record, number)
    for name, default in OPTIONAL_FIELDS.get(kind, {}).items():
        record.setdefault(name, default)
    if (
        kind == "memory"
        and isinstance(record["emotion_type"], str)
        and not record["emotion_type"].strip()
    ):
        record["emotion_type"] = None  # an empty label, stored before blank ones were refused
    for version in record.get("versions", []) if kind == "memory" else []:
        for name, default in OPTIONAL_VERSION_FIELDS.items():
            version.setdefault(name, default)
    return kind, record


def _check(kind: str, r: dict[str, Any], number: int) -> None:
    def fail(what: str) -> FormatError:
        return FormatError(f"line {number}: {kind} record: {what}", line=number)

    if kind == "header":
        if r["format"] != FORMAT:
            raise fail(f"not an Omoide export (format {quoted(r['format'])})")
        if r["version"] != FORMAT_VERSION:
            newer = (
                isinstance(r["version"], int)
                and not isinstance(r["version"], bool)
                and r["version"] > FORMAT_VERSION
            )
            raise FormatError(
                f"line {number}: header record: format version {quoted(r['version'])} is not "
                f"supported (this Omoide reads version {FORMAT_VERSION})"
                + (
                    "; the file was written by a newer Omoide: import it with that version, "
                    "or upgrade this one"
                    if newer
                    else ""
                ),
                line=number,
                is_export=True,
            )
        problem = header_problem(r)
        if problem is not None:  # an Omoide export's header, of this version: not another file
            raise FormatError(
                f"line {number}: header record: {problem}", line=number, is_export=True
            )
        return
    if kind == "end":
        if isinstance(r["records"], bool) or not isinstance(r["records"], int) or r["records"] < 0:
            raise fail("records must be a count (a whole number, 0 or more)")
        return
    problem = record_problem(kind, r)
    if problem is not None:
        raise fail(problem)


def decode_vector(record: Mapping[str, Any], dim: int) -> np.ndarray | None:
    """The record's vector as float32 of ``dim`` values, or None when absent, of another size,
    or holding what no embedder writes (NaN, an infinity, values whose length overflows):
    then the caller embeds the text again. Such a vector was stored, and every search of the
    persona that scored it answered 500 (a NaN score is no JSON number)."""
    text = record.get("vector")
    if not text:
        return None
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        return None
    if len(raw) != 4 * dim:
        return None
    vector = np.frombuffer(raw, dtype=np.float32).copy()
    with np.errstate(over="ignore", invalid="ignore"):
        usable = bool(np.isfinite(vector).all() and np.isfinite(np.linalg.norm(vector)))
    return vector if usable else None


def moved_key(persona: str, key: str) -> str:
    """The key a memory gets in a folder where another persona already uses ``key``: derived,
    so that running the same import again finds the memory it wrote the first time."""
    digest = hashlib.sha256(f"{persona}\0{key}".encode()).hexdigest()
    return "mem_" + digest[:16]


# A memory record's fields that name another memory by its key (a pointer), in the record and in
# its versions' images: what an import remaps, checks and waits for, read from here alone.
MEMORY_POINTERS = ("superseded_by", "summary_ref")


def remap_memory(record: dict[str, Any], keys: Mapping[str, str]) -> dict[str, Any]:
    """The memory record with every memory key it names passed through ``keys`` (the key, its
    pointers, a remainder's source, the pointers in its version images, a version's cause)."""
    if not keys:
        return record

    def k(value: Any) -> Any:
        return keys.get(value, value) if isinstance(value, str) else value

    out = dict(record)
    out["key"] = k(record["key"])
    out.update({name: k(record[name]) for name in MEMORY_POINTERS})
    if isinstance(record["source_ref"], str):
        out["source_ref"] = k(record["source_ref"])
    metadata = record["metadata"]
    if isinstance(metadata, dict) and "remainder_of" in metadata:
        out["metadata"] = {**metadata, "remainder_of": k(metadata["remainder_of"])}
    versions = []
    for version in record["versions"]:
        version = dict(version)
        version["cause"] = k(version.get("cause"))
        for side in ("before", "after"):
            image = version.get(side)
            if isinstance(image, dict):
                version[side] = {
                    **image,
                    **{name: k(image[name]) for name in MEMORY_POINTERS if name in image},
                }
        versions.append(version)
    out["versions"] = versions
    return out

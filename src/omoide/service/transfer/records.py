"""One record of an Omoide export file: read (NFC, control characters of old files as spaces)
and checked by the API's own validators, and what a memory record names (its pointers).
Both passes of an import read the file through :func:`read_records`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from omoide.config import PERSONA_SETTINGS, RETIRED_SETTINGS, validate_setting_patch
from omoide.engine.attachments import IMAGE_CAPTION
from omoide.engine.transfer_format import MEMORY_POINTERS, FormatError, decode_line
from omoide.errors import InvalidInput
from omoide.service.blocks import check_block
from omoide.service.event_input import check_event
from omoide.service.state import check_state_key, check_state_value
from omoide.service.validate import (
    MAX_AHEAD,
    MAX_TAGS,
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

__all__ = [
    "NOT_AN_EXPORT",
    "POINTERS",
    "Lines",
    "as_imported",
    "check_record",
    "is_current",
    "kept_external_id",
    "named_keys",
    "read_records",
]

Lines = Callable[[], Iterable[str]]  # the file, readable more than once
SETTING_NAMES = frozenset(s.name for s in PERSONA_SETTINGS)


def check_record(
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


def _in_order(record: Mapping[str, Any], first: str, then: str, why: str) -> None:
    """The time ``then``, when both are set, not before the time ``first`` (``why`` says
    why)."""
    start = check_timestamp(record[first], first)
    end = check_timestamp(record[then], then)
    if start is not None and end is not None and end < start:
        raise InvalidInput(
            f"{then} ({record[then]}) is before {first} ({record[first]}): {why}", field=then
        )


def _window(record: Mapping[str, Any], what: str) -> None:
    """``valid_until``, when set, not before ``valid_from``: such a row is true at no time.
    An empty window (equal) is one evolution writes for a fact contradicted before it began."""
    _in_order(record, "valid_from", "valid_until", f"{what} ends when or after it begins")


def _check_block(record: dict[str, Any], now: datetime, _: int) -> None:
    check_block(record)
    _times(record, ("created_at", "updated_at"), now)


def _check_state(record: dict[str, Any], now: datetime, _: int) -> None:
    key = check_state_key(record["key"])
    check_state_value(key, record["value"])
    if record["source_session"] is not None:
        check_session_id(record["source_session"], "source_session")
    _window(record, "a value")  # else the value vanished from the state and its history
    _times(record, ("created_at",), now)


def _check_session(record: dict[str, Any], now: datetime, _: int) -> None:
    check_session_id(record["session_id"])
    check_metadata(record["metadata"])
    _times(record, ("started_at", "ended_at", "last_event_at"), now)
    _in_order(record, "started_at", "ended_at", "a session ends when or after it starts")
    started = check_timestamp(record["started_at"], "started_at")
    last = check_timestamp(record["last_event_at"], "last_event_at")
    if last is not None and started is not None and last < started - MAX_AHEAD:
        # a turn's arrival (the server's clock) is its last_event_at, a started_at is taken up
        # to MAX_AHEAD past the clock: a last turn earlier than that never came
        hours = int(MAX_AHEAD.total_seconds() // 3600)
        raise InvalidInput(
            f"last_event_at ({record['last_event_at']}) is more than {hours} hours before "
            f"started_at ({record['started_at']}): a session's turns come after it is opened "
            f"(its started_at taken at most {hours} hours ahead of the clock)",
            field="last_event_at",
        )
    if record["ended_at"] is None and record["ended_by"] is not None:
        raise InvalidInput("an open session (ended_at null) has no ended_by", field="ended_by")


def _check_event(record: dict[str, Any], now: datetime, _: int) -> None:
    check_session_id(record["session_id"])
    if record["seq"] < 1:  # turns are numbered from 1: segmentation reads those after its
        # mark, 0 when none is segmented, so a turn at 0 or below was never segmented
        raise InvalidInput(f"seq must be 1 or more (got {record['seq']})", field="seq")
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
    _window(record, "a fact")
    _times(
        record, ("created_at", "updated_at", "last_accessed", "evolved_at", "last_decay_at"), now
    )
    for i, version in enumerate(record["versions"]):
        check_happened(version["changed_at"], f"versions[{i}].changed_at", now)
        for side, image in _images(version):
            if "tags" in image:  # what the memory held then: tags the API would take
                where = f"versions[{i}].{side}"
                try:
                    check_tags(image["tags"])
                except InvalidInput as exc:
                    raise InvalidInput(f"{where}: {exc.message}", field=f"{where}.tags") from None
    for source in record["sources"]:
        check_session_id(source["session_id"], "sources session_id")


def _check_link(record: dict[str, Any], now: datetime, _: int) -> None:
    check_name(record["a"], "a", "memory key")
    check_name(record["b"], "b", "memory key")
    _times(record, ("last_activated",), now)


def _check_settings(record: dict[str, Any], now: datetime, _: int) -> None:
    """Each override holds what ``PUT /api/settings`` takes (a null: the default again), in the
    first pass, so a refusal names the line; one of a retired setting (a file an older Omoide
    wrote) is skipped. The pair of search weights, and the chat memory budget against the chat
    budget, are checked as they are applied, against what the persona holds (the settings
    service's own rules)."""
    overrides = record["overrides"]
    if not isinstance(overrides, dict):
        return  # the record's shape is refused in the format's own words
    kept = {k: v for k, v in overrides.items() if k not in RETIRED_SETTINGS}
    validate_setting_patch({k: v for k, v in kept.items() if v is not None})
    unknown = sorted(k for k, v in kept.items() if v is None and k not in SETTING_NAMES)
    if unknown:
        validate_setting_patch({unknown[0]: None})  # "unknown setting …" in the API's words


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


def is_current(record: Mapping[str, Any]) -> bool:
    """A memory a merge checks for a duplicate (a normal write's duplicate: a current one)."""
    return (
        record["status"] == "active"
        and record["superseded_by"] is None
        and record["valid_until"] is None
    )


# The fields that name another memory by its key, stored as they are (a pointer) or joined on
# it (a link, whose two ends must be memories of the persona).
POINTERS = {"memory": MEMORY_POINTERS, "link": ("a", "b")}


def named_keys(record: Mapping[str, Any]) -> set[str]:
    """The other memories' keys a memory record names (what ``remap_memory`` passes on): its
    pointers (:data:`POINTERS`), in the record and in its versions' images, the memory it is
    the remainder of and the causes of its versions."""
    named = {record[name] for name in POINTERS["memory"]}
    metadata = record["metadata"]
    if isinstance(metadata, dict):
        named.add(metadata.get("remainder_of"))
    for version in record["versions"]:
        named.add(version.get("cause"))
        for side in ("before", "after"):
            image = version.get(side)
            if isinstance(image, dict):
                named.update(image.get(name) for name in POINTERS["memory"])
    return {key for key in named if isinstance(key, str) and key != record["key"]}


# What a file that is not an Omoide export is told (a Mem0 list, a chat export, a file
# pretty-printed over many lines): the refusal of its first line said only "unknown record type
# None" or "a record must be a JSON object".
NOT_AN_EXPORT = (
    'an Omoide export (JSON Lines) starts with its header record {"type": '
    '"header", "format": "omoide-export", …}; a Mem0, MCP memory or chat '
    "file is imported with source=mem0, mcp-memory or chat (omoide import --from)"
)


def read_records(lines: Lines) -> Iterator[tuple[int, str, dict[str, Any], int]]:
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
            controls = _replace_controls(kind, record)
            if kind == "memory":
                _tags_once(record)
            elif kind == "event":
                record["external_id"] = kept_external_id(record.get("external_id"))
                _blank_caption_dropped(record)
            yield number, kind, record, controls


def _blank_caption_dropped(record: dict[str, Any]) -> None:
    """An event's blank ``metadata.image_caption`` left out: a file written before a blank one
    was refused (``event_input.check_event``) still imports, the caption read as none, as it
    was read then (``engine.attachments.image_caption``)."""
    metadata = record.get("metadata")
    caption = metadata.get(IMAGE_CAPTION) if isinstance(metadata, dict) else None
    if isinstance(caption, str) and is_blank(caption):
        del metadata[IMAGE_CAPTION]


def kept_external_id(value: Any) -> Any:
    """A turn's ``external_id`` as an import keeps it: one of only whitespace or invisible
    characters, which the API stored before it refused it (``check_external_id``), is read as
    no id (the turn is kept); any other value as it is, for the checks to judge."""
    return None if isinstance(value, str) and is_blank(value) else value


def _images(version: Any) -> list[tuple[str, dict[str, Any]]]:
    """A version's ``before`` and ``after`` images that are objects, by side."""
    if not isinstance(version, dict):
        return []
    return [
        (side, version[side]) for side in ("before", "after") if isinstance(version.get(side), dict)
    ]


def _tag_holders(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The memory record and its versions' images holding a list of tags."""
    versions = record.get("versions")
    images = [i for v in versions for _, i in _images(v)] if isinstance(versions, list) else []
    return [h for h in (record, *images) if isinstance(h.get("tags"), list)]


def _tags_once(record: dict[str, Any]) -> None:
    """A memory's tags, and those of its versions' images, each kept once in its first place,
    as the API's ``check_tags`` keeps them (a file holding ``["tea", "tea"]`` stored both).
    More than the API takes are left as given: the API counts the tags it is given,
    duplicates too, and ``check_tags`` refuses them by that count."""
    for holder in _tag_holders(record):
        if len(holder["tags"]) <= MAX_TAGS:
            holder["tags"] = _once_each(holder["tags"])


def _once_each(tags: list[Any]) -> list[Any]:
    """``tags`` each kept once (compared by value: an image's tags are not checked to be
    texts, so may be unhashable)."""
    kept: list[Any] = []
    for tag in tags:
        if tag not in kept:
            kept.append(tag)
    return kept


def as_imported(row: tuple[str, str, str, str]) -> tuple[str, str, str, str]:
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
    are counted (the report's ``controls_replaced``); a memory's versions' images' tags too. A
    tag left blank is dropped, a label left blank is none, a state value left blank is U+FFFD
    (its key stays)."""
    count = 0
    if kind == "memory":
        for holder in _tag_holders(record):  # the memory's, and its versions' images'
            tags = []
            for tag in holder["tags"]:
                if isinstance(tag, str):
                    read, n = replace_controls(tag.strip())
                    count += n
                    if n and is_blank(read):
                        continue
                    # kept trimmed; a blank one as written, for the refusal to echo (check_tags)
                    tag = tag if is_blank(read) else read
                tags.append(tag)
            holder["tags"] = tags
        if isinstance(record.get("emotion_type"), str):
            label, n = replace_controls(record["emotion_type"].strip())
            count += n
            record["emotion_type"] = None if n and is_blank(label) else label
    elif kind == "state" and isinstance(record.get("value"), str):
        record["value"], n = _state_value(record["value"])
        count += n
    return count

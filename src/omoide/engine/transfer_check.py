"""The export format's field types (``engine/transfer_format.py``), and the checks that a
record's fields hold them: what each field of each record type holds, and the refusal, in words,
naming the first field that does not. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from omoide.engine.blank import NON_BLANK_RULE, is_blank
from omoide.engine.counts import plural
from omoide.engine.errors import named, quoted
from omoide.model import LinkType, SessionEnd

__all__ = ["header_problem", "record_problem", "unknown_problem"]


# What each field holds. Types: "str" (not blank: names), "text" (any string), "time" (ISO
# 8601), "int", "num" (finite), "bool", "obj", "list"; a trailing "?" allows null; a set lists
# the allowed values.
_TEXT, _OPT_TIME = "text", "time?"
_FIELD_TYPES: dict[str, dict[str, Any]] = {
    "settings": {"overrides": "obj"},
    "block": {
        "block_name": "str",
        "content": _TEXT,
        "block_type": "str",
        "max_tokens": "int",
        "priority": "int",
        "metadata": "obj",
        "created_at": "time",
        "updated_at": "time",
    },
    "state": {
        "kind": {"user", "persona"},
        "key": "str",
        "value": _TEXT,
        "valid_from": "time",
        "valid_until": _OPT_TIME,
        "created_at": "time",
        "source_session": "str?",
    },
    "session": {
        "session_id": "str",
        "started_at": "time",
        "ended_at": _OPT_TIME,
        "metadata": "obj",
        "segmented_upto_seq": "int",
        "open_reason": "str",
        "open_surprise": "num",
        "last_event_at": _OPT_TIME,
        "ended_by": {*(str(e) for e in SessionEnd), None},
    },
    "event": {
        "session_id": "str",
        "seq": "int",
        "speaker": "str",
        "role": "str",
        "content": _TEXT,
        "timestamp": "time",
        "external_id": "text?",
        "metadata": "obj",
        "created_at": "time",
    },
    "episode": {
        "session_id": "str",
        "first_seq": "int",
        "last_seq": "int",
        "content": _TEXT,
        "topic": _TEXT,
        "surprise": "num",
        "boundary_reason": "str",
        "started_at": "time",
        "ended_at": "time",
        "created_at": "time",
        "consolidated_at": _OPT_TIME,
    },
    "memory": {
        "key": "str",
        "content": "str",
        "kind": {"note", "fact", "preference", "profile", "event", "instruction"},
        "importance": "num",
        "tags": "list",
        "emotion_type": "text?",
        "emotion_intensity": "num",
        "source": "str",
        "created_at": "time",
        "updated_at": "time",
        "access_count": "int",
        "last_accessed": _OPT_TIME,
        "valid_from": _OPT_TIME,
        "valid_until": _OPT_TIME,
        "superseded_by": "str?",
        "summary_ref": "str?",
        "status": {"active", "tombstoned"},
        "metadata": "obj",
        "evolved_at": _OPT_TIME,
        "strength": "num",
        "stability": "num",
        "last_decay_at": _OPT_TIME,
        "versions": "list",
        "sources": "list",
    },
    "link": {
        "a": "str",
        "b": "str",
        "link_type": {str(t) for t in LinkType},
        "weight": "num",
        "co_activation_count": "int",
        "last_activated": _OPT_TIME,
    },
}
_VERSION_TYPES: dict[str, Any] = {
    "version": "int",
    "change": {"create", "update", "extend", "supersede", "delete"},
    "changed_by": "str",
    "changed_at": "time",
    "before": "obj?",
    "after": "obj?",
    "cause": "str?",
}
_SOURCE_TYPES: dict[str, Any] = {"session_id": "str", "seq": "int"}
# The header's fields beside its format, version and embedder object (checked before them):
# ``"with_vectors": "false"`` read as true, the file's vectors then used.
_HEADER_TYPES: dict[str, Any] = {"exported_at": "time", "with_vectors": "bool"}


def _fits(value: Any, kind: Any) -> bool:
    if isinstance(kind, set):  # its words (and None): a list or object is none of them
        return (value is None or isinstance(value, str)) and value in kind
    if kind.endswith("?"):
        if value is None:
            return True
        kind = kind[:-1]
    if kind in ("str", "text"):
        return isinstance(value, str) and (kind == "text" or not is_blank(value))
    if kind == "time":
        return isinstance(value, str) and _is_time(value)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
    if kind == "num":
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    if kind == "obj":
        return isinstance(value, dict)
    if kind == "bool":
        return isinstance(value, bool)
    return isinstance(value, list)


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


_KIND_WORDS = {
    "str": "a string",
    "text": "a string",
    "time": "an ISO-8601 time (e.g. 2026-03-01T09:30:00+00:00)",
    "int": "an integer",
    "num": "a number",
    "obj": "an object ({…})",
    "bool": "true or false",
    "list": "an array ([…])",
}


def _wanted(kind: Any) -> str:
    """What a field of ``kind`` holds, in words ("a number or null", "one of "fact", "note""):
    the refusal said the type code and Python's list ("must be num", "one of [None, 'fact']")."""
    if isinstance(kind, set):
        words = ", ".join(quoted(v) for v in sorted(v for v in kind if v is not None))
        return f"one of {words}" + (" or null" if None in kind else "")
    optional = kind.endswith("?")
    return _KIND_WORDS[kind.removesuffix("?")] + (" or null" if optional else "")


def unknown_problem(names: Iterable[str], holds: Sequence[str], holder: str) -> str | None:
    """The refusal of the fields among ``names`` that are not in ``holds`` (what ``holder``, "a
    memory record" or "it", may hold), or None when there is none. The one check an import
    makes of unknown fields, for a record (``transfer_format.decode_line``) and for an entry of
    a memory's ``versions`` or ``sources``: as the API refuses a body's unknown field, an import
    refuses them (a misspelt ``"contnet"`` was ignored without a word)."""
    unknown = [name for name in names if name not in holds]
    if not unknown:
        return None
    shown = ", ".join(named(name) for name in unknown[:5]) + (" …" if len(unknown) > 5 else "")
    return (
        f"{plural(len(unknown), 'unknown field')} {shown} "
        f"(unknown fields are refused, not ignored); {holder} holds {', '.join(holds)}"
    )


def _check_fields(record: Mapping[str, Any], types: Mapping[str, Any], where: str) -> str | None:
    for name, kind in types.items():
        value = record.get(name)
        if _fits(value, kind):
            continue
        got = "it is missing" if name not in record else f"got {quoted(value)}"
        if isinstance(value, str) and kind in ("str", "str?"):  # blank: in the API's one wording
            return f"{where}{name} {NON_BLANK_RULE} ({got})"
        return f"{where}{name} must be {_wanted(kind)} ({got})"
    return None


def _check_known(entry: Mapping[str, Any], types: Mapping[str, Any], where: str) -> str | None:
    """An entry of a memory's ``versions`` or ``sources`` holding a field they do not."""
    problem = unknown_problem(entry, tuple(types), "it")
    return None if problem is None else f"{where}: {problem}"


def record_problem(kind: str, r: Mapping[str, Any]) -> str | None:
    """What is wrong with a record of ``kind`` (not the header or the end), or None."""
    problem = _check_fields(r, _FIELD_TYPES[kind], "")
    if problem is None and kind == "memory":
        problem = _check_memory(r)
    if problem is None and kind == "link":
        problem = _check_link(r)
    if problem is not None:
        return problem
    vector = r.get("vector")
    if vector is not None and not isinstance(vector, str):
        return "vector must be a base64 string"
    return None


def header_problem(r: Mapping[str, Any]) -> str | None:
    """What is wrong with a header's embedder (an object), ``ends``, ``exported_at``,
    ``with_vectors`` or embedder ``dim`` (the size of its vectors, a positive integer), or
    None."""
    if not isinstance(r["embedder"], dict):
        return "embedder must be an object"
    if not isinstance(r.get("ends", False), bool):
        return "ends must be true or false"
    problem = _check_fields(r, _HEADER_TYPES, "")
    if problem is not None:
        return problem
    dim = r["embedder"].get("dim")
    if not _fits(dim, "int") or dim < 1:
        got = "it is missing" if "dim" not in r["embedder"] else f"got {quoted(dim)}"
        return f"embedder.dim must be a positive integer ({got})"
    return None


def _check_link(r: Mapping[str, Any]) -> str | None:
    """A link as evolution writes one: between two memories, its weight within 0-1 (each
    co-activation moves it towards 1), its count never negative. A link of a memory to itself,
    or of another type (which reading the memory's links then failed on: a 500), is none."""
    if r["a"] == r["b"]:
        return f"a and b name the same memory ({quoted(r['a'])}); a link joins two memories"
    if not 0.0 <= r["weight"] <= 1.0:
        return f"weight must be within 0-1 (got {quoted(r['weight'])})"
    if r["co_activation_count"] < 0:
        return f"co_activation_count must be 0 or more (got {r['co_activation_count']})"
    return None


def _check_memory(r: Mapping[str, Any]) -> str | None:
    # a blank tag is the API's to refuse (``validate.check_tags``), in its one wording
    odd = [t for t in r["tags"] if not isinstance(t, str)]
    if odd:
        return f"every tag must be a string, got {quoted(odd[0])}"
    if not 0.0 <= r["importance"] <= 1.0 or not 0.0 <= r["emotion_intensity"] <= 1.0:
        return "importance and emotion_intensity must be within 0-1"
    if not 0.0 <= r["strength"] <= 1.0:  # importance × recall, each within 0-1
        return f"strength must be within 0-1 (got {quoted(r['strength'])})"
    if r["stability"] <= 0:
        return "stability must be positive"
    if r["access_count"] < 0:
        return f"access_count must be 0 or more (got {r['access_count']})"
    for name in ("superseded_by", "summary_ref"):  # evolution names another memory there
        if r[name] is not None and r[name] == r["key"]:
            return f"{name} names the memory itself ({quoted(r['key'])}); it names another memory"
    ref = r["source_ref"]
    if (
        ref is not None
        and not isinstance(ref, str)
        and not (
            isinstance(ref, dict)
            and isinstance(ref.get("episode"), dict)
            and _check_fields(ref["episode"], {"session_id": "str", "first_seq": "int"}, "") is None
        )
    ):
        return 'source_ref must be a string, null or {"episode": {session_id, first_seq}}'
    numbers: dict[int, int] = {}  # version number -> its index
    for i, version in enumerate(r["versions"]):
        if not isinstance(version, dict):
            return f"versions[{i}] must be an object"
        problem = _check_fields(version, _VERSION_TYPES, f"versions[{i}].")
        if problem is None:
            problem = _check_known(version, _VERSION_TYPES, f"versions[{i}]")
        if problem is not None:
            return problem
        # a memory holds one version of each number (the restore failed on the second: a 500
        # after the records before it were written)
        number = version["version"]
        if number < 1:
            return f"versions[{i}].version must be 1 or more (got {number})"
        if number in numbers:
            return (
                f"versions[{i}].version {number} is the number of versions[{numbers[number]}] "
                "too; each version of a memory has its own number"
            )
        numbers[number] = i
    for i, source in enumerate(r["sources"]):
        if not isinstance(source, dict):
            return f"sources[{i}] must be an object"
        problem = _check_fields(source, _SOURCE_TYPES, f"sources[{i}].")
        if problem is None:
            problem = _check_known(source, _SOURCE_TYPES, f"sources[{i}]")
        if problem is not None:
            return problem
    return None

"""The export format (pure): lines out and back, every field checked, keys moved."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from omoide.engine.transfer_format import (
    FormatError,
    decode_line,
    decode_vector,
    encode_line,
    header,
    moved_key,
    remap_memory,
)

MEMORY = {
    "key": "mem_1",
    "content": "The user lives in Osaka",
    "kind": "fact",
    "importance": 0.6,
    "tags": ["home"],
    "emotion_type": None,
    "emotion_intensity": 0.1,
    "source": "user",
    "source_ref": {"episode": {"session_id": "s1", "first_seq": 1}},
    "created_at": "2026-11-30T09:00:00+00:00",
    "updated_at": "2026-11-30T09:00:00+00:00",
    "access_count": 2,
    "last_accessed": None,
    "valid_from": None,
    "valid_until": None,
    "superseded_by": "mem_2",
    "summary_ref": None,
    "status": "active",
    "metadata": {"remainder_of": "mem_0"},
    "evolved_at": None,
    "strength": 0.5,
    "stability": 1.0,
    "last_decay_at": None,
    "sources": [{"session_id": "s1", "seq": 3}],
    "versions": [
        {
            "version": 1,
            "change": "create",
            "changed_by": "user",
            "changed_at": "2026-11-30T09:00:00+00:00",
            "before": None,
            "after": {"superseded_by": None, "content": "x"},
            "cause": "mem_2",
        }
    ],
}


def test_a_record_goes_out_and_back_with_its_vector() -> None:
    vector = np.arange(4, dtype=np.float32)
    line = encode_line(
        "memory", {**MEMORY, "vector": vector.tobytes(), "vector_model": "m"}, model_id="m"
    )
    kind, record = decode_line(line, 7)
    assert kind == "memory" and {k: record[k] for k in MEMORY} == MEMORY
    assert np.array_equal(decode_vector(record, 4), vector)
    assert decode_vector(record, 8) is None  # another size: embed again
    other = encode_line(
        "memory", {**MEMORY, "vector": vector.tobytes(), "vector_model": "x"}, model_id="m"
    )
    assert "vector" not in json.loads(other)  # a vector of another model is not written


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("importance", "high", 'importance must be a number (got "high")'),
        ("importance", 3, "within 0-1"),
        ("kind", "poem", "kind must be one of"),
        # a list or an object in a field of fixed words raised TypeError (unhashable): a 500
        ("kind", ["fact"], "kind must be one of"),
        ("status", {"active": True}, "status must be one of"),
        ("kind", 1, "kind must be one of"),
        ("versions", [{**MEMORY["versions"][0], "change": ["create"]}], "versions[0].change"),
        ("created_at", "yesterday", "created_at must be an ISO-8601 time"),
        ("tags", ["x", 5], "every tag must be a string, got 5"),
        ("access_count", 1.5, "access_count must be an integer (got 1.5)"),
        ("source_ref", {"episode": "s1"}, "source_ref must be"),
        ("versions", [{"version": 1}], "versions[0].change"),
        (
            "sources",
            [{"session_id": "s1", "seq": "3"}],
            'sources[0].seq must be an integer (got "3")',
        ),
        ("stability", 0, "stability must be positive"),
        ("access_count", -3, "access_count must be 0 or more (got -3)"),
    ],
)
def test_every_field_is_checked(field: str, value: object, says: str) -> None:
    line = json.dumps({"type": "memory", **MEMORY, field: value})
    with pytest.raises(FormatError, match=re.escape(says)) as refused:
        decode_line(line, 12)
    # in words and JSON, not the type code and Python's repr ("must be num", "[None, 'a']")
    assert not re.search(r"must be (num|int|str|obj|time)\b|None|\['", refused.value.message)
    assert refused.value.line == 12 and refused.value.message.startswith("line 12: ")


def test_headers_and_unknown_lines_are_refused() -> None:
    good = header(
        persona="rin",
        model_id="m",
        dim=4,
        exported_at="2026-11-30T09:00:00+00:00",
        with_vectors=False,
    )
    assert decode_line(json.dumps(good), 1)[0] == "header"
    with pytest.raises(FormatError, match="version 2 is not supported") as newer:
        decode_line(json.dumps({**good, "version": 2}), 1)
    # an export of a newer Omoide says so, and is known for an export (no Mem0 hint follows)
    assert "written by a newer Omoide" in newer.value.message and newer.value.is_export
    with pytest.raises(FormatError, match='version "1" is not supported') as odd:
        decode_line(json.dumps({**good, "version": "1"}), 1)
    assert "newer" not in odd.value.message and odd.value.is_export
    with pytest.raises(FormatError, match="unknown record type"):
        decode_line('{"type": "secret"}', 3)
    with pytest.raises(FormatError, match="line 4: not valid JSON"):
        decode_line("{", 4)
    # a type that is a list or an object was looked up in a dict: TypeError, a 500
    for kind in ([], ["memory"], {}, {"a": 1}, True, 5, None):
        with pytest.raises(FormatError, match="line 5: unknown record type"):
            decode_line(json.dumps({"type": kind}), 5)
    # in JSON's words, not Python's ("unknown record type None" for a record without one)
    with pytest.raises(FormatError) as caught:
        decode_line('{"a": 1}', 6)
    assert str(caught.value).startswith(
        'line 6: unknown record type (none): a record\'s "type" is one of header, '
    )
    with pytest.raises(FormatError, match=r"unknown record type \(null\)"):
        decode_line('{"type": null}', 7)
    with pytest.raises(FormatError, match=r'unknown record type \("secret"\)'):
        decode_line('{"type": "secret"}', 8)


def test_moved_keys_are_stable_and_every_pointer_follows() -> None:
    assert moved_key("rin", "mem_1") == moved_key("rin", "mem_1") != moved_key("ken", "mem_1")
    keys = {"mem_1": "mem_a", "mem_2": "mem_b", "mem_0": "mem_z"}
    moved = remap_memory(MEMORY, keys)
    assert (moved["key"], moved["superseded_by"], moved["metadata"]["remainder_of"]) == (
        "mem_a",
        "mem_b",
        "mem_z",
    )
    assert moved["versions"][0]["after"] == {"superseded_by": None, "content": "x"}
    assert MEMORY["key"] == "mem_1"  # the input is left as it was


def test_files_written_before_provenance_fields_still_read() -> None:
    """A state row without ``source_session`` and a version without ``cause`` (files of
    earlier releases) read as "no provenance", and both fields go out on every new line."""
    old_version = {k: v for k, v in MEMORY["versions"][0].items() if k != "cause"}
    _, memory = decode_line(json.dumps({"type": "memory", **MEMORY, "versions": [old_version]}), 2)
    assert memory["versions"][0]["cause"] is None
    state = {
        "kind": "user",
        "key": "name",
        "value": "Rin",
        "valid_from": MEMORY["created_at"],
        "valid_until": None,
        "created_at": MEMORY["created_at"],
    }
    _, read = decode_line(json.dumps({"type": "state", **state}), 3)
    assert read["source_session"] is None
    written = json.loads(encode_line("state", {**state, "source_session": "s1"}))
    assert written["source_session"] == "s1"
    assert json.loads(encode_line("state", state))["source_session"] is None
    with pytest.raises(FormatError, match="source_session must be a string or null"):
        decode_line(json.dumps({"type": "state", **state, "source_session": 5}), 4)


def test_a_versions_cause_follows_a_moved_key() -> None:
    moved = remap_memory(MEMORY, {"mem_2": "mem_b"})
    assert moved["versions"][0]["cause"] == "mem_b"


def test_a_sessions_end_cause_is_optional_and_checked() -> None:
    """A session line without ``ended_by`` (files written before it) reads as unknown (None);
    new lines always carry it; a cause the format does not name is refused."""
    session = {
        "session_id": "s1",
        "started_at": MEMORY["created_at"],
        "ended_at": MEMORY["created_at"],
        "metadata": {},
        "segmented_upto_seq": 0,
        "open_reason": "start",
        "open_surprise": 0.0,
        "last_event_at": None,
    }
    _, read = decode_line(json.dumps({"type": "session", **session}), 2)
    assert read["ended_by"] is None
    for cause in ("client", "new_session", "idle", "import"):
        written = json.loads(encode_line("session", {**session, "ended_by": cause}))
        assert written["ended_by"] == cause
        assert decode_line(json.dumps(written), 2)[1]["ended_by"] == cause
    assert json.loads(encode_line("session", session))["ended_by"] is None
    with pytest.raises(FormatError, match="ended_by must be one of"):
        decode_line(json.dumps({"type": "session", **session, "ended_by": "crash"}), 3)


def test_a_field_of_fixed_words_lists_them_as_json() -> None:
    """Session 30: "kind must be one of [None, 'event', …], not None"."""
    line = json.dumps({"type": "memory", **MEMORY, "kind": None})
    with pytest.raises(FormatError) as refused:
        decode_line(line, 3)
    assert 'kind must be one of "' in refused.value.message
    assert refused.value.message.endswith("(got null)"), refused.value.message


_LINK = {
    "a": "mem_1",
    "b": "mem_2",
    "link_type": "SEMANTIC",
    "weight": 0.5,
    "co_activation_count": 1,
    "last_activated": None,
}


def test_unknown_fields_of_a_record_and_of_its_entries_are_refused_by_one_check() -> None:
    """A record's own fields and its versions' and sources' are told apart from what they hold
    by one check (``transfer_check.unknown_problem``), in the same words."""
    with pytest.raises(FormatError) as record:
        decode_line(json.dumps({"type": "link", **_LINK, "wieght": 1, "b2": 2}), 9)
    assert record.value.message == (
        "line 9: link record: unknown fields 'wieght', 'b2' (unknown fields are refused, not "
        "ignored); a link record holds a, b, link_type, weight, co_activation_count, "
        "last_activated"
    )
    source = {**MEMORY["sources"][0], "why": "typo"}
    with pytest.raises(FormatError) as entry:
        decode_line(json.dumps({"type": "memory", **MEMORY, "sources": [source]}), 10)
    assert entry.value.message == (
        "line 10: memory record: sources[0]: unknown field 'why' (unknown fields are refused, "
        "not ignored); it holds session_id, seq"
    )

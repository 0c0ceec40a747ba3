"""An Omoide import never drops a turn of its file without a word, and a refused file writes
nothing; a re-import of the same file stays idempotent (through real HTTP, both stores)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.errors import InvalidInput
from omoide.wiring import Omoide


def _with_turns(lines: list[dict[str, Any]], *turns: dict[str, Any]) -> list[dict[str, Any]]:
    """The export with session t1's one turn replaced by ``turns`` (the end count follows)."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if line["type"] == "event":
            out += [{**line, **turn} for turn in turns]
        elif line["type"] == "end":
            out.append({**line, "records": line["records"] + len(turns) - 1})
        else:
            out.append(line)
    return out


def _written(admin: httpx.Client, persona: str) -> list[dict[str, Any]]:
    return [
        json.loads(x)
        for x in admin.get(f"/api/export/{persona}").text.splitlines()
        if json.loads(x)["type"] not in ("header", "settings", "end")
    ]


@pytest.fixture
def admin(server: LiveServer) -> httpx.Client:
    server.create_persona("rin")
    server.create_persona("ayu")
    with server.admin() as client:
        yield client


@pytest.mark.parametrize(
    ("second", "says"),
    [
        ({"seq": 2, "content": "Something else.", "external_id": "x-1"}, "reuses the external_id"),
        ({"seq": 2, "content": "hello there", "external_id": "x-1"}, "reuses the external_id"),
        (
            {"seq": 1, "content": "Something else.", "external_id": "x-2"},
            "a second turn with seq 1",
        ),
    ],
)
def test_two_turns_of_a_session_under_one_id_or_seq_are_refused_before_any_write(
    admin: httpx.Client, second: dict[str, Any], says: str
) -> None:
    """The store's unique index stopped the second pass after the blocks and state were
    written, with the database's message ('UNIQUE constraint failed: …')."""
    lines = _with_turns(exported_lines(admin, "rin"), {"external_id": "x-1"}, second)
    error = refused(import_lines(admin, "ayu", lines), 422)
    assert says in error["message"] and "nothing was imported" in error["message"], error
    second_turn = [i for i, r in enumerate(lines, 1) if r["type"] == "event"][1]
    assert error["line"] == second_turn, error
    assert _written(admin, "ayu") == [], "a refused file wrote records"


def test_a_session_described_twice_is_refused(admin: httpx.Client) -> None:
    """The second description was skipped as 'already there', with its turns."""
    lines = exported_lines(admin, "rin")
    at = max(i for i, r in enumerate(lines) if r["type"] in ("session", "event", "episode"))
    again = [
        {**r, "content": "Another turn."} if r["type"] == "event" else r
        for r in lines
        if r["type"] in ("session", "event") and r["session_id"] == "t1"
    ]
    lines = lines[: at + 1] + again + lines[at + 1 :]
    lines[-1] = {**lines[-1], "records": lines[-1]["records"] + len(again)}
    error = refused(import_lines(admin, "ayu", lines), 422)
    assert "described a second time" in error["message"], error
    assert _written(admin, "ayu") == []


def test_a_session_already_held_with_other_turns_is_refused_not_skipped(
    admin: httpx.Client,
) -> None:
    """The import skipped session t1 because the persona had one of that id: its turn in the
    file was lost (200, and 'skipped': 1). Refused (409, with or without merge); the same file
    imported twice, or after the session went on, is still idempotent."""
    lines = exported_lines(admin, "rin")
    assert admin.post("/api/sessions/ayu", json={"session_id": "t1"}).status_code == 201
    assert (
        admin.post(
            "/api/sessions/ayu/t1/events",
            json={"events": [{"speaker": "Ken", "content": "another turn"}]},
        ).status_code
        == 200
    )
    for query in ("", "?merge=true"):
        reply = admin.post(
            f"/api/import/ayu{query}",
            content="\n".join(json.dumps(r) for r in lines).encode(),
            headers={"content-type": "application/x-ndjson"},
        )
        error = refused(reply, 409)
        assert "'t1'" in error["message"] and "other turns" in error["message"], error
    assert [r["content"] for r in _written(admin, "ayu") if r["type"] == "event"] == [
        "another turn"
    ]
    assert len(_written(admin, "ayu")) == 2  # the session and its turn: nothing imported
    # into an empty persona, twice: the second run writes nothing
    server_side = import_lines(admin, "rin", lines)  # rin holds exactly this file
    assert server_side.status_code == 200 and server_side.json()["events"] == 0, server_side.text
    assert (
        admin.post(
            "/api/sessions/rin/t1/events",
            json={"events": [{"speaker": "Ken", "content": "later turn"}]},
        ).status_code
        == 200
    )
    again = import_lines(admin, "rin", lines)
    assert again.status_code == 200 and again.json()["skipped"] >= 1, again.text


def test_a_chat_file_with_two_turns_under_one_message_id_is_refused(
    app: Omoide, persona: str
) -> None:
    """Two different messages with one id in a conversation: the second was dropped as a re-run
    of the first (keep-first), silently. Refused naming the conversation and the id; the same
    message twice is still one turn, and a re-run still adds nothing."""
    messages = [
        {"uuid": "m1", "sender": "human", "text": "I moved to Sapporo."},
        {"uuid": "m2", "sender": "assistant", "text": "Nice!"},
        {"uuid": "m1", "sender": "human", "text": "I moved to Otaru."},
    ]
    chat = [{"uuid": "c1", "name": "move", "chat_messages": messages}]
    with pytest.raises(InvalidInput) as refused_chat:
        app.peers.import_text(persona, "chat", json.dumps(chat))
    assert "'m1'" in refused_chat.value.message, refused_chat.value.message
    # … as are two conversations given one id (one session) whose messages share an id
    twice = [
        {**chat[0], "chat_messages": messages[:2]},
        {**chat[0], "chat_messages": [messages[2]]},
    ]
    with pytest.raises(InvalidInput):
        app.peers.import_text(persona, "chat", json.dumps(twice))
    same = [{**chat[0], "chat_messages": [messages[0], messages[1], messages[0]]}]
    assert app.peers.import_text(persona, "chat", json.dumps(same)).events == 2  # none before
    assert app.peers.import_text(persona, "chat", json.dumps(same)).events == 0


def _twice(lines: list[dict[str, Any]], kind: str, change: dict[str, Any]) -> list[dict[str, Any]]:
    """The export with its (one) ``kind`` record followed by a second one edited by
    ``change`` under the same name (the end count follows)."""
    at = next(i for i, r in enumerate(lines) if r["type"] == kind)
    out = [*lines[: at + 1], {**lines[at], **change}, *lines[at + 1 :]]
    out[-1] = {**out[-1], "records": out[-1]["records"] + 1}
    return out


@pytest.mark.parametrize(
    ("kind", "change", "name"),
    [
        pytest.param("memory", {"content": "Ken drinks black coffee."}, "key", id="memory"),
        pytest.param("memory", {}, "key", id="memory-same"),
        pytest.param("block", {"content": "other"}, "block_name", id="block"),
    ],
)
def test_a_memory_or_block_described_twice_is_refused_before_any_write(
    admin: httpx.Client, kind: str, change: dict[str, Any], name: str
) -> None:
    """The second record under one key (or block name) was skipped as 'already there':
    a 200 whose report counted it in `skipped`, its content lost without a word."""
    lines = _twice(exported_lines(admin, "rin"), kind, change)
    error = refused(import_lines(admin, "ayu", lines), 422)
    second = [i for i, r in enumerate(lines, 1) if r["type"] == kind][1]
    assert error["line"] == second and error["field"] == name, error
    assert "described a second time" in error["message"], error
    assert "nothing was imported" in error["message"], error
    assert _written(admin, "ayu") == [], "a refused file wrote records"


def test_a_state_row_that_ends_before_it_begins_is_refused(admin: httpx.Client) -> None:
    """Such a row was stored: true at no time, the value left the state (`name` vanished
    from the user state) and from every `at` of its history."""
    lines = exported_lines(admin, "rin")
    at = next(i for i, r in enumerate(lines) if r["type"] == "state")
    lines[at] = {**lines[at], "valid_until": "2020-01-01T00:00:00+00:00"}
    error = refused(import_lines(admin, "ayu", lines), 422)
    assert error["line"] == at + 1 and error["field"] == "valid_until", error
    assert "before valid_from" in error["message"], error
    assert _written(admin, "ayu") == []
    # a row closed when it began (two changes at one instant) is a well-formed one
    lines[at] = {**lines[at], "valid_until": lines[at]["valid_from"]}
    assert import_lines(admin, "ayu", lines).status_code == 200


def test_an_export_of_a_newer_format_says_so_without_the_other_systems_hint(
    admin: httpx.Client,
) -> None:
    """Its refusal went on with 'a Mem0, MCP memory or chat file is imported with
    source=…': advice for a file that is not an export, which this one is."""
    lines = exported_lines(admin, "rin")
    lines[0] = {**lines[0], "version": 2}
    error = refused(import_lines(admin, "ayu", lines), 422)
    assert error["line"] == 1 and "newer Omoide" in error["message"], error
    assert "source=mem0" not in error["message"], error
    assert _written(admin, "ayu") == []


@pytest.mark.parametrize("batch", [256, 1], ids=["one-batch", "batch-per-memory"])
def test_a_merge_repoints_a_closed_fact_to_the_memory_its_successor_duplicates(
    admin: httpx.Client, app: Omoide, batch: int
) -> None:
    """Merging, the file's successor was skipped as a duplicate of the persona's memory, but
    the closed fact before it (read first) kept naming the successor's key, which was never
    written: a dangling `superseded_by`, in the same batch or an earlier one."""
    app.transfer.batch = batch
    for text in ("The user lives in Tokyo.", "The user moved to Osaka."):
        assert admin.post("/api/memories/rin", json={"content": text}).status_code == 201
    lines = [json.loads(x) for x in admin.get("/api/export/rin").text.splitlines()]
    closed, successor = (
        next(r for r in lines if r.get("content") == t)
        for t in ("The user lives in Tokyo.", "The user moved to Osaka.")
    )
    assert lines.index(closed) < lines.index(successor)  # a forward reference
    closed.update(superseded_by=successor["key"], valid_until=successor["created_at"])
    held = admin.post("/api/memories/ayu", json={"content": "The user moved to Osaka."})
    assert held.status_code == 201
    reply = import_lines(admin, "ayu", lines)
    assert reply.status_code == 409  # ayu holds data of its own: only with merge
    reply = admin.post(
        "/api/import/ayu?merge=true",
        headers={"content-type": "application/x-ndjson"},
        content="\n".join(json.dumps(r) for r in lines).encode(),
    )
    assert reply.status_code == 200 and reply.json()["duplicates"] == 1, reply.text
    moved = reply.json()["moved_keys"].get(closed["key"], closed["key"])
    stored = admin.get(f"/api/memories/ayu/{moved}").json()
    assert stored["superseded_by"] == held.json()["memory"]["key"], stored


def _with_link(lines: list[dict[str, Any]], a: str, b: str) -> list[dict[str, Any]]:
    """The export with a link a–b before its end record (the end count follows)."""
    link = {
        "type": "link",
        "a": a,
        "b": b,
        "link_type": "SEMANTIC",
        "weight": 0.5,
        "co_activation_count": 0,
        "last_activated": None,
    }
    return [*lines[:-1], link, {**lines[-1], "records": lines[-1]["records"] + 1}]


def _post(
    admin: httpx.Client, persona: str, lines: list[dict[str, Any]], merge: bool
) -> httpx.Response:
    return admin.post(
        f"/api/import/{persona}{'?merge=true' if merge else ''}",
        headers={"content-type": "application/x-ndjson"},
        content="\n".join(json.dumps(r) for r in lines).encode(),
    )


@pytest.mark.parametrize("merge", [False, True], ids=["plain", "merge"])
@pytest.mark.parametrize(
    ("kind", "name"),
    [("memory", "superseded_by"), ("memory", "summary_ref"), ("link", "a"), ("link", "b")],
)
def test_a_pointer_or_link_naming_a_key_nowhere_is_refused_before_any_write(
    admin: httpx.Client, kind: str, name: str, merge: bool
) -> None:
    """A hand-edited file naming a memory key that is in neither the file nor the persona was
    imported: the link dropped without a word (a 200 counting fewer links), the pointer stored
    naming nothing. Refused (422 naming the line, the field and the key); nothing written."""
    lines = exported_lines(admin, "rin")
    memory = next(i for i, r in enumerate(lines) if r["type"] == "memory")
    key = lines[memory]["key"]
    if kind == "memory":
        lines[memory] = {**lines[memory], name: "mem_nowhere"}
        at = memory + 1
    else:
        ends = {"a": ("mem_nowhere", key), "b": (key, "mem_nowhere")}[name]
        lines = _with_link(lines, *ends)
        at = len(lines) - 1
    error = refused(_post(admin, "ayu", lines, merge), 422)
    assert (error["line"], error["record"], error["field"]) == (at, kind, name), error
    assert "'mem_nowhere'" in error["message"] and "nothing was imported" in error["message"]
    assert error["key"] == "mem_nowhere", error
    assert _written(admin, "ayu") == [], "a refused file wrote records"


def test_pointers_and_links_to_the_files_keys_or_the_personas_still_import(
    admin: httpx.Client,
) -> None:
    """What was valid stays valid: a pointer or link to a memory of the file (read before or
    after it, its key moved because another persona of the folder holds it), and, merging, to
    a memory the persona already holds."""
    for text in ("Ken lives in Kyoto.", "Ken moved to Nara."):
        assert admin.post("/api/memories/rin", json={"content": text}).status_code == 201
    lines = [json.loads(x) for x in admin.get("/api/export/rin").text.splitlines()]
    first, second = (r for r in lines if r["type"] == "memory")
    first.update(superseded_by=second["key"], valid_until=second["created_at"])
    second.update(summary_ref=first["key"])
    lines = _with_link(lines, second["key"], first["key"])
    # into ayu of the same folder: rin holds the keys, so every key moves and pointers follow
    reply = import_lines(admin, "ayu", lines)
    assert reply.status_code == 200, reply.text
    report = reply.json()
    assert report["links"] == 1 and set(report["moved_keys"]) == {first["key"], second["key"]}
    moved = report["moved_keys"]
    stored = admin.get(f"/api/memories/ayu/{moved[first['key']]}").json()
    assert stored["superseded_by"] == moved[second["key"]], stored
    # merging, a pointer and a link to a memory ayu holds (not in the file) are kept
    own = admin.post("/api/memories/ayu", json={"content": "Ken plays the violin."})
    assert own.status_code == 201
    own_key = own.json()["memory"]["key"]
    assert admin.post("/api/personas", json={"name": "mio"}).status_code == 201
    lines = exported_lines(admin, "mio")
    at = next(i for i, r in enumerate(lines) if r["type"] == "memory")
    lines[at] = {**lines[at], "summary_ref": own_key}
    lines = _with_link(lines, lines[at]["key"], own_key)
    assert import_lines(admin, "ayu", lines).status_code == 409  # ayu's data: only with merge
    reply = _post(admin, "ayu", lines, merge=True)
    assert reply.status_code == 200 and reply.json()["links"] == 1, reply.text
    key = reply.json()["moved_keys"].get(lines[at]["key"], lines[at]["key"])
    assert admin.get(f"/api/memories/ayu/{key}").json()["summary_ref"] == own_key

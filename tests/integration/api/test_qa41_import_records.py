"""Session 41: an export file edited by hand (or written by another tool) that imported and
then broke the persona, through real HTTP into a real SQLite file.

- A ``link`` of another ``link_type`` than evolution writes (``"FRIEND"``) was stored, and
  reading either memory (``GET /api/memories/{p}/{key}``, ``…/links``) then answered 500. A link
  of a memory to itself, a weight outside 0-1 or a negative co-activation count was stored
  too. Each is refused now (422 naming the line and the field), nothing written.
- A session's ``segmented_upto_seq`` (the last turn already cut into episodes) was taken as
  written: negative, or before the end of one of its episodes, the restore queued
  segmentation again and the same turns became a second episode; past its last turn, the
  turns after it were never segmented. Refused the same way.
- Two versions of one memory under one ``version`` number failed the restore on the store's
  UNIQUE constraint: a 500 after the records before it were written. Refused in the first pass.
- A memory whose ``superseded_by`` or ``summary_ref`` names itself was stored. Refused.
- A turn numbered 0 (or below) was stored, and never segmented: segmentation reads the turns
  after its mark, which is 0 before any. Refused.
- An Omoide export sent as a Mem0, chat or MCP memory file was refused as "not valid JSON"
  (or as holding a record that is no entity); it is named as an Omoide export now.
- A vector holding NaN (or an infinity) was stored, and every search that scored it answered
  500. Such a vector is unusable like one of another size: the text is embedded again.
- Memories closed by each other in a ring (``superseded_by`` A → B → A), a session ending
  before it started, a ``strength`` outside 0-1, and a header whose ``with_vectors``,
  ``exported_at`` or embedder ``dim`` is of another type were stored. Refused. A memory's
  duplicate tags were stored twice; they are kept once, as the API keeps them.
- The API itself ended a session before it started: opened with a ``started_at`` ahead of the
  clock (taken up to a day ahead) and ended at once. It ends when it started now.
- Memories each other's ``summary_ref`` (A → B → A), and a session whose last turn came more
  than a day before it started (what the API never writes: it takes a ``started_at`` at most a
  day ahead of the clock, by which turns arrive), were stored. Refused, naming the keys, the
  two times. A memory of 21 tags, one twice, was stored with 20 where the API refuses it: it
  is refused as the API refuses it. Tags in a memory's versions' images were stored twice;
  they are kept once, as the memory's. A header whose embedder is no object (or whose ``ends``
  is no boolean) was refused as no Omoide export; it is named as one's header now.
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

pytestmark = pytest.mark.sqlite_only  # the import's first pass, before the store, is under test

Records = list[dict[str, Any]]


def _source(server: LiveServer) -> Records:
    """An export of persona src: session t1 (one turn), a block, the user's name and two
    memories, with a link each way between the two memories before its end record."""
    key = server.create_persona("src")
    with server.client(key) as client:
        other = client.post("/api/memories/src", json={"content": "Ken hikes on Sundays."})
        assert other.status_code == 201, other.text
        records = exported_lines(client, "src")
    a, b = (r["key"] for r in records if r["type"] == "memory")
    links = [
        {
            "type": "link",
            "a": x,
            "b": y,
            "link_type": "SEMANTIC",
            "weight": 0.4,
            "co_activation_count": 1,
            "last_activated": None,
        }
        for x, y in ((a, b), (b, a))
    ]
    end = records.pop()
    assert end["type"] == "end"
    return [*records, *links, {**end, "records": end["records"] + len(links)}]


def _edited(records: Records, kind: str, edit: Callable[[dict[str, Any]], None]) -> int:
    """Apply ``edit`` to the first record of ``kind``; returns its line number."""
    number, record = next((i, r) for i, r in enumerate(records, 1) if r["type"] == kind)
    edit(record)
    return number


def _nothing_imported(server: LiveServer, key: str) -> None:
    with server.client(key) as client:
        exported = client.get("/api/export/dst").text.splitlines()
    assert [json.loads(line)["type"] for line in exported] == ["header", "settings", "end"], (
        exported
    )


def _set(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def edit(record: dict[str, Any]) -> None:
        for name, value in fields.items():
            record[name] = record[value] if value in ("a", "b") else value

    return edit


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (_set(link_type="FRIEND"), 'link_type must be one of "SEMANTIC"'),
        (_set(b="a"), "a and b name the same memory"),
        (_set(weight=1.5), "weight must be within 0-1"),
        (_set(weight=-0.2), "weight must be within 0-1"),
        (_set(co_activation_count=-1), "co_activation_count must be 0 or more"),
    ],
)
def test_a_link_evolution_never_writes_is_refused(
    server: LiveServer, edit: Callable[[dict[str, Any]], None], words: str
) -> None:
    records = _source(server)
    number = _edited(records, "link", edit)
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number and f"line {number}: link record: " in error["message"]
    assert words in error["message"], error
    _nothing_imported(server, key)


def test_links_evolution_writes_import_and_read_back(server: LiveServer) -> None:
    records = _source(server)
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = import_lines(client, "dst", records)
        assert reply.status_code == 200, reply.text
        assert reply.json()["links"] == 2
        for memory in client.get("/api/memories/dst").json()["memories"]:
            read = client.get(f"/api/memories/dst/{memory['key']}/links")
            assert read.status_code == 200, read.text
            assert [link["weight"] for link in read.json()["links"]] == [0.4]


def _episode(records: Records) -> None:
    """An episode of t1's one turn after it, the session marked as segmented up to it."""
    at = next(i for i, r in enumerate(records) if r["type"] == "event") + 1
    turn = records[at - 1]
    records.insert(
        at,
        {
            "type": "episode",
            "session_id": "t1",
            "first_seq": 1,
            "last_seq": 1,
            "content": "Ken: hello there",
            "topic": "greeting",
            "surprise": 0.0,
            "boundary_reason": "start",
            "started_at": turn["timestamp"],
            "ended_at": turn["timestamp"],
            "created_at": turn["created_at"],
            "consolidated_at": turn["created_at"],
        },
    )
    records[-1]["records"] += 1
    _edited(records, "session", _set(segmented_upto_seq=1))


@pytest.mark.parametrize(
    ("upto", "with_episode", "words"),
    [
        (-1, False, "segmented_upto_seq -1 is negative"),
        (2, False, "segmented_upto_seq 2 is past its last turn (seq 1)"),
        (0, True, "segmented_upto_seq 0 is before seq 1, where an episode of it ends"),
        (-1, True, "segmented_upto_seq -1 is negative"),
    ],
)
def test_a_segmented_mark_off_its_turns_is_refused(
    server: LiveServer, upto: int, with_episode: bool, words: str
) -> None:
    records = _source(server)
    if with_episode:
        _episode(records)
    number = _edited(records, "session", _set(segmented_upto_seq=upto))
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number and error["field"] == "segmented_upto_seq", error
    assert words in error["message"] and "session 't1'" in error["message"], error
    _nothing_imported(server, key)


def test_a_segmented_session_imports_with_its_one_episode(server: LiveServer) -> None:
    records = _source(server)
    _episode(records)
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = import_lines(client, "dst", records)
        assert reply.status_code == 200, reply.text
        assert client.get("/api/jobs/dst/wait", params={"timeout": 30}).json()["drained"]
        episodes = client.get("/api/sessions/dst/t1/episodes").json()["episodes"]
    assert [(e["first_seq"], e["last_seq"]) for e in episodes] == [(1, 1)]


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (1, "versions[1].version 1 is the number of versions[0] too"),
        (0, "versions[1].version must be 1 or more (got 0)"),
    ],
)
def test_a_memory_version_numbered_twice_is_refused(
    server: LiveServer, number: int, words: str
) -> None:
    """The restore failed on the second version of one number (a UNIQUE constraint): a 500,
    after the records before it had been written."""
    records = _source(server)

    def twice(memory: dict[str, Any]) -> None:
        memory["versions"].append({**memory["versions"][0], "version": number})

    line = _edited(records, "memory", twice)
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == line and words in error["message"], error
    _nothing_imported(server, key)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e30])
def test_a_vector_no_embedder_writes_is_embedded_again(server: LiveServer, value: float) -> None:
    """A NaN vector was stored as it was, and every search of the persona that scored it
    answered 500; one holding an infinity, or values whose length overflows, is as unusable."""
    key = server.create_persona("src")
    with server.client(key) as client:
        for text in ("Ken drinks green tea every morning.", "Ken hikes on Sundays."):
            assert client.post("/api/memories/src", json={"content": text}).status_code == 201
        exported = client.get("/api/export/src", params={"with_vectors": "true"}).text
    records = [json.loads(line) for line in exported.splitlines()]
    memory = next(r for r in records if r["type"] == "memory")
    dim = len(base64.b64decode(memory["vector"])) // 4
    memory["vector"] = base64.b64encode(struct.pack(f"<{dim}f", *[value] * dim)).decode()
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = import_lines(client, "dst", records)
        assert reply.status_code == 200, reply.text
        assert reply.json()["embedded"] == 1, reply.json()  # that one, and only that one
        found = client.get("/api/search/dst", params={"q": "green tea"})
        assert found.status_code == 200, found.text
        assert "Ken drinks green tea every morning." in [
            h["content"] for h in found.json()["results"]
        ]
        again = client.get("/api/export/dst", params={"with_vectors": "true"}).text
    vectors = [json.loads(line).get("vector") for line in again.splitlines()]
    assert memory["vector"] not in vectors


def test_episodes_sharing_turns_are_refused(server: LiveServer) -> None:
    """Two episodes of one session over the same turn were both stored; segmentation never
    writes them (a turn belongs to one episode)."""
    records = _source(server)
    _episode(records)
    at = next(i for i, r in enumerate(records) if r["type"] == "episode")
    records.insert(at + 1, {**records[at], "topic": "again"})
    records[-1]["records"] += 1
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == at + 2, error
    assert "episodes of session 't1' overlap: turns 1-1 and 1-1" in error["message"], error
    _nothing_imported(server, key)


@pytest.mark.parametrize("seq", [0, -5])
def test_a_turn_numbered_below_one_is_refused(server: LiveServer, seq: int) -> None:
    """Turns are numbered from 1; one at 0 was stored and never segmented (segmentation reads
    the turns after its mark, 0 when none is segmented)."""
    records = _source(server)
    number = _edited(records, "event", _set(seq=seq))
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number and error["field"] == "seq", error
    assert f"event record: seq must be 1 or more (got {seq})" in error["message"], error
    _nothing_imported(server, key)


@pytest.mark.parametrize("source", ["mem0", "chat", "mcp-memory"])
def test_an_omoide_export_sent_as_another_source_says_so(server: LiveServer, source: str) -> None:
    """An Omoide export sent with ``source=mem0`` was refused as "not valid JSON: more text
    follows the end of the JSON value" (as an MCP memory file: a type that is not "entity"),
    never saying what the file was; the other way round already names the source to use."""
    records = _source(server)
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = client.post(
            "/api/import/dst",
            params={"source": source},
            headers={"content-type": "application/x-ndjson"},
            content="".join(json.dumps(r) + "\n" for r in records).encode(),
        )
    error = refused(reply, 422)
    assert error["message"].startswith(f"{source} file: this is an Omoide export"), error
    assert "import it without source" in error["message"], error
    _nothing_imported(server, key)


@pytest.mark.parametrize("pointer", ["superseded_by", "summary_ref"])
def test_a_memory_pointing_at_itself_is_refused(server: LiveServer, pointer: str) -> None:
    """A fact closed by itself, or summarised by itself, was stored (the dangling-pointer check
    found the key in the file); evolution only ever names another memory there."""
    records = _source(server)
    number = _edited(records, "memory", lambda memory: memory.update({pointer: memory["key"]}))
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number, error
    assert f"memory record: {pointer} names the memory itself" in error["message"], error
    _nothing_imported(server, key)


@pytest.mark.parametrize(
    "pointer",
    [
        # two memories each closed by the other: reading follows the chain loop-guarded, but
        # neither is the current fact
        "superseded_by",
        # two memories each the summary of the other: a summary is written after what it sums
        # up, so a chain of them ends
        "summary_ref",
    ],
)
def test_a_pointer_in_a_cycle_is_refused(server: LiveServer, pointer: str) -> None:
    """Two memories pointing at each other (A → B → A) were stored. Refused naming the keys."""
    records = _source(server)
    memories = [r for r in records if r["type"] == "memory"]
    a, b = memories[0]["key"], memories[1]["key"]
    memories[0][pointer], memories[1][pointer] = b, a
    number = records.index(memories[0]) + 1
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number and error["field"] == pointer, error
    assert f"{pointer} runs in a cycle: {a!r} → {b!r} → {a!r}" in error["message"], error
    _nothing_imported(server, key)


def test_a_session_ended_before_it_started_is_refused(server: LiveServer) -> None:
    records = _source(server)
    number = _edited(records, "session", lambda s: s.update(ended_at="2000-01-01T00:00:00+00:00"))
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number and error["field"] == "ended_at", error
    assert "ended_at (2000-01-01T00:00:00+00:00) is before started_at" in error["message"], error
    _nothing_imported(server, key)


def _open_ahead(client: httpx.Client) -> str:
    """Session ``s`` of ``src`` opened two hours ahead of the server's clock (the API takes up
    to a day ahead); its ``started_at`` as the API stored it."""
    now = client.post("/api/sessions/src", json={"session_id": "now"}).json()["started_at"]
    ahead = (datetime.fromisoformat(now) + timedelta(hours=2)).isoformat()
    opened = client.post("/api/sessions/src", json={"session_id": "s", "started_at": ahead})
    assert opened.status_code == 201, opened.text
    return str(opened.json()["started_at"])


def test_a_session_started_ahead_and_ended_now_ends_when_it_started(server: LiveServer) -> None:
    """A session opened with a ``started_at`` later than now (the API takes up to a day ahead)
    and ended at once was stored ending before it started, which its export then carried."""
    key = server.create_persona("src")
    with server.client(key) as client:
        started = _open_ahead(client)
        ended = client.post("/api/sessions/src/s/end")
        assert ended.status_code == 200, ended.text
        session = client.get("/api/sessions/src/s/episodes").json()
    assert session["ended_at"] is not None
    assert datetime.fromisoformat(session["ended_at"]) == datetime.fromisoformat(started), session


@pytest.mark.parametrize("strength", [1.5, -0.1])
def test_a_strength_outside_unit_interval_is_refused(server: LiveServer, strength: float) -> None:
    """Strength is importance × recall, so within 0-1; 1.5 was stored and ranked above every
    memory the decay job had measured."""
    records = _source(server)
    number = _edited(records, "memory", _set(strength=strength))
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number, error
    assert f"memory record: strength must be within 0-1 (got {strength})" in error["message"]
    _nothing_imported(server, key)


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (_set(with_vectors="false"), 'with_vectors must be true or false (got "false")'),
        (_set(with_vectors=1), "with_vectors must be true or false (got 1)"),
        (_set(exported_at="yesterday"), "exported_at must be an ISO-8601 time"),
        (_set(exported_at=1764979200), "exported_at must be an ISO-8601 time"),
        (lambda h: h["embedder"].update(dim=0), "embedder.dim must be a positive integer"),
        (lambda h: h["embedder"].update(dim="256"), "embedder.dim must be a positive integer"),
        (lambda h: h["embedder"].update(dim=True), "embedder.dim must be a positive integer"),
        (lambda h: h["embedder"].pop("dim"), "embedder.dim must be a positive integer"),
        # these two were refused adding that an Omoide export starts with its header record
        (_set(embedder="mini"), "embedder must be an object"),
        (_set(ends="yes"), "ends must be true or false"),
    ],
)
def test_a_header_field_of_the_wrong_type_is_refused(
    server: LiveServer, edit: Callable[[dict[str, Any]], None], words: str
) -> None:
    """``"with_vectors": "false"`` read as true (a non-empty text), and a header's time or
    embedder size of another type was taken without a word."""
    records = _source(server)
    edit(records[0])
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == 1 and f"line 1: header record: {words}" in error["message"], error
    assert "starts with its header record" not in error["message"], error  # it is an export
    _nothing_imported(server, key)


def test_duplicate_tags_are_dropped_as_the_api_drops_them(server: LiveServer) -> None:
    """The API keeps each tag once, in its first place; an import stored ``["tea", "tea"]``
    as given."""
    tags = ["tea", "morning", "tea", " morning "]
    records = _source(server)
    memory = next(r for r in records if r["type"] == "memory")
    memory["tags"] = tags
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = import_lines(client, "dst", records)
        assert reply.status_code == 200, reply.text
        stored = reply.json()["moved_keys"].get(memory["key"], memory["key"])
        imported = client.get(f"/api/memories/dst/{stored}")
        posted = client.post("/api/memories/dst", json={"content": "Ken swims.", "tags": tags})
    assert imported.status_code == 200 and posted.status_code == 201, (imported, posted.text)
    assert imported.json()["tags"] == posted.json()["memory"]["tags"] == ["tea", "morning"], (
        imported.json(),
        posted.json(),
    )


def test_more_tags_than_the_api_takes_are_refused_before_duplicates_drop(
    server: LiveServer,
) -> None:
    """The API counts the tags it is given (21, one of them twice: refused); an import dropped
    the duplicate first and stored the 20 left."""
    tags = [f"tag{i}" for i in range(20)] + ["tag0"]
    records = _source(server)
    number = _edited(records, "memory", _set(tags=tags))
    key = server.create_persona("dst")
    with server.client(key) as client:
        posted = refused(client.post("/api/memories/dst", json={"content": "x", "tags": tags}), 422)
        error = refused(import_lines(client, "dst", records), 422)
    assert "tags must have at most 20 items, got 21" in posted["message"], posted
    assert error["line"] == number and error["field"] == "tags", error
    assert "memory record: tags must have at most 20 items, got 21" in error["message"], error
    _nothing_imported(server, key)


def test_a_last_turn_before_a_session_could_start_is_refused(server: LiveServer) -> None:
    """The API records a turn's arrival (the server's clock) and takes a ``started_at`` up to a
    day ahead of it, so a session's last turn is never more than a day before its start; one
    years before was stored."""
    records = _source(server)
    number = _edited(records, "session", _set(last_event_at="2000-01-01T00:00:00+00:00"))
    started = records[number - 1]["started_at"]
    key = server.create_persona("dst")
    with server.client(key) as client:
        error = refused(import_lines(client, "dst", records), 422)
    assert error["line"] == number and error["field"] == "last_event_at", error
    assert (
        f"last_event_at (2000-01-01T00:00:00+00:00) is more than 24 hours before started_at "
        f"({started})" in error["message"]
    ), error
    _nothing_imported(server, key)


def test_a_session_started_ahead_with_a_turn_imports_as_exported(server: LiveServer) -> None:
    """What the API writes imports: a session opened two hours ahead of the clock, a turn
    posted at once (its last_event_at the clock, before its start)."""
    key = server.create_persona("src")
    with server.client(key) as client:
        _open_ahead(client)
        turn = {"speaker": "Ken", "role": "user", "content": "hello"}
        posted = client.post("/api/sessions/src/s/events", json={"events": [turn]})
        assert posted.status_code in (200, 201), posted.text
        records = [json.loads(line) for line in client.get("/api/export/src").text.splitlines()]
    session = next(r for r in records if r["type"] == "session" and r["session_id"] == "s")
    assert session["last_event_at"] < session["started_at"], session
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = import_lines(client, "dst", records)
    assert reply.status_code == 200, reply.text


def test_duplicate_tags_in_versions_are_dropped_as_in_the_memory(server: LiveServer) -> None:
    """A memory's tags were kept once each, the same tags in its versions' images twice."""
    records = _source(server)
    memory = next(r for r in records if r["type"] == "memory")
    memory["tags"] = ["tea", "tea"]
    memory["versions"][0]["after"]["tags"] = ["tea", "morning", "tea"]
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = import_lines(client, "dst", records)
        assert reply.status_code == 200, reply.text
        stored = reply.json()["moved_keys"].get(memory["key"], memory["key"])
        imported = client.get(f"/api/memories/dst/{stored}").json()
        history = client.get(f"/api/memories/dst/{stored}/history").json()
    assert imported["tags"] == ["tea"], imported
    assert history["versions"][0]["after"]["tags"] == ["tea", "morning"], history

"""Import from Mem0, the MCP memory server and chat exports, into a real store."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from omoide_testing import LiveServer

from omoide.clock import FixedClock
from omoide.engine.fsrs import strength
from omoide.wiring import Omoide

PEERS = Path(__file__).resolve().parents[1] / "fixtures" / "peers"


def text(name: str) -> str:
    return (PEERS / name).read_text(encoding="utf-8")


def test_mem0_memories_keep_their_time_tags_and_origin(app: Omoide, persona: str) -> None:
    report = app.peers.import_text(persona, "mem0", text("mem0.json"), user_id="alex")
    assert (report.memories, report.duplicates) == (2, 0)
    memories = {m.content: m for m in app.memories.list_recent(persona)}
    veg = memories["Is a vegetarian and avoids dairy"]
    assert veg.created_at.isoformat() == "2026-03-01T16:15:00+00:00"
    assert veg.tags == ("food", "health")
    assert veg.metadata["mem0"]["id"] == "8a1b2c3d-0001"
    again = app.peers.import_text(persona, "mem0", text("mem0.json"), user_id="alex")
    assert (again.memories, again.duplicates) == (0, 2)  # a re-run writes nothing


def test_mem0_memories_decay_from_their_created_at_not_from_the_import(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """The forgetting curve of an imported memory starts when Mem0 says it was made (its
    ``created_at``; ``updated_at`` is not a recall), or at the import when Mem0 gives no
    time: live strength and the decay job agree."""
    made = {
        "id": "m-1",
        "memory": "Plays the cello in an orchestra",
        "created_at": "2026-11-20T01:00:00-08:00",
        "updated_at": "2026-11-29T09:00:00Z",
    }
    undated = {"id": "m-2", "memory": "Owns a red bicycle"}
    app.peers.import_text(persona, "mem0", json.dumps([made, undated]))
    clock.advance(days=2)  # the import was at START, ten days after the cello memory was made
    want = {made["memory"]: strength(0.5, 12.0, 1.0), undated["memory"]: strength(0.5, 2.0, 1.0)}
    listed = {m.content: m for m in app.memories.list_recent(persona)}
    assert {c: m.last_accessed for c, m in listed.items()} == dict.fromkeys(want)
    assert {c: m.strength for c, m in listed.items()} == pytest.approx(want, rel=1e-9)
    app.store.decay_all(now=clock.now(), persona=persona)
    memories = app.store.memories(persona)
    stored = {
        c: float(
            app.store.db.conn()
            .execute(
                "SELECT strength FROM memory_strength WHERE memory_id = ?", (memories.id_of(m.key),)
            )
            .fetchone()[0]
        )
        for c, m in listed.items()
    }
    assert stored == pytest.approx(want, rel=1e-9)


def test_mcp_memory_becomes_memories_tags_and_links(app: Omoide, persona: str) -> None:
    report = app.peers.import_text(persona, "mcp-memory", text("memory.jsonl"))
    assert report.memories == 6 and report.links == 4  # each relation to both entities
    by_content = {m.content: m for m in app.memories.list_recent(persona)}
    relation = by_content["Mika_Tanaka lives in Kyoto"]
    assert set(relation.tags) == {"Mika_Tanaka", "Kyoto"}
    linked = {link.other_key for link in app.memories.links(persona, relation.key)}
    assert linked == {
        by_content["Mika_Tanaka: Speaks fluent Portuguese"].key,
        by_content["Kyoto is a city"].key,
    }
    hits = app.search.search(persona, app.search.build_request(persona, query="ceramics"))
    assert hits.results[0].content == "Mika_Tanaka: Runs a ceramics studio in Kyoto"


def test_chats_become_sessions_episodes_and_notes(app: Omoide, persona: str) -> None:
    for name in ("openai_messages.json", "chatgpt_conversations.json", "claude_conversations.json"):
        report = app.peers.import_text(persona, "chat", text(name), user_name="Noor")
        assert report.sessions == 1 and report.events >= 3
    again = app.peers.import_text(persona, "chat", text("claude_conversations.json"))
    assert again.events == 0  # idempotent by message id
    app.queue.run_ready(persona)
    session = app.sessions.get(persona, "chat-c0ffee01")
    assert session.ended_at is not None
    episodes = app.sessions.episodes(persona, "chat-c0ffee01")
    assert episodes and "Hokkaido" in episodes[0][0].content
    assert "abandoned" not in episodes[0][0].content
    notes = [m for m in app.memories.list_recent(persona, limit=100) if m.source == "consolidation"]
    assert notes, "consolidation built no notes"
    assert app.state.get_current_user_state(persona).get("name") == "Noor"


def test_peer_import_over_http(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as c:
        reply = c.post(
            "/api/import/rin",
            params={"source": "mcp-memory"},
            content=text("memory.jsonl").encode(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["memories"] == 6
        bad = c.post("/api/import/rin", params={"source": "mem0"}, content=b"[1, 2]")
        assert bad.status_code == 422 and json.loads(bad.text)["error"]["code"] == "invalid_input"
        assert c.post("/api/import/rin", params={"source": "x"}, content=b"{}").status_code == 422


def test_mem0_categories_and_metadata_of_odd_types_over_http(server: LiveServer) -> None:
    """``categories`` as one text is one tag (it was split into letters); a number, a boolean
    or an object there, or metadata that is not an object, is a 422 naming the memory (a
    number was a 500, metadata was dropped without a word)."""
    key = server.create_persona("rin")
    with server.client(key) as c:

        def post(memories: list[dict[str, object]]) -> httpx.Response:
            return c.post(
                "/api/import/rin",
                params={"source": "mem0"},
                content=json.dumps({"results": memories}).encode(),
            )

        done = post(
            [
                {"memory": "ユーザーは抹茶が好き", "categories": "food"},
                {"memory": "The user plays the cello", "categories": None},
            ]
        )
        assert done.status_code == 200, done.text
        tags = {m["content"]: m["tags"] for m in c.get("/api/memories/rin").json()["memories"]}
        assert tags == {"ユーザーは抹茶が好き": ["food"], "The user plays the cello": []}
        # a list holding something else than text was imported with that item left out
        for bad in (
            {"categories": 5},
            {"categories": True},
            {"categories": {"a": 1}},
            {"categories": ["food", 1]},
            {"categories": [{"a": 1}]},
            {"categories": [None]},
            {"metadata": "x"},
            {"metadata": [1]},
        ):
            refused = post([{"memory": "The user rows on Sundays", **bad}])
            assert refused.status_code == 422, (bad, refused.text)
            assert "memory 0" in refused.json()["error"]["message"]
        assert len(c.get("/api/memories/rin").json()["memories"]) == 2
        # an empty user_id matched no memory: the import answered 200 and stored nothing
        empty = c.post(
            "/api/import/rin",
            params={"source": "mem0", "user_id": ""},
            content=json.dumps([{"memory": "Kai sails", "user_id": "kai"}]).encode(),
        )
        assert empty.status_code == 422 and empty.json()["error"]["field"] == "user_id"


def test_chat_files_with_odd_roles_or_nodes_are_a_422_not_a_500(server: LiveServer) -> None:
    """A role that is a list or an object, or a ChatGPT node, message or author that is not an
    object, raised TypeError / AttributeError (HTTP 500); each is refused naming where."""
    key = server.create_persona("rin")

    def chatgpt(node: object) -> list[dict[str, object]]:
        return [{"id": "c1", "current_node": "a", "mapping": {"a": node}}]

    said = {"author": {"role": "user"}, "content": {"parts": ["hi"]}}
    files = [
        [{"role": ["user"], "content": "hi"}],
        [{"role": {"a": 1}, "content": "hi"}],
        [{"uuid": "u1", "chat_messages": [{"sender": ["human"], "text": "hi"}]}],
        chatgpt(5),
        chatgpt({"message": "hi", "parent": None}),
        chatgpt({"message": {**said, "author": "user"}, "parent": None}),
    ]
    with server.client(key) as c:
        for data in files:
            refused = c.post(
                "/api/import/rin", params={"source": "chat"}, content=json.dumps(data).encode()
            )
            assert refused.status_code == 422, (data, refused.text)
            assert (
                "conversation 0" in refused.json()["error"]["message"]
                or "role" in refused.json()["error"]["message"]
            )
        done = c.post(
            "/api/import/rin",
            params={"source": "chat"},
            content=json.dumps(chatgpt({"message": said, "parent": None})).encode(),
        )
        assert done.status_code == 200 and done.json()["events"] == 1, done.text


def test_peer_import_from_the_cli(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from omoide.cli import main

    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    data = str(tmp_path / "data")
    result = CliRunner().invoke(
        main,
        [
            "import",
            "-p",
            "noor",
            "--from",
            "chat",
            "--data",
            data,
            "--user-name",
            "Noor",
            str(PEERS / "openai_messages.json"),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "created persona noor" in result.stderr
    assert "1 session (4 turns)" in result.stdout
    result = CliRunner().invoke(
        main,
        ["import", "-p", "noor", "--from", "mem0", "--data", data, str(PEERS / "mem0.json")],
        catch_exceptions=False,
    )
    assert "3 memories" in result.stdout


IMAGE = {"type": "image_url", "image_url": {"url": "https://example.org/bike.png"}}


def test_a_chat_of_messages_without_text_is_refused_never_a_silent_200(server: LiveServer) -> None:
    """A chat file whose messages hold only images imports nothing: a 422 saying what they
    held, not 200 with 0 turns. Beside messages with text, they are left out and counted."""
    key = server.create_persona("rin")
    with server.client(key) as c:
        only_images = [
            {"role": "user", "content": [IMAGE]},
            {"role": "assistant", "content": [{"type": "file", "file": {}}]},
        ]
        reply = c.post("/api/import/rin", params={"source": "chat"}, json=only_images)
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["code"] == "invalid_input"
        assert "nothing to import" in error["message"]
        assert (
            "no text in its 2 user and assistant messages (only: file; image_url)"
            in error["message"]
        )
        assert "image_caption" in error["message"]
        only_system = [{"role": "system", "content": "You are Kiri."}]
        reply = c.post("/api/import/rin", params={"source": "chat"}, json=only_system)
        assert reply.status_code == 422
        assert "holds no user or assistant message" in reply.json()["error"]["message"]
        assert c.get("/api/search/rin", params={"q": "bike"}).json()["results"] == []

        mixed = [
            {"role": "user", "content": [{"type": "text", "text": "I bought a bike."}, IMAGE]},
            {"role": "user", "content": [IMAGE]},
            {"role": "assistant", "content": "   "},
        ]
        reply = c.post("/api/import/rin", params={"source": "chat"}, json=mixed)
        assert reply.status_code == 200, reply.text
        assert (reply.json()["events"], reply.json()["without_text"]) == (1, 2)
        mcp = c.post(
            "/api/import/rin",
            params={"source": "mcp-memory"},
            content=text("memory.jsonl").encode(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert "without_text" not in mcp.json()


def test_the_cli_refuses_a_chat_without_text_in_one_line(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from omoide.cli import main

    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": [IMAGE]}]))
    result = CliRunner().invoke(
        main,
        ["import", "-p", "rin", "--from", "chat", "--data", str(tmp_path / "data"), str(chat)],
        catch_exceptions=False,
    )
    assert result.exit_code == 1
    assert result.output.count("Error: ") == 1 and "Traceback" not in result.output
    assert "no text in its 1 user and assistant message (only: image_url)" in result.output


def test_a_refused_file_leaves_no_persona_the_cli_created(tmp_path: Path, monkeypatch) -> None:
    """`omoide import -p NEW FILE` creates NEW only when FILE imports; a persona that already
    existed is kept whatever the file holds."""
    from click.testing import CliRunner

    from omoide.cli import main

    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    data = str(tmp_path / "data")
    bad = tmp_path / "bad.json"
    bad.write_text("not json")

    def run(*args: str) -> object:
        return CliRunner().invoke(main, [*args, "--data", data], catch_exceptions=False)

    for source in ("mem0", "mcp-memory", "chat", "omoide"):
        result = run("import", "-p", "rin", "--from", source, str(bad))
        assert result.exit_code == 1 and "Error: " in result.output, (source, result.output)
        assert "created persona" not in result.output, source
        assert "rin" not in run("persona", "list").stdout, source
    assert run("persona", "create", "kiri").exit_code == 0
    assert run("import", "-p", "kiri", "--from", "mem0", str(bad)).exit_code == 1
    assert "kiri" in run("persona", "list").stdout


def test_an_observation_that_is_not_text_is_a_422_naming_entity_and_index(
    server: LiveServer,
) -> None:
    """A number, null or object among an entity's observations was dropped without a word;
    it is refused, as Mem0's importer refuses a memory that is not text, and nothing is
    written."""
    key = server.create_persona("rin")
    with server.client(key) as c:
        for bad, shown in ((5, "5"), (None, "null"), ({"text": "x"}, '{"text": "x"}')):
            line = json.dumps(
                {
                    "type": "entity",
                    "name": "Mika",
                    "entityType": "person",
                    "observations": ["likes tea", bad],
                }
            )
            reply = c.post(
                "/api/import/rin",
                params={"source": "mcp-memory"},
                content=f"{line}\n".encode(),
                headers={"Content-Type": "application/x-ndjson"},
            )
            assert reply.status_code == 422, reply.text
            error = reply.json()["error"]
            assert error["code"] == "invalid_input"
            assert (
                f"entity 'Mika': observations[1] must be a string, got {shown}" in error["message"]
            ), error
        assert c.get("/api/search/rin", params={"q": "tea"}).json()["results"] == []


def test_a_blank_observation_is_counted_as_skipped_with_its_reason(server: LiveServer) -> None:
    """A blank observation ("", spaces) was neither imported nor counted: the report added
    up to fewer than the file's observations without saying why. It is counted in
    ``skipped``, and ``skipped_items`` says which one and why."""
    key = server.create_persona("rin")
    lines = [
        {
            "type": "entity",
            "name": "Mika",
            "entityType": "person",
            "observations": ["likes green tea", "", "   "],
        },
        {"type": "entity", "name": "Kyoto", "entityType": "city", "observations": ["\t"]},
    ]
    body = "".join(json.dumps(line) + "\n" for line in lines).encode()
    with server.client(key) as c:
        reply = c.post(
            "/api/import/rin",
            params={"source": "mcp-memory"},
            content=body,
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert reply.status_code == 200, reply.text
        report = reply.json()
        assert (report["memories"], report["duplicates"], report["skipped"]) == (2, 0, 3)
        assert report["skipped_items"] == [
            {"line": 1, "entity": "Mika", "observation": 1, "reason": "blank observation"},
            {"line": 1, "entity": "Mika", "observation": 2, "reason": "blank observation"},
            {"line": 2, "entity": "Kyoto", "observation": 0, "reason": "blank observation"},
        ]
        clean = c.post(
            "/api/import/rin",
            params={"source": "mcp-memory"},
            content=text("memory.jsonl").encode(),
            headers={"Content-Type": "application/x-ndjson"},
        )
        assert "skipped" not in clean.json() and "skipped_items" not in clean.json()


def test_the_cli_says_how_many_blank_observations_it_skipped(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from omoide.cli import main

    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    jsonl = tmp_path / "memory.jsonl"
    jsonl.write_text(
        json.dumps(
            {
                "type": "entity",
                "name": "Mika",
                "entityType": "person",
                "observations": ["likes green tea", " "],
            }
        )
        + "\n"
    )
    result = CliRunner().invoke(
        main,
        [
            "import",
            "-p",
            "rin",
            "--from",
            "mcp-memory",
            "--data",
            str(tmp_path / "data"),
            str(jsonl),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "1 memory " in result.stdout and "1 blank observation skipped" in result.stdout


@pytest.mark.parametrize("field", ["user_name", "assistant_name"])
def test_a_chat_speaker_name_too_long_is_refused_by_the_service_naming_it(
    app: Omoide, persona: str, field: str
) -> None:
    """The service's own rule, which the CLI applies (naming its option) before anything is
    built and HTTP's query declares: not a refusal of the first turn, which the user never
    wrote."""
    from omoide.errors import InvalidInput
    from omoide.service.event_input import MAX_SPEAKER_CHARS

    name = "K" * (MAX_SPEAKER_CHARS + 1)
    chat = json.dumps([{"role": "user", "content": "hi"}])
    with pytest.raises(InvalidInput) as refused:
        app.peers.import_text(persona, "chat", chat, **{field: name})
    said = f"{field} must be at most {MAX_SPEAKER_CHARS} characters, got {len(name)}"
    assert (refused.value.message, refused.value.fields) == (said, {"field": field})
    assert app.peers.import_text(persona, "chat", chat, **{field: name[:-1]}).events == 1

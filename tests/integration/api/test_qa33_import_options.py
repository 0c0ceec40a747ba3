"""Session 33's user walk-through, over real HTTP: an import option another source reads was
ignored without a word: ``?source=mem0&user_name=alex`` (meant: ``user_id``) imported every
Mem0 user's memories, and ``user_name`` on an Omoide export renamed nothing. It is a 422 naming
the option and the source it belongs to, before anything is written."""

from __future__ import annotations

import json

import pytest
from omoide_testing import LiveServer

from omoide.service.event_input import MAX_SPEAKER_CHARS

MEM0 = json.dumps(
    [
        {"memory": "Alex likes jazz", "user_id": "alex"},
        {"memory": "Sam keeps bees", "user_id": "sam"},
    ]
)


@pytest.mark.parametrize(
    ("params", "field", "belongs"),
    [
        ({"source": "mem0", "user_name": "alex"}, "user_name", "chat"),
        ({"source": "mem0", "assistant_name": "Rin"}, "assistant_name", "chat"),
        ({"source": "chat", "user_id": "alex"}, "user_id", "mem0"),
        ({"source": "mcp-memory", "user_id": "alex"}, "user_id", "mem0"),
        ({"user_name": "alex"}, "user_name", "chat"),
    ],
)
def test_an_import_option_of_another_source_is_refused(
    server: LiveServer, params: dict[str, str], field: str, belongs: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params=params,
            content=MEM0,
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == field
        assert f"{field} applies only to source={belongs}" in error["message"]
        assert rin.get("/api/memories/rin").json()["memories"] == []


def test_an_import_option_of_its_own_source_still_applies(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "mem0", "user_id": "alex"},
            content=MEM0,
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 200, reply.text
        stored = [m["content"] for m in rin.get("/api/memories/rin").json()["memories"]]
        assert stored == ["Alex likes jazz"]


def test_an_mcp_memory_file_sent_as_json_is_told_to_send_json_lines(server: LiveServer) -> None:
    """It was refused as "not valid JSON: more text follows …" with no word of what to send,
    where an Omoide export sent the same way is told."""
    lines = (
        '{"type": "entity", "name": "Noor", "entityType": "person", "observations": ["tea"]}\n'
        '{"type": "entity", "name": "Haru", "entityType": "person", "observations": []}\n'
    )
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "mcp-memory"},
            content=lines,
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 422, reply.text
        message = reply.json()["error"]["message"]
        assert "an MCP memory file is JSON Lines" in message
        assert "Content-Type: application/x-ndjson" in message
        sent = rin.post(
            "/api/import/rin",
            params={"source": "mcp-memory"},
            content=lines,
            headers={"content-type": "application/x-ndjson"},
        )
        assert sent.status_code == 200, sent.text
        assert sent.json()["memories"] == 2


@pytest.mark.parametrize("field", ["user_name", "assistant_name"])
def test_a_speaker_name_too_long_is_refused_naming_it(server: LiveServer, field: str) -> None:
    """The CLI's --user-name and --assistant-name are told in the same words."""
    name = "K" * (MAX_SPEAKER_CHARS + 1)
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "chat", field: name},
            content=b'[{"role": "user", "content": "hi"}]',
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == field
        said = f"{field} must be at most {MAX_SPEAKER_CHARS} characters, got {len(name)}"
        assert error["message"] == said


@pytest.mark.parametrize("field", ["user_name", "assistant_name"])
@pytest.mark.parametrize("name", ["", "   ", "\u200b"], ids=["empty", "spaces", "invisible"])
def test_a_blank_speaker_name_is_refused_naming_it(
    server: LiveServer, field: str, name: str
) -> None:
    """Session 44: ``""`` was refused by the query's own rule, but a blank name was told as
    the first turn's speaker ("conversation '…' turn 0.speaker must be …"), a turn the user
    never wrote. Both name the option, and nothing is imported."""
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "chat", field: name},
            content=b'[{"role": "user", "content": "hi"}]',
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == field, error
        assert "turn" not in error["message"], error
        assert rin.get("/api/sessions/rin").json()["sessions"] == []


@pytest.mark.parametrize("source", ["mem0", "mcp-memory", "chat"])
def test_merge_with_another_source_is_refused_saying_it_always_merges(
    server: LiveServer, source: str
) -> None:
    """It was accepted and ignored: the import merged, as it always does."""
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": source, "merge": "true"},
            content=MEM0,
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"] == {
            "code": "invalid_input",
            "message": "merge applies only to an Omoide export (source=omoide); a "
            f"source={source} import always merges (it adds to what the persona holds, "
            "skipping what it holds already): leave merge out",
            "field": "merge",
        }
        assert rin.get("/api/memories/rin").json()["memories"] == []
        # without it, the same file merges into what the persona holds
        rin.post("/api/memories/rin", json={"content": "Noor grows tomatoes"})
        done = rin.post(
            "/api/import/rin",
            params={"source": "mem0"},
            content=MEM0,
            headers={"content-type": "application/json"},
        )
        assert done.status_code == 200, done.text
        assert len(rin.get("/api/memories/rin").json()["memories"]) == 3

"""Session 25's probe: tags, emotion labels and user-state values accepted control characters
(ESC, BEL, DEL, C1, a right-to-left override), which show as something else than they are. A
new write refuses them (422 naming the field; MCP: a tool error); an older export holding them
still imports, each read as a space and counted in the report. Real HTTP, the MCP SDK client."""

from __future__ import annotations

import json

import anyio
import httpx
import pytest
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer


@pytest.mark.parametrize(
    "control", ["\x1b", "\x07", "\t", "\n", "\x7f", "\x85", "\x9b", "\u202e", "\u2067"]
)
def test_a_tag_or_emotion_label_with_a_control_character_is_refused(
    rin: httpx.Client, control: str
) -> None:
    for body, field in (
        ({"content": "Ken drinks tea.", "tags": [f"te{control}a"]}, "tags[0]"),
        ({"content": "Ken drinks tea.", "emotion_type": f"jo{control}y"}, "emotion_type"),
    ):
        refused = rin.post("/api/memories/rin", json=body)
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["field"] == field, error
        assert "control character" in error["message"]
    assert rin.get("/api/memories/rin").json()["memories"] == []
    made = rin.post(
        "/api/memories/rin",
        json={"content": "Ken drinks tea.", "tags": ["  tea\n"], "emotion_type": "\tjoy "},
    )
    assert made.status_code == 201, made.text  # white space around is trimmed, as before
    key = made.json()["memory"]["key"]
    assert made.json()["memory"]["tags"] == ["tea"]
    patched = rin.patch(f"/api/memories/rin/{key}", json={"tags": [f"a{control}b"]})
    assert patched.status_code == 422 and patched.json()["error"]["field"] == "tags[0]"


def test_a_state_value_may_hold_line_breaks_but_no_other_control(rin: httpx.Client) -> None:
    kept = rin.put("/api/user-state/rin", json={"address": "1-2-3 Kita\nOsaka\tJapan"})
    assert kept.status_code == 200, kept.text
    for control in ("\x1b", "\x00", "\x7f", "\x9b", "\u202e", "\x0b"):
        refused = rin.put("/api/user-state/rin", json={"name": f"Ke{control}n"})
        assert refused.status_code == 422, (control, refused.text)
        assert refused.json()["error"]["field"] == "name"
    assert "name" not in rin.get("/api/user-state/rin").json()["state"]


def test_mcp_refuses_control_characters_naming_the_argument(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            said = await tool_error(
                client, "memory_create", content="Ken drinks tea.", tags=["te\x1ba"]
            )
            assert "tags" in said and "control character (U+001B" in said
            said = await tool_error(
                client, "memory_create", content="Ken drinks tea.", emotion_type="jo\u202ey"
            )
            assert "emotion_type" in said and "U+202E" in said
            said = await tool_error(client, "update_context", user_info={"name": "Ke\x07n"})
            assert "name" in said and "U+0007" in said
            await ok(client, "update_context", user_info={"address": "Kita\nOsaka"})

    anyio.run(scenario)


def test_an_older_export_with_control_characters_imports_them_as_spaces(
    server: LiveServer, rin: httpx.Client
) -> None:
    made = rin.post(
        "/api/memories/rin",
        json={"content": "Ken drinks green tea.", "tags": ["tea", "drink"], "emotion_type": "joy"},
    )
    assert made.status_code == 201
    assert rin.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
    lines = []
    for line in rin.get("/api/export/rin").text.splitlines(keepends=True):
        record = json.loads(line)
        if record["type"] == "memory":  # as a server before this check could have stored
            record["tags"] = ["green\x1btea", "\x07", "drink"]
            record["emotion_type"] = "jo\u202ey"
        elif record["type"] == "state":
            record["value"] = "Ke\x7fn\nSato"
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    with server.client(server.create_persona("kai")) as kai:
        reply = kai.post(
            "/api/import/kai",
            content="".join(lines).encode(),
            headers={"content-type": "application/x-ndjson"},
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["controls_replaced"] == 4
        assert reply.json()["memories"] == 1
        memory = kai.get("/api/memories/kai").json()["memories"][0]
        assert memory["tags"] == ["green tea", "drink"]  # "\x07" alone: dropped
        assert memory["emotion_type"] == "jo y"
        assert kai.get("/api/user-state/kai").json()["state"]["name"] == "Ke n\nSato"

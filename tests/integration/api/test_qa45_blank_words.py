"""Session 45: a turn's speaker and content, a tag and a search's query were refused as blank
in a third wording, "must be a non-empty string (not only whitespace or invisible characters)",
beside the one of every other blank text (``NON_BLANK_RULE``); and an import file's blank tag
in a fourth ("tags must be non-empty strings"), a blank ``date_range`` in a fifth ("must not be
empty or whitespace: …"). One wording now, where the user meets it: MCP's tools, the CLI, an
import; a value of another type is told as sent, written as JSON, as every other field is
(qa46b; it was told its type here alone)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from mcp_checks import in_process_tool_error
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.cli import main
from omoide.engine.errors import quoted
from omoide.service.validate import NON_BLANK_RULE
from omoide.wiring import Omoide

pytestmark = pytest.mark.sqlite_only  # words, the same on either store

BLANK = " \u200b"


@pytest.mark.parametrize(
    ("turn", "said"),
    [
        pytest.param(
            {"speaker": BLANK, "content": "hi"}, f"turns[0].speaker {NON_BLANK_RULE}", id="speaker"
        ),
        pytest.param(
            {"speaker": "Ken", "content": BLANK}, f"turns[0].content {NON_BLANK_RULE}", id="content"
        ),
    ],
)
def test_a_blank_turn_is_refused_over_mcp_in_the_one_wording(
    app: Omoide, persona: str, turn: dict[str, Any], said: str
) -> None:
    app.sessions.open(persona, session_id="s1")
    message = in_process_tool_error(app, persona, "session_record", session_id="s1", turns=[turn])
    assert message.startswith(f"Error executing tool session_record: {said}; "), message


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        pytest.param(
            "memory_create",
            {"content": "Ken likes tea.", "tags": ["tea", BLANK]},
            f"every tag {NON_BLANK_RULE}, got {quoted(BLANK)}",
            id="tag",
        ),
        pytest.param("memory_search", {"query": BLANK}, f"query {NON_BLANK_RULE}", id="query"),
        pytest.param(
            "memory_search",
            {"query": "tea", "date_range": BLANK},
            f"date_range {NON_BLANK_RULE}; leave it out for no date filter",
            id="date-range",
        ),
    ],
)
def test_a_blank_tag_query_or_date_range_is_refused_over_mcp_in_the_one_wording(
    app: Omoide, persona: str, tool: str, arguments: dict[str, Any], said: str
) -> None:
    message = in_process_tool_error(app, persona, tool, **arguments)
    assert message.startswith(f"Error executing tool {tool}: {said}"), message


def test_a_blank_query_is_refused_by_omoide_search_in_the_one_wording(
    app: Omoide, persona: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data_dir))
    done = CliRunner().invoke(main, ["search", "-p", persona, BLANK])
    assert done.exit_code == 1, done.output
    assert done.output == f"Error: query {NON_BLANK_RULE}\n"


@pytest.mark.parametrize(
    ("tags", "said", "field"),
    [
        pytest.param([" "], f'every tag {NON_BLANK_RULE}, got " "', "tags", id="spaces"),
        pytest.param(
            ["\u200b"], f'every tag {NON_BLANK_RULE}, got "\u200b"', "tags", id="invisible"
        ),
        pytest.param(["tea", 5], "every tag must be a string, got 5", None, id="number"),
    ],
)
def test_an_import_files_blank_tag_is_refused_in_the_apis_words(
    server: LiveServer, tags: list[Any], said: str, field: str | None
) -> None:
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")
    number = next(i for i, r in enumerate(records, 1) if r["type"] == "memory")
    edited = [{**r, "tags": tags} if r["type"] == "memory" else r for r in records]
    with server.client(server.create_persona("dst")) as client:
        error = refused(import_lines(client, "dst", edited), 422)
    assert error["message"] == f"line {number}: memory record: {said}", error
    assert error.get("field") == field


@pytest.mark.parametrize("blank", ["", "   ", "\u200b"], ids=["empty", "spaces", "invisible"])
@pytest.mark.parametrize("method", ["post", "patch"])
def test_a_blank_emotion_label_is_told_over_http_as_over_mcp(
    rin: httpx.Client, app: Omoide, blank: str, method: str
) -> None:
    """HTTP's body schema refused it in its pattern's words ("must not be blank nor hold a
    control character (tab and newline included)"), where a blank content or q is told
    NON_BLANK_RULE; now in the service's words, which MCP says (and the hint)."""
    key = rin.post("/api/memories/rin", json={"content": "Ken likes tea."}).json()["memory"]["key"]
    path = "/api/memories/rin" + ("" if method == "post" else f"/{key}")
    body = {"emotion_type": blank} | ({"content": "Ken hums."} if method == "post" else {})
    error = refused(rin.request(method.upper(), path, json=body), 422)
    said = (
        f"emotion_type {NON_BLANK_RULE}, got {quoted(blank)}; leave it out or send null for no "
        "emotion"
    )
    assert error == {"code": "invalid_input", "message": said, "field": "emotion_type"}
    mcp = in_process_tool_error(
        app, "rin", "memory_create", content="Ken hums.", emotion_type=blank
    )
    assert mcp.startswith(f"Error executing tool memory_create: {said}; "), mcp


def test_an_emotion_label_with_a_control_character_is_told_so_over_http(rin: httpx.Client) -> None:
    error = refused(
        rin.post("/api/memories/rin", json={"content": "Ken hums.", "emotion_type": "a\tb"}), 422
    )
    assert error["message"] == (
        'emotion_type must not hold a control character (tab and newline included), got "a\\tb"'
    )


def test_a_blank_tag_is_told_over_http_as_any_blank_text(rin: httpx.Client) -> None:
    """It was told the tag pattern's rule ("must be 1-64 characters once trimmed, without a
    comma or a control character"), true but not the words of a blank text."""
    reply = rin.post("/api/memories/rin", json={"content": "Ken hums.", "tags": ["tea", "  "]})
    assert refused(reply, 422) == {
        "code": "invalid_input",
        "message": f'tags[1] {NON_BLANK_RULE}, got "  "',
        "field": "tags[1]",
    }

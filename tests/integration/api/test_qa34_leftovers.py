"""Session 33's leftovers, through real HTTP, the CLI and the MCP SDK's client:

- a length or count over its limit was worded three ways ("must be at most 2000 characters,
  got 2,001", "is 2,001 characters; the limit is 2,000", "query is longer than 2000
  characters"): one wording now, ``engine.errors.too_long`` / ``too_many``;
- the chat proxy relayed malformed content parts (``[1]``, ``[{"text": "hi"}]``, a text part
  without its text) to the upstream: a 422 naming the part now, valid parts still relayed;
- ``tags=`` sent empty was no filter on HTTP but refused by ``omoide search --tag ""``: both
  refuse a value holding no tag, and both read ``a,b`` as two tags;
- a chat export holding an integer of 4,400 digits is a 422 / one CLI line (Python's
  int-to-str limit never reached);
- a write that lost a race with an erase, seen under /mcp, was answered with the HTTP API's
  error body: a JSON-RPC error the MCP client reads now.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from llm_fakes import FakeAPI, Reply, openai_answer
from mcp.shared.exceptions import MCPError
from mcp_checks import http_client
from omoide_testing import LiveServer, serve_in_thread

from omoide.api.http.app import create_app
from omoide.api.mcp import http as mcp_http
from omoide.cli import main
from omoide.llm import LLMConfig
from omoide.llm.chat import make_chat_upstream
from omoide.wiring import Omoide

ADMIN = "omo_admin_test-key"

# -- one wording for a length or a count ----------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "says"),
    [
        pytest.param(
            "GET",
            "/api/search/rin?q=" + "x" * 2001,
            None,
            "q must be at most 2,000 characters, got 2,001",
            id="search-q",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x" * 50_001},
            "content must be at most 50,000 characters, got 50,001",
            id="memory-content",
        ),
        pytest.param(
            "PUT",
            "/api/user-state/rin",
            {"name": "x" * 2001},
            "name must be at most 2,000 characters, got 2,001",
            id="user-state",
        ),
        pytest.param(
            "PUT",
            "/api/context/rin",
            {"user_info": {"name": "x" * 2001}},
            "user_info.name must be at most 2,000 characters, got 2,001",
            id="context",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "ok", "metadata": {"x": "y" * 10_001}},
            "metadata must be at most 10,000 characters as JSON, got 10,010",
            id="metadata",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "ok", "tags": [f"t{i}" for i in range(21)]},
            "tags must have at most 20 items, got 21",
            id="tag-count",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "ok", "emotion_type": "e" * 65},
            "emotion_type must be at most 64 characters, got 65",
            id="emotion-type",
        ),
    ],
)
def test_a_length_or_count_over_its_limit_is_told_in_one_wording(
    server: LiveServer, method: str, path: str, body: Any, says: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.request(method, path, json=body)
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"]["message"] == says


def test_the_cli_tells_a_length_in_the_same_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    assert CliRunner().invoke(main, ["persona", "create", "rin"]).exit_code == 0
    done = CliRunner().invoke(main, ["search", "-p", "rin", "x" * 2001])
    assert done.exit_code == 1
    assert done.output.strip() == "Error: q must be at most 2,000 characters, got 2,001"


# -- the chat proxy's content parts ------------------------------------------------------------


@pytest.fixture
def proxy(
    make_app: Callable[..., Omoide], data_dir: Path, fake_api: FakeAPI
) -> Iterator[LiveServer]:
    config = LLMConfig(
        provider="openai",
        base_url=f"{fake_api.base}/v1",
        api_key="sk-test",
        model="gpt-test",
        timeout_s=3.0,  # as fake_llm_config's: a loaded machine's reply took over 1 s
        max_retries=0,
    )
    app = make_app(None, chat_upstream=make_chat_upstream(config))
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=ADMIN, omoide=app)
    uv.should_exit = True
    thread.join(10)


@pytest.mark.parametrize(
    ("content", "field", "says"),
    [
        pytest.param([], "messages[0].content", "must not be an empty list", id="empty"),
        pytest.param([1], "messages[0].content[0]", "must be an object", id="number"),
        pytest.param(["hi"], "messages[0].content[0]", "got a string", id="string"),
        pytest.param([{"text": "hi"}], "messages[0].content[0].type", "is required", id="no-type"),
        pytest.param(
            [{"type": "text"}], "messages[0].content[0].text", "got nothing", id="no-text"
        ),
        pytest.param(
            [{"type": "text", "text": "a"}, {"type": "text", "text": 5}],
            "messages[0].content[1].text",
            "must be a string (a part of type 'text'), got 5",
            id="text-number",
        ),
        pytest.param(
            [{"type": "image_url", "image_url": "http://x"}],
            "messages[0].content[0].image_url",
            "must be an object",
            id="image-url-string",
        ),
        pytest.param(
            [{"type": "image_url", "image_url": {}}],
            "messages[0].content[0].image_url.url",
            "must be a string",
            id="image-url-no-url",
        ),
    ],
)
def test_malformed_content_parts_are_refused_before_the_upstream(
    proxy: LiveServer, fake_api: FakeAPI, content: Any, field: str, says: str
) -> None:
    key = proxy.create_persona("rin")
    with proxy.client(key) as rin:
        reply = rin.post(
            "/v1/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": content}]},
        )
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "invalid_input" and error["field"] == field
    assert says in error["message"] and "Traceback" not in reply.text
    assert fake_api.received == []


def test_valid_content_parts_are_relayed(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("rin")
    parts = [
        {"type": "text", "text": "what is in this picture?"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "some_future_part", "payload": {"x": 1}},
    ]
    fake_api.queue(Reply(body=openai_answer("A cat.")))
    with proxy.client(key) as rin:
        reply = rin.post(
            "/v1/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": parts}]},
        )
    assert reply.status_code == 200, reply.text
    assert fake_api.bodies[-1]["messages"][-1]["content"] == parts


# -- tags= sent empty ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["", ",", " , "])
def test_a_tags_value_holding_no_tag_is_refused_on_http(server: LiveServer, value: str) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.get("/api/search/rin", params={"q": "tea", "tags": value})
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["field"] == "tags[0]" and error["message"].startswith("tags[0] must be 1-20")
    assert "leave tags out for no tag filter" in error["message"]


def test_http_and_the_cli_read_tags_alike(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        for content, tags in (("Ken drinks tea", ["a", "b"]), ("Ken drinks tea daily", ["a"])):
            made = rin.post("/api/memories/rin", json={"content": content, "tags": tags})
            assert made.status_code == 201
        found = rin.get("/api/search/rin", params={"q": "tea", "tags": "a,,b"})
    assert [r["content"] for r in found.json()["results"]] == ["Ken drinks tea"]
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "cli"))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    runner = CliRunner()
    assert runner.invoke(main, ["persona", "create", "rin"]).exit_code == 0
    for content, tags in (("Ken drinks tea", ["a", "b"]), ("Ken drinks tea daily", ["a"])):
        args = [arg for tag in tags for arg in ("--tag", tag)]
        assert runner.invoke(main, ["memory", "add", "-p", "rin", content, *args]).exit_code == 0
    done = runner.invoke(main, ["search", "-p", "rin", "tea", "--tag", "a,b", "--json"])
    assert done.exit_code == 0, done.output
    assert "Ken drinks tea daily" not in done.output and "Ken drinks tea" in done.output
    empty = runner.invoke(main, ["search", "-p", "rin", "tea", "--tag", ""])
    assert empty.exit_code == 1
    assert empty.output.strip().startswith('Error: --tag must not be empty, got ""')


# -- a chat export with a 4,400-digit integer ------------------------------------------------

HUGE_ID_CHAT = (
    '[{"title": "t", "id": '
    + "9" * 4400
    + ', "mapping": {"a": {"id": "a", "parent": null, "children": [], "message": {"id": "m", '
    '"author": {"role": "user"}, "create_time": 1700000000, '
    '"content": {"content_type": "text", "parts": ["hello"]}}}}}]'
)


def test_a_chat_export_with_a_huge_integer_is_refused(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post(
            "/api/import/rin",
            params={"source": "chat"},
            content=HUGE_ID_CHAT.encode(),
            headers={"content-type": "application/json"},
        )
    assert reply.status_code == 422, reply.text[:300]
    assert "is outside ±9007199254740991" in reply.json()["error"]["message"]
    file = tmp_path / "chat.json"
    file.write_text(HUGE_ID_CHAT, encoding="utf-8")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "cli"))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    runner = CliRunner()
    assert runner.invoke(main, ["persona", "create", "rin"]).exit_code == 0
    done = runner.invoke(main, ["import", "-p", "rin", "--from", "chat", str(file)])
    assert done.exit_code == 1
    assert "is outside ±9007199254740991" in done.output
    assert "Traceback" not in done.output and "int_max_str_digits" not in done.output


# -- a raced erase under /mcp --------------------------------------------------------------------


def _raced(*_: Any, **__: Any) -> Any:
    raise sqlite3.IntegrityError("FOREIGN KEY constraint failed")


def test_a_write_that_lost_a_race_with_an_erase_is_a_json_rpc_error_under_mcp(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = server.create_persona("rin")
    monkeypatch.setattr(mcp_http, "persona_for_key", _raced)

    async def connect() -> None:
        async with http_client(server.url, key):
            pass

    with pytest.raises(BaseException) as raised:  # an ExceptionGroup or the MCPError
        asyncio.run(connect())
    error = raised.value
    while isinstance(error, BaseExceptionGroup):  # the SDK's task groups wrap it
        error = error.exceptions[0]
    assert isinstance(error, MCPError), repr(error)
    assert "erased by a concurrent request" in error.error.message
    assert error.error.data == {"code": "conflict"}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        reply = client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={
                "Authorization": f"Bearer {key}",
                "Accept": "application/json, text/event-stream",
            },
        )
    assert reply.status_code == 409
    body = reply.json()
    assert body["jsonrpc"] == "2.0" and body["error"]["data"] == {"code": "conflict"}
    assert "erased by a concurrent request" in body["error"]["message"]

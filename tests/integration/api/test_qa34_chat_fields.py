"""Session 34's sweep of the chat proxy with an upstream (OpenAI-compatible and Anthropic), over
real HTTP: the fields the proxy reads besides a message's content were read as sent, so
``tools: [{"function": 5}]``, ``stop: 1``, ``stream_options: []`` or a message's
``tool_calls: 1`` / ``[{"function": "f"}]`` / ``arguments: 5`` were a 500 (the token count,
the Anthropic translation or the stream reader met a value of another type). Each is a 422
naming the field now, nothing is sent upstream, and the valid forms are still relayed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_fakes import FakeAPI, Reply, anthropic_answer, openai_answer, text_block
from omoide_testing import LiveServer, serve_in_thread

from omoide.api.http.app import create_app
from omoide.llm import LLMConfig
from omoide.llm.chat import make_chat_upstream
from omoide.wiring import Omoide

pytestmark = pytest.mark.sqlite_only

ADMIN = "omo_admin_test-key"
HELLO = [{"role": "user", "content": "hello"}]


@pytest.fixture(params=["openai", "anthropic"])
def proxy(
    request: pytest.FixtureRequest,
    make_app: Callable[..., Omoide],
    data_dir: Path,
    fake_api: FakeAPI,
) -> Iterator[tuple[LiveServer, str]]:
    provider = request.param
    config = LLMConfig(
        provider=provider,
        base_url=f"{fake_api.base}/v1" if provider == "openai" else fake_api.base,
        api_key="sk-test",
        model="m",
        timeout_s=3.0,  # as fake_llm_config's: a loaded machine's reply took over 1 s
        max_retries=0,
    )
    app = make_app(None, chat_upstream=make_chat_upstream(config))
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=ADMIN, omoide=app), provider
    uv.should_exit = True
    thread.join(10)


def _call(server: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with server.client(key) as rin:
        return rin.post("/v1/chat/completions", json={"model": "m", **body})


def _assistant(tool_calls: Any) -> list[dict[str, Any]]:
    return [*HELLO, {"role": "assistant", "content": "ok", "tool_calls": tool_calls}]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"messages": HELLO, "tools": [{"function": 5}]}, "tools[0].function"),
        pytest.param({"messages": HELLO, "tools": ["f"]}, "tools[0]"),
        pytest.param({"messages": HELLO, "tools": {"a": 1}}, "tools"),
        pytest.param(
            {"messages": HELLO, "tools": [{"type": "function", "function": {"name": 5}}]},
            "tools[0].function.name",
        ),
        pytest.param(
            {
                "messages": HELLO,
                "tools": [{"type": "function", "function": {"name": "f", "parameters": 5}}],
            },
            "tools[0].function.parameters",
        ),
        pytest.param({"messages": HELLO, "stop": 1}, "stop"),
        pytest.param({"messages": HELLO, "stop": ["a", 1]}, "stop"),
        pytest.param({"messages": HELLO, "stream": True, "stream_options": []}, "stream_options"),
        pytest.param({"messages": HELLO, "tool_choice": {"function": "f"}}, "tool_choice.function"),
        pytest.param({"messages": HELLO, "tool_choice": 5}, "tool_choice"),
        pytest.param({"messages": _assistant(1)}, "messages[1].tool_calls"),
        pytest.param({"messages": _assistant("abc")}, "messages[1].tool_calls"),
        pytest.param({"messages": _assistant([1])}, "messages[1].tool_calls[0]"),
        pytest.param(
            {"messages": _assistant([{"function": "f"}])}, "messages[1].tool_calls[0].function"
        ),
        pytest.param(
            {"messages": _assistant([{"id": "c1", "function": {"name": "f", "arguments": 5}}])},
            "messages[1].tool_calls[0].function.arguments",
        ),
        pytest.param(
            {"messages": _assistant([{"id": 5, "function": {"name": "f", "arguments": "{}"}}])},
            "messages[1].tool_calls[0].id",
        ),
        pytest.param(
            {"messages": [{"role": "user", "content": "hi", "tool_calls": True}]},
            "messages[0].tool_calls",
        ),
    ],
)
def test_a_field_of_another_shape_is_a_422_not_a_500(
    proxy: tuple[LiveServer, str], fake_api: FakeAPI, body: dict[str, Any], field: str
) -> None:
    server, _ = proxy
    reply = _call(server, server.create_persona("rin"), body)
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "invalid_input" and error["field"] == field, error
    assert fake_api.received == []


def test_valid_tools_stop_and_tool_calls_are_relayed(
    proxy: tuple[LiveServer, str], fake_api: FakeAPI
) -> None:
    server, provider = proxy
    fake_api.queue(
        Reply(
            body=openai_answer("Sunny.")
            if provider == "openai"
            else anthropic_answer(text_block("Sunny."))
        )
    )
    tools = [
        {
            "type": "function",
            "function": {"name": "weather", "parameters": {"type": "object", "properties": {}}},
        }
    ]
    calls = [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}]
    messages = [
        *HELLO,
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    ]
    reply = _call(
        server,
        server.create_persona("rin"),
        {"messages": messages, "tools": tools, "stop": ["\n\n"], "tool_choice": "auto"},
    )
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    assert sent["tools"][0]["name" if provider == "anthropic" else "function"]

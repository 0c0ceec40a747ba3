"""Session 43: requests as real clients send them (Open WebUI, LibreChat, the openai SDK,
Anthropic-style clients), plausible but awkward, through real HTTP to both upstreams (the
local fake API). None may answer 500, hang, show a stack trace, or silently lose what changes
the answer: each is relayed (translated) with its meaning, or refused with a 422 naming why."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import (
    FakeAPI,
    Reply,
    anthropic_answer,
    anthropic_stream,
    openai_answer,
    openai_stream,
    text_block,
)
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the relay, not the store, is under test

IMAGE = "data:image/png;base64,iVBORw0KGgo="
CALL = {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}
TOOL = {"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}

BODIES: dict[str, dict[str, Any]] = {
    "empty-messages": {"messages": []},
    "only-system": {"messages": [{"role": "system", "content": "You are Rin."}]},
    "only-developer-and-system": {
        "messages": [
            {"role": "developer", "content": "Be brief."},
            {"role": "system", "content": "You are Rin."},
        ]
    },
    "developer-role": {
        "messages": [
            {"role": "developer", "content": "Answer in French."},
            {"role": "user", "content": "Hello!"},
        ]
    },
    "tool-round-trip": {
        "tools": [TOOL],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "Sunny, 21C"},
            {"role": "user", "content": "Thanks! And tomorrow?"},
        ],
    },
    "tool-result-as-parts": {
        "tools": [TOOL],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "", "tool_calls": [CALL]},
            {
                "role": "tool",
                "tool_call_id": "call_1",
                "content": [{"type": "text", "text": "Sunny"}],
            },
        ],
    },
    "image-only-user": {
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": IMAGE}}]}
        ]
    },
    "image-and-text": {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": IMAGE, "detail": "auto"}},
                ],
            }
        ]
    },
    "assistant-prefill-last": {
        "messages": [
            {"role": "user", "content": "Name a colour."},
            {"role": "assistant", "content": "The colour is"},
        ]
    },
    "nulls-everywhere": {
        "messages": [{"role": "user", "content": "Hi"}],
        "temperature": None,
        "max_tokens": None,
        "stop": None,
        "tools": None,
        "tool_choice": None,
        "stream_options": None,
        "user": None,
    },
    "empty-lists": {"messages": [{"role": "user", "content": "Hi"}], "tools": [], "stop": []},
    "stream-with-usage": {
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    },
    "empty-user-text": {"messages": [{"role": "user", "content": ""}]},
    "tool-message-first": {
        "messages": [
            {"role": "tool", "tool_call_id": "call_0", "content": "orphan"},
            {"role": "user", "content": "Hi"},
        ]
    },
    "lone-surrogate": {"messages": [{"role": "user", "content": "Hi \ud83d there"}]},
    "nul-character": {"messages": [{"role": "user", "content": "Hi\u0000there"}]},
    "name-on-messages": {
        "messages": [
            {"role": "system", "content": "You are Rin.", "name": "setup"},
            {"role": "user", "content": "Hi", "name": "Laura"},
        ]
    },
    "open-webui-num_ctx": {"messages": [{"role": "user", "content": "Hi"}], "num_ctx": 8192},
    "ollama-options": {
        "messages": [{"role": "user", "content": "Hi"}],
        "options": {"num_ctx": 8192},
        "keep_alive": "5m",
    },
    "cache-control-part": {
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "Hi", "cache_control": {"type": "ephemeral"}}],
            }
        ]
    },
    "huge-max-tokens": {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1e30},
    "many-stops": {"messages": [{"role": "user", "content": "Hi"}], "stop": ["a"] * 10},
    "tool-call-bad-arguments": {
        "tools": [TOOL],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{**CALL, "function": {"name": "weather", "arguments": "{oops"}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "Sunny"},
        ],
    },
    "tool-call-array-arguments": {
        "tools": [TOOL],
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{**CALL, "function": {"name": "weather", "arguments": "[1, 2]"}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "Sunny"},
        ],
    },
}


# What each upstream does with them: 200 (relayed or translated), else the field a 422 names.
REFUSED_BY_ANTHROPIC = {
    "only-system": "messages",  # the Messages API needs a turn: was sent as messages: []
    "only-developer-and-system": "messages",
    "empty-user-text": "messages",
    "name-on-messages": "messages[0].name",
    "open-webui-num_ctx": "num_ctx",  # not OpenAI's field (docs/chat.md, Open WebUI)
    "ollama-options": "options",
}
REFUSED_BY_BOTH = {"empty-messages": "messages", "nul-character": "messages[0].content"}
REFUSED_BODY = ("lone-surrogate", "huge-max-tokens")  # the body guard: valid JSON text only


def _answer(provider: str, stream: bool) -> Reply:
    if provider == "openai":
        return Reply(events=openai_stream("Hi!")) if stream else Reply(body=openai_answer("Hi!"))
    if stream:
        return Reply(events=anthropic_stream("Hi!"))
    return Reply(body=anthropic_answer(text_block("Hi!")))


@pytest.fixture
def replies(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, request: pytest.FixtureRequest
) -> dict[str, tuple[int, dict[str, Any], Any]]:
    """Each of BODIES sent to the proxy (one server): its status, JSON and what went upstream."""
    provider = request.param
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)))
    key = proxy.create_persona("rin")
    seen = {}
    with proxy.client(key) as client:
        for name, body in BODIES.items():
            fake_api.queue(_answer(provider, bool(body.get("stream"))))
            reply = client.post(  # ASCII JSON: a lone surrogate goes as its escape
                "/v1/chat/completions",
                content=json.dumps(body),
                headers={"Content-Type": "application/json"},
            )
            sent = fake_api.bodies[-1] if fake_api.received else None
            data = reply.json() if not body.get("stream") else {"stream": reply.text}
            seen[name] = (reply.status_code, data, sent)
            fake_api.replies.clear()
            fake_api.received.clear()
    return seen


@pytest.mark.parametrize("replies", ["openai"], indirect=True)
def test_an_openai_upstream_gets_every_awkward_request_as_sent_or_a_422(
    replies: dict[str, tuple[int, dict[str, Any], Any]],
) -> None:
    for name, (status, data, sent) in replies.items():
        if name in REFUSED_BY_BOTH or name in REFUSED_BODY:
            assert status == 422 and sent is None, (name, data)
            if name in REFUSED_BY_BOTH:
                assert data["error"]["field"] == REFUSED_BY_BOTH[name], (name, data)
            continue
        assert status == 200, (name, data)
        relayed = {k: v for k, v in sent.items() if k not in ("model", "stream", "messages")}
        # num_ctx, options, stop … as sent (stream_options only with a stream: OpenAI refuses
        # it otherwise)
        leave = ("stream", "messages") if BODIES[name].get("stream") else ("stream_options",)
        asked = {k: v for k, v in BODIES[name].items() if k not in ("stream", "messages", *leave)}
        assert relayed == asked, name
        # the client's messages, as sent: only the leading system (or developer) message
        # gains the memory section
        client = BODIES[name]["messages"]
        lead = client[0]["role"] in ("system", "developer")
        start = len(sent["messages"]) - len(client) + lead
        assert sent["messages"][start:] == client[lead:], name
        if lead:
            assert {**sent["messages"][0], "content": client[0]["content"]} == client[0], name
    assert "[DONE]" in replies["stream-with-usage"][1]["stream"]


@pytest.mark.parametrize("replies", ["anthropic"], indirect=True)
def test_an_anthropic_upstream_gets_every_awkward_request_translated_or_a_422(
    replies: dict[str, tuple[int, dict[str, Any], Any]],
) -> None:
    for name, (status, data, sent) in replies.items():
        field = {**REFUSED_BY_ANTHROPIC, **REFUSED_BY_BOTH}.get(name)
        if field is not None or name in REFUSED_BODY:
            assert status == 422 and sent is None, (name, data)
            assert field is None or data["error"]["field"] == field, (name, data)
            continue
        assert status == 200, (name, data)
        assert sent["messages"], name  # never an empty list of turns
    developer = replies["developer-role"][2]
    assert developer["system"].startswith("Answer in French.")
    # a prompt-caching breakpoint is carried to its block (session 44: it was refused)
    cached = replies["cache-control-part"][2]["messages"][0]["content"]
    assert cached == [{"type": "text", "text": "Hi", "cache_control": {"type": "ephemeral"}}]
    trip = replies["tool-round-trip"][2]["messages"]
    assert trip[1]["content"][0]["type"] == "tool_use"
    assert trip[2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "call_1",
        "content": "Sunny, 21C",
    }
    image = replies["image-only-user"][2]["messages"][0]["content"][0]
    assert image["source"] == {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
    # a past call's arguments that are no JSON object are kept as text (an array was sent as
    # the tool_use input, which the Messages API refuses: only an object is an input)
    for name, raw in (
        ("tool-call-bad-arguments", "{oops"),
        ("tool-call-array-arguments", "[1, 2]"),
    ):
        call = replies[name][2]["messages"][1]["content"][0]
        assert call["input"] == {"arguments": raw}, name

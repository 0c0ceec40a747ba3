"""Session 35: an upstream that breaks the API mid-answer, fuzzed through the chat proxy over
real HTTP (the local fake API of tests/support/llm_fakes.py as the upstream).

Streamed, every broken shape (an event that is not JSON or not an object, ``choices`` not a
list or holding a non-object, a ``delta`` or its ``content`` of the wrong type, a stream cut
mid-line, an ``error`` object mid-stream, ``[DONE]`` with no choice at all, a stream nested
past the parser) ends with one error event in the API's error shape, then ``[DONE]``; not
streamed, it is a 502 with a message. Before, several cut the stream with no end (the relay
raised AttributeError/TypeError) or answered 500. Either way the conversation's stored turns
stay as they were: the exchange recorded before the broken one is all the session holds.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
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

from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the upstream's shapes, not the store, are under test

SESSION = "s-fuzz"


def _chunk(choices: Any, **extra: Any) -> str:
    body = {"id": "c", "object": "chat.completion.chunk", "choices": choices, **extra}
    return f"data: {json.dumps(body)}\n\n"


FINISH = _chunk([{"index": 0, "delta": {}, "finish_reason": "stop"}])
DONE = "data: [DONE]\n\n"
HEAD = openai_stream("Hel", done=False)[:2]  # the role chunk and a first piece of text

OPENAI_STREAMS: dict[str, tuple[tuple[str, ...], str]] = {
    "data that is not JSON": ((*HEAD, "data: hello\n\n"), "a stream event that is not JSON"),
    "data that is JSON but no object": ((*HEAD, "data: [1]\n\n"), "JSON but not an object"),
    "choices an object": ((*HEAD, _chunk({"a": 1}), FINISH, DONE), "choices are not a list"),
    "choices a number": ((*HEAD, _chunk(5), FINISH, DONE), "choices are not a list"),
    "choices a text": ((*HEAD, _chunk("abc"), FINISH, DONE), "choices are not a list"),
    "a choice that is a number": ((*HEAD, _chunk([1]), FINISH, DONE), "not an object"),
    "a choice that is null": ((*HEAD, _chunk([None]), FINISH, DONE), "not an object"),
    "a delta that is a text": (
        (*HEAD, _chunk([{"index": 0, "delta": "lo"}]), FINISH, DONE),
        "delta is not an object",
    ),
    "a delta that is a list": (
        (*HEAD, _chunk([{"index": 0, "delta": ["lo"]}]), FINISH, DONE),
        "delta is not an object",
    ),
    "content that is a number": (
        (*HEAD, _chunk([{"index": 0, "delta": {"content": 5}}]), FINISH, DONE),
        "content is not text",
    ),
    "a stream cut mid-line": ((*HEAD, 'data: {"id": "c", "choi'), "event that is not JSON"),
    "an error object mid-stream": (
        (*HEAD, 'data: {"error": {"message": "model overloaded"}}\n\n'),
        "an error mid-stream: model overloaded",
    ),
    "an error beside choices": (
        (*HEAD, 'data: {"error": {"message": "quota"}, "choices": []}\n\n', DONE),
        "an error mid-stream: quota",
    ),
    "done without any choice": (('data: {"id": "c"}\n\n', _chunk([]), DONE), "without choices"),
    "done alone": ((DONE,), "without choices"),
    "nothing at all": ((), "ended before its answer did"),
    "nested past the parser": (
        (*HEAD, "data: " + "[" * 100_000 + "]" * 100_000 + "\n\n"),
        "a stream event that "
        + "cannot be relayed: arrays or objects nested deeper than 64 levels",
    ),
}

OPENAI_BODIES: dict[str, tuple[Any, str]] = {
    "a choice that is a number": ({"choices": [1]}, "choices hold an item that is not an object"),
    "a message that is a text": (
        {"choices": [{"index": 0, "message": "hi", "finish_reason": "stop"}]},
        "message is not an object",
    ),
    "a message that is a list": ({"choices": [{"message": ["hi"]}]}, "message is not an object"),
    "content that is an object": (
        {"choices": [{"message": {"role": "assistant", "content": {"a": 1}}}]},
        "content is not text",
    ),
    "nested past the parser": (
        "[" * 100_000 + "]" * 100_000,
        "a body that " + "cannot be relayed: arrays or objects nested deeper than 64 levels",
    ),
}


def _event(name: str, body: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps({'type': name, **body})}\n\n"


GOOD = anthropic_stream("Hel", "lo")  # start, block start, 2 deltas, block stop, delta, stop
ANTHROPIC_STREAMS: dict[str, tuple[str, ...]] = {
    "a message that is a text": (_event("message_start", {"message": "x"}), *GOOD[1:]),
    "usage that is a text": (
        _event("message_start", {"message": {"id": "m", "usage": "x"}}),
        *GOOD[1:],
    ),
    "a content block that is a text": (
        GOOD[0],
        _event("content_block_start", {"index": 0, "content_block": "x"}),
        *GOOD[2:],
    ),
    "a tool block index that is no number": (
        GOOD[0],
        _event("content_block_start", {"index": "x", "content_block": {"type": "tool_use"}}),
        *GOOD[2:],
    ),
    "a delta that is a text": (
        *GOOD[:2],
        _event("content_block_delta", {"index": 0, "delta": "x"}),
        *GOOD[4:],
    ),
    "text that is a number": (
        *GOOD[:2],
        _event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": 5}}),
        *GOOD[4:],
    ),
    "a message delta that is a text": (
        *GOOD[:-2],
        _event("message_delta", {"delta": "x"}),
        GOOD[-1],
    ),
}
ANTHROPIC_BODIES: dict[str, dict[str, Any]] = {
    "text that is a number": anthropic_answer({"type": "text", "text": 5}),
    "usage that is a text": {**anthropic_answer(text_block("hi")), "usage": "x"},
    "a token count that is no number": {
        **anthropic_answer(text_block("hi")),
        "usage": {"input_tokens": "many"},
    },
}


@pytest.fixture(params=["openai", "anthropic"])
def provider(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str
) -> tuple[LiveServer, str]:
    """A proxy whose session ``SESSION`` holds one whole exchange (the user's turn and the
    reply), recorded before the broken one."""
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)))
    key = proxy.create_persona("rin")
    fake_api.queue(
        Reply(body=openai_answer("Hello!"))
        if provider == "openai"
        else Reply(body=anthropic_answer(text_block("Hello!")))
    )
    with proxy.client(key) as client:
        first = client.post(
            "/v1/chat/completions",
            headers={"X-Omoide-Session": SESSION},
            json={"messages": [{"role": "user", "content": "Hi there"}]},
        )
    assert first.status_code == 200, first.text
    assert _turns(proxy) == [("user", "Hi there"), ("assistant", "Hello!")]
    return proxy, key


def _turns(proxy: LiveServer) -> list[tuple[str, str]]:
    """The session's turns once the first exchange is recorded (after its reply was sent, by
    the reply's background task: waited for, as a loaded machine may run it late) and 0.3 s
    more, for a turn that should not be recorded to show."""
    store = proxy.omoide.store.sessions("rin")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(NotFound):  # (made as the first turn is recorded)
            if len(store.events_after(store.get(SESSION), 0)) >= 2:
                break
        time.sleep(0.05)
    time.sleep(0.3)
    return [(e.role, e.content) for e in store.events_after(store.get(SESSION), 0)]


SECOND = [
    {"role": "user", "content": "Hi there"},
    {"role": "assistant", "content": "Hello!"},
    {"role": "user", "content": "Tell me about tea"},
]


def _streamed(proxy: LiveServer, key: str) -> tuple[int, list[str]]:
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=20,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": SESSION},
        json={"stream": True, "messages": SECOND},
    ) as raw:
        return raw.status_code, [line for line in raw.iter_lines() if line]


def _ends_with_an_error_event(lines: list[str], said: str) -> None:
    assert lines[-1] == "data: [DONE]", lines[-3:]
    error = json.loads(lines[-2].removeprefix("data: "))["error"]
    assert error["code"] == "upstream_unavailable", error
    assert said in error["message"], error["message"]
    assert not any("Traceback" in line for line in lines)


def _posted(proxy: LiveServer, key: str) -> httpx.Response:
    with proxy.client(key) as client:
        return client.post(
            "/v1/chat/completions",
            headers={"X-Omoide-Session": SESSION},
            json={"messages": SECOND},
        )


@pytest.mark.parametrize("case", list(OPENAI_STREAMS))
def test_a_broken_openai_stream_ends_with_an_error_event_and_records_nothing(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, case: str
) -> None:
    proxy, key = _proxy(chat_server, fake_api, "openai")
    events, said = OPENAI_STREAMS[case]
    fake_api.queue(Reply(events=events))
    status, lines = _streamed(proxy, key)
    assert status == 200
    _ends_with_an_error_event(lines, said)
    assert _turns(proxy) == [("user", "Hi there"), ("assistant", "Hello!")]


@pytest.mark.parametrize("case", list(OPENAI_BODIES))
def test_a_broken_openai_answer_is_a_502_and_records_nothing(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, case: str
) -> None:
    proxy, key = _proxy(chat_server, fake_api, "openai")
    body, said = OPENAI_BODIES[case]
    fake_api.queue(Reply(body=body))
    reply = _posted(proxy, key)
    assert reply.status_code == 502, reply.text
    error = reply.json()["error"]
    assert error["code"] == "upstream_unavailable" and said in error["message"], error
    assert _turns(proxy) == [("user", "Hi there"), ("assistant", "Hello!")]


@pytest.mark.parametrize("case", list(ANTHROPIC_STREAMS))
def test_a_broken_anthropic_stream_ends_with_an_error_event_and_records_nothing(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, case: str
) -> None:
    proxy, key = _proxy(chat_server, fake_api, "anthropic")
    fake_api.queue(Reply(events=ANTHROPIC_STREAMS[case]))
    status, lines = _streamed(proxy, key)
    assert status == 200
    said = "content is not text" if case == "text that is a number" else "Messages API's shape"
    _ends_with_an_error_event(lines, said)
    assert _turns(proxy) == [("user", "Hi there"), ("assistant", "Hello!")]


@pytest.mark.parametrize("case", list(ANTHROPIC_BODIES))
def test_a_broken_anthropic_answer_is_a_502_and_records_nothing(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, case: str
) -> None:
    proxy, key = _proxy(chat_server, fake_api, "anthropic")
    fake_api.queue(Reply(body=ANTHROPIC_BODIES[case]))
    reply = _posted(proxy, key)
    assert reply.status_code == 502, reply.text
    error = reply.json()["error"]
    assert "an answer not in the Messages API's shape" in error["message"], error
    assert _turns(proxy) == [("user", "Hi there"), ("assistant", "Hello!")]


@pytest.mark.parametrize("stream", [True, False])
def test_an_html_page_is_a_502_naming_it_whatever_its_status(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str, stream: bool
) -> None:
    """A gateway's error page (503) is named by its status; a 200 HTML page (a proxy's sign-in
    or a portal's) was read as a stream that 'ended before its answer did'; an error body
    nested past the parser was a 500 (RecursionError reading its message)."""
    proxy, key = _proxy(chat_server, fake_api, provider)
    page = "<html><body><h1>Bad Gateway</h1></body></html>"
    fake_api.queue(
        Reply(status=503, body=page, headers={"content-type": "text/html"}),
        Reply(status=200, body=page, headers={"content-type": "text/html; charset=utf-8"}),
        Reply(status=500, body="[" * 100_000 + "]" * 100_000),
    )
    expected = [
        "is unavailable or overloaded (HTTP 503 Service Unavailable)",
        "sent an HTML page, not an answer (HTTP 200 OK)",
        "failed with an internal error (HTTP 500 Internal Server Error)",
    ]
    for said in expected:
        with proxy.client(key) as client:
            reply = client.post(
                "/v1/chat/completions",
                headers={"X-Omoide-Session": SESSION},
                json={"stream": stream, "messages": SECOND},
            )
        assert reply.status_code == 502, reply.text
        assert said in reply.json()["error"]["message"], reply.text
    assert _turns(proxy) == [("user", "Hi there"), ("assistant", "Hello!")]


class _FaultyStream:
    """A stream whose relay meets a fault of ours (not the upstream's) after one chunk."""

    def __init__(self) -> None:
        self.closed = False

    def __aiter__(self) -> _FaultyStream:
        self._sent = False
        return self

    async def __anext__(self) -> dict[str, Any]:
        if self._sent:
            raise RuntimeError("a bug")
        self._sent = True
        return json.loads(HEAD[1].removeprefix("data: "))

    async def aclose(self) -> None:
        self.closed = True


class _FaultyUpstream:
    name, model = "openai:gpt-test", "gpt-test"

    def __init__(self) -> None:
        self.stream = _FaultyStream()

    def check(self, body: dict[str, Any]) -> None:
        pass

    async def open_stream(self, body: dict[str, Any]) -> _FaultyStream:
        return self.stream

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("streamed only")

    async def aclose(self) -> None:
        pass


def test_a_fault_of_ours_mid_stream_ends_with_an_internal_error_event(
    chat_server: Callable[..., LiveServer],
) -> None:
    """Any exception but the API's errors cut the stream with no end (no error event, no
    [DONE]); it is now the app's last-resort error, in the API's shape, as an event."""
    upstream = _FaultyUpstream()
    proxy = chat_server(upstream=upstream)
    key = proxy.create_persona("rin")
    status, lines = _streamed(proxy, key)
    assert status == 200 and lines[-1] == "data: [DONE]", lines
    error = json.loads(lines[-2].removeprefix("data: "))["error"]
    assert error == {"code": "internal", "message": "internal error; see the server log"}
    assert upstream.stream.closed
    time.sleep(0.3)
    assert not proxy.omoide.store.sessions("rin").numbered(SESSION)

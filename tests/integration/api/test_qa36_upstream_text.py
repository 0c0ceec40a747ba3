"""Session 36: an upstream (the chat proxy's, or the stage-4 summariser) whose JSON could not be
passed on, and a summariser that fails with an exception of ours, through real HTTP (the local
fake API of tests/support/llm_fakes.py as the upstream).

- A JSON escape such as ``\\ud83d`` without its pair (a server that stops at ``max_tokens``
  between the two halves of an emoji writes one) is valid JSON but no UTF-8 text. Before: a
  reply or an upstream's error message holding one was a 500; a streamed one cut the stream
  with no error event and no ``[DONE]``; a summary holding one made the chat call fail (a 500).
  Now each lone half reads as U+FFFD.
- An answer nested just short of the parser's limit was read, then overflowed the encoder of
  the relayed reply (a 500): JSON nested deeper than 64 levels is now a body that is not the
  API's (a 502).
- ``NaN``, ``Infinity`` or ``1e999`` in an answer (not JSON) was a 500, and streamed was passed
  on as text no JSON parser reads: a 502 (an error event) too.
- A summariser that raised anything but one of Omoide's errors was a 500; the spec's fallback
  (the stage-3 result is sent) now holds for every failure.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, openai_answer, text_block
from omoide_testing import LiveServer

from omoide.engine.compact import SUMMARY_PREFIX
from omoide.errors import NotFound
from omoide.llm.base import Message
from omoide.llm.chat import make_chat_upstream
from omoide.llm.openai import OpenAILLM

pytestmark = pytest.mark.sqlite_only  # the upstream's text, not the store, is under test

SESSION = "s-unicode"
# Raw JSON: json.dumps would write the escape only from a Python string holding the surrogate.
OPENAI_LONE = (
    '{"id": "c", "object": "chat.completion", "model": "m", "choices": [{"index": 0, '
    '"message": {"role": "assistant", "content": "hi \\ud83d there"}, "finish_reason": "stop"}]}'
)
ANTHROPIC_LONE = json.dumps(anthropic_answer(text_block("hi @@ there"))).replace("@@", "\\ud83d")


def _chunk(delta: str) -> str:
    return (
        'data: {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, '
        f'"delta": {delta}, "finish_reason": null}}]}}\n\n'
    )


FINISH = (
    'data: {"id": "c", "object": "chat.completion.chunk", '
    '"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n'
)


def _proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str = "openai", **kw: Any
) -> tuple[LiveServer, str]:
    server = chat_server(
        upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)), **kw
    )
    return server, server.create_persona("rin")


def _post(server: LiveServer, key: str, body: dict[str, Any]) -> httpx.Response:
    with server.client(key) as client:
        return client.post("/v1/chat/completions", headers={"X-Omoide-Session": SESSION}, json=body)


def _streamed(server: LiveServer, key: str) -> list[str]:
    with httpx.stream(
        "POST",
        f"{server.url}/v1/chat/completions",
        timeout=10,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": SESSION},
        json={"stream": True, "messages": [{"role": "user", "content": "hello"}]},
    ) as raw:
        assert raw.status_code == 200
        return [line for line in raw.iter_lines() if line]


def _turns(server: LiveServer) -> list[tuple[str, str]]:
    store = server.omoide.store.sessions("rin")
    for _ in range(50):  # the turn is recorded after the reply was sent
        try:
            events = store.events_after(store.get(SESSION), 0)
        except NotFound:
            events = []
        if len(events) >= 2:
            break
        time.sleep(0.1)
    return [(e.role, e.content) for e in events]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_reply_with_a_lone_surrogate_is_answered_and_recorded(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str
) -> None:
    server, key = _proxy(chat_server, fake_api, provider)
    fake_api.queue(Reply(body=OPENAI_LONE if provider == "openai" else ANTHROPIC_LONE))
    reply = _post(server, key, {"messages": [{"role": "user", "content": "hello"}]})
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["content"] == "hi \ufffd there"
    assert _turns(server) == [("user", "hello"), ("assistant", "hi \ufffd there")]


def test_a_streamed_reply_with_a_lone_surrogate_ends_normally(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(events=(_chunk('{"content": "a\\udc00b"}'), FINISH, "data: [DONE]\n\n")))
    lines = _streamed(server, key)
    assert lines[-1] == "data: [DONE]", lines
    first = json.loads(lines[0].removeprefix("data: "))
    assert first["choices"][0]["delta"]["content"] == "a\ufffdb"
    assert _turns(server) == [("user", "hello"), ("assistant", "a\ufffdb")]


def test_an_upstream_error_message_with_a_lone_surrogate_is_its_own_error(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(400, '{"error": {"message": "bad \\ud800 thing"}}'))
    reply = _post(server, key, {"messages": [{"role": "user", "content": "hello"}]})
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["code"] == "upstream_rejected_request"
    assert "bad \ufffd thing" in error["message"]


def test_an_error_event_with_a_lone_surrogate_ends_the_stream_with_an_error(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(events=('data: {"error": {"message": "boom \\ud800"}}\n\n',)))
    lines = _streamed(server, key)
    assert lines[-1] == "data: [DONE]", lines
    error = json.loads(lines[-2].removeprefix("data: "))["error"]
    assert error["code"] == "upstream_unavailable" and "boom \ufffd" in error["message"]


def _long_chat(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are Rin."}]
    for i in range(turns):
        out += [
            {"role": "user", "content": f"Day {i}: hiking near lake {i}. " + "Sunny. " * 20},
            {"role": "assistant", "content": f"Lake {i}! " + "Nice. " * 20},
        ]
    out.append({"role": "user", "content": "What now?"})
    return out


def _summarised(server: LiveServer, key: str) -> httpx.Response:
    with server.client(key) as client:
        settings = {"chat_budget_tokens": 450, "keep_recent": 2}
        assert client.put("/api/settings/rin", json=settings).status_code == 200
    return _post(server, key, {"messages": _long_chat(10)})


def test_a_summary_with_a_lone_surrogate_is_sent_repaired(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api, llm=OpenAILLM(fake_llm_config(fake_api.base)))
    fake_api.queue(Reply(body=OPENAI_LONE), Reply(body=openai_answer("ok")))
    reply = _summarised(server, key)
    assert reply.status_code == 200, reply.text
    assert reply.json()["omoide"]["compaction"]["summary"] == "llm"
    sent = fake_api.bodies[-1]["messages"]
    assert sent[0]["content"] == "You are Rin.\n\n" + SUMMARY_PREFIX + "hi \ufffd there"


class BrokenLLM:
    """A summariser whose call raises what no adapter translated (a fault of ours)."""

    name = "broken:test"

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, messages: Sequence[Message], **_: Any) -> str:
        self.calls += 1
        raise KeyError("choices")


def test_a_summariser_fault_sends_the_stage3_result(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    llm = BrokenLLM()
    server, key = _proxy(chat_server, fake_api, llm=llm)
    fake_api.queue(Reply(body=openai_answer("ok")), Reply(body=openai_answer("again")))
    reply = _summarised(server, key)
    assert reply.status_code == 200, reply.text
    compaction = reply.json()["omoide"]["compaction"]
    assert (compaction["stage"], compaction["summary"]) == (3, "failed")
    assert not any(SUMMARY_PREFIX in str(m["content"]) for m in fake_api.bodies[-1]["messages"])
    again = _post(server, key, {"messages": _long_chat(10)})  # within the cool-down: no call
    assert again.json()["omoide"]["compaction"]["summary"] == "cooldown"
    assert llm.calls == 1


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [40, 980])
def test_an_answer_nested_near_the_parsers_limit_is_a_502_not_a_500(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, depth: int
) -> None:
    """980 levels parsed, then overflowed the relayed reply's encoder; 40 levels go through."""
    server, key = _proxy(chat_server, fake_api)
    answer = OPENAI_LONE.replace('"model": "m"', f'"model": "m", "extra": {_nested(depth)}')
    fake_api.queue(Reply(body=answer))
    reply = _post(server, key, {"messages": [{"role": "user", "content": "hello"}]})
    if depth < 64:
        assert reply.status_code == 200, reply.text
        return
    assert reply.status_code == 502, reply.text
    error = reply.json()["error"]
    assert error["code"] == "upstream_unavailable"
    assert (
        "sent a body that cannot be relayed: arrays or objects nested deeper than 64 levels"
        in (error["message"])
    )


def test_a_stream_event_nested_near_the_parsers_limit_ends_with_an_error_event(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api)
    deep = _chunk('{"content": "ab"}').replace('"id": "c"', f'"id": "c", "x": {_nested(980)}')
    fake_api.queue(Reply(events=(deep, FINISH, "data: [DONE]\n\n")))
    lines = _streamed(server, key)
    assert lines[-1] == "data: [DONE]", lines
    error = json.loads(lines[-2].removeprefix("data: "))["error"]
    assert error["code"] == "upstream_unavailable", error
    assert (
        "event that cannot be relayed: arrays or objects nested deeper than 64"
        in (error["message"])
    )


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_an_answer_with_a_number_json_has_not_is_a_502(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, number: str
) -> None:
    server, key = _proxy(chat_server, fake_api)
    answer = OPENAI_LONE.replace('"model": "m"', f'"model": "m", "usage": {{"t": {number}}}')
    fake_api.queue(Reply(body=answer))
    reply = _post(server, key, {"messages": [{"role": "user", "content": "hello"}]})
    assert reply.status_code == 502, reply.text
    error = reply.json()["error"]
    assert error["code"] == "upstream_unavailable"
    cause = "number 1e999 is not finite" if number == "1e999" else f"{number} is not a JSON number"
    assert f"sent a body that cannot be relayed: {cause}" in error["message"], error


def test_a_stream_event_with_a_number_json_has_not_ends_with_an_error_event(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api)
    bad = _chunk('{"content": "ab"}').replace('"id": "c"', '"id": "c", "usage": {"t": Infinity}')
    fake_api.queue(Reply(events=(bad, FINISH, "data: [DONE]\n\n")))
    lines = _streamed(server, key)
    assert not any("Infinity" in line for line in lines[:-2]), lines  # not passed on
    assert lines[-1] == "data: [DONE]", lines
    error = json.loads(lines[-2].removeprefix("data: "))["error"]
    assert error["code"] == "upstream_unavailable"
    assert (
        "a stream event that cannot be relayed: Infinity is not a JSON number" in (error["message"])
    )

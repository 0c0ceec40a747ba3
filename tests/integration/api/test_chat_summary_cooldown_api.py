"""A summary LLM that hangs: the first chat request that needs a stage-4 summary waits for
``OMOIDE_LLM_TIMEOUT`` and is sent with the stage-3 result (``summary=failed``); the requests
that follow within ``OMOIDE_CHAT_SUMMARY_COOLDOWN`` do not call it again and are answered at
once (``summary=cooldown``), and so are requests already waiting on a summary call when the
cool-down starts. The chat LLM's own calls are not affected. Real HTTP, the official
``openai`` SDK, two local fake upstreams (tests/support/llm_fakes.py), both stores."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Received, Reply, openai_answer, running
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream
from omoide.llm.openai import OpenAILLM

# The LLMs' timeout: a request under the cool-down answers well within it, and the second of two
# chats at once reaches the hanging LLM before the first's call times out (a loaded machine's
# margin: with 2 s either could miss).
TIMEOUT_S = 5.0


class HangingAPI(FakeAPI):
    """An LLM that never answers anything."""

    def take(self, received: Received) -> Reply:
        with self._lock:
            self.received.append(received)
        return Reply(hang=True)


@pytest.fixture
def hanging() -> Iterator[HangingAPI]:
    with running(HangingAPI()) as fake:
        yield fake


@pytest.fixture
def proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, hanging: HangingAPI
) -> LiveServer:
    return chat_server(
        upstream=make_chat_upstream(fake_llm_config(fake_api.base, timeout_s=TIMEOUT_S)),
        llm=OpenAILLM(fake_llm_config(hanging.base, timeout_s=TIMEOUT_S)),
        environ={"OMOIDE_CHAT_SUMMARY_COOLDOWN": "60"},
    )


def _chat(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are Wren."}]
    for i in range(turns):
        out += [
            {"role": "user", "content": f"On day {i} we repaired the lighthouse lamp. " * 12},
            {"role": "assistant", "content": "That sounds like hard work. " * 10},
        ]
    return [*out, {"role": "user", "content": "What should I do tomorrow?"}]


def _summary_calls(hanging: HangingAPI) -> int:
    """The stage-4 summary calls the hanging LLM got (not the background work's)."""
    return sum(
        1
        for body in hanging.bodies
        if "summarise conversations" in str(body["messages"][0]["content"])
    )


def _ask(
    client: openai.OpenAI, fake_api: FakeAPI, messages: list[dict[str, Any]]
) -> tuple[str, float]:
    fake_api.queue(Reply(body=openai_answer("Rest.")))
    started = time.monotonic()
    raw = client.chat.completions.with_raw_response.create(model="x", messages=messages)
    assert raw.parse().choices[0].message.content == "Rest."
    return raw.headers["x-omoide-compaction"], time.monotonic() - started


def test_a_hanging_summary_llm_is_not_waited_for_again(
    proxy: LiveServer, fake_api: FakeAPI, hanging: HangingAPI
) -> None:
    key = proxy.create_persona("wren")
    with proxy.client(key) as c:
        assert (
            c.put(
                "/api/settings/wren",
                json={"chat_budget_tokens": 900, "chat_memory_budget_tokens": 0},
            ).status_code
            == 200
        )
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=20)
    header, took = _ask(client, fake_api, _chat(8))
    assert "summary=failed" in header and took >= TIMEOUT_S, (header, took)
    assert _summary_calls(hanging) == 1
    for turns in (9, 10, 14):  # new prefixes: none is cached
        header, took = _ask(client, fake_api, _chat(turns))
        assert "summary=cooldown" in header and "stage=3" in header, header
        assert took < TIMEOUT_S, took
    assert _summary_calls(hanging) == 1  # not asked again during the cool-down
    assert len(fake_api.received) == 4  # the chat LLM got every request


def test_a_request_waiting_on_the_hanging_llm_stops_when_the_cooldown_starts(
    proxy: LiveServer, fake_api: FakeAPI, hanging: HangingAPI
) -> None:
    """Two chats at once: the second's summary call is in flight when the first's times out
    and starts the cool-down; the second stops waiting and is sent as a new request would be
    (``summary=cooldown``), not after its own call times out (``summary=failed``)."""
    key = proxy.create_persona("wren")
    with proxy.client(key) as c:
        assert (
            c.put(
                "/api/settings/wren",
                json={"chat_budget_tokens": 900, "chat_memory_budget_tokens": 0},
            ).status_code
            == 200
        )
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=20)
    headers: dict[int, str] = {}

    def ask(turns: int) -> None:
        headers[turns] = _ask(client, fake_api, _chat(turns))[0]

    first = threading.Thread(target=ask, args=(8,))
    first.start()
    _wait_for(lambda: _summary_calls(hanging) == 1)
    second = threading.Thread(target=ask, args=(12,))
    second.start()
    _wait_for(lambda: _summary_calls(hanging) == 2)  # both are waiting on the LLM
    first.join(20)
    second.join(20)
    assert "summary=failed" in headers[8], headers
    assert "summary=cooldown" in headers[12] and "stage=3" in headers[12], headers
    assert len(fake_api.received) == 2


def _wait_for(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not done():
        assert time.monotonic() < deadline
        time.sleep(0.01)

"""Session 41: an upstream whose answer's ``content`` is a list of parts (OpenAI-compatible
servers may send one: Mistral's reasoning models answer ``[{"type": "thinking", …}, {"type":
"text", "text": …}]``) was relayed to the client, but the reply was never recorded: the
route read a string content only, so the persona remembered the user's message and not what
it answered, streamed or not. Through real HTTP, the local fake API as the upstream."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # what the proxy records, not the store, is under test

SESSION = "s-parts"
QUESTION = [{"role": "user", "content": "What is my dog called?"}]
PARTS = [
    {"type": "thinking", "thinking": [{"type": "text", "text": "The user asks about a dog."}]},
    {"type": "text", "text": "Your dog is called Biscuit."},
]


def _turns(proxy: LiveServer, want: int) -> list[tuple[str, str]]:
    """The session's turns once ``want`` of them are there (the turn is recorded after the
    reply was sent), or as they are after five seconds."""
    store = proxy.omoide.store.sessions("rin")
    turns: list[tuple[str, str]] = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with contextlib.suppress(NotFound):  # the session is opened with the first turn
            turns = [(e.role, e.content) for e in store.events_after(store.get(SESSION), 0)]
        if len(turns) >= want:
            break
        time.sleep(0.05)
    return turns


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    body = {
        "id": "c",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body)}\n\n"


def test_a_reply_in_parts_is_recorded(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = proxy.create_persona("rin")
    answer = openai_answer(None)
    answer["choices"][0]["message"]["content"] = PARTS
    fake_api.queue(Reply(body=answer))
    with proxy.client(key) as client:
        reply = client.post(
            "/v1/chat/completions",
            headers={"X-Omoide-Session": SESSION},
            json={"messages": QUESTION},
        )
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["content"] == PARTS  # relayed as sent
    assert _turns(proxy, 2) == [
        ("user", "What is my dog called?"),
        ("assistant", "Your dog is called Biscuit."),
    ]


def test_a_streamed_reply_in_parts_is_recorded(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = proxy.create_persona("rin")
    fake_api.queue(
        Reply(
            events=(
                _chunk({"role": "assistant", "content": ""}),
                _chunk({"content": [PARTS[0]]}),
                _chunk({"content": [{"type": "text", "text": "Your dog is "}]}),
                _chunk({"content": "called "}),
                _chunk({"content": [{"type": "text", "text": "Biscuit."}]}),
                _chunk({}, "stop"),
                "data: [DONE]\n\n",
            )
        )
    )
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=20,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": SESSION},
        json={"stream": True, "messages": QUESTION},
    ) as raw:
        assert raw.status_code == 200
        lines = [line for line in raw.iter_lines() if line]
    assert lines[-1] == "data: [DONE]" and not any('"error"' in line for line in lines), lines
    assert _turns(proxy, 2) == [
        ("user", "What is my dog called?"),
        ("assistant", "Your dog is called Biscuit."),
    ]

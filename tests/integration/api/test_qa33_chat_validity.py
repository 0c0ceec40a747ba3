"""Session 33's walk-through of the chat proxy, over real HTTP: a memory whose validity ends in
the future (``valid_until`` next year, or 9999) is current — search says ``current: true`` —
but the proxy's memory section marked it "no longer true since <that day>". Only a fact closed
now is marked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def _remember(client: httpx.Client, content: str, **window: Any) -> None:
    made = client.post("/api/memories/rin", json={"content": content, **window})
    assert made.status_code == 201, made.text


def test_only_a_fact_closed_now_is_marked_no_longer_true(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    with proxy.client(key) as rin:
        _remember(
            rin,
            "The user rents a flat in Kyoto",
            valid_from="2025-04-01T00:00:00Z",
            valid_until="9999-03-31T00:00:00Z",
        )
        _remember(
            rin,
            "The user rented a flat in Osaka",
            valid_from="2023-04-01T00:00:00Z",
            valid_until="2025-04-01T00:00:00Z",
        )
        fake_api.queue(Reply(body=openai_answer("ok")))
        reply = rin.post(
            "/v1/chat/completions",
            json={"messages": [{"role": "user", "content": "Where is the user's flat?"}]},
        )
        assert reply.status_code == 200, reply.text
    system = fake_api.bodies[-1]["messages"][0]["content"]
    assert "[2025-04-01] The user rents a flat in Kyoto" in system
    assert "9999" not in system
    assert "[2023-04-01, no longer true since 2025-04-01] The user rented a flat in Osaka" in system

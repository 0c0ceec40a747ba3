"""Session 33's walk-through of the chat proxy, over real HTTP: a memory whose validity ends in
the future (``valid_until`` next year, or 9999) is current — search says ``current: true`` —
but the proxy's memory section marked it "no longer true since <that day>". Only a fact closed
now is marked."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer, serve_in_thread

from omoide.api.http.app import create_app
from omoide.llm import LLMConfig
from omoide.llm.chat import make_chat_upstream
from omoide.wiring import Omoide

ADMIN = "omo_admin_test-key"


@pytest.fixture
def proxy(
    make_app: Callable[..., Omoide], data_dir: Path, fake_api: FakeAPI
) -> Iterator[LiveServer]:
    config = LLMConfig(
        provider="openai",
        base_url=f"{fake_api.base}/v1",
        api_key="sk-test",
        model="gpt-test",
        timeout_s=1.0,
        max_retries=0,
    )
    app = make_app(None, chat_upstream=make_chat_upstream(config))
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=ADMIN, omoide=app)
    uv.should_exit = True
    thread.join(10)


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

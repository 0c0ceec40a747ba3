"""Session 38: the chat proxy, through real HTTP with the local fake API as the upstream.

- A block may hold up to 100,000 tokens (its own ``max_tokens``), the section's budget
(``chat_memory_budget_tokens``) is 800 by default. Such a block was dropped last, after every
weaker block and every memory, and took them with it: the request reached the model with no
memory section at all (``memories=0; blocks=0``), although everything else fitted.
- A request whose one turn alone is over ``chat_budget_tokens`` went upstream over its budget
  with no word in the log, which docs/chat.md promises (it was logged only when older turns
  were dropped beside it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the prompt's assembly, not the store, is under test


def test_a_block_over_the_whole_budget_leaves_the_rest_of_the_section(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("kai")
    fake_api.queue(Reply(body=openai_answer("It is 4711.")))
    with server.client(key) as client:
        for block in (
            {
                "block_name": "story",
                "content": "長い物語。" * 400,
                "max_tokens": 3000,
                "priority": 9,
            },
            {"block_name": "persona_state", "content": "Kai is terse."},
        ):
            assert client.post("/api/blocks/kai", json=block).status_code == 200
        written = client.post("/api/memories/kai", json={"content": "The vault code is 4711."})
        assert written.status_code in (200, 201), written.text
        reply = client.post(
            "/v1/chat/completions",
            json={"messages": [{"role": "user", "content": "What is the vault code?"}]},
        )
    assert reply.status_code == 200, reply.text
    injected = reply.json()["omoide"]["injected"]
    assert injected["blocks"] == ["persona_state"]
    assert written.json()["memory"]["key"] in injected["memories"]
    system = fake_api.bodies[-1]["messages"][0]
    assert system["role"] == "system"
    assert "Kai is terse." in system["content"] and "4711" in system["content"]
    assert "長い物語" not in system["content"]
    assert injected["tokens"] <= 800


def test_a_single_turn_over_the_budget_is_logged(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="omoide")
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    fake_api.queue(Reply(body=openai_answer("That is long.")))
    with server.client(key) as client:
        reply = client.post(
            "/v1/chat/completions",
            json={"messages": [{"role": "user", "content": "雨の日の猫。" * 2000}]},
        )
    assert reply.status_code == 200, reply.text
    compaction = reply.json()["omoide"]["compaction"]
    assert compaction["tokens_after"] > 6000 and compaction["summary"] is None
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("over its budget" in m and "6000" in m for m in said), said

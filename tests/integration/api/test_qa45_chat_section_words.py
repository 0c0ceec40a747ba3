"""The chat proxy's memory section closes with words for what it holds (qa45h): a section of
user state and blocks alone no longer says "Use these memories" when it shows none."""

from __future__ import annotations

from collections.abc import Callable

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

MEMORIES_HINT = "Use these memories when they help; do not recite them."
KNOWN_HINT = "Use this when it helps; do not recite it."


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def _system_prompt(proxy: LiveServer, fake_api: FakeAPI, key: str, text: str) -> str:
    fake_api.queue(Reply(body=openai_answer("ok")))
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    client.chat.completions.create(model="x", messages=[{"role": "user", "content": text}])
    return str(fake_api.bodies[-1]["messages"][0]["content"])


def test_a_section_without_memories_does_not_speak_of_memories(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        assert c.put("/api/user-state/rin", json={"name": "Laura"}).status_code == 200
        block = {"block_name": "style", "priority": 5, "content": "Rin speaks softly."}
        assert c.post("/api/blocks/rin", json=block).status_code == 200
    system = _system_prompt(proxy, fake_api, key, "good morning")
    assert "- name: Laura" in system and "Rin speaks softly." in system
    assert "## Memories" not in system
    assert system.endswith("\n" + KNOWN_HINT) and MEMORIES_HINT not in system

    with proxy.client(key) as c:
        reply = c.post("/api/memories/rin", json={"content": "Laura keeps a cat named Mochi"})
        assert reply.status_code == 201, reply.text
    system = _system_prompt(proxy, fake_api, key, "how is my cat Mochi?")
    assert "Laura keeps a cat named Mochi" in system
    assert system.endswith("\n" + MEMORIES_HINT) and KNOWN_HINT not in system

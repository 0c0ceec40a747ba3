"""A memory block at its ``max_tokens`` reads the same in ``get_context`` (with
``context_include_blocks`` on) and in the chat proxy's system prompt: one rule measures and
cuts it (``engine/block_text.py``). A write refuses a block over its limit, so one at it is the
longest either prompt is given; a longer one's cut is tests/unit/engine/test_block_text.py.
Through real HTTP, the chat against the local fake API."""

from __future__ import annotations

from collections.abc import Callable

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.engine.tokens import estimate_tokens
from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the prompts' assembly, not the store, is under test


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("Rin hums while baking bread.\n" * 8, id="english"),
        pytest.param("りんはパンを焼きながら歌う。" * 4, id="japanese"),
    ],
)
def test_a_block_at_its_limit_reads_the_same_in_get_context_and_the_chat_prompt(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, content: str
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    with server.client(key) as client:
        on = client.put("/api/settings/rin", json={"context_include_blocks": True})
        assert on.status_code == 200, on.text
        limit = estimate_tokens(content)
        block = {"block_name": "habits", "content": content, "max_tokens": limit, "priority": 5}
        assert client.post("/api/blocks/rin", json=block).status_code == 200
        over = {**block, "content": content + "x"}  # one token more is refused
        assert client.post("/api/blocks/rin", json=over).status_code == 422
        [shown] = client.get("/api/context/rin").json()["sections"]["blocks"]
    assert shown["content"] == content.strip()  # whole: not cut, not one token short
    fake_api.queue(Reply(body=openai_answer("ok")))
    openai.OpenAI(
        base_url=f"{server.url}/v1", api_key=key, max_retries=0, timeout=10
    ).chat.completions.create(model="x", messages=[{"role": "user", "content": "hi"}])
    system = fake_api.bodies[-1]["messages"][0]["content"]
    assert f"### habits\n{shown['content']}\n" in system

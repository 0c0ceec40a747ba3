"""Session 42: where the chat proxy's stage-4 summary goes in the request the upstream gets.

It was a second system message after the client's one (``[過去の会話要約] …`` at index 1), which
many chat templates refuse (Mistral's raise on any system message but the first) and some
providers move or drop. The summary now closes the one leading system message, after the
client's own prompt and the memory section, or is that message when the client sent none;
with the ``anthropic`` upstream it ends the ``system`` prompt, and the turns hold none of it.
Real HTTP, the local fake API as the chat model and the summariser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, openai_answer, text_block
from omoide_testing import LiveServer

from omoide.engine.compact import SUMMARY_PREFIX
from omoide.llm.anthropic import AnthropicLLM
from omoide.llm.chat import make_chat_upstream
from omoide.llm.openai import OpenAILLM

pytestmark = pytest.mark.sqlite_only  # the request's shape, not the store, is under test

SUMMARY = "The user hiked near ten lakes and liked lake 3 best."


def _chat(system: str | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [] if system is None else [{"role": "system", "content": system}]
    for i in range(10):
        out += [
            {"role": "user", "content": f"Day {i}: hiking near lake {i}. " + "Sunny. " * 20},
            {"role": "assistant", "content": f"Lake {i}! " + "Nice. " * 20},
        ]
    out.append({"role": "user", "content": "Which lake was my favourite?"})
    return out


def _proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str
) -> tuple[LiveServer, str]:
    config = fake_llm_config(fake_api.base, provider)
    llm = OpenAILLM(config) if provider == "openai" else AnthropicLLM(config)
    server = chat_server(upstream=make_chat_upstream(config), llm=llm)
    key = server.create_persona("rin")
    with server.client(key) as client:
        settings = {"chat_budget_tokens": 450, "keep_recent": 2}
        assert client.put("/api/settings/rin", json=settings).status_code == 200
    return server, key


def _answer(provider: str, text: str) -> Reply:
    if provider == "openai":
        return Reply(body=openai_answer(text))
    return Reply(body=anthropic_answer(text_block(text)))


def _post(server: LiveServer, key: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    with server.client(key) as client:
        reply = client.post("/v1/chat/completions", json={"messages": messages})
    assert reply.status_code == 200, reply.text
    return dict(reply.json()["omoide"]["compaction"])


def test_the_summary_closes_the_one_system_message_after_the_memory_section(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api, "openai")
    with server.client(key) as client:
        block = {"block_name": "style", "content": "Rin speaks softly."}
        assert client.post("/api/blocks/rin", json=block).status_code in (200, 201)
    fake_api.queue(_answer("openai", SUMMARY), _answer("openai", "Lake 3."))
    compaction = _post(server, key, _chat("You are Rin."))
    assert (compaction["stage"], compaction["summary"]) == (4, "llm")
    sent = fake_api.bodies[-1]["messages"]
    assert [m["role"] for m in sent].count("system") == 1 and sent[0]["role"] == "system"
    client_prompt, rest = sent[0]["content"].split("\n\n", 1)
    memory, summary = rest.split("\n\n" + SUMMARY_PREFIX)
    assert client_prompt == "You are Rin."
    assert "Rin speaks softly." in memory and summary == SUMMARY
    assert sent[1]["role"] == "user" and sent[-1]["content"] == "Which lake was my favourite?"


def test_without_a_system_message_the_summary_is_the_system_message(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api, "openai")
    fake_api.queue(_answer("openai", SUMMARY), _answer("openai", "Lake 3."))
    _post(server, key, _chat(None))
    sent = fake_api.bodies[-1]["messages"]
    assert sent[0] == {"role": "system", "content": SUMMARY_PREFIX + SUMMARY}
    assert [m["role"] for m in sent[1:]] == ["user", "assistant"] * 2 + ["user"]


def test_a_system_prompt_in_parts_gets_the_summary_as_one_more_part(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server, key = _proxy(chat_server, fake_api, "openai")
    fake_api.queue(_answer("openai", SUMMARY), _answer("openai", "Lake 3."))
    messages = _chat(None)
    messages.insert(0, {"role": "developer", "content": [{"type": "text", "text": "Be Rin."}]})
    _post(server, key, messages)
    sent = fake_api.bodies[-1]["messages"]
    assert sent[0] == {
        "role": "developer",
        "content": [
            {"type": "text", "text": "Be Rin."},
            {"type": "text", "text": SUMMARY_PREFIX + SUMMARY},
        ],
    }
    assert all(m["role"] in ("user", "assistant") for m in sent[1:])


@pytest.mark.parametrize("system", ["You are Rin.", None], ids=["client-system", "no-system"])
def test_anthropic_gets_the_summary_at_the_end_of_its_system_prompt(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, system: str | None
) -> None:
    server, key = _proxy(chat_server, fake_api, "anthropic")
    fake_api.queue(_answer("anthropic", SUMMARY), _answer("anthropic", "Lake 3."))
    compaction = _post(server, key, _chat(system))
    assert (compaction["stage"], compaction["summary"]) == (4, "llm")
    summary_call, chat_call = fake_api.received[-2:]
    assert summary_call.path == chat_call.path == "/v1/messages"
    assert "lake 3" in str(summary_call.body["messages"])
    expected = SUMMARY_PREFIX + SUMMARY
    assert chat_call.body["system"] == (expected if system is None else f"{system}\n\n{expected}")
    turns = chat_call.body["messages"]
    assert [t["role"] for t in turns] == ["user", "assistant"] * 2 + ["user"]
    assert SUMMARY_PREFIX.strip() not in str(turns)

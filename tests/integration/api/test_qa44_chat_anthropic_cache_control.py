"""Session 44: ``cache_control`` on a content part, which clients that cache Anthropic prompts
through an OpenAI-shaped API send (OpenRouter's and LiteLLM's form), was refused by the
``anthropic`` upstream as a field OpenAI does not define. It is carried to the block as the
Messages API takes it (a prompt-caching breakpoint), accepted and not carried in a system
message (the system prompt, the persona's memory appended, goes as one text), and a
malformed one is refused naming it. A message's ``name`` stays refused: the Messages API has no
speaker names. A field neither API defines (``num_ctx``, an Ollama option) is refused naming
it and saying an ``openai`` upstream gets it as sent. Real HTTP, the local fake API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, openai_answer, text_block
from omoide_testing import LiveServer, refused

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the translation, not the store, is under test

IMAGE = "data:image/png;base64,AAAA"
EPHEMERAL = {"type": "ephemeral"}


def _proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str = "anthropic"
) -> tuple[LiveServer, str]:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)))
    return proxy, proxy.create_persona("rin")


def _post(proxy: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with proxy.client(key) as client:
        return client.post("/v1/chat/completions", json=body, headers={"X-Omoide-Session": "s44"})


def test_a_parts_cache_control_is_carried_to_its_block(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(body=anthropic_answer(text_block("Hi!"))))
    long_text = "The handbook, chapter one. " * 20
    messages = [
        {
            "role": "system",
            "content": [{"type": "text", "text": "You are Rin.", "cache_control": EPHEMERAL}],
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": long_text, "cache_control": {**EPHEMERAL, "ttl": "1h"}},
                {"type": "image_url", "image_url": {"url": IMAGE}, "cache_control": EPHEMERAL},
                {"type": "text", "text": "What does it say?"},
            ],
        },
    ]
    reply = _post(proxy, key, {"messages": messages})
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    assert sent["messages"][0]["content"] == [
        {"type": "text", "text": long_text, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
            "cache_control": EPHEMERAL,
        },
        {"type": "text", "text": "What does it say?"},
    ]
    assert isinstance(sent["system"], str) and sent["system"].startswith("You are Rin.")


@pytest.mark.parametrize(
    "value",
    [
        pytest.param({"type": "persistent"}, id="type"),
        pytest.param({"type": "ephemeral", "ttl": "1d"}, id="ttl"),
        pytest.param({"type": "ephemeral", "scope": "global"}, id="key"),
        pytest.param("ephemeral", id="text"),
    ],
)
def test_a_malformed_cache_control_is_refused_naming_it(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, value: Any
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    part = {"type": "text", "text": "Hi", "cache_control": value}
    reply = _post(proxy, key, {"messages": [{"role": "user", "content": [part]}]})
    error = refused(reply, 422)
    assert error["field"] == "messages[0].content[0].cache_control", error
    assert '{"type": "ephemeral"}' in error["message"], error
    assert fake_api.received == []


def test_an_openai_upstream_gets_cache_control_as_sent(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy, key = _proxy(chat_server, fake_api, "openai")
    fake_api.queue(Reply(body=openai_answer("Hi!")))
    part = {"type": "text", "text": "Hi", "cache_control": EPHEMERAL}
    reply = _post(proxy, key, {"messages": [{"role": "user", "content": [part]}]})
    assert reply.status_code == 200, reply.text
    assert fake_api.bodies[-1]["messages"][-1]["content"] == [part]


@pytest.mark.parametrize(
    ("fields", "field", "why"),
    [
        pytest.param({"num_ctx": 8192}, "num_ctx", "defines no such field", id="num_ctx"),
        pytest.param(
            {"options": {"num_ctx": 8192}}, "options", "defines no such field", id="options"
        ),
        pytest.param(
            {"messages": [{"role": "user", "content": "Hi", "name": "Laura"}]},
            "messages[0].name",
            "has no speaker names (put the name in the content)",
            id="name",
        ),
    ],
)
def test_a_field_the_messages_api_does_not_define_is_refused_naming_it(
    chat_server: Callable[..., LiveServer],
    fake_api: FakeAPI,
    fields: dict[str, Any],
    field: str,
    why: str,
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    body = {"messages": [{"role": "user", "content": "Hi"}], **fields}
    error = refused(_post(proxy, key, body), 422)
    assert error["field"] == field, error
    assert error["message"].startswith(f"{field} cannot be sent to the anthropic upstream")
    assert why in error["message"], error
    if field != "messages[0].name":
        assert "an openai upstream gets every field as sent" in error["message"], error
    assert fake_api.received == []

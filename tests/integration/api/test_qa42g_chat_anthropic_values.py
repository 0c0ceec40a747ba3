"""The translated numbers and booleans of a chat request to the ``anthropic`` upstream, checked
before anything runs. They were carried as sent: ``parallel_tool_calls: "false"`` asked for
nothing at all (only ``false`` was read), ``max_tokens: 0`` was read as unset and answered
with up to 4,096 tokens, and ``temperature: "0.5"`` or ``top_k: -1`` reached the upstream,
whose refusal came back. Real HTTP, the local fake API as the upstream."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, text_block
from omoide_testing import LiveServer, refused

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the translation, not the store, is under test

HELLO = [{"role": "user", "content": "Hello!"}]
TOOL = {"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}


def _post(proxy: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with proxy.client(key) as client:
        return client.post("/v1/chat/completions", json=body, headers={"X-Omoide-Session": "s42"})


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize(
    ("fields", "field", "said"),
    [
        ({"parallel_tool_calls": "false", "tools": [TOOL]}, "parallel_tool_calls", "a boolean"),
        ({"temperature": "0.5"}, "temperature", "a number"),
        ({"top_p": [0.9]}, "top_p", "a number"),
        ({"top_k": "5"}, "top_k", "an integer"),
        ({"top_k": 2.5}, "top_k", "an integer"),
        ({"max_tokens": "100"}, "max_tokens", "an integer"),
        ({"max_completion_tokens": True}, "max_completion_tokens", "an integer"),
        ({"safety_identifier": 7}, "safety_identifier", "a string"),
        ({"max_tokens": 0}, "max_tokens", "takes a max_tokens of at least 1"),
        ({"max_completion_tokens": 0, "max_tokens": 50}, "max_completion_tokens", "at least 1"),
        ({"top_k": -1}, "top_k", "takes a top_k of at least 0"),
        ({"top_p": 1.01}, "top_p", "takes a top_p from 0 to 1"),
        ({"temperature": -0.1}, "temperature", "takes a temperature from 0 to 1"),
    ],
)
def test_a_translated_value_of_another_type_or_out_of_range_is_refused(
    chat_server: Callable[..., LiveServer],
    fake_api: FakeAPI,
    fields: dict[str, Any],
    field: str,
    said: str,
    stream: bool,
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, "anthropic")))
    key = proxy.create_persona("rin")
    error = refused(_post(proxy, key, {"messages": HELLO, "stream": stream, **fields}), 422)
    assert (error["code"], error["field"]) == ("invalid_input", field), error
    assert error["message"].startswith(field) and said in error["message"], error
    assert fake_api.received == []  # never sent


def test_values_at_their_bounds_are_sent_as_given(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, "anthropic")))
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(body=anthropic_answer(text_block("Hi!"))))
    fields = {"temperature": 1, "top_p": 0, "top_k": 0, "max_tokens": 1, "user": "ken"}
    reply = _post(proxy, key, {"messages": HELLO, **fields, "parallel_tool_calls": False})
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    assert {k: sent[k] for k in ("temperature", "top_p", "top_k", "max_tokens")} == {
        "temperature": 1,
        "top_p": 0,
        "top_k": 0,
        "max_tokens": 1,
    }
    assert sent["metadata"] == {"user_id": "ken"}

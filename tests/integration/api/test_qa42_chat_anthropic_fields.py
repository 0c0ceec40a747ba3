"""Session 42: the OpenAI request fields the ``anthropic`` upstream cannot carry are refused,
never dropped; the ones it can are translated. Real HTTP, the local fake API as the upstream.

``n: 3`` came back as one choice, ``response_format`` as prose to a client parsing JSON,
``seed``, ``logprobs`` and ``logit_bias`` were dropped without a word (structured outputs, a
JSON-schema ``response_format`` and a ``strict`` tool, are translated:
``test_qa42_chat_anthropic_structured.py``). Each is now a 422 ``invalid_input`` naming the
field and what the Messages API lacks, before the memory step, the summariser or the upstream
runs, with nothing recorded; a field at the value that asks for nothing (``n: 1`` …) is
accepted. An ``openai`` upstream still gets every field as sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, anthropic_stream, openai_answer, text_block
from omoide_testing import LiveServer, refused

from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the translation, not the store, is under test

HELLO = [{"role": "user", "content": "Hello!"}]
TOOL = {"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}
IMAGE = "data:image/png;base64,AAAA"


def _proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str = "anthropic"
) -> tuple[LiveServer, str]:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)))
    return proxy, proxy.create_persona("rin")


def _post(proxy: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with proxy.client(key) as client:
        return client.post("/v1/chat/completions", json=body, headers={"X-Omoide-Session": "s42"})


REFUSED = [
    pytest.param(
        {"response_format": {"type": "json_object"}},
        "response_format",
        'no JSON mode without a schema (send response_format: {"type": "json_schema"',
        id="json_object",
    ),
    pytest.param(
        {"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}},
        "response_format.json_schema.schema",
        "needs the JSON schema",
        id="json_schema-without-schema",
    ),
    pytest.param(
        {"response_format": {"type": "json_schema", "json_schema": "x"}},
        "response_format.json_schema",
        "needs the JSON schema",
        id="json_schema-not-an-object",
    ),
    pytest.param(
        {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "x", "schema": {}, "description": "A city"},
            }
        },
        "response_format.json_schema.description",
        "schema's own description",
        id="json_schema-description",
    ),
    pytest.param(
        {"response_format": {"type": "xml"}}, "response_format", "text or a JSON schema", id="xml"
    ),
    pytest.param({"logprobs": True}, "logprobs", "log probabilities", id="logprobs"),
    pytest.param({"top_logprobs": 3}, "top_logprobs", "log probabilities", id="top_logprobs"),
    pytest.param({"logit_bias": {"50256": -100}}, "logit_bias", "token biases", id="logit_bias"),
    pytest.param({"seed": 7}, "seed", "seed", id="seed"),
    pytest.param({"frequency_penalty": 0.5}, "frequency_penalty", "penalty", id="frequency"),
    pytest.param({"presence_penalty": -1}, "presence_penalty", "penalty", id="presence"),
    pytest.param({"store": True}, "store", "stores no", id="store"),
    pytest.param({"metadata": {"app": "x"}}, "metadata", "metadata", id="metadata"),
    pytest.param({"modalities": ["text", "audio"]}, "modalities", "text only", id="modalities"),
    pytest.param({"reasoning_effort": "high"}, "reasoning_effort", "thinking", id="reasoning"),
    pytest.param({"service_tier": "flex"}, "service_tier", "tiers", id="service_tier"),
    pytest.param({"functions": [TOOL["function"]]}, "functions", "send tools", id="functions"),
    pytest.param({"temperature": 1.5}, "temperature", "0 to 1", id="temperature"),
    pytest.param({"min_p": 0.1}, "min_p", "not one of OpenAI's", id="unknown-field"),
    pytest.param(
        {"stream_options": {"include_obfuscation": True}},
        "stream_options.include_obfuscation",
        "not one of OpenAI's",
        id="stream_options",
    ),
    pytest.param(
        {"tools": [{**TOOL, "function": {**TOOL["function"], "strict": "yes"}}]},
        "tools[0].function.strict",
        "true or false",
        id="strict-tool-not-a-flag",
    ),
    pytest.param({"tools": [TOOL], "tool_choice": "any"}, "tool_choice", "auto", id="choice"),
    pytest.param(
        {"messages": [{"role": "user", "content": "Hi", "name": "Laura"}]},
        "messages[0].name",
        "speaker names",
        id="message-name",
    ),
    pytest.param(
        {
            "messages": [
                *HELLO,
                {"role": "assistant", "content": "Hm.", "reasoning_content": "thinking"},
                *HELLO,
            ]
        },
        "messages[1].reasoning_content",
        "not one of OpenAI's",
        id="message-field",
    ),
    pytest.param(
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "image_url", "image_url": {"url": IMAGE, "detail": "low"}}
                    ],
                }
            ]
        },
        "messages[0].content[0].image_url.detail",
        "low-detail",
        id="image-detail-low",
    ),
    pytest.param(
        {
            "messages": [
                {"role": "system", "content": [{"type": "image_url", "image_url": {"url": IMAGE}}]},
                *HELLO,
            ]
        },
        "messages[0].content[0]",
        "text parts in a system prompt",
        id="system-image",
    ),
]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize(("fields", "field", "why"), REFUSED)
def test_a_field_the_messages_api_cannot_carry_is_refused_naming_it(
    chat_server: Callable[..., LiveServer],
    fake_api: FakeAPI,
    fields: dict[str, Any],
    field: str,
    why: str,
    stream: bool,
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    reply = _post(proxy, key, {"messages": HELLO, "stream": stream, **fields})
    error = refused(reply, 422)
    assert (error["code"], error["field"]) == ("invalid_input", field), error
    assert error["message"].startswith(field), error
    assert "anthropic upstream" in error["message"] and why in error["message"], error
    assert "OMOIDE_LLM_PROVIDER=openai" in error["message"]
    assert fake_api.received == []  # never sent
    time.sleep(0.2)
    with pytest.raises(NotFound):  # nothing recorded
        proxy.omoide.store.sessions("rin").get("s42")


def test_values_that_ask_for_nothing_are_accepted_and_not_sent(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(body=anthropic_answer(text_block("Hi!"))))
    defaults = {
        "n": 1,
        "logprobs": False,
        "response_format": {"type": "text"},
        "seed": None,
        "presence_penalty": 0,
        "frequency_penalty": 0.0,
        "logit_bias": {},
        "store": False,
        "modalities": ["text"],
        "parallel_tool_calls": True,
        "service_tier": "auto",
    }
    reply = _post(proxy, key, {"messages": HELLO, **defaults})
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["content"] == "Hi!"
    assert set(fake_api.bodies[-1]) == {"model", "messages", "stream", "max_tokens"}


def test_the_fields_it_can_carry_are_translated(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(events=anthropic_stream("Rainy.")))
    messages = [
        {"role": "user", "content": "Weather in Oslo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": [
                {"type": "text", "text": "rain"},
                {"type": "image_url", "image_url": {"url": IMAGE, "detail": "high"}},
            ],
        },
        {"role": "assistant", "content": None, "refusal": "I cannot show the radar."},
        {"role": "user", "content": "So?"},
    ]
    body = {
        "messages": messages,
        "stream": True,
        "user": "laura-1",
        "top_k": 40,
        "tools": [TOOL],
        "parallel_tool_calls": False,
    }
    reply = _post(proxy, key, body)
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    assert sent["metadata"] == {"user_id": "laura-1"} and sent["top_k"] == 40
    assert sent["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert sent["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "c1",
            "content": [
                {"type": "text", "text": "rain"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
                },
            ],
        }
    ]
    assert sent["messages"][3] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "I cannot show the radar."}],
    }


def test_an_openai_upstream_still_gets_every_field_as_sent(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy, key = _proxy(chat_server, fake_api, "openai")
    fake_api.queue(Reply(body=openai_answer("{}")))
    # (n other than 1 is refused for every upstream: test_qa43_chat_choices_and_values.py)
    fields = {"response_format": {"type": "json_object"}, "seed": 7, "min_p": 0.1}
    reply = _post(proxy, key, {"messages": HELLO, **fields})
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    assert {name: sent[name] for name in fields} == fields

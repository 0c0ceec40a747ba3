"""Session 42: structured outputs reach an ``anthropic`` upstream instead of a 422. Real HTTP,
the local fake API as the upstream.

The field policy refused a tool's ``strict: true`` (which the OpenAI Agents SDK sends by
default) and a ``json_schema`` ``response_format``, though the Messages API has both: a tool's
``strict: true`` and ``output_config.format`` (``{"type": "json_schema", "schema": …}``). They
are now translated, the answer's text (the JSON) relayed as the message content, streamed or
not; JSON mode without a schema (``json_object``) is still refused, saying to send a schema;
an upstream that cannot do them (an older model) answers 400, relayed as a 422.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, anthropic_stream, api_error, text_block
from omoide_testing import LiveServer, refused
from pydantic import BaseModel

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the translation, not the store, is under test

HELLO = [{"role": "user", "content": "Where is it raining?"}]
CITY = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "rain_mm": {"type": "number"}},
    "required": ["city", "rain_mm"],
    "additionalProperties": False,
}
RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {"name": "rain", "strict": True, "schema": CITY},
}
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [
    {
        "type": "function",
        "function": {"name": "weather", "parameters": WEATHER, "strict": True},
    },
    {
        "type": "function",
        "function": {"name": "clock", "parameters": {"type": "object"}, "strict": False},
    },
]
ANSWER = ('{"city": ', '"Oslo", ', '"rain_mm": 4.5}')


def _proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> tuple[LiveServer, str]:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, "anthropic")))
    return proxy, proxy.create_persona("rin")


def _post(proxy: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with proxy.client(key) as client:
        return client.post("/v1/chat/completions", json=body, headers={"X-Omoide-Session": "s42"})


def _content(reply: Any, stream: bool) -> str:
    """The message content of a reply, or of a stream's chunks joined."""
    if not stream:
        return str(reply.json()["choices"][0]["message"]["content"])
    chunks = [
        json.loads(line[len("data: ") :])
        for line in reply.text.splitlines()
        if line.startswith("data: ") and line != "data: [DONE]"
    ]
    return "".join(
        c["choices"][0]["delta"].get("content") or "" for c in chunks if c.get("choices")
    )


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_a_json_schema_and_strict_tools_are_sent_as_the_messages_api_s(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, stream: bool
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(
        Reply(events=anthropic_stream(*ANSWER))
        if stream
        else Reply(body=anthropic_answer(text_block("".join(ANSWER))))
    )
    body = {"messages": HELLO, "stream": stream, "response_format": RESPONSE_FORMAT, "tools": TOOLS}
    reply = _post(proxy, key, body)
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    assert sent["output_config"] == {"format": {"type": "json_schema", "schema": CITY}}
    assert "response_format" not in sent and sent["stream"] is stream
    assert sent["tools"] == [
        {"name": "weather", "input_schema": WEATHER, "strict": True},
        {"name": "clock", "input_schema": {"type": "object"}},  # strict: false asks nothing
    ]
    assert json.loads(_content(reply, stream)) == {"city": "Oslo", "rain_mm": 4.5}


class Rain(BaseModel):
    city: str
    rain_mm: float


class Weather(BaseModel):
    city: str


def test_the_openai_sdk_s_parsed_output_and_strict_tool_come_through(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    """What the SDK itself sends (a strict schema of a pydantic model, a strict tool) and
    parses back: the client's own request shape, not one written for the test."""
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(body=anthropic_answer(text_block("".join(ANSWER)))))
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    completion = client.chat.completions.parse(
        model="x",
        messages=[{"role": "user", "content": "Where is it raining?"}],
        response_format=Rain,
        tools=[openai.pydantic_function_tool(Weather)],
    )
    assert completion.choices[0].message.parsed == Rain(city="Oslo", rain_mm=4.5)
    sent = fake_api.bodies[-1]
    assert sent["output_config"]["format"]["type"] == "json_schema"
    assert sent["output_config"]["format"]["schema"]["required"] == ["city", "rain_mm"]
    assert sent["tools"][0]["name"] == "Weather" and sent["tools"][0]["strict"] is True


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
def test_an_upstream_that_cannot_do_structured_outputs_is_relayed_as_a_422(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, stream: bool
) -> None:
    """An older model refuses ``output_config``: the client's to fix, as any upstream 400."""
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(Reply(400, api_error("output_config.format: not supported on this model")))
    body = {"messages": HELLO, "stream": stream, "response_format": RESPONSE_FORMAT}
    error = refused(_post(proxy, key, body), 422)
    assert error["code"] == "upstream_rejected_request" and error["upstream_status"] == 400
    assert "output_config.format" in error["message"], error
    assert "output_config" in fake_api.bodies[-1]

"""Session 36: chat requests a client can send that the proxy refused or broke on, through real
HTTP with the local fake API as the upstream.

- A latest user message of only invisible characters (a zero-width space, a word joiner, a
  BOM; what some editors and IMEs leave in an otherwise empty message) was a 422 naming ``q``,
  a field the client never sent: the PrepareStep searched for it and the search refused a blank
  query. It is a message with nothing to search for now: no memories are injected, the request
  goes through.
- ``tool_calls``, ``tools``, ``stop``, ``stream_options`` and ``tool_choice`` of a shape the
  proxy refuses (422) were allowed by the published OpenAPI schema (untyped or absent there):
  the schema now types them as the proxy checks them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the request's handling, not the store, is under test


@pytest.mark.parametrize("latest", ["\u200b", "\u2060\ufeff", " \u200b\n\u200d "])
def test_an_invisible_latest_message_is_relayed_not_refused(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, latest: str
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    fake_api.queue(Reply(body=openai_answer("Did you mean to send something?")))
    with server.client(key) as client:
        remembered = client.post("/api/memories/rin", json={"content": "The user likes tea."})
        assert remembered.status_code in (200, 201), remembered.text
        reply = client.post(
            "/v1/chat/completions",
            json={
                "messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": latest}]
            },
        )
    assert reply.status_code == 200, reply.text
    assert reply.json()["omoide"]["injected"]["memories"] == []
    assert fake_api.bodies[-1]["messages"][-1]["content"] == latest


# Fields the proxy checks beyond the messages' roles (service.chat_messages): each of these was
# refused with a 422 while the published schema allowed it (Schemathesis, seed 7: an assistant
# message with "tool_calls": 1.57e-31 was "schema-valid request rejected"). The schema now says
# what the proxy accepts.
REFUSED_FIELDS = [
    {"messages": [{"role": "assistant", "content": None, "tool_calls": 1.5}]},
    {"messages": [{"role": "assistant", "tool_calls": [{"function": 5}]}]},
    {"messages": [{"role": "assistant", "tool_calls": [{"id": 3, "function": {"name": "f"}}]}]},
    {
        "messages": [
            {"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": {}}}]}
        ]
    },
    {"tools": [{"function": {}}]},
    {"tools": [{"type": "function", "function": {"name": "f", "parameters": 5}}]},
    {"tools": {"a": 1}},
    {"stop": 1},
    {"stop": ["a", 1]},
    {"stream_options": 5},
    {"tool_choice": 5},
    {"tool_choice": {"function": {"name": 5}}},
]


@pytest.mark.parametrize("fields", REFUSED_FIELDS)
def test_a_field_the_proxy_refuses_is_invalid_in_the_published_schema(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, fields: dict[str, Any]
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    body = {"messages": [{"role": "user", "content": "hi"}], **fields}
    if "messages" in fields:
        body["messages"] = [{"role": "user", "content": "hi"}, *fields["messages"]]
    with server.client(key) as client:
        reply = client.post("/v1/chat/completions", json=body)
        document = client.get("/openapi.json").json()
    assert reply.status_code == 422, reply.text
    schema = {"$ref": "#/components/schemas/ChatRequest", "components": document["components"]}
    assert not jsonschema.Draft202012Validator(schema).is_valid(body), reply.json()


def test_the_fields_the_proxy_accepts_are_valid_in_the_published_schema(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = server.create_persona("rin")
    body = {
        "messages": [
            {"role": "user", "content": "weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"city": "Kyoto"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "user", "content": "thanks"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {"name": "weather", "parameters": {"type": "object"}, "strict": True},
            }
        ],
        "tool_choice": {"type": "function", "function": {"name": "weather"}},
        "stop": ["\n\n"],
        "stream_options": {"include_usage": True},
        "temperature": 0.2,
    }
    fake_api.queue(Reply(body=openai_answer("You're welcome.")))
    with server.client(key) as client:
        reply = client.post("/v1/chat/completions", json=body)
        document = client.get("/openapi.json").json()
    assert reply.status_code == 200, reply.text
    schema = {"$ref": "#/components/schemas/ChatRequest", "components": document["components"]}
    jsonschema.Draft202012Validator(schema).validate(body)
    sent = fake_api.bodies[-1]
    assert sent["tools"] == body["tools"] and sent["tool_choice"] == body["tool_choice"]
    assert sent["messages"][-3]["tool_calls"] == body["messages"][1]["tool_calls"]

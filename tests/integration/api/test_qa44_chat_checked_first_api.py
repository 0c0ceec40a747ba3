"""Session 44: without an upstream configured, the chat proxy answered 503
``llm_not_configured`` to a request whose fields were of the wrong JSON type (``model: 5``,
``temperature: "hot"``, ``user: 7``), which every upstream refuses: the client fixed its
configuration, then met the 422. Such a request is now refused first, for every upstream
(an ``openai`` one got it relayed after the memory step had run, and its refusal came back),
naming the field; a well-formed one still gets the 503 saying how to configure an upstream.
Real HTTP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI
from omoide_testing import LiveServer, refused

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the request's checks, not the store, are under test

HELLO = [{"role": "user", "content": "Hello!"}]
MALFORMED = [
    pytest.param({"model": 5}, "model", "must be a string", id="model"),
    pytest.param({"user": 7}, "user", "must be a string", id="user"),
    pytest.param({"temperature": "hot"}, "temperature", "must be a number", id="temperature"),
    pytest.param({"top_p": True}, "top_p", "must be a number", id="top_p"),
    pytest.param({"max_tokens": "x"}, "max_tokens", "must be an integer", id="max_tokens"),
    pytest.param({"seed": 1.5}, "seed", "must be an integer", id="seed"),
    pytest.param({"logprobs": "yes"}, "logprobs", "must be a boolean", id="logprobs"),
]


def _post(proxy: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with proxy.client(key) as client:
        return client.post("/v1/chat/completions", json=body)


@pytest.mark.parametrize(("fields", "field", "said"), MALFORMED)
def test_without_an_upstream_a_malformed_request_gets_its_422_first(
    chat_server: Callable[..., LiveServer], fields: dict[str, Any], field: str, said: str
) -> None:
    proxy = chat_server(upstream=None)
    key = proxy.create_persona("rin")
    error = refused(_post(proxy, key, {"messages": HELLO, **fields}), 422)
    assert (error["code"], error["field"]) == ("invalid_input", field), error
    assert error["message"].startswith(f"{field} {said}, got "), error
    answered = _post(proxy, key, {"messages": HELLO, "model": "gpt-4o", "temperature": 0.2})
    assert refused(answered, 503)["code"] == "llm_not_configured"


@pytest.mark.parametrize(("fields", "field", "said"), MALFORMED)
def test_an_openai_upstream_is_not_sent_a_malformed_request(
    chat_server: Callable[..., LiveServer],
    fake_api: FakeAPI,
    fields: dict[str, Any],
    field: str,
    said: str,
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = proxy.create_persona("rin")
    error = refused(_post(proxy, key, {"messages": HELLO, **fields}), 422)
    assert error["field"] == field and said in error["message"], error
    assert fake_api.received == []

"""Session 43: what the chat proxy does with ``n`` and with the request values whose limits
OpenAI (or the Messages API) sets, the same for both upstreams, streamed or not. Real HTTP, the
local fake API as the upstream.

``n: 2`` to an ``openai`` upstream came back as two choices and recorded only the first as the
persona's turn, whichever the user then kept; it is now refused as the ``anthropic`` upstream
refused it. ``stream_options.include_usage: "yes"`` and a 65-character ``safety_identifier``
(which OpenAI refuses) were relayed, and to the ``anthropic`` upstream a 10,000-character
``user`` became its ``metadata.user_id``: each is a 422 naming the field, before anything is
sent or recorded.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import (
    FakeAPI,
    Reply,
    anthropic_answer,
    anthropic_stream,
    openai_answer,
    openai_stream,
    text_block,
)
from omoide_testing import LiveServer, refused

from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the request's checks, not the store, are under test

HELLO = [{"role": "user", "content": "Hello!"}]
PROVIDERS = ["openai", "anthropic"]


def _proxy(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str
) -> tuple[LiveServer, str]:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)))
    return proxy, proxy.create_persona("rin")


def _post(proxy: LiveServer, key: str, body: dict[str, Any]) -> Any:
    with proxy.client(key) as client:
        return client.post("/v1/chat/completions", json=body, headers={"X-Omoide-Session": "s43"})


def _nothing_sent_or_recorded(proxy: LiveServer, fake_api: FakeAPI) -> None:
    assert fake_api.received == []
    time.sleep(0.2)
    with pytest.raises(NotFound):
        proxy.omoide.store.sessions("rin").get("s43")


REFUSED = [
    pytest.param({"n": 2}, "n", "one choice per request", id="n-2"),
    pytest.param({"n": 0}, "n", "one choice per request", id="n-0"),
    pytest.param({"n": "2"}, "n", 'must be an integer, got "2"', id="n-text"),
    pytest.param({"n": True}, "n", "must be an integer, got true", id="n-true"),
    pytest.param({"n": 1.5}, "n", "must be an integer", id="n-fraction"),
    pytest.param(
        {"stream_options": {"include_usage": "yes"}},
        "stream_options.include_usage",
        'true or false, got "yes"',
        id="include_usage-text",
    ),
    pytest.param(
        {"stream_options": {"include_usage": 1}},
        "stream_options.include_usage",
        "true or false, got 1",
        id="include_usage-number",
    ),
    pytest.param(
        {"safety_identifier": "u" * 65},
        "safety_identifier",
        "at most 64 characters",
        id="safety_identifier-long",
    ),
    pytest.param(
        {"safety_identifier": 7}, "safety_identifier", "got 7", id="safety_identifier-number"
    ),
    pytest.param({"user": 7}, "user", "a string", id="user-number"),
]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("fields", "field", "why"), REFUSED)
def test_a_value_no_upstream_takes_is_refused_for_both_naming_it(
    chat_server: Callable[..., LiveServer],
    fake_api: FakeAPI,
    provider: str,
    stream: bool,
    fields: dict[str, Any],
    field: str,
    why: str,
) -> None:
    proxy, key = _proxy(chat_server, fake_api, provider)
    error = refused(_post(proxy, key, {"messages": HELLO, "stream": stream, **fields}), 422)
    assert (error["code"], error["field"]) == ("invalid_input", field), error
    assert error["message"].startswith(field) and why in error["message"], error
    _nothing_sent_or_recorded(proxy, fake_api)


def test_n_says_why_one_choice(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> None:
    proxy, key = _proxy(chat_server, fake_api, "openai")
    error = refused(_post(proxy, key, {"messages": HELLO, "n": 3}), 422)
    assert "records the reply as the persona's turn" in error["message"], error
    assert "leave n out" in error["message"]


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_n_1_and_values_within_their_limits_are_accepted(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str, stream: bool
) -> None:
    proxy, key = _proxy(chat_server, fake_api, provider)
    if provider == "openai":
        answer = Reply(events=openai_stream("Hi!")) if stream else Reply(body=openai_answer("Hi!"))
    else:
        answer = (
            Reply(events=anthropic_stream("Hi!"))
            if stream
            else Reply(body=anthropic_answer(text_block("Hi!")))
        )
    fake_api.queue(answer)
    fields = {
        "n": 1,
        "stream_options": {"include_usage": False},
        "safety_identifier": "u" * 64,
    }
    reply = _post(proxy, key, {"messages": HELLO, "stream": stream, **fields})
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]
    if provider == "openai":
        assert sent["n"] == 1 and sent["safety_identifier"] == "u" * 64
    else:
        assert sent["metadata"] == {"user_id": "u" * 64} and "n" not in sent


def test_a_user_longer_than_the_messages_apis_user_id_is_refused_for_anthropic(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    """``user`` becomes ``metadata.user_id``, which the Messages API holds to 256 characters."""
    proxy, key = _proxy(chat_server, fake_api, "anthropic")
    error = refused(_post(proxy, key, {"messages": HELLO, "user": "u" * 10_000}), 422)
    assert (error["code"], error["field"]) == ("invalid_input", "user"), error
    assert "10,000 characters" in error["message"] and "at most 256" in error["message"]
    _nothing_sent_or_recorded(proxy, fake_api)
    fake_api.queue(Reply(body=anthropic_answer(text_block("Hi!"))))
    assert _post(proxy, key, {"messages": HELLO, "user": "u" * 256}).status_code == 200
    assert fake_api.bodies[-1]["metadata"] == {"user_id": "u" * 256}


def test_a_long_user_still_goes_to_an_openai_upstream_as_sent(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    """OpenAI sets no length for ``user``; the session it names is a hash of it."""
    proxy, key = _proxy(chat_server, fake_api, "openai")
    fake_api.queue(Reply(body=openai_answer("Hi!")))
    with proxy.client(key) as client:
        reply = client.post("/v1/chat/completions", json={"messages": HELLO, "user": "u" * 10_000})
    assert reply.status_code == 200, reply.text
    assert fake_api.bodies[-1]["user"] == "u" * 10_000
    assert len(reply.headers["x-omoide-session"]) == len("chat-") + 24

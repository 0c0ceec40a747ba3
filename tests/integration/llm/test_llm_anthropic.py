"""Anthropic adapter against a local server speaking /v1/messages."""

from __future__ import annotations

import pytest
from llm_fakes import API_KEY, Reply, anthropic_answer, api_error, text_block

from omoide.errors import UpstreamUnavailable
from omoide.llm import LLMOutputError, Message, complete_json
from omoide.llm.anthropic import JSON_ONLY

HELLO = [Message("user", "hello")]


def test_anthropic_complete_sends_headers_and_body_and_joins_text_blocks(fake_api, make_anthropic):
    thinking = {"type": "thinking", "thinking": "hmm", "signature": "x"}
    fake_api.queue(Reply(body=anthropic_answer(thinking, text_block("Hello, "), text_block("Rau"))))
    llm = make_anthropic()

    text = llm.complete(
        [Message("user", "hi"), Message("assistant", "yes?"), Message("user", "name?")],
        system="you are Haru",
        max_tokens=100,
        temperature=0.5,
    )

    assert text == "Hello, Rau"
    assert llm.name == "anthropic:claude-test"
    [req] = fake_api.received
    assert req.path == "/v1/messages"
    assert req.headers["x-api-key"] == API_KEY
    assert req.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in req.headers
    assert req.body == {
        "model": "claude-test",
        "system": "you are Haru",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "yes?"},
            {"role": "user", "content": "name?"},
        ],
        "max_tokens": 100,
        "temperature": 0.5,
    }


def test_anthropic_complete_omits_system_when_none(fake_api, make_anthropic):
    fake_api.queue(Reply(body=anthropic_answer(text_block("ok"))))

    make_anthropic().complete(HELLO)

    assert "system" not in fake_api.bodies[0]


def test_anthropic_json_mode_asks_for_json_in_system_prompt(fake_api, make_anthropic):
    fake_api.queue(Reply(body=anthropic_answer(text_block('Here you go: {"n": 1}'))))

    value = complete_json(make_anthropic(), HELLO, system="count")

    assert value == {"n": 1}
    assert fake_api.bodies[0]["system"] == f"count\n\n{JSON_ONLY}"
    assert "response_format" not in fake_api.bodies[0]


def test_anthropic_retries_overloaded_529_then_succeeds(fake_api, make_anthropic, sleeps):
    fake_api.queue(
        Reply(529, api_error("Overloaded", "overloaded_error"), headers={"retry-after": "2"}),
        Reply(body=anthropic_answer(text_block("ok"))),
    )

    assert make_anthropic().complete(HELLO) == "ok"
    assert sleeps == [2.0]


def test_anthropic_raises_upstream_unavailable_when_5xx_persists(fake_api, make_anthropic):
    fake_api.queue(*[Reply(500, api_error("Internal server error", "api_error"))] * 2)

    with pytest.raises(UpstreamUnavailable) as caught:
        make_anthropic(max_retries=1).complete(HELLO)

    assert caught.value.message == (
        f"anthropic at {fake_api.base}/v1/messages is unavailable after 2 attempts: "
        "HTTP 500: Internal server error"
    )


def test_anthropic_401_names_the_server_message_and_hides_the_key(fake_api, make_anthropic):
    fake_api.queue(Reply(401, api_error("invalid x-api-key", "authentication_error")))

    with pytest.raises(UpstreamUnavailable) as caught:
        make_anthropic().complete(HELLO)

    assert caught.value.message == (
        f"anthropic at {fake_api.base}/v1/messages rejected the request: "
        "HTTP 401: invalid x-api-key (check OMOIDE_LLM_API_KEY)"
    )
    assert len(fake_api.received) == 1


def test_anthropic_raises_upstream_unavailable_when_server_hangs(fake_api, make_anthropic):
    fake_api.queue(Reply(hang=True))

    with pytest.raises(UpstreamUnavailable, match="after 1 attempt: timed out"):
        make_anthropic(timeout_s=0.2, max_retries=0).complete(HELLO)


def test_anthropic_complete_raises_llm_output_error_when_no_text_block(fake_api, make_anthropic):
    fake_api.queue(Reply(body=anthropic_answer({"type": "tool_use", "id": "t", "input": {}})))

    with pytest.raises(LLMOutputError, match="returned no text"):
        make_anthropic().complete(HELLO)


def test_complete_json_raises_llm_output_error_on_anthropic_garbage(fake_api, make_anthropic):
    fake_api.queue(Reply(body=anthropic_answer(text_block("INDEPENDENT, I think"))))

    with pytest.raises(LLMOutputError, match="no JSON object or array"):
        complete_json(make_anthropic(), HELLO)

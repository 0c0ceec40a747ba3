"""OpenAI-compatible adapter against a local server speaking /v1/chat/completions."""

from __future__ import annotations

import logging

import pytest
from llm_fakes import API_KEY, Reply, api_error, openai_answer

from omoide.errors import UpstreamUnavailable
from omoide.llm import LLMOutputError, Message, complete_json

HELLO = [Message("user", "hello")]


def test_openai_complete_returns_content_and_sends_model_messages_and_bearer(fake_api, make_openai):
    fake_api.queue(Reply(body=openai_answer("hi there")))
    llm = make_openai()

    text = llm.complete(
        [Message("user", "hello"), Message("assistant", "yes?"), Message("user", "again")],
        system="be brief",
        max_tokens=64,
        temperature=0.3,
    )

    assert text == "hi there"
    assert llm.name == "openai:gpt-test"
    [req] = fake_api.received
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == f"Bearer {API_KEY}"
    assert req.body == {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "hello"},
            {"role": "assistant", "content": "yes?"},
            {"role": "user", "content": "again"},
        ],
        "max_tokens": 64,
        "temperature": 0.3,
    }


def test_openai_complete_sends_no_authorization_when_no_api_key(fake_api, make_openai):
    fake_api.queue(Reply(body=openai_answer("ok")))

    make_openai(api_key=None).complete(HELLO)

    assert "authorization" not in fake_api.received[0].headers
    assert [m["role"] for m in fake_api.bodies[0]["messages"]] == ["user"]


def test_openai_complete_accepts_base_url_with_trailing_slash(fake_api, make_openai):
    fake_api.queue(Reply(body=openai_answer("ok")))

    make_openai(base_url=f"{fake_api.base}/v1/").complete(HELLO)

    assert fake_api.received[0].path == "/v1/chat/completions"


def test_openai_json_mode_sends_response_format_and_extracts_fenced_json(fake_api, make_openai):
    fake_api.queue(Reply(body=openai_answer('Sure:\n```json\n{"a": [1, 2]}\n```\nDone.')))

    value = complete_json(make_openai(), HELLO, system="json please", max_tokens=99)

    assert value == {"a": [1, 2]}
    body = fake_api.bodies[0]
    assert body["response_format"] == {"type": "json_object"}
    assert body["temperature"] == 0.0
    assert body["max_tokens"] == 99


def test_openai_json_mode_retries_without_response_format_when_server_rejects_it(
    fake_api, make_openai
):
    rejection = api_error("Unrecognized request argument supplied: response_format")
    fake_api.queue(
        Reply(400, rejection),
        Reply(body=openai_answer('{"ok": true}')),
        Reply(body=openai_answer('{"ok": 2}')),
    )
    llm = make_openai()

    first = complete_json(llm, HELLO)
    second = complete_json(llm, HELLO)

    assert (first, second) == ({"ok": True}, {"ok": 2})
    assert ["response_format" in body for body in fake_api.bodies] == [True, False, False]


def test_openai_400_not_about_response_format_raises_without_second_try(fake_api, make_openai):
    fake_api.queue(Reply(400, api_error("max_tokens is too large")))

    with pytest.raises(UpstreamUnavailable, match="max_tokens is too large"):
        complete_json(make_openai(), HELLO)

    assert len(fake_api.received) == 1


def test_openai_retries_after_429_honouring_retry_after(fake_api, make_openai, sleeps):
    fake_api.queue(
        Reply(429, api_error("Rate limit reached"), headers={"Retry-After": "1.5"}),
        Reply(body=openai_answer("after the wait")),
    )

    assert make_openai().complete(HELLO) == "after the wait"
    assert sleeps == [1.5]
    assert len(fake_api.received) == 2


def test_openai_caps_a_long_retry_after(fake_api, make_openai, sleeps):
    fake_api.queue(
        Reply(429, api_error("slow down"), headers={"Retry-After": "3600"}),
        Reply(body=openai_answer("ok")),
    )

    make_openai().complete(HELLO)

    assert sleeps == [30.0]


def test_openai_raises_upstream_unavailable_when_500_persists(fake_api, make_openai, sleeps):
    fake_api.queue(*[Reply(500, api_error("The server had an error"))] * 3)

    with pytest.raises(UpstreamUnavailable) as caught:
        make_openai(max_retries=2, backoff_s=0.5).complete(HELLO)

    error = caught.value
    assert error.status == 502
    assert "after 3 attempts" in error.message
    assert "HTTP 500: The server had an error" in error.message
    assert f"{fake_api.base}/v1/chat/completions" in error.message
    assert API_KEY not in error.message
    assert error.fields["attempts"] == 3
    assert error.fields["status"] == 500
    assert len(fake_api.received) == 3
    # exponential backoff, each with up to 10% jitter
    assert len(sleeps) == 2
    assert 0.5 <= sleeps[0] <= 0.55
    assert 1.0 <= sleeps[1] <= 1.1


def test_openai_recovers_when_5xx_clears_before_retries_run_out(fake_api, make_openai):
    fake_api.queue(Reply(503, "upstream busy"), Reply(body=openai_answer("back")))

    assert make_openai().complete(HELLO) == "back"


def test_openai_raises_upstream_unavailable_when_server_hangs(fake_api, make_openai, sleeps):
    fake_api.queue(Reply(hang=True), Reply(hang=True))

    with pytest.raises(UpstreamUnavailable, match=r"after 2 attempts: timed out after 0\.2s"):
        make_openai(timeout_s=0.2, max_retries=1).complete(HELLO)

    assert len(fake_api.received) == 2
    assert len(sleeps) == 1


def test_openai_raises_upstream_unavailable_when_connection_refused(
    closed_port_url, make_openai, sleeps
):
    llm = make_openai(base_url=f"{closed_port_url}/v1", max_retries=1)

    with pytest.raises(UpstreamUnavailable, match="after 2 attempts: connection failed"):
        llm.complete(HELLO)

    assert len(sleeps) == 1


def test_openai_401_raises_clear_error_without_retrying(fake_api, make_openai, sleeps):
    fake_api.queue(Reply(401, api_error("Incorrect API key provided: sk-te***123")))

    with pytest.raises(UpstreamUnavailable) as caught:
        make_openai().complete(HELLO)

    message = caught.value.message
    assert "rejected the request: HTTP 401: Incorrect API key provided" in message
    assert "check OMOIDE_LLM_API_KEY" in message
    assert API_KEY not in message
    assert len(fake_api.received) == 1
    assert sleeps == []


def test_openai_error_message_hides_credentials_in_base_url(fake_api, make_openai):
    fake_api.queue(Reply(404, api_error("model not found")))
    host = fake_api.base.removeprefix("http://")

    with pytest.raises(UpstreamUnavailable) as caught:
        make_openai(base_url=f"http://user:pa55@{host}/v1").complete(HELLO)

    assert "pa55" not in caught.value.message
    assert f"at {fake_api.base}/v1/chat/completions rejected" in caught.value.message
    assert "check OMOIDE_LLM_BASE_URL and OMOIDE_LLM_MODEL" in caught.value.message


@pytest.mark.parametrize("content", [pytest.param(None, id="null"), pytest.param("  ", id="blank")])
def test_openai_complete_raises_llm_output_error_when_answer_has_no_text(
    fake_api, make_openai, content
):
    fake_api.queue(Reply(body=openai_answer(content, finish_reason="length")))

    with pytest.raises(LLMOutputError, match=r"returned no text \(finish_reason=length\)"):
        make_openai().complete(HELLO)


def test_openai_complete_raises_upstream_unavailable_when_body_is_not_json(fake_api, make_openai):
    fake_api.queue(Reply(200, "<html>proxy login</html>"))

    with pytest.raises(UpstreamUnavailable, match="not a JSON object"):
        make_openai().complete(HELLO)


def test_complete_json_raises_llm_output_error_when_model_answers_prose(fake_api, make_openai):
    fake_api.queue(Reply(body=openai_answer("I cannot answer that in JSON, sorry.")))

    with pytest.raises(LLMOutputError) as caught:
        complete_json(make_openai(), HELLO)

    assert caught.value.code == "llm_bad_output"
    assert caught.value.status == 502
    assert "sorry" not in caught.value.message


def test_openai_logs_one_info_line_without_prompt_or_key(fake_api, make_openai, caplog):
    fake_api.queue(Reply(body=openai_answer("fine")))
    caplog.set_level(logging.DEBUG, logger="omoide.llm")

    make_openai().complete([Message("user", "my secret diary")], system="persona prompt")

    info = [r for r in caplog.records if r.levelno == logging.INFO]
    assert len(info) == 1
    line = info[0].getMessage()
    assert "provider=openai model=gpt-test status=200 attempts=1" in line
    assert "duration_ms=" in line
    logged = caplog.text
    assert "secret diary" not in logged
    assert "persona prompt" not in logged
    assert API_KEY not in logged

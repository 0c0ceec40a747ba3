"""The OpenAI-compatible chat proxy through the real ``openai`` SDK, against a live server whose
upstream is the local fake API (tests/support/llm_fakes.py)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
import openai
import pytest
from chat_proxy import CHAT_ADMIN, fake_llm_config
from llm_fakes import (
    FakeAPI,
    Reply,
    anthropic_answer,
    anthropic_stream,
    api_error,
    openai_answer,
    openai_stream,
    text_block,
)
from omoide_testing import LiveServer

from omoide.api.http.schemas.chat import ChatCompaction, ChatCompletion, ChatInfo, ChatInjected
from omoide.engine.compact import CLEARED_TOOL_RESULT, SUMMARY_PREFIX
from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream
from omoide.llm.openai import OpenAILLM


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def sdk(server: LiveServer, key: str, **headers: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"{server.url}/v1",
        api_key=key,
        max_retries=0,
        timeout=10,
        default_headers=headers or None,
    )


def remember(server: LiveServer, key: str, persona: str, content: str) -> str:
    with server.client(key) as c:
        reply = c.post(f"/api/memories/{persona}", json={"content": content})
        assert reply.status_code == 201, reply.text
        return str(reply.json()["memory"]["key"])


def events_of(server: LiveServer, persona: str, session_id: str) -> list[Any]:
    store = server.omoide.store.sessions(persona)
    return store.events_after(store.get(session_id), 0)


def wait_events(server: LiveServer, persona: str, session_id: str, n: int) -> list[Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            found = events_of(server, persona, session_id)
        except NotFound:  # the session is opened by the background task
            found = []
        if len(found) >= n:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{n} events not recorded")


def long_chat(turns: int, words: int = 60) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are Rin, a cheerful friend."}]
    for i in range(turns):
        out += [
            {
                "role": "user",
                "content": f"Day {i}: I went hiking near lake {i} today. "
                + "It was sunny and calm. " * words,
            },
            {"role": "assistant", "content": f"Lake {i} sounds lovely! " + "Nice. " * words},
        ]
    out.append({"role": "user", "content": "What should I do this weekend?"})
    return out


# -- the endpoint ----------------------------------------------------------------------------


def test_chat_adds_memories_after_the_clients_system_prompt(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    memory = remember(proxy, key, "rin", "The user lives in Sapporo with a cat named Mochi")
    fake_api.queue(Reply(body=openai_answer("You live in Sapporo!")))
    raw = sdk(proxy, key).chat.completions.with_raw_response.create(
        model="anything",
        temperature=0.3,
        messages=[
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [{"type": "text", "text": "where do I live? cat"}]},
        ],
    )
    reply = raw.parse()
    assert reply.choices[0].message.content == "You live in Sapporo!"
    sent = fake_api.bodies[-1]
    assert sent["model"] == "gpt-test" and sent["temperature"] == 0.3
    system = sent["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("Be brief.\n\n")
    assert "Sapporo" in system["content"]
    assert sent["messages"][1]["content"][0]["text"] == "where do I live? cat"
    assert reply.model_extra["omoide"]["injected"]["memories"] == [memory]
    assert raw.headers["x-omoide-injected"].startswith("memories=1;")
    assert raw.headers["x-omoide-session"].startswith("chat-")
    # the omoide object is what the document's ChatInfo names, no more (schema26)
    info = reply.model_extra["omoide"]
    ChatCompletion.model_validate({"omoide": info})
    assert set(info) == set(ChatInfo.__annotations__)
    assert set(info["injected"]) == set(ChatInjected.__annotations__)
    assert set(info["compaction"]) == set(ChatCompaction.__annotations__)
    assert (info["compaction"]["stage"], info["compaction"]["summary"]) == (0, None)


def test_streaming_relays_chunks_and_ends_with_done(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(events=openai_stream("Hel", "lo ", "there")))
    stream = sdk(proxy, key).chat.completions.create(
        model="x", stream=True, messages=[{"role": "user", "content": "hi"}]
    )
    chunks = list(stream)
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "Hello there"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert fake_api.bodies[-1]["stream"] is True
    fake_api.queue(Reply(events=openai_stream("ok")))
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=10,
        headers={"Authorization": f"Bearer {key}"},
        json={"stream": True, "messages": [{"role": "user", "content": "hi"}]},
    ) as raw:
        lines = [line for line in raw.iter_lines() if line]
    assert raw.headers["content-type"].startswith("text/event-stream")
    assert lines[-1] == "data: [DONE]"
    fake_api.queue(Reply(body=openai_answer("whole at once")))  # a server ignoring "stream"
    chunks = list(
        sdk(proxy, key).chat.completions.create(
            model="x", stream=True, messages=[{"role": "user", "content": "hi"}]
        )
    )
    assert [c.choices[0].delta.content for c in chunks] == ["whole at once"]


def test_tools_and_tool_calls_pass_through(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("rin")
    tools = [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "Weather for a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ]
    answer = openai_answer(None, "tool_calls")
    answer["choices"][0]["message"]["tool_calls"] = [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "weather", "arguments": '{"city": "Sapporo"}'},
        }
    ]
    fake_api.queue(Reply(body=answer), Reply(body=openai_answer("Sunny.")))
    client = sdk(proxy, key)
    first = client.chat.completions.create(
        model="x",
        tools=tools,
        tool_choice="auto",
        messages=[{"role": "user", "content": "weather?"}],
    )
    call = first.choices[0].message.tool_calls[0]
    assert (call.id, call.function.name) == ("call_1", "weather")
    assert fake_api.bodies[-1]["tools"] == tools and fake_api.bodies[-1]["tool_choice"] == "auto"
    client.chat.completions.create(
        model="x",
        tools=tools,
        messages=[
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21°C"},
        ],
    )
    assert fake_api.bodies[-1]["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "sunny, 21°C",
    }


def test_models_lists_the_configured_model(proxy: LiveServer) -> None:
    key = proxy.create_persona("rin")
    assert [m.id for m in sdk(proxy, key).models.list()] == ["gpt-test"]


# -- errors ------------------------------------------------------------------------------------


def test_without_an_llm_the_proxy_answers_503_saying_how_to_configure_one(
    chat_server: Callable[..., LiveServer],
) -> None:
    server = chat_server(upstream=None)
    key = server.create_persona("rin")
    with pytest.raises(openai.APIStatusError) as caught:
        sdk(server, key).chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )
    assert caught.value.status_code == 503
    error = caught.value.response.json()["error"]
    assert error["code"] == "llm_not_configured" and "OMOIDE_LLM_PROVIDER" in error["message"]


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.parametrize(
    ("reply", "status", "code"),
    [
        pytest.param(
            Reply(500, api_error("boom", "server_error")), 502, "upstream_unavailable", id="5xx"
        ),
        pytest.param(Reply(body="not json"), 502, "upstream_unavailable", id="bad-body"),
        pytest.param(Reply(hang=True), 504, "upstream_timeout", id="timeout"),
    ],
)
def test_upstream_failures_map_to_502_or_504(
    proxy: LiveServer, fake_api: FakeAPI, reply: Reply, status: int, code: str
) -> None:
    key = proxy.create_persona("rin")
    fake_api.queue(reply)
    with pytest.raises(openai.APIStatusError) as caught:
        sdk(proxy, key).chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )
    assert caught.value.status_code == status
    assert caught.value.response.json()["error"]["code"] == code


@pytest.mark.parametrize("stream", [False, True])
def test_a_request_the_upstream_refuses_as_invalid_is_a_422_not_a_502(
    proxy: LiveServer, fake_api: FakeAPI, stream: bool
) -> None:
    """``temperature: 5`` is relayed as sent (its range is the upstream's; one of another
    JSON type is refused first: test_qa44_chat_checked_first_api.py); the upstream's 400 is
    the client's to fix (it used to come back as a 502, a server failure)."""
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(400, api_error("Invalid 'temperature': 5 is greater than 2")))
    with pytest.raises(openai.APIStatusError) as caught:
        sdk(proxy, key).chat.completions.create(
            model="x",
            stream=stream,
            temperature=5,
            messages=[{"role": "user", "content": "hi"}],
        )
    assert caught.value.status_code == 422
    error = caught.value.response.json()["error"]
    assert error["code"] == "upstream_rejected_request" and error["upstream_status"] == 400
    assert "temperature" in error["message"]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("reply", "status", "code", "retry_after"),
    [
        pytest.param(
            Reply(
                429,
                api_error("Rate limit reached", "rate_limit_error"),
                headers={"Retry-After": "7"},
            ),
            429,
            "upstream_rate_limited",
            "7",
            id="429-retry-after",
        ),
        pytest.param(
            Reply(
                429,
                api_error("Rate limit reached", "rate_limit_error"),
                headers={"retry-after-ms": "1500"},
            ),
            429,
            "upstream_rate_limited",
            "2",
            id="429-retry-after-ms",
        ),
        pytest.param(
            Reply(429, api_error("Rate limit reached", "rate_limit_error")),
            429,
            "upstream_rate_limited",
            None,
            id="429-bare",
        ),
        pytest.param(
            Reply(413, api_error("Request too large")),
            413,
            "upstream_request_too_large",
            None,
            id="413",
        ),
        pytest.param(
            Reply(401, api_error("Incorrect API key", "authentication_error")),
            502,
            "upstream_unavailable",
            None,
            id="401-is-omoides-config",
        ),
        pytest.param(
            Reply(503, api_error("overloaded", "server_error")),
            502,
            "upstream_unavailable",
            None,
            id="503",
        ),
        pytest.param(Reply(504, "gateway timeout"), 504, "upstream_timeout", None, id="504"),
    ],
)
def test_upstream_statuses_the_client_caused_stay_the_clients(
    proxy: LiveServer,
    fake_api: FakeAPI,
    stream: bool,
    reply: Reply,
    status: int,
    code: str,
    retry_after: str | None,
) -> None:
    """An upstream 429 came back as a 502 (a server failure, which clients do not back off
    from) without its Retry-After: now a 429 passing the upstream's Retry-After on (or its
    retry-after-ms in seconds), a 413 a 413; Omoide's own upstream key refused (401) and the
    upstream's 5xx stay 502, its 504 a 504. No turn is recorded."""
    key = proxy.create_persona("rin")
    fake_api.queue(reply)
    with proxy.client(key) as client:
        answer = client.post(
            "/v1/chat/completions",
            json={"model": "x", "stream": stream, "messages": [{"role": "user", "content": "hi"}]},
        )
        assert answer.status_code == status, answer.text
        error = answer.json()["error"]
        assert error["code"] == code and error["upstream_status"] == reply.status, error
        assert answer.headers.get("retry-after") == retry_after
        if status == 429:
            assert "rate limiting" in error["message"] and "Rate limit reached" in error["message"]
        exported = client.get("/api/export/rin").text
        assert '"kind":"event"' not in exported.replace(" ", ""), exported


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("reply", "status", "says"),
    [
        pytest.param(
            Reply(429, {}),
            429,
            "is rate limiting requests (HTTP 429 Too Many Requests)",
            id="429-empty-object",
        ),
        pytest.param(
            Reply(429, ""),
            429,
            "is rate limiting requests (HTTP 429 Too Many Requests)",
            id="429-empty-body",
        ),
        pytest.param(
            Reply(429, "<html><body><h1>429</h1>slow down</body></html>"),
            429,
            "is rate limiting requests (HTTP 429 Too Many Requests)",
            id="429-html",
        ),
        pytest.param(
            Reply(503, {"error": {}}),
            502,
            "is unavailable or overloaded (HTTP 503 Service Unavailable)",
            id="503-no-text",
        ),
        pytest.param(
            Reply(401, {}),
            502,
            "refused Omoide's API key for it (HTTP 401 Unauthorized)",
            id="401-empty-object",
        ),
        pytest.param(
            Reply(400, "[]"),
            422,
            "refused the request as invalid (HTTP 400 Bad Request)",
            id="400-list",
        ),
    ],
)
def test_an_upstream_error_without_words_is_named_by_its_status(
    proxy: LiveServer, fake_api: FakeAPI, stream: bool, reply: Reply, status: int, says: str
) -> None:
    """An upstream error whose body held no message was shown as it came: "(HTTP 429): {}",
    or a whole HTML page. The message names the status and what it means, and adds the
    upstream's words only when it gave some; the error keeps its shape and code."""
    key = proxy.create_persona("rin")
    fake_api.queue(reply)
    with proxy.client(key) as client:
        answer = client.post(
            "/v1/chat/completions",
            json={"model": "x", "stream": stream, "messages": [{"role": "user", "content": "hi"}]},
        )
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and body["error"]["upstream_status"] == reply.status, body
    message = body["error"]["message"]
    assert says in message, message
    assert "{}" not in message and "[]" not in message and "<" not in message, message
    assert not message.rstrip().endswith(":"), message


def test_an_upstreams_own_words_are_added_after_the_status(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """Its message (OpenAI/Anthropic `error.message`, a JSON `detail`, a short plain text)
    follows the status's meaning."""
    key = proxy.create_persona("rin")
    for body, words in (
        (api_error("Rate limit reached"), "Rate limit reached"),
        ({"detail": "quota used up"}, "quota used up"),
        ("too many requests from this key", "too many requests from this key"),
    ):
        fake_api.queue(Reply(429, body))
        with proxy.client(key) as client:
            answer = client.post(
                "/v1/chat/completions",
                json={"model": "x", "messages": [{"role": "user", "content": "hi"}]},
            )
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"]["message"].endswith(
            f"is rate limiting requests (HTTP 429 Too Many Requests): {words}; wait before retrying"
        ), answer.text


def test_unreachable_upstream_is_503(chat_server: Callable[..., LiveServer]) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(_closed_port())))
    key = server.create_persona("rin")
    for stream in (False, True):
        with pytest.raises(openai.APIStatusError) as caught:
            sdk(server, key).chat.completions.create(
                model="x", stream=stream, messages=[{"role": "user", "content": "hi"}]
            )
        assert caught.value.status_code == 503
        assert caught.value.response.json()["error"]["code"] == "upstream_unreachable"


def test_client_disconnect_cancels_the_upstream_stream(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(events=openai_stream(*["word "] * 50), delay_s=0.1))
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=10,
        headers={"Authorization": f"Bearer {key}"},
        json={"stream": True, "messages": [{"role": "user", "content": "hi"}]},
    ) as raw:
        next(raw.iter_lines())
    assert fake_api.disconnected.wait(5)


def test_client_disconnect_cancels_the_upstream_call(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("rin")
    proxy.omoide.chat_upstream._timeout_s = 10.0  # the upstream would wait; the client will not
    fake_api.queue(Reply(hang=True))
    body = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode()
    host, port = proxy.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as client:
        client.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
            + f"Authorization: Bearer {key}\r\n".encode()
            + b"Content-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        deadline = time.monotonic() + 10
        while not fake_api.received and time.monotonic() < deadline:
            time.sleep(0.02)  # the upstream has the request; now the client leaves
    assert fake_api.disconnected.wait(5)


# -- recording ---------------------------------------------------------------------------------


def test_turns_are_recorded_once_even_when_the_client_retries(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    messages = [{"role": "user", "content": "I adopted a corgi named Biscuit."}]
    fake_api.queue(
        Reply(body=openai_answer("Biscuit is a great name!")),
        Reply(body=openai_answer("What a great name, Biscuit!")),
    )
    client = sdk(proxy, key, **{"X-Omoide-Session": "conv-1"})
    client.chat.completions.create(model="x", messages=messages)
    # The first answer is recorded before the retry is sent: under load the retry's background
    # task could otherwise run first and record its own (equally valid) answer.
    wait_events(proxy, "rin", "conv-1", 2)
    client.chat.completions.create(model="x", messages=messages)
    time.sleep(0.3)  # the retry's background task has run too
    events = events_of(proxy, "rin", "conv-1")
    assert [(e.role, e.content) for e in events] == [
        ("user", "I adopted a corgi named Biscuit."),
        ("assistant", "Biscuit is a great name!"),
    ]
    fake_api.queue(Reply(events=openai_stream("Corgis ", "are fun.")))
    follow = [
        *messages,
        {"role": "assistant", "content": "Biscuit is a great name!"},
        {"role": "user", "content": "He loves the beach."},
    ]
    list(client.chat.completions.create(model="x", messages=follow, stream=True))
    events = wait_events(proxy, "rin", "conv-1", 4)
    assert [e.content for e in events[2:]] == ["He loves the beach.", "Corgis are fun."]


def test_a_message_the_upstream_never_answered_is_recorded_with_the_next(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """The upstream fails on a message (nothing is recorded: the client retries or moves on);
    the client keeps the message in its history and sends the next one after it. Only the
    latest user message was recorded, so the first was lost from memory for good. Now every
    user message since the last assistant message is recorded, once, in order."""
    key = proxy.create_persona("rin")
    client = sdk(proxy, key, **{"X-Omoide-Session": "conv-lost"})
    first = {"role": "user", "content": "私の猫の名前はモチです。"}
    fake_api.queue(Reply(500, api_error("overloaded", "server_error")))
    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="x", messages=[first])
    follow = [first, {"role": "user", "content": "Hello? Are you there?"}]
    fake_api.queue(
        Reply(body=openai_answer("Sorry! Yes, Mochi is a lovely name.")),
        Reply(body=openai_answer("Mochi, got it.")),
    )
    client.chat.completions.create(model="x", messages=follow)
    wait_events(proxy, "rin", "conv-lost", 3)
    client.chat.completions.create(model="x", messages=follow)  # a retry records nothing
    time.sleep(0.3)
    events = events_of(proxy, "rin", "conv-lost")
    assert [(e.role, e.content) for e in events] == [
        ("user", "私の猫の名前はモチです。"),
        ("user", "Hello? Are you there?"),
        ("assistant", "Sorry! Yes, Mochi is a lovely name."),
    ]


def test_the_memory_section_speaks_the_conversations_language_not_the_names(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """A user whose name is in Latin letters chatting in Japanese got an English section: the
    name weighed as much as the message. The conversation's latest user messages (a majority
    of the last three) decide now."""
    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        assert c.put("/api/user-state/rin", json={"name": "Laura"}).status_code == 200
    client = sdk(proxy, key, **{"X-Omoide-Session": "lang"})
    japanese = [
        {"role": "user", "content": "こんにちは！"},
        {"role": "assistant", "content": "こんにちは、ラウラさん。"},
        {"role": "user", "content": "猫のモチを飼っています。"},
        {"role": "assistant", "content": "かわいいですね。"},
        {"role": "user", "content": "OK"},
    ]  # a short reply does not switch it
    english = [{"role": "user", "content": "Good morning, how are you today?"}]
    for messages in (japanese, english):
        fake_api.queue(Reply(body=openai_answer("…")))
        client.chat.completions.create(model="x", messages=messages)
    sections = [body["messages"][0]["content"] for body in fake_api.bodies[-2:]]
    assert sections[0].startswith("# rin の記憶（Omoide）"), sections[0]
    assert sections[1].startswith("# What rin remembers (Omoide)"), sections[1]


def test_an_answer_with_no_choices_is_a_502_and_records_nothing(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """``{"choices": []}`` was relayed as a 200 (the client's ``choices[0]`` failed) and the
    user's turn recorded with no reply; it is an answer that is not the API's, like one with
    no ``choices`` at all."""
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(body={"id": "x", "object": "chat.completion", "choices": []}))
    with proxy.client(key) as c:
        reply = c.post(
            "/v1/chat/completions",
            headers={"X-Omoide-Session": "none"},
            json={"messages": [{"role": "user", "content": "Hello?"}]},
        )
    assert reply.status_code == 502 and reply.json()["error"]["code"] == "upstream_unavailable"
    time.sleep(0.3)
    with pytest.raises(NotFound):
        events_of(proxy, "rin", "none")


def test_a_persona_or_session_header_beyond_ascii_is_named_as_sent(proxy: LiveServer) -> None:
    """The 422 showed the header's UTF-8 bytes read as Latin-1 ('æ\\x97¥æ\\x9c¬' for 日本)."""
    key = proxy.create_persona("rin")
    body = {"messages": [{"role": "user", "content": "hi"}]}
    with httpx.Client(base_url=proxy.url, timeout=10) as c:
        for name, token in (("X-Omoide-Persona", proxy.admin_key), ("X-Omoide-Session", key)):
            reply = c.post(
                "/v1/chat/completions",
                json=body,
                headers={"Authorization": f"Bearer {token}", name: "日本".encode()},
            )
            assert reply.status_code == 422, reply.text
            error = reply.json()["error"]
            assert error["field"] == name and '"日本"' in error["message"], error


def test_a_reply_no_turn_could_hold_is_recorded_whole(
    proxy: LiveServer, fake_api: FakeAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reply is already out when the turns are recorded: a model's answer over 50,000
    characters or holding NUL, or a user name over 200 characters, made the turn refused and
    both turns were lost (a log line only). Now a long text is several turns, NUL is U+FFFD.
    (Turns of 100 characters here: PostgreSQL indexes a 50,000-character turn slowly.)"""
    monkeypatch.setattr("omoide.service.chat.MAX_EVENT_CHARS", 100)
    key = proxy.create_persona("rin")
    with proxy.client(key) as client:
        assert client.put("/api/user-state/rin", json={"name": "K" * 300}).status_code == 200
    reply = "x" * 120 + "\u0000" + "y" * 100
    fake_api.queue(Reply(body=openai_answer(reply)))
    sdk(proxy, key, **{"X-Omoide-Session": "long"}).chat.completions.create(
        model="x", messages=[{"role": "user", "content": "Write me a long story."}]
    )
    events = wait_events(proxy, "rin", "long", 4)
    assert [e.role for e in events] == ["user", "assistant", "assistant", "assistant"]
    assert events[0].speaker == "K" * 200
    assert "".join(e.content for e in events[1:]) == reply.replace("\u0000", "\ufffd")


def test_other_conversations_are_memory_but_not_this_one(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    fake_api.queue(*(Reply(body=openai_answer("Noted.")) for _ in range(3)))
    told = [{"role": "user", "content": "My corgi Biscuit is afraid of the vacuum cleaner."}]
    sdk(proxy, key, **{"X-Omoide-Session": "conv-1"}).chat.completions.create(
        model="x", messages=told
    )
    wait_events(proxy, "rin", "conv-1", 2)
    again = [
        *told,
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": "What is Biscuit afraid of?"},
    ]
    same = sdk(proxy, key, **{"X-Omoide-Session": "conv-1"}).chat.completions.create(
        model="x", messages=again
    )
    assert not [
        m for m in same.model_extra["omoide"]["injected"]["memories"] if m.startswith("episode:")
    ]  # the client sends these turns itself
    other = sdk(proxy, key, **{"X-Omoide-Session": "conv-2"}).chat.completions.create(
        model="x", messages=[{"role": "user", "content": "What is Biscuit afraid of?"}]
    )
    assert [
        m for m in other.model_extra["omoide"]["injected"]["memories"] if m.startswith("episode:")
    ]


def test_session_is_derived_from_the_conversation_when_not_named(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(body=openai_answer("a")), Reply(body=openai_answer("b")))
    first = [{"role": "user", "content": "hello there"}]
    client = sdk(proxy, key)
    one = client.chat.completions.with_raw_response.create(model="x", messages=first)
    two = client.chat.completions.with_raw_response.create(
        model="x",
        messages=[
            *first,
            {"role": "assistant", "content": "a"},
            {"role": "user", "content": "more"},
        ],
    )
    assert one.headers["x-omoide-session"] == two.headers["x-omoide-session"]
    wait_events(proxy, "rin", one.headers["x-omoide-session"], 4)


# -- personas ----------------------------------------------------------------------------------


def test_persona_comes_from_the_key_and_never_reaches_another(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    rin = proxy.create_persona("rin")
    proxy.create_persona("kai")
    remember(proxy, proxy.admin_key, "kai", "Kai's secret password hint is sunflower")
    fake_api.queue(Reply(body=openai_answer("no idea")), Reply(body=openai_answer("sunflower")))
    mine = sdk(proxy, rin).chat.completions.create(
        model="x",
        messages=[{"role": "user", "content": "what is the secret password hint sunflower?"}],
    )
    assert mine.model_extra["omoide"]["injected"]["memories"] == []
    assert [m["role"] for m in fake_api.bodies[-1]["messages"]] == ["user"]
    with pytest.raises(openai.PermissionDeniedError):
        sdk(proxy, rin, **{"X-Omoide-Persona": "kai"}).chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )
    with pytest.raises(openai.UnprocessableEntityError):
        sdk(proxy, CHAT_ADMIN).chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )
    admin_as_kai = sdk(proxy, CHAT_ADMIN, **{"X-Omoide-Persona": "kai"})
    admin_as_kai.chat.completions.create(
        model="x", messages=[{"role": "user", "content": "what is the secret password hint?"}]
    )
    assert "sunflower" in fake_api.bodies[-1]["messages"][0]["content"]
    with pytest.raises(openai.AuthenticationError):
        sdk(proxy, "omo_p_wrong").chat.completions.create(
            model="x", messages=[{"role": "user", "content": "hi"}]
        )


def test_bad_messages_are_a_422(proxy: LiveServer) -> None:
    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        for body in (
            {},
            {"messages": []},
            {"messages": [{"role": "robot", "content": "x"}]},
            {"messages": [{"role": "user", "content": 5}]},
        ):
            reply = c.post("/v1/chat/completions", json=body)
            assert reply.status_code == 422, body
            assert set(reply.json()) == {"error"}


def test_a_message_missing_what_its_role_needs_is_a_422_naming_it_and_nothing_is_sent(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    hello = {"role": "user", "content": "hello"}
    cases = [
        ([hello, {"role": "user"}], "messages[1]"),
        ([{"role": "system", "content": None}, hello], "messages[0]"),
        ([hello, {"role": "assistant"}, hello], "messages[1]"),
        (
            [
                hello,
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "tool", "content": "done"},
            ],
            "messages[2]",
        ),
        ([hello, {"role": "tool", "tool_call_id": "c1"}], "messages[1]"),
    ]
    with proxy.client(key) as c:
        for messages, named in cases:
            reply = c.post(
                "/v1/chat/completions",
                json={"messages": messages},
                headers={"X-Omoide-Session": "probe"},
            )
            assert reply.status_code == 422, messages
            error = reply.json()["error"]
            assert error["code"] == "invalid_input" and named in error["message"], error
    assert fake_api.bodies == []
    with pytest.raises(NotFound):
        events_of(proxy, "rin", "probe")


# -- compaction --------------------------------------------------------------------------------


def _budget(server: LiveServer, key: str, **settings: Any) -> None:
    with server.client(key) as c:
        assert c.put("/api/settings/rin", json=settings).status_code == 200


def test_stage1_and_stage3_compaction(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("rin")
    noisy = "first line   \n\n\n\n\n" + "long " * 600
    messages = [
        {"role": "user", "content": noisy},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "and now?"},
    ]
    _budget(proxy, key, chat_budget_tokens=500, keep_recent=1)
    fake_api.queue(Reply(body=openai_answer("fine")), Reply(body=openai_answer("fine")))
    reply = sdk(proxy, key).chat.completions.create(model="x", messages=messages)
    assert reply.model_extra["omoide"]["compaction"]["stage"] == 1
    assert fake_api.bodies[-1]["messages"][0]["content"].startswith("first line\n\nlong")
    # The first conversation is memory now; keep it out so only compaction is measured.
    _budget(proxy, key, chat_budget_tokens=600, chat_memory_budget_tokens=0)
    reply = sdk(proxy, key).chat.completions.create(model="x", messages=long_chat(4))
    assert reply.model_extra["omoide"]["compaction"]["stage"] == 3
    assert fake_api.bodies[-1]["messages"][1]["content"].endswith("…")


def test_stage2_clears_old_tool_results(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("rin")
    rows = "".join(f"row {i}: value\n" for i in range(300))
    messages = [
        {"role": "user", "content": "look it up"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "db", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": rows},
        {"role": "assistant", "content": "found it"},
        {"role": "user", "content": "thanks"},
    ]
    _budget(proxy, key, chat_budget_tokens=400, keep_recent=1)
    fake_api.queue(Reply(body=openai_answer("welcome")))
    reply = sdk(proxy, key).chat.completions.create(model="x", messages=messages)
    assert reply.model_extra["omoide"]["compaction"]["stage"] == 2
    sent = fake_api.bodies[-1]["messages"]
    assert sent[1]["tool_calls"][0]["id"] == "c1"
    assert sent[2] == {"role": "tool", "tool_call_id": "c1", "content": CLEARED_TOOL_RESULT}


def test_stage4_llm_summary_is_cached_for_the_next_request(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    llm = OpenAILLM(fake_llm_config(fake_api.base))
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)), llm=llm)
    key = server.create_persona("rin")
    _budget(server, key, chat_budget_tokens=450, keep_recent=2)
    fake_api.queue(
        Reply(body=openai_answer("ユーザーは毎日湖の近くでハイキングをした。")),
        Reply(body=openai_answer("Go to lake 9!")),
    )
    messages = long_chat(10, words=20)
    reply = sdk(server, key).chat.completions.create(model="x", messages=messages)
    assert reply.model_extra["omoide"]["compaction"]["stage"] == 4
    assert reply.model_extra["omoide"]["compaction"]["summary"] == "llm"
    summary_call, chat_call = fake_api.bodies[-2:]
    assert summary_call["messages"][0]["content"].startswith("You summarise conversations.")
    assert "lake 3" in summary_call["messages"][1]["content"]
    sent = chat_call["messages"]
    assert sent[0] == {  # folded into the one system message, never a second one
        "role": "system",
        "content": "You are Rin, a cheerful friend.\n\n"
        + SUMMARY_PREFIX
        + "ユーザーは毎日湖の近くでハイキングをした。",
    }
    assert [m["role"] for m in sent].count("system") == 1
    assert sent[-5:] == messages[-5:]  # the last 2 turns and the question, verbatim
    fake_api.queue(Reply(body=openai_answer("Again lake 9!")))
    again = sdk(server, key).chat.completions.create(model="x", messages=messages)
    assert again.model_extra["omoide"]["compaction"]["summary"] == "cached"
    assert len(fake_api.bodies) == 3  # no second summary call
    llm.close()


def test_stage4_failure_sends_the_stage3_result(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    llm = OpenAILLM(fake_llm_config(fake_api.base))
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)), llm=llm)
    key = server.create_persona("rin")
    _budget(server, key, chat_budget_tokens=450, keep_recent=2)
    fake_api.queue(Reply(500, api_error("down", "server_error")), Reply(body=openai_answer("ok")))
    reply = sdk(server, key).chat.completions.create(model="x", messages=long_chat(10, words=20))
    compaction = reply.model_extra["omoide"]["compaction"]
    assert (compaction["stage"], compaction["summary"]) == (3, "failed")
    assert not any(SUMMARY_PREFIX in str(m["content"]) for m in fake_api.bodies[-1]["messages"])
    llm.close()


def test_stage4_without_an_llm_uses_the_offline_summary(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    _budget(proxy, key, chat_budget_tokens=450, keep_recent=2)
    fake_api.queue(Reply(body=openai_answer("ok")))
    reply = sdk(proxy, key).chat.completions.create(model="x", messages=long_chat(10, words=20))
    compaction = reply.model_extra["omoide"]["compaction"]
    assert (compaction["stage"], compaction["summary"]) == (4, "offline")
    assert compaction["tokens_after"] <= 450
    system, summary = fake_api.bodies[-1]["messages"][0]["content"].split(SUMMARY_PREFIX)
    assert system == "You are Rin, a cheerful friend.\n\n" and "hiking" in summary


# -- Anthropic upstream ------------------------------------------------------------------------


def test_anthropic_upstream_is_translated_both_ways(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, "anthropic")))
    key = server.create_persona("rin")
    fake_api.queue(
        Reply(body=anthropic_answer(text_block("こんにちは"))),
        Reply(events=anthropic_stream("こん", "にちは")),
    )
    client = sdk(server, key)
    reply = client.chat.completions.create(
        model="x",
        max_tokens=100,
        messages=[{"role": "system", "content": "Be kind."}, {"role": "user", "content": "hi"}],
    )
    assert reply.choices[0].message.content == "こんにちは"
    assert reply.choices[0].finish_reason == "stop"
    sent = fake_api.received[-1]
    assert sent.path == "/v1/messages" and sent.body["system"].startswith("Be kind.")
    assert sent.body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert sent.body["max_tokens"] == 100
    chunks = list(
        client.chat.completions.create(
            model="x", stream=True, messages=[{"role": "user", "content": "hi"}]
        )
    )
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == "こんにちは"


def test_prepare_adds_blocks_state_and_marks_closed_facts(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        assert (
            c.post(
                "/api/blocks/rin",
                json={
                    "block_name": "persona_state",
                    "priority": 9,
                    "content": "Rin speaks softly.",
                },
            ).status_code
            == 200
        )
        assert (
            c.post(
                "/api/blocks/rin",
                json={"block_name": "notes", "priority": 1, "content": "Low priority note."},
            ).status_code
            == 200
        )
        assert (
            c.put("/api/user-state/rin", json={"name": "Laura", "nickname": "Lau"}).status_code
            == 200
        )
        old = c.post(
            "/api/memories/rin",
            json={
                "content": "The user works at a bakery in Kyoto",
                "valid_from": "2025-01-01T00:00:00Z",
                "valid_until": "2026-03-01T00:00:00Z",
            },
        ).json()["memory"]["key"]
    fake_api.queue(Reply(body=openai_answer("ok")))
    reply = sdk(proxy, key).chat.completions.create(
        model="x", messages=[{"role": "user", "content": "where does the user work, the bakery?"}]
    )
    system = fake_api.bodies[-1]["messages"][0]["content"]
    assert system.index("Rin speaks softly.") < system.index("Low priority note.")
    assert 'Address the user as "Lau".' in system
    assert "[2025-01-01, no longer true since 2026-03-01] The user works at a bakery" in system
    injected = reply.model_extra["omoide"]["injected"]
    assert injected["blocks"] == ["persona_state", "notes"] and old in injected["memories"]
    assert injected["user_state"] == ["name", "nickname"]
    with proxy.client(key) as c:  # a small memory budget drops memories first, then blocks
        c.put("/api/settings/rin", json={"chat_memory_budget_tokens": 60})
    fake_api.queue(Reply(body=openai_answer("ok")))
    reply = sdk(proxy, key).chat.completions.create(
        model="x", messages=[{"role": "user", "content": "where does the user work, the bakery?"}]
    )
    injected = reply.model_extra["omoide"]["injected"]
    assert injected["memories"] == [] and injected["tokens"] <= 60


def test_a_stream_that_breaks_ends_with_an_error_event(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    fake_api.queue(Reply(events=(*openai_stream("Hel", done=False)[:2], "data: {broken\n\n")))
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=10,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": "s-1"},
        json={"stream": True, "messages": [{"role": "user", "content": "hi"}]},
    ) as raw:
        lines = [line for line in raw.iter_lines() if line]
    assert raw.status_code == 200
    assert json.loads(lines[-2].removeprefix("data: "))["error"]["code"] == "upstream_unavailable"
    assert lines[-1] == "data: [DONE]"
    time.sleep(0.3)
    with pytest.raises(NotFound):  # a broken reply is not recorded: no session was opened
        events_of(proxy, "rin", "s-1")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_stream_cut_off_upstream_ends_with_an_error_event_not_done(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, provider: str
) -> None:
    """Session 12 probe: an upstream that closed its stream mid-answer (no finish, no [DONE]
    or message_stop) was relayed as a whole answer ending with [DONE], and the half reply was
    recorded as the persona's turn. Now the client gets an error event, and nothing is kept."""
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, provider)))
    key = proxy.create_persona("rin")
    cut = (
        openai_stream("Hel", "lo", done=False)[:3]
        if provider == "openai"
        else anthropic_stream("Hel", "lo")[:4]
    )
    fake_api.queue(Reply(events=cut))
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=10,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": "s-1"},
        json={"stream": True, "messages": [{"role": "user", "content": "hi"}]},
    ) as raw:
        lines = [line for line in raw.iter_lines() if line]
    error = json.loads(lines[-2].removeprefix("data: "))["error"]
    assert error["code"] == "upstream_unavailable" and "ended before" in error["message"], lines
    assert lines[-1] == "data: [DONE]"
    time.sleep(0.3)
    with pytest.raises(NotFound):  # the half reply is not recorded
        events_of(proxy, "rin", "s-1")
    # a stream that finished (a finish_reason) without [DONE] is whole
    fake_api.queue(
        Reply(
            events=openai_stream("fine", done=False)
            if provider == "openai"
            else anthropic_stream("fine")
        )
    )
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=10,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": "s-2"},
        json={"stream": True, "messages": [{"role": "user", "content": "hi"}]},
    ) as raw:
        lines = [line for line in raw.iter_lines() if line]
    assert "error" not in lines[-2] and lines[-1] == "data: [DONE]", lines


def test_upstream_from_the_environment_and_no_summary_retries(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    server = chat_server(
        upstream="from-env",
        llm="from-env",
        environ={
            "OMOIDE_LLM_PROVIDER": "openai",
            "OMOIDE_LLM_BASE_URL": f"{fake_api.base}/v1",
            "OMOIDE_LLM_MODEL": "gpt-env",
            "OMOIDE_LLM_MAX_RETRIES": "3",
        },
    )
    key = server.create_persona("rin")
    _budget(server, key, chat_budget_tokens=450, keep_recent=2)
    fake_api.queue(Reply(503, api_error("busy", "server_error")), Reply(body=openai_answer("ok")))
    reply = sdk(server, key).chat.completions.create(model="x", messages=long_chat(10, words=20))
    assert reply.model_extra["omoide"]["compaction"]["summary"] == "failed"
    assert [b["model"] for b in fake_api.bodies] == ["gpt-env", "gpt-env"]  # no retry


# -- the published schema of a message -----------------------------------------------------------

ACCEPTED_MESSAGES = [
    [{"role": "user", "content": "hello"}],
    [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "hi"}], "name": "ken"},
    ],
    [{"role": "developer", "content": "rules"}, {"role": "user", "content": "hi"}],
    [
        {"role": "user", "content": "weather?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    ],
    [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "refusal": "no"},
        {"role": "user", "content": "ok"},
    ],
    [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello", "tool_calls": []},
        {"role": "user", "content": "x"},
    ],
    [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}},
        {"role": "user", "content": "x"},
    ],
]
REFUSED_MESSAGES = [
    [{"role": "user"}],
    [{"role": "system", "content": None}, {"role": "user", "content": "hi"}],
    [{"role": "user", "content": "hi"}, {"role": "assistant"}],
    [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": None}],
    [{"role": "user", "content": "hi"}, {"role": "tool", "content": "done"}],
    [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c1"}],
    [{"role": "robot", "content": "x"}],
]


def test_the_published_schema_states_what_each_role_needs(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """``/openapi.json`` gave every message one shape (any role, content optional), so a
    client or a generator reading it could not tell that a tool message needs its
    ``tool_call_id`` or a user message its content. A message is now one of a union
    discriminated by ``role``: the schema accepts exactly the bodies the server accepts."""
    import jsonschema

    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        document = c.get("/openapi.json").json()
        schema = {**document, "$ref": "#/components/schemas/ChatRequest"}
        items = document["components"]["schemas"]["ChatRequest"]["properties"]["messages"]["items"]
        assert items["discriminator"]["propertyName"] == "role"
        assert set(items["discriminator"]["mapping"]) == {
            "system",
            "developer",
            "user",
            "assistant",
            "tool",
        }
        validator = jsonschema.Draft202012Validator(schema)
        for messages in ACCEPTED_MESSAGES:
            assert validator.is_valid({"messages": messages}), messages
            fake_api.queue(Reply(body=openai_answer("ok")))
            reply = c.post(
                "/v1/chat/completions",
                json={"messages": messages},
                headers={"X-Omoide-Session": "schema"},
            )
            assert reply.status_code == 200, (messages, reply.text)
        for messages in REFUSED_MESSAGES:
            assert not validator.is_valid({"messages": messages}), messages
            reply = c.post(
                "/v1/chat/completions",
                json={"messages": messages},
                headers={"X-Omoide-Session": "schema"},
            )
            assert reply.status_code == 422, messages


def test_an_empty_tool_calls_list_is_not_sent_upstream(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """Clients replay an assistant message with ``tool_calls: []`` (no call made); the proxy
    relayed it, and some OpenAI-compatible servers refuse an empty list there. It is dropped;
    a list with calls, and the other fields of the message, are sent as they came."""
    key = proxy.create_persona("rin")
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello", "tool_calls": [], "name": "rin"},
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "user", "content": "thanks"},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "user", "content": "bye"},
    ]
    fake_api.queue(Reply(body=openai_answer("ok")), Reply(events=openai_stream("ok")))
    with proxy.client(key) as c:
        reply = c.post(
            "/v1/chat/completions",
            json={"messages": messages},
            headers={"X-Omoide-Session": "calls"},
        )
        assert reply.status_code == 200, reply.text
        streamed = c.post(
            "/v1/chat/completions",
            json={"messages": messages, "stream": True},
            headers={"X-Omoide-Session": "calls"},
        )
        assert streamed.status_code == 200, streamed.text
    for sent in fake_api.bodies[-2:]:
        assistants = [m for m in sent["messages"] if m["role"] == "assistant"]
        assert assistants[0] == {"role": "assistant", "content": "hello", "name": "rin"}
        assert assistants[1]["tool_calls"] == [call]
        # with nothing else to say what the assistant did, its content is "" (not null)
        assert assistants[2] == {"role": "assistant", "content": ""}


def test_a_fact_valid_until_the_last_day_is_dated_in_a_zone_past_it(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    """A memory valid until 9999-12-31T23:59:59Z, recalled for a persona in UTC+14: its end's
    local day is past the calendar, and the prompt's date raised OverflowError (a 500). Such a
    fact is current (its end is ahead), so the prompt shows no end (session 33: it said "no
    longer true since 9999-12-31"); a closed fact's end is dated by its UTC day
    (``test_chat_prompt``)."""
    key = proxy.create_persona("rin")
    with proxy.client(key) as c:
        assert (
            c.put("/api/settings/rin", json={"timezone": "Pacific/Kiritimati"}).status_code == 200
        )
        made = c.post(
            "/api/memories/rin",
            json={
                "content": "The user lives in Sapporo with a cat named Mochi",
                "valid_until": "9999-12-31T23:59:59Z",
            },
        )
        assert made.status_code == 201, made.text
        assert c.get("/api/context/rin").status_code == 200
    fake_api.queue(Reply(body=openai_answer("You live in Sapporo!")))
    reply = sdk(proxy, key).chat.completions.create(
        model="anything", messages=[{"role": "user", "content": "where do I live? cat"}]
    )
    assert reply.choices[0].message.content == "You live in Sapporo!"
    system = fake_api.bodies[-1]["messages"][0]["content"]
    assert "Sapporo" in system and "no longer true" not in system

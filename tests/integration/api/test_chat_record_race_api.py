"""A client that sends its next request the moment a reply arrives, while the proxy is still
recording the turn (in the reply's background task, here made 0.6 s slow as on a loaded
machine): the request is routed as if the turn were recorded. Before, a new conversation that
opened with an ended one's words had its second request filed in the ended session. Real HTTP,
the official ``openai`` SDK, the local fake upstream; streamed and not."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer, openai_stream
from omoide_testing import LiveServer, wait_for_jobs

from omoide.llm.chat import make_chat_upstream
from omoide.service.chat import ChatService
from omoide.service.chat_pending import PendingRecords

OPENER = "Evening! The sourdough starter is bubbling again."
SLOW_S = 0.6


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


@pytest.fixture
def slow_record(monkeypatch: pytest.MonkeyPatch) -> None:
    record = ChatService.record

    def slow(self: ChatService, *args: Any, **kwargs: Any) -> int:
        time.sleep(SLOW_S)
        return record(self, *args, **kwargs)

    monkeypatch.setattr(ChatService, "record", slow)


def _mio(proxy: LiveServer) -> tuple[str, openai.OpenAI]:
    """Persona mio's key, and an SDK client chatting as mio."""
    key = proxy.create_persona("mio")
    return key, openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=20)


def _chat(client: openai.OpenAI, fake_api: FakeAPI, lines: list[str], stream: bool) -> list[str]:
    """One conversation, each request sent as soon as the reply before it is read."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are Mio."}]
    sessions = []
    for n, line in enumerate(lines):
        text = f"reply {n}"
        fake_api.queue(
            Reply(events=openai_stream(text)) if stream else Reply(body=openai_answer(text))
        )
        messages.append({"role": "user", "content": line})
        raw = client.chat.completions.with_raw_response.create(
            model="x", messages=messages, stream=stream
        )
        sessions.append(raw.headers["x-omoide-session"])
        parsed = raw.parse()
        reply = (
            "".join(c.choices[0].delta.content or "" for c in parsed if c.choices)
            if stream
            else parsed.choices[0].message.content
        )
        assert reply == text
        messages.append({"role": "assistant", "content": reply})
    return sessions


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_request_sent_while_the_turn_before_is_recorded_goes_to_that_turns_session(
    proxy: LiveServer, fake_api: FakeAPI, slow_record: None, stream: bool
) -> None:
    key, client = _mio(proxy)
    first = _chat(client, fake_api, [OPENER, "It doubled in four hours."], stream)
    assert len(set(first)) == 1
    wait_for_jobs(proxy.omoide, "mio")
    with proxy.client(key) as c:
        assert c.post(f"/api/sessions/mio/{first[0]}/end").status_code == 200
    wait_for_jobs(proxy.omoide, "mio")

    second = _chat(
        client, fake_api, [OPENER, "I fed it rye flour.", "It smells of apples."], stream
    )
    assert len(set(second)) == 1, second  # not the ended session for the second request
    assert second[0] != first[0]


def test_the_wait_ends_when_the_turn_is_recorded_or_never_recorded() -> None:
    records = PendingRecords()
    assert records.wait("mio", timeout=0.01)  # nothing answered: no wait
    pending = records.expect("mio")
    other = records.expect("rin")
    assert not records.wait("mio", timeout=0.05)  # still being recorded
    threading.Timer(0.1, pending.close).start()
    started = time.monotonic()
    assert records.wait("mio", timeout=30)
    assert time.monotonic() - started < 10  # woken by the close, not by the timeout
    pending.close()  # twice is once
    assert records.wait("mio", timeout=0.01)
    assert not records.wait("rin", timeout=0.01)  # another persona's turn is its own
    other.close()
    later = records.expect("mio")
    later.opened -= 10  # its record never ran (the client left): no longer waited for
    assert records.wait("mio", timeout=0.01)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_session_ended_the_moment_its_last_reply_arrives_keeps_that_turn(
    proxy: LiveServer, fake_api: FakeAPI, slow_record: None, stream: bool
) -> None:
    key, client = _mio(proxy)
    sessions = _chat(client, fake_api, [OPENER, "It doubled in four hours."], stream)
    with proxy.client(key) as c:
        assert c.post(f"/api/sessions/mio/{sessions[0]}/end").status_code == 200
        wait_for_jobs(proxy.omoide, "mio")
        reply = c.get(f"/api/sessions/mio/{sessions[0]}/episodes").json()
    assert reply["ended_at"] is not None
    covered = sum(e["last_seq"] - e["first_seq"] + 1 for e in reply["episodes"])
    assert covered == 4, reply  # both exchanges, the last one's reply included
    assert "reply 1" in "".join(e["content"] for e in reply["episodes"])

"""A new conversation through the chat proxy that opens with the words an ended one opened with
(a client that names no session): it is a session of its own, every turn of it is recorded, and
the ended conversation is memory to it. Real HTTP, the official ``openai`` SDK, the local fake
upstream (tests/support/llm_fakes.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer, wait_for_jobs

from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream

OPENER = "Morning! Back at the pottery wheel today."


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def _turns(server: LiveServer, persona: str, session_id: str, n: int) -> list[Any]:
    store = server.omoide.store.sessions(persona)
    deadline = time.monotonic() + 10
    found: list[Any] = []
    while time.monotonic() < deadline:
        try:
            found = store.events_after(store.get(session_id), 0)
        except NotFound:  # the session is opened by the background task
            found = []
        if len(found) >= n:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{n} turns not recorded in {session_id}, found {len(found)}")


def _recorded(server: LiveServer, persona: str, session_id: str, reply: str) -> None:
    """Wait until ``reply`` is recorded in the session: the proxy records a turn after its
    reply was sent, in the reply's background task (a loaded machine may run it late)."""
    store = server.omoide.store.sessions(persona)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if reply.strip() in [
                e.content.strip() for e in store.events_after(store.get(session_id), 0)
            ]:
                return
        except NotFound:  # the session is opened by the background task
            pass
        time.sleep(0.05)
    raise AssertionError(f"{reply!r} not recorded in {session_id}")


def _chat(
    proxy: LiveServer,
    client: openai.OpenAI,
    user_lines: list[str],
    fake_api: FakeAPI,
    history: list[dict[str, Any]] | None = None,
) -> list[str]:
    """A conversation (``history`` continued, else a new one), a request per user line (the
    whole history each time, as a client sends it), each sent once the turn before it is
    recorded; returns the session id of each request."""
    messages = history if history is not None else [{"role": "system", "content": "You are Mio."}]
    sessions = []
    for n, line in enumerate(user_lines):
        messages.append({"role": "user", "content": line})
        fake_api.queue(Reply(body=openai_answer(f"reply {n}: {line[:12]}")))
        raw = client.chat.completions.with_raw_response.create(model="x", messages=messages)
        sessions.append(raw.headers["x-omoide-session"])
        reply = raw.parse().choices[0].message.content
        messages.append({"role": "assistant", "content": reply})
        _recorded(proxy, "mio", sessions[-1], reply)
    return sessions


def test_a_new_conversation_with_an_ended_ones_opening_words_is_a_session_of_its_own(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("mio")
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    first = _chat(
        proxy,
        client,
        [OPENER, "I threw six tea bowls in shino glaze.", "The kiln is booked for Thursday."],
        fake_api,
    )
    assert len(set(first)) == 1
    _turns(proxy, "mio", first[0], 6)
    with proxy.client(key) as c:
        assert c.post(f"/api/sessions/mio/{first[0]}/end").status_code == 200
    wait_for_jobs(proxy.omoide, "mio")

    second = _chat(
        proxy,
        client,
        [
            OPENER,
            "One of the shino bowls cracked in the kiln.",
            "I will glaze the rest in ash glaze instead.",
        ],
        fake_api,
    )
    assert len(set(second)) == 1  # every request of the new conversation in one session
    assert second[0] != first[0]  # … which is not the ended one
    new_turns = _turns(proxy, "mio", second[0], 6)  # its opening exchange is recorded too
    assert [t.content for t in new_turns if t.role == "user"] == [
        OPENER,
        "One of the shino bowls cracked in the kiln.",
        "I will glaze the rest in ash glaze instead.",
    ]
    assert len(_turns(proxy, "mio", first[0], 6)) == 6  # the ended one is left as it was
    # the ended conversation is memory to the new one (its own session's excerpts are not)
    excerpts = [
        m for m in fake_api.bodies[-1]["messages"][0]["content"].splitlines() if "conversation" in m
    ]
    assert any("shino glaze" in m for m in excerpts), excerpts


def test_a_resumed_conversation_stays_in_its_session_after_it_ended(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("mio")
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Mio."}]
    first = _chat(
        proxy, client, [OPENER, "I threw six tea bowls in shino glaze."], fake_api, history
    )
    _turns(proxy, "mio", first[0], 4)
    with proxy.client(key) as c:
        assert c.post(f"/api/sessions/mio/{first[0]}/end").status_code == 200
    # the client reopens the old chat days later: the whole history and one more line
    again = _chat(proxy, client, ["They came out of the kiln this morning."], fake_api, history)
    assert again == [first[0]]
    assert len(_turns(proxy, "mio", first[0], 6)) == 6

"""A user the persona has no name for: the chat proxy records their turns under the role
label "User", and the notes consolidated from them speak of "the user" (「ユーザー」 in Japanese),
as the store does, never of someone called "User". Real HTTP, the official ``openai`` SDK, the
local fake upstream (tests/support/llm_fakes.py), both stores; a chat written for this test."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import openai
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer, chat_notes, wait_for_jobs

from omoide.errors import NotFound
from omoide.llm.chat import make_chat_upstream

LINES = [
    "My mother is visiting from Porto next week and she will stay with us for ten days.",
    "I want to take her to the glass museum in Otaru because she collects blown glass.",
    "私の母は陶芸が好きなので、来月は一緒に益子の陶器市に行く予定です。",
    "来年の目標は、自分の工房で初めての個展を開くことです。",
]


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def _recorded(proxy: LiveServer, session_id: str, reply: str) -> None:
    """Wait until ``reply`` is recorded in the session: the proxy records a turn after its
    reply was sent, in the reply's background task (a loaded machine may run it late)."""
    store = proxy.omoide.store.sessions("kiri")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(NotFound):  # (opened by the background task)
            if reply.strip() in [
                e.content.strip() for e in store.events_after(store.get(session_id), 0)
            ]:
                return
        time.sleep(0.05)
    raise AssertionError(f"{reply!r} not recorded in {session_id}")


def _notes(proxy: LiveServer, key: str, user_lines: list[str], fake_api: FakeAPI) -> list[str]:
    """A chat through the proxy, its session ended over HTTP: the notes it left."""
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=key, max_retries=0, timeout=10)
    messages: list[dict[str, str]] = [{"role": "system", "content": "You are Kiri."}]
    session = ""
    for n, line in enumerate(user_lines):
        messages.append({"role": "user", "content": line})
        fake_api.queue(Reply(body=openai_answer(f"I see ({n}).")))
        raw = client.chat.completions.with_raw_response.create(model="x", messages=messages)
        session = raw.headers["x-omoide-session"]
        reply = raw.parse().choices[0].message.content
        messages.append({"role": "assistant", "content": reply})
        _recorded(proxy, session, reply)
    wait_for_jobs(proxy.omoide, "kiri")
    with proxy.client(key) as c:
        return [n["content"] for n in chat_notes(c, proxy.omoide, "kiri", session)]


def test_notes_of_an_unnamed_user_speak_of_the_user(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("kiri")
    notes = _notes(proxy, key, LINES, fake_api)
    assert not [n for n in notes if "User" in n], notes
    assert any(n.startswith("The user's mother is visiting from Porto") for n in notes), notes
    assert any(n.startswith("ユーザーの母は陶芸が好き") for n in notes), notes
    assert any(n.startswith("ユーザーは、来年") for n in notes), notes


def test_notes_of_a_named_user_carry_their_name(proxy: LiveServer, fake_api: FakeAPI) -> None:
    key = proxy.create_persona("kiri")
    with proxy.client(key) as c:
        assert c.put("/api/user-state/kiri", json={"name": "Teu"}).status_code == 200
    notes = _notes(proxy, key, LINES[:2], fake_api)
    assert any(n.startswith("Teu's mother is visiting from Porto") for n in notes), notes
    assert not [n for n in notes if "user" in n.lower()], notes

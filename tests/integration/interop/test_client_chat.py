"""The Python client's chat-proxy methods over real HTTP, against the local fake upstream: the
admin key names the persona (``X-Omoide-Persona``) and any key may name the conversation
(``X-Omoide-Session``), as docs/chat.md says a client does. The client had no way to send
either header: with the admin key every chat method was a 422 asking for a header the method
could not send, and a conversation could only be named through the ``user`` field."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.client import AsyncClient, Client
from omoide.errors import Forbidden, InvalidInput
from omoide.llm.chat import make_chat_upstream


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


HELLO = [{"role": "user", "content": "I just adopted a corgi called Biscuit"}]


def recorded(client: Client, persona: str) -> list[tuple[str, int]]:
    """The persona's sessions and their turn counts once the proxy has recorded a reply (it
    records after answering)."""
    deadline = time.monotonic() + 10
    while True:
        found = [(s.session_id, s.events) for s in client.list_sessions(persona).sessions]
        if any(events >= 2 for _, events in found) or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_the_admin_key_names_the_persona_and_the_session(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    proxy.create_persona("rin")
    with Client(proxy.url, proxy.admin_key) as admin:
        with pytest.raises(InvalidInput, match="X-Omoide-Persona") as unnamed:
            admin.models()
        assert unnamed.value.fields["field"] == "X-Omoide-Persona"
        assert [m.id for m in admin.models(persona="rin").data] == ["gpt-test"]
        assert admin.get_model("gpt-test", persona="rin").id == "gpt-test"
        fake_api.queue(Reply(body=openai_answer("What a lovely name!")))
        reply = admin.chat_completion(
            HELLO, persona="rin", session_id="rin-chat-1", temperature=0.2
        )
        assert reply.omoide["session_id"] == "rin-chat-1"
        assert recorded(admin, "rin") == [("rin-chat-1", 2)]
    sent = fake_api.bodies[-1]
    assert sent["temperature"] == 0.2
    assert "persona" not in sent and "session_id" not in sent  # headers, not body fields


def test_a_persona_key_names_its_session_and_not_another_persona(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    proxy.create_persona("ken")

    async def scenario() -> None:
        async with AsyncClient(proxy.url, key) as rin:
            fake_api.queue(Reply(body=openai_answer("Hi!")))
            reply = await rin.chat_completion(HELLO, session_id="walk-1")
            assert reply.omoide["session_id"] == "walk-1"
            assert (await rin.models(persona="rin")).data[0].id == "gpt-test"
            with pytest.raises(Forbidden):
                await rin.chat_completion(HELLO, persona="ken")
            with pytest.raises(InvalidInput, match="X-Omoide-Session"):
                await rin.chat_completion(HELLO, session_id="not a session id")

    asyncio.run(scenario())
    assert len(fake_api.received) == 1  # the refused requests never reached the upstream

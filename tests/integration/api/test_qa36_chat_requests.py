"""Session 36: chat requests a client can send that the proxy refused or broke on, through real
HTTP with the local fake API as the upstream.

- A latest user message of only invisible characters (a zero-width space, a word joiner, a
  BOM; what some editors and IMEs leave in an otherwise empty message) was a 422 naming ``q``,
  a field the client never sent: the PrepareStep searched for it and the search refused a blank
  query. It is a message with nothing to search for now: no memories are injected, the request
  goes through.
"""

from __future__ import annotations

from collections.abc import Callable

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

"""Session 45's walk of docs/chat.md, over real HTTP: a message with an unknown or missing
role is a 422 naming ``messages[i].role`` and what was sent, before anything reaches the
upstream. It said only ``messages[0] must be an object with a role of system, developer, user,
assistant, tool`` for ``"role": "wizard"``, an object with no role and a number alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

ROLES = "system, developer, user, assistant, tool"


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


@pytest.mark.parametrize(
    ("message", "field", "said"),
    [
        (
            {"role": "wizard", "content": "hi"},
            "messages[1].role",
            f'messages[1].role must be one of {ROLES}, got "wizard"',
        ),
        (
            {"role": None, "content": "hi"},
            "messages[1].role",
            f"messages[1].role must be one of {ROLES}, got null",
        ),
        (
            {"content": "hi"},
            "messages[1].role",
            f"messages[1].role is required: one of {ROLES}",
        ),
        (
            5,
            "messages[1]",
            f"messages[1] must be an object with a role of {ROLES}, got a number",
        ),
    ],
)
def test_a_message_without_a_known_role_is_refused_saying_what_came(
    proxy: LiveServer, fake_api: FakeAPI, message: Any, field: str, said: str
) -> None:
    key = proxy.create_persona("rin")
    body = {"messages": [{"role": "system", "content": "You are Rin."}, message]}
    with proxy.client(key) as rin:
        for stream in (False, True):
            reply = rin.post("/v1/chat/completions", json={**body, "stream": stream})
            assert reply.status_code == 422, reply.text
            error = reply.json()["error"]
            assert (error["code"], error["field"], error["message"]) == (
                "invalid_input",
                field,
                said,
            )
    assert fake_api.received == []

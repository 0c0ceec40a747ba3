"""Session 41: the chat proxy's ``anthropic`` upstream and content parts the Messages API
translation does not carry, through real HTTP with the local fake API as the upstream.

A part of another type than text or an image (``input_audio``, ``file``: a PDF the user asks
about) was dropped without a word: the model answered without it, and a message holding only
such parts vanished, so a request of one such message reached Anthropic with no message at all
and came back as the upstream's own 400. Such a part is refused now (422 ``invalid_input``
naming its type), before anything is sent. An assistant's ``refusal`` part in the history is
what the assistant said: it goes as text (it was dropped too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, anthropic_answer, anthropic_stream, text_block
from omoide_testing import LiveServer, refused

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the translation, not the store, is under test

AUDIO = {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}
PDF = {
    "type": "file",
    "file": {"file_data": "data:application/pdf;base64,JVBERi0=", "filename": "a.pdf"},
}


def _proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> tuple[LiveServer, str]:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, "anthropic")))
    return proxy, proxy.create_persona("rin")


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("content", "kind"),
    [
        ([AUDIO], "input_audio"),
        ([{"type": "text", "text": "Summarise this report"}, PDF], "file"),
    ],
)
def test_a_part_the_messages_api_cannot_take_is_refused(
    chat_server: Callable[..., LiveServer],
    fake_api: FakeAPI,
    content: list[dict[str, Any]],
    kind: str,
    stream: bool,
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    with proxy.client(key) as client:
        reply = client.post(
            "/v1/chat/completions",
            json={"stream": stream, "messages": [{"role": "user", "content": content}]},
        )
    error = refused(reply, 422)
    assert error["code"] == "invalid_input", error
    assert f"part of type '{kind}'" in error["message"] and "anthropic" in error["message"]
    assert fake_api.received == []  # never sent


@pytest.mark.parametrize("stream", [False, True])
def test_a_refusal_in_the_history_goes_as_text(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, stream: bool
) -> None:
    proxy, key = _proxy(chat_server, fake_api)
    fake_api.queue(
        Reply(events=anthropic_stream("Fine."))
        if stream
        else Reply(body=anthropic_answer(text_block("Fine.")))
    )
    messages = [
        {"role": "user", "content": "Tell me a secret"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "I cannot share that."}]},
        {"role": "user", "content": "Then tell me a joke"},
    ]
    with proxy.client(key) as client:
        reply = client.post("/v1/chat/completions", json={"stream": stream, "messages": messages})
    assert reply.status_code == 200, reply.text
    sent = fake_api.bodies[-1]["messages"]
    assert sent[1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "I cannot share that."}],
    }

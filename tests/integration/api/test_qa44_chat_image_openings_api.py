"""Session 44: a conversation's derived session (no ``X-Omoide-Session``, no ``user``) was named
by its first user message's text alone, so every conversation opening with an image and no
words was the text "" and landed in one session (and two opening with the same words under
different images too): their turns, and so their memories, merged. The parts that are not text
now name it as well; an opening of text alone keeps the session it always had. Real HTTP, the
local fake upstream."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream
from omoide.service.chat import session_id_for

pytestmark = pytest.mark.sqlite_only  # the session's name, not the store, is under test

CAT = "data:image/png;base64,Q0FU"
BIKE = "data:image/png;base64,QklLRQ=="


def _image(url: str, words: str | None = None) -> dict[str, Any]:
    parts: list[dict[str, Any]] = [{"type": "image_url", "image_url": {"url": url}}]
    if words is not None:
        parts.insert(0, {"type": "text", "text": words})
    return {"role": "user", "content": parts}


def _session(proxy: LiveServer, key: str, fake_api: FakeAPI, messages: list[Any]) -> str:
    fake_api.queue(Reply(body=openai_answer("Nice!")))
    with proxy.client(key) as client:
        reply = client.post("/v1/chat/completions", json={"messages": messages})
    assert reply.status_code == 200, reply.text
    return reply.headers["x-omoide-session"]


@pytest.mark.parametrize("words", [None, "What is this?"], ids=["image-only", "same-words"])
def test_two_conversations_opening_with_different_images_are_two_sessions(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, words: str | None
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = proxy.create_persona("rin")
    cat = _session(proxy, key, fake_api, [_image(CAT, words)])
    bike = _session(proxy, key, fake_api, [_image(BIKE, words)])
    assert cat != bike
    # each continued lands in its own session
    later = [_image(CAT, words), {"role": "assistant", "content": "Nice!"}, _image(BIKE)]
    assert _session(proxy, key, fake_api, later) == cat


def test_an_opening_of_text_alone_keeps_its_session_name() -> None:
    """The name a text opening always had (a conversation begun before the upgrade continues
    in its session): the digest of its text, as parts or as a string alike."""
    said = [{"role": "user", "content": "Hi!"}]
    parts = [{"role": "user", "content": [{"type": "text", "text": "Hi!"}]}]
    assert session_id_for(said, header=None, user=None) == "chat-e664632007a83261e9b77a5e"
    assert session_id_for(parts, header=None, user=None) == session_id_for(
        said, header=None, user=None
    )


def test_a_cache_control_marker_moved_on_keeps_the_session(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    """A client that caches the prompt (OpenRouter, LiteLLM) marks the latest message's parts
    with ``cache_control``: the opening image carries it on the first request only. The marker
    is no part of what the image is, so the conversation stays in its session."""
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = proxy.create_persona("rin")
    marked = _image(CAT)
    marked["content"][0]["cache_control"] = {"type": "ephemeral"}
    first = _session(proxy, key, fake_api, [marked])
    text = {"type": "text", "text": "And this?", "cache_control": {"type": "ephemeral"}}
    later = [_image(CAT), {"role": "assistant", "content": "Nice!"}]
    assert _session(proxy, key, fake_api, [*later, {"role": "user", "content": [text]}]) == first

"""Session 45: the chat proxy's stream wrote its events as spaced JSON (``data: {"error":
{"code": …}}``), unlike every other JSON the server writes (``{"error":{"code":…}}``, a
route's ``JSONResponse``) and OpenAI's own stream. A client reads the data line as JSON either
way (the OpenAI SDK ``json.loads`` it); each event is now compact: an upstream's chunk relayed
and the error event a broken stream ends with."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_stream
from omoide_testing import LiveServer

from omoide.llm.chat import make_chat_upstream

pytestmark = pytest.mark.sqlite_only  # the stream's bytes, not the store, are under test


def _compact(line: str) -> str:
    value = json.loads(line.removeprefix("data: "))
    return "data: " + json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_streamed_reply_and_its_error_event_are_compact_json(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI
) -> None:
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base, "openai")))
    key = proxy.create_persona("rin")
    # two chunks of text, then an event that is no JSON: the relay ends with an error event
    fake_api.queue(Reply(events=(*openai_stream("Hel", done=False)[:2], "data: hello\n\n")))
    with httpx.stream(
        "POST",
        f"{proxy.url}/v1/chat/completions",
        timeout=20,
        headers={"Authorization": f"Bearer {key}", "X-Omoide-Session": "s1"},
        json={"stream": True, "messages": [{"role": "user", "content": "Hi, Ren"}]},
    ) as raw:
        assert raw.status_code == 200
        lines = [line for line in raw.iter_lines() if line]
    assert lines[-1] == "data: [DONE]", lines
    *chunks, error = lines[:-1]
    assert error.startswith('data: {"error":{"code":"upstream_unavailable","message":'), error
    assert chunks and all(line == _compact(line) for line in [*chunks, error]), lines
    assert json.loads(chunks[-1].removeprefix("data: "))["choices"][0]["delta"] == {
        "content": "Hel"
    }

"""Session 35's concurrency probe (four writers and an eraser deleting and re-creating the
persona, its sessions and blocks for 40 s over real HTTP) found two faults, reproduced here
without timing: the erase lands right after the service looked the persona up.

- A search or a settings change racing ``DELETE /api/personas/{name}`` was a 500: the
  persona's settings were read by the id of a row already gone (TypeError on ``None``).
- A write that lost such a race was answered 409 by the app's last-resort handler, but
  Starlette re-raises after it: uvicorn logged a traceback ("Exception in ASGI application")
  for the refusal and closed the connection, so a client reusing it got "connection reset by
  peer" on its next request (8 of them in the probe).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from chat_proxy import fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer, serve_in_thread

from omoide.api.http.app import create_app
from omoide.llm.chat import make_chat_upstream
from omoide.wiring import Omoide

ADMIN = "omo_admin_race-test-key"


@contextmanager
def _erased_after_lookup(make_app: Callable[..., Omoide], data_dir: Path) -> Iterator[httpx.Client]:
    """A served app whose persona ``gone`` is erased right after its first lookup; an admin
    client that keeps its connection."""
    app = make_app()
    app.auth.create_persona("gone")
    persona_of = app.store.get_persona
    looked_up = persona_of("gone")
    erase = {"running": False, "done": False}

    def lookup_then_erase(name: str):  # type: ignore[no-untyped-def]
        """Every lookup of ``gone`` finds it, as one made just before the erase did; the
        first one erases it (as DELETE /api/personas/gone does) before it returns."""
        if name != "gone" or erase["running"]:
            return persona_of(name)
        if not erase["done"]:
            erase["running"] = True
            app.forget.delete_persona("gone")
            erase.update(running=False, done=True)
        return looked_up

    app.store.get_persona = lookup_then_erase  # type: ignore[method-assign]
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app, start_workers=False))
    try:
        headers = {"Authorization": f"Bearer {ADMIN}"}
        with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
            yield client
    finally:
        uv.should_exit = True
        thread.join(10)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/search/gone?q=tea", None),
        ("PUT", "/api/settings/gone", {"keep_recent": 5}),
    ],
)
def test_reading_or_changing_settings_of_a_persona_erased_meanwhile_is_a_404(
    make_app: Callable[..., Omoide], data_dir: Path, method: str, path: str, body: object
) -> None:
    with _erased_after_lookup(make_app, data_dir) as client:
        reply = client.request(method, path, json=body)
    assert reply.status_code == 404, reply.text
    assert reply.json()["error"]["message"] == "unknown persona 'gone'"


def test_a_write_that_lost_a_race_keeps_the_connection_and_logs_no_traceback(
    make_app: Callable[..., Omoide], data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO), _erased_after_lookup(make_app, data_dir) as client:
        reply = client.post("/api/sessions/gone", json={"session_id": "s1"})
        assert reply.status_code == 409, reply.text
        assert "erased by a concurrent request" in reply.json()["error"]["message"]
        assert reply.headers.get("connection") != "close"
        after = client.get("/health")  # the same connection: it was reset before
        assert after.status_code == 200
        metrics = client.get("/metrics").text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "write lost a race with an erase" in caplog.text
    assert 'status="409"' in metrics, metrics[:500]


def test_a_chat_reply_whose_persona_is_erased_before_it_is_recorded_logs_no_traceback(
    chat_server: Callable[..., LiveServer], fake_api: FakeAPI, caplog: pytest.LogCaptureFixture
) -> None:
    """The proxy records a turn after its reply went out; a persona erased in between (right
    before the turns' insert) left the recording to die on the store's foreign key, logged as
    a traceback by the background task. Now it is one line: nothing to record."""
    proxy = chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))
    key = proxy.create_persona("gone")
    app = proxy.omoide
    scoped_store = app.store.sessions
    armed = {"now": False}

    def sessions_of(name: str):  # type: ignore[no-untyped-def]
        """Once the recording has begun, the turns' insert erases ``gone`` right before it."""
        scoped = scoped_store(name)
        if name == "gone" and armed["now"]:
            armed["now"] = False
            add_events = scoped.add_events

            def erase_then_add(*args: object, **kwargs: object) -> object:
                app.forget.delete_persona("gone")
                return add_events(*args, **kwargs)

            scoped.add_events = erase_then_add
        return scoped

    sessions = app.chat.sessions
    record = sessions.record

    def recording(*args: object, **kwargs: object) -> object:
        armed["now"] = True  # the session is open: the turns' own write comes next
        return record(*args, **kwargs)  # type: ignore[arg-type]

    app.store.sessions = sessions_of  # type: ignore[method-assign]
    sessions.record = recording  # type: ignore[method-assign]
    fake_api.queue(Reply(body=openai_answer("Hello!")))
    with caplog.at_level(logging.INFO), proxy.client(key) as client:
        reply = client.post(
            "/v1/chat/completions",
            headers={"X-Omoide-Session": "s1"},
            json={"messages": [{"role": "user", "content": "Hi there"}]},
        )
        assert reply.status_code == 200, reply.text
        deadline = time.monotonic() + 10
        while "not recorded" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.02)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "chat turn not recorded persona=gone" in caplog.text

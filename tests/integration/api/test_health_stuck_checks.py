"""/health when its checks hang (a database that takes the connection and never answers), with
more job worker threads than the check's own two: every request answers its 503 after the
check's wait, however many arrive, other requests are served meanwhile, and the first check
after the database answers again is a 200.

The check runs on a pool of two threads of its own (``routes/system.py``), apart from the job
workers (``OMOIDE_WORKERS``, four here) and from the pool the other routes use: a hung check
holds at most those two, and a request that finds both held waits in their queue, answers its
503 when its own wait ends, and leaves the queue (its place is cancelled), so no backlog of
checks is left to run once the database is back. The worker count plays no part."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from omoide_testing import serve_in_thread

from omoide.api.http.routes import system
from omoide.wiring import Omoide


@pytest.fixture
def four_workers(make_app: Callable[..., Omoide], data_dir: Path) -> Iterator[tuple[str, Omoide]]:
    from omoide.api.http.app import create_app

    app = make_app({"OMOIDE_WORKERS": "4"})
    uv, thread, url = serve_in_thread(create_app(app))
    yield url, app
    uv.should_exit = True
    thread.join(10)


@pytest.mark.sqlite_only
def test_hung_health_checks_answer_503_each_and_recover_with_more_workers_than_checks(
    four_workers: tuple[str, Omoide], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, app = four_workers
    assert app.runner.workers == 4
    answering = threading.Event()
    pings: list[int] = []
    real_ping = app.store.ping

    def ping() -> None:  # the store port's ping, hanging until the database answers again
        pings.append(1)
        answering.wait(30)
        real_ping()

    monkeypatch.setattr(app.store, "ping", ping)
    monkeypatch.setattr(system, "HEALTH_WAIT_S", 2.0)
    with ThreadPoolExecutor(6) as pool, httpx.Client(base_url=url, timeout=30) as client:
        # the schema is built once, on the event loop (seconds on a loaded machine): before
        assert client.get("/openapi.json").status_code == 200
        started = time.monotonic()
        checks = [pool.submit(client.get, "/health") for _ in range(6)]
        time.sleep(0.3)
        assert client.get("/openapi.json").status_code == 200  # served while they hang
        replies = [check.result() for check in checks]
        took = time.monotonic() - started
    assert [r.status_code for r in replies] == [503] * 6, [r.text for r in replies]
    assert {r.json()["error"]["code"] for r in replies} == {"storage_unavailable"}
    assert took < 8, took  # each its own 2 s wait, side by side: one after another, 12 s
    assert len(pings) == 2  # the check's two threads; the other four never ran a check
    answering.set()
    with httpx.Client(base_url=url, timeout=30) as client:
        deadline = time.monotonic() + 30
        while (health := client.get("/health")).status_code != 200:
            assert time.monotonic() < deadline, health.text
    assert health.json()["status"] == "ok"
    assert len(pings) == 3  # the queued checks were cancelled, not run late

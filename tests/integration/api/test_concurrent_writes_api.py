"""Writes that decide against existing rows, raced over real HTTP by many clients at once
(session 26): each decision and the write it leads to must be one step, on both stores and
across servers sharing one store, without serialising one persona behind another.

Where a race needs a slow decision to show (a dedup check, a classification), the test slows
that decision so the requests always overlap."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from omoide_testing import LiveServer, serve_in_thread, wait_for_jobs

from omoide.api.http.app import create_app
from omoide.engine.classify import Candidate, Relation, Verdict
from omoide.service.memories import MemoryService
from omoide.wiring import Omoide

ADMIN = "omo_admin_race-test-key"
BIKES = [f"The user owns bicycle number {i % 5}." for i in range(16)]


def _serve(app: Omoide, data_dir: Path, stack: ExitStack) -> LiveServer:
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app))

    def stop() -> None:
        uv.should_exit = True
        thread.join(10)

    stack.callback(stop)
    return LiveServer(url=url, admin_key=ADMIN, omoide=app)


@pytest.fixture
def two_servers(make_app: Callable[..., Omoide], data_dir: Path
                ) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one data folder / database, as two ``omoide serve`` processes: each has
    its own services (and in-process locks); only the store is shared. No job workers."""
    with ExitStack() as stack:
        yield (_serve(make_app({"OMOIDE_WORKERS": "0"}), data_dir, stack),
               _serve(make_app({"OMOIDE_WORKERS": "0"}), data_dir, stack))


def _slowed(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, seconds: float) -> None:
    """``owner.name`` takes ``seconds`` longer to answer (its reading is done first, so the
    rows it read can change before its caller acts on them)."""
    real = getattr(owner, name)

    def slow(*args: Any, **kwargs: Any) -> Any:
        answer = real(*args, **kwargs)
        time.sleep(seconds)
        return answer

    monkeypatch.setattr(owner, name, slow)


def _warm(key: str, path: str, *servers: LiveServer) -> None:
    """One request to ``path`` on each server in turn before the concurrent ones: FastAPI
    builds a router's routes on its first request, inside ``warnings.catch_warnings``, which is
    not thread-safe; two servers building at once in one process can each undo the other's
    warning filter, and pytest's ``error`` filter turns the warning into a 500."""
    for server in servers:
        with server.client(key) as client:
            assert client.get(path).status_code == 200


def _at_once(count: int, call: Callable[[int], Any]) -> list[Any]:
    """``call(i)`` for i in range(count), all started together."""
    start = threading.Barrier(count)

    def run(i: int) -> Any:
        start.wait(10)
        return call(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_the_same_memory_sent_at_once_through_two_servers_is_stored_once(
        two_servers: tuple[LiveServer, LiveServer], monkeypatch: pytest.MonkeyPatch) -> None:
    """16 writes of five memories (each about three times), through two servers sharing the
    store: five created, eleven duplicates of those five. Each server's own lock kept its own
    writes apart, but two servers each found no duplicate and both inserted."""
    a, b = two_servers
    key = a.create_persona("rin")
    _warm(key, "/api/memories/rin", a, b)
    _slowed(monkeypatch, MemoryService, "_find_duplicate", 0.1)

    def write(i: int) -> dict[str, Any]:
        with (a, b)[i % 2].client(key) as client:
            reply = client.post("/api/memories/rin", json={"content": BIKES[i]})
        assert reply.status_code in (200, 201), reply.text
        return dict(reply.json())

    replies = _at_once(16, write)
    with b.client(key) as client:
        stored = client.get("/api/memories/rin", params={"limit": 100}).json()["memories"]
    assert sorted(m["content"] for m in stored) == sorted(set(BIKES))
    created = {r["memory"]["key"] for r in replies if r["status"] == "created"}
    assert created == {m["key"] for m in stored}
    assert {r["duplicate_of"]["key"] for r in replies if r["status"] == "duplicate"} <= created


class _Contradicts:
    """A classifier that takes ``seconds`` to find that a move contradicts every place the user
    lived or moved to (and nothing else): the 3-op judge's verdicts without its timing."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def classify(self, new: str, candidates: list[Candidate], **_: Any) -> list[Verdict]:
        time.sleep(self.seconds)
        return [Verdict(c.key, Relation.CONTRADICTORY
                        if "lives in" in c.content or "moved to" in c.content
                        else Relation.INDEPENDENT, 0.9, "a move") for c in candidates]


def test_new_facts_evolved_at_once_close_an_old_fact_once(
        make_app: Callable[..., Omoide], data_dir: Path) -> None:
    """Four moves posted at once, evolved by four workers at once, each judged to contradict
    where the user lived: the old fact is closed once (one SUPERSEDE version, one remainder of
    its unchanged part), every move but the last is closed once, and one place is current.
    Each job closed the old fact again (as many versions as jobs) and each wrote its own copy
    of the remainder (its unchanged part, "The user works as a nurse.", up to four times)."""
    app = make_app({"OMOIDE_WORKERS": "4"})
    with ExitStack() as stack:
        server = _serve(app, data_dir, stack)
        key = server.create_persona("rin")
        with server.client(key) as rin:
            assert rin.put("/api/settings/rin", json={"classify_band_low": 0}).status_code == 200
            old = rin.post("/api/memories/rin", json={
                "content": "The user lives in Osaka and works as a nurse."}).json()["memory"]
            wait_for_jobs(app, "rin")
            app.evolution.classifier_for = lambda cfg: _Contradicts(0.3)  # type: ignore[method-assign]

            def move(i: int) -> str:
                city = ("Kyoto", "Sendai", "Nagoya", "Kobe")[i]
                with server.client(key) as client:
                    reply = client.post("/api/memories/rin",
                                        json={"content": f"The user moved to {city}."})
                assert reply.status_code == 201, reply.text
                return str(reply.json()["memory"]["key"])

            moves = _at_once(4, move)
            wait_for_jobs(app, "rin")
            stored = rin.get("/api/memories/rin", params={"limit": 100}).json()["memories"]
            closes = {m["key"]: [v for v in rin.get(f"/api/memories/rin/{m['key']}/history")
                                 .json()["versions"] if v["change"] == "supersede"]
                      for m in stored}
    places = [m for m in stored if m["key"] in {old["key"], *moves}]
    assert len([m for m in places if m["superseded_by"] is None]) == 1, places
    assert all(len(closes[m["key"]]) == (m["superseded_by"] is not None) for m in places), closes
    remainders = [m for m in stored if m["metadata"].get("remainder_of") == old["key"]]
    assert len(remainders) == 1, remainders  # which part is kept depends on which move closed it

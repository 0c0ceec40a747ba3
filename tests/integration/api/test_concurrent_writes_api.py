"""Writes that decide against existing rows, raced over real HTTP by many clients at once
(session 26): each decision and the write it leads to must be one step, on both stores and
across servers sharing one store, without serialising one persona behind another.

Where a race needs a slow decision to show (a dedup check, a classification), the test slows
that decision so the requests always overlap."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, serve_in_thread, wait_for_jobs

from omoide.api.http.app import create_app
from omoide.clock import FixedClock
from omoide.engine.classify import Candidate, Relation, Verdict
from omoide.service.memories import MemoryService
from omoide.wiring import Omoide

ADMIN = "omo_admin_race-test-key"
BIKES = [f"The user owns bicycle number {i % 5}." for i in range(16)]


def _serve(app: Omoide, data_dir: Path, stack: ExitStack) -> LiveServer:
    """``app`` served over HTTP, its routes built by one request that matches none before any
    test request: FastAPI builds a router's routes on the first request that reaches them,
    inside ``warnings.catch_warnings``, which is not thread-safe; two servers building at once
    in one process can each undo the other's warning filter, and pytest's ``error`` filter
    turns the warning it hid into a 500."""
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app))
    assert httpx.get(f"{url}/api/no-such-route/x/y").status_code in (401, 404)

    def stop() -> None:
        uv.should_exit = True
        thread.join(10)

    stack.callback(stop)
    return LiveServer(url=url, admin_key=ADMIN, omoide=app)


@pytest.fixture
def two_servers(
    make_app: Callable[..., Omoide], data_dir: Path
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one data folder / database, as two ``omoide serve`` processes: each has
    its own services (and in-process locks); only the store is shared. No job workers."""
    with ExitStack() as stack:
        yield (
            _serve(make_app({"OMOIDE_WORKERS": "0"}), data_dir, stack),
            _serve(make_app({"OMOIDE_WORKERS": "0"}), data_dir, stack),
        )


@pytest.fixture
def two_working_servers(
    make_app: Callable[..., Omoide], data_dir: Path
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """As ``two_servers``, each with its job worker (both take jobs from the shared queue)."""
    with ExitStack() as stack:
        yield (_serve(make_app(), data_dir, stack), _serve(make_app(), data_dir, stack))


def _slowed(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, seconds: float) -> None:
    """``owner.name`` takes ``seconds`` longer to answer (its reading is done first, so the
    rows it read can change before its caller acts on them)."""
    real = getattr(owner, name)

    def slow(*args: Any, **kwargs: Any) -> Any:
        answer = real(*args, **kwargs)
        time.sleep(seconds)
        return answer

    monkeypatch.setattr(owner, name, slow)


def _at_once(count: int, call: Callable[[int], Any]) -> list[Any]:
    """``call(i)`` for i in range(count), all started together."""
    start = threading.Barrier(count)

    def run(i: int) -> Any:
        start.wait(10)
        return call(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_the_same_memory_sent_at_once_through_two_servers_is_stored_once(
    two_servers: tuple[LiveServer, LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """16 writes of five memories (each about three times), through two servers sharing the
    store: five created, eleven duplicates of those five. Each server's own lock kept its own
    writes apart, but two servers each found no duplicate and both inserted."""
    a, b = two_servers
    key = a.create_persona("rin")
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
        return [
            Verdict(
                c.key,
                Relation.CONTRADICTORY
                if "lives in" in c.content or "moved to" in c.content
                else Relation.INDEPENDENT,
                0.9,
                "a move",
            )
            for c in candidates
        ]


def test_new_facts_evolved_at_once_close_an_old_fact_once(
    make_app: Callable[..., Omoide], data_dir: Path
) -> None:
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
            old = rin.post(
                "/api/memories/rin",
                json={"content": "The user lives in Osaka and works as a nurse."},
            ).json()["memory"]
            wait_for_jobs(app, "rin")
            app.evolution.classifier_for = lambda cfg: _Contradicts(0.3)  # type: ignore[method-assign]

            def move(i: int) -> str:
                city = ("Kyoto", "Sendai", "Nagoya", "Kobe")[i]
                with server.client(key) as client:
                    reply = client.post(
                        "/api/memories/rin", json={"content": f"The user moved to {city}."}
                    )
                assert reply.status_code == 201, reply.text
                return str(reply.json()["memory"]["key"])

            moves = _at_once(4, move)
            wait_for_jobs(app, "rin")
            stored = rin.get("/api/memories/rin", params={"limit": 100}).json()["memories"]
            closes = {
                m["key"]: [
                    v
                    for v in rin.get(f"/api/memories/rin/{m['key']}/history").json()["versions"]
                    if v["change"] == "supersede"
                ]
                for m in stored
            }
    places = [m for m in stored if m["key"] in {old["key"], *moves}]
    assert len([m for m in places if m["superseded_by"] is None]) == 1, places
    assert all(len(closes[m["key"]]) == (m["superseded_by"] is not None) for m in places), closes
    remainders = [m for m in stored if m["metadata"].get("remainder_of") == old["key"]]
    assert len(remainders) == 1, remainders  # which part is kept depends on which move closed it


def test_one_persona_name_created_at_once_is_created_once(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """16 admins create "kai" at once through two servers: one 201 with a key, fifteen 409s,
    and the persona has that one key."""

    def create(i: int) -> int:
        with two_servers[i % 2].admin() as admin:
            return admin.post("/api/personas", json={"name": "kai"}).status_code

    statuses = _at_once(16, create)
    assert sorted(statuses) == [201] + [409] * 15
    with two_servers[0].admin() as admin:
        keys = admin.get("/api/personas/kai/keys").json()["keys"]
    assert len(keys) == 1


def test_one_block_written_at_once_keeps_one_writers_fields(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """16 writes of one new block at once, each with its own content and limit: one block,
    whose content and max_tokens come from the same write (a merge over a stale read would
    mix them), and every write answered 200."""
    a, b = two_servers
    key = a.create_persona("rin")

    def write(i: int) -> int:
        with (a, b)[i % 2].client(key) as client:
            return client.post(
                "/api/blocks/rin",
                json={"block_name": "plans", "content": f"plan {i}", "max_tokens": 100 + i},
            ).status_code

    assert _at_once(16, write) == [200] * 16
    with a.client(key) as client:
        blocks = client.get("/api/blocks/rin").json()["blocks"]
    assert len(blocks) == 1
    assert blocks[0]["max_tokens"] == 100 + int(blocks[0]["content"].split()[1])


def test_one_state_key_set_at_once_keeps_one_current_value_and_an_unbroken_history(
    two_servers: tuple[LiveServer, LiveServer],
) -> None:
    """16 values of one user-state key set at once through two servers: one current value (the
    last written), and a history in which each value ends where the next begins."""
    a, b = two_servers
    key = a.create_persona("rin")

    def put(i: int) -> int:
        with (a, b)[i % 2].client(key) as client:
            return client.put("/api/user-state/rin", json={"city": f"town {i}"}).status_code

    assert _at_once(16, put) == [200] * 16
    with a.client(key) as client:
        current = client.get("/api/user-state/rin").json()
        history = client.get("/api/user-state/rin/history", params={"key": "city"}).json()[
            "history"
        ]
    assert len(history) == 16 and [h["is_current"] for h in history] == [False] * 15 + [True]
    assert all(
        h["valid_until"] == after["valid_from"] for h, after in itertools.pairwise(history)
    ), history
    assert history[-1]["valid_until"] is None
    assert history[-1]["value"] in str(current)


def test_a_session_ended_by_many_clients_at_once_is_segmented_once(
    two_working_servers: tuple[LiveServer, LiveServer],
) -> None:
    """A conversation ended by 16 clients at once through two servers (each with a worker):
    each answer is 200 with the same end, and every turn is in exactly one episode."""
    a, b = two_working_servers
    key = a.create_persona("rin")
    with a.client(key) as client:
        assert client.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        turns = [
            {"speaker": "Ken", "content": f"I planted {n} tulips today."} for n in range(1, 13)
        ]
        assert (
            client.post("/api/sessions/rin/s1/events", json={"events": turns}).json()["accepted"]
            == 12
        )

    def end(i: int) -> tuple[int, str]:
        with (a, b)[i % 2].client(key) as client:
            reply = client.post("/api/sessions/rin/s1/end")
        return reply.status_code, str(reply.json().get("ended_at"))

    ends = _at_once(16, end)
    assert {status for status, _ in ends} == {200} and len({at for _, at in ends}) == 1
    wait_for_jobs(a.omoide, "rin")
    with a.client(key) as client:
        episodes = client.get("/api/sessions/rin/s1/episodes").json()["episodes"]
    covered = [seq for e in episodes for seq in range(e["first_seq"], e["last_seq"] + 1)]
    assert sorted(covered) == list(range(1, 13)), episodes


def test_turns_posted_while_session_begin_ends_their_session_are_all_kept(
    two_working_servers: tuple[LiveServer, LiveServer],
) -> None:
    """Clients post turns to an open conversation while others call session_begin (which ends
    the persona's open sessions) through two servers at once: every accepted turn ends up in
    exactly one episode, and one session is left open."""
    a, b = two_working_servers
    key = a.create_persona("rin")
    with a.client(key) as client:
        assert client.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201

    def act(i: int) -> int:
        with (a, b)[i % 2].client(key) as client:
            if i % 4 == 3:
                return client.post("/api/context/rin/session").status_code
            reply = client.post(
                "/api/sessions/rin/s1/events",
                json={
                    "events": [{"speaker": "Ken", "content": f"Turn {i}: I repainted fence {i}."}]
                },
            )
            assert reply.status_code == 200, reply.text
            return int(reply.json()["accepted"])

    results = _at_once(16, act)
    accepted = sum(r for i, r in enumerate(results) if i % 4 != 3)
    assert accepted == 12 and [r for i, r in enumerate(results) if i % 4 == 3] == [201] * 4
    wait_for_jobs(a.omoide, "rin")
    with a.client(key) as client:
        episodes = client.get("/api/sessions/rin/s1/episodes").json()["episodes"]
        sessions = client.get("/api/sessions/rin", params={"limit": 100}).json()["sessions"]
    covered = [seq for e in episodes for seq in range(e["first_seq"], e["last_seq"] + 1)]
    assert sorted(covered) == list(range(1, 13)), episodes
    assert len([s for s in sessions if s["ended_at"] is None]) == 1, sessions


def test_turns_posted_while_the_idle_sweep_ends_their_session_are_all_kept(
    two_working_servers: tuple[LiveServer, LiveServer], clock: FixedClock
) -> None:
    """The scheduler's idle sweep ends a conversation while clients post turns to it: every
    accepted turn ends up in exactly one episode (none is left in a segment nobody closes)."""
    a, b = two_working_servers
    key = a.create_persona("rin")
    with a.client(key) as client:
        assert client.put("/api/settings/rin", json={"session_idle_minutes": 1}).status_code == 200
        assert client.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        assert (
            client.post(
                "/api/sessions/rin/s1/events",
                json={"events": [{"speaker": "Ken", "content": "I started a herb garden."}]},
            ).json()["accepted"]
            == 1
        )
    clock.advance(minutes=2)

    def act(i: int) -> int:
        if i % 4 == 3:
            return int(bool((a, b)[i % 2].omoide.runner.tick_now()))
        with (a, b)[i % 2].client(key) as client:
            reply = client.post(
                "/api/sessions/rin/s1/events",
                json={
                    "events": [
                        {"speaker": "Ken", "content": f"Turn {i}: the basil pot {i} sprouted."}
                    ]
                },
            )
        assert reply.status_code == 200, reply.text
        return int(reply.json()["accepted"])

    results = _at_once(16, act)
    assert sum(r for i, r in enumerate(results) if i % 4 != 3) == 12
    a.omoide.sessions.end("rin", "s1")  # if every turn came after the sweep
    wait_for_jobs(a.omoide, "rin")
    with a.client(key) as client:
        episodes = client.get("/api/sessions/rin/s1/episodes").json()["episodes"]
    covered = [seq for e in episodes for seq in range(e["first_seq"], e["last_seq"] + 1)]
    assert sorted(covered) == list(range(1, 14)), episodes


def test_a_merge_import_and_writes_of_the_same_memories_at_once_store_each_once(
    two_servers: tuple[LiveServer, LiveServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A merge import of five memories through one server while eight writes of the same five
    go through both: each is stored once, and the import reports each as written or as a
    duplicate. The import's duplicate check was not held against writes meanwhile: a memory
    written after the import checked it was stored twice."""
    a, b = two_servers
    source = a.create_persona("src")
    with a.client(source) as src:
        for text in sorted(set(BIKES)):
            assert src.post("/api/memories/src", json={"content": text}).status_code == 201
        export = src.get("/api/export/src").content
    key = a.create_persona("rin")
    _slowed(monkeypatch, MemoryService, "_find_duplicate", 0.1)

    def act(i: int) -> dict[str, Any]:
        with (a, b)[i % 2].client(key) as client:
            if i == 0:
                reply = client.post(
                    "/api/import/rin",
                    params={"merge": "true"},
                    content=export,
                    headers={"content-type": "application/x-ndjson"},
                )
            else:
                reply = client.post("/api/memories/rin", json={"content": BIKES[i]})
        assert reply.status_code in (200, 201), reply.text
        return dict(reply.json())

    report, *_ = _at_once(9, act)
    with b.client(key) as client:
        stored = client.get("/api/memories/rin", params={"limit": 100}).json()["memories"]
    assert sorted(m["content"] for m in stored) == sorted(set(BIKES)), stored
    assert report["memories"] + report["duplicates"] == 5, report

"""Two ``omoide serve`` processes on one SQLite folder (issue 11): concurrent writes through
both, and a ``kill -9`` of the one holding a job — the survivor takes the job back when its
lease expires (no restart) and no acknowledged write is lost."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from llm_fakes import API_KEY, FakeAPI, Reply, openai_answer
from omoide_testing import free_port

ADMIN = "omoide-admin-multiprocess-test"
LEASE_S = 2
WORDS = (
    "apple",
    "river",
    "violin",
    "glacier",
    "lantern",
    "pepper",
    "harbor",
    "meteor",
    "saddle",
    "tulip",
    "quartz",
    "walnut",
    "bicycle",
    "canyon",
    "dolphin",
    "ember",
    "falcon",
    "garnet",
    "hammock",
    "iguana",
)


class Server:
    def __init__(self, data: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        omoide = Path(sys.executable).parent / "omoide"
        self.log = data.parent / f"serve-{self.port}.log"
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [str(omoide), "serve", "--port", str(self.port)],
                env={**env, "OMOIDE_DATA": str(data)},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"server did not start: {self.log.read_text()}")

    def client(self, key: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def servers(tmp_path: Path, fake_api: FakeAPI) -> Iterator[tuple[Server, Server]]:
    data = tmp_path / "data"
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_ADMIN_KEY": ADMIN,
        "OMOIDE_JOB_LEASE_SECONDS": str(LEASE_S),
        "OMOIDE_LLM_PROVIDER": "openai",
        "OMOIDE_LLM_BASE_URL": f"{fake_api.base}/v1",
        "OMOIDE_LLM_API_KEY": API_KEY,
        "OMOIDE_LLM_MODEL": "gpt-test",
        "OMOIDE_LLM_MAX_RETRIES": "0",
        "OMOIDE_LLM_TIMEOUT": "30",
    }
    pair = (Server(data, env), Server(data, env))
    try:
        for server in pair:
            server.wait_ready()
        yield pair
    finally:
        for server in pair:
            server.stop()


def _jobs(db: Path) -> list[tuple[str, str, int | None]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT kind, status, claimed_by FROM jobs ORDER BY id").fetchall()


def _drained(server: Server, key: str, persona: str, timeout: float = 30) -> None:
    with server.client(key) as c:
        state = c.get(f"/api/jobs/{persona}/wait", params={"timeout": timeout}).json()
    assert state["drained"], state


@pytest.mark.timeout(400)  # two server start-ups on a shared 2-core machine
def test_two_servers_share_writes_and_take_back_a_killed_servers_job(
    servers: tuple[Server, Server], fake_api: FakeAPI, tmp_path: Path
) -> None:
    a, b = servers
    db = tmp_path / "data" / "omoide.db"
    with a.client(ADMIN) as admin:
        created = admin.post("/api/personas", json={"name": "rin"})
    assert created.status_code == 201, created.text
    key = created.json()["api_key"]

    # Concurrent writes through both processes: every acknowledged write is readable from both.
    def write(n: int) -> str:
        server = (a, b)[n % 2]
        with server.client(key) as c:
            words = f"{WORDS[n % 20]} {WORDS[(n * 7 + 3) % 20]} {WORDS[(n * 3 + 11) % 20]}"
            reply = c.post("/api/memories/rin", json={"content": f"{words} number {n}"})
        assert reply.status_code == 201 and reply.json()["status"] == "created", reply.text
        return str(reply.json()["memory"]["key"])

    with ThreadPoolExecutor(max_workers=8) as pool:
        keys = list(pool.map(write, range(40)))
    assert len(set(keys)) == 40
    for server in (a, b):
        with server.client(key) as c:
            listed = c.get("/api/memories/rin", params={"limit": 100}).json()["memories"]
        assert {m["key"] for m in listed} >= set(keys)
    _drained(a, key, "rin")

    # A job whose LLM call never answers: whichever process claims it holds it.
    with a.client(key) as c:
        fact = c.post("/api/memories/rin", json={"content": "User lives in Osaka."})
        assert fact.status_code == 201 and fact.json()["status"] == "created", fact.text
    fact_key = fact.json()["memory"]["key"]
    _drained(a, key, "rin")
    asked = len(fake_api.received)  # earlier writes asked too (and fell back to offline rules)
    fake_api.queue(
        Reply(hang=True),
        Reply(
            body=openai_answer(
                json.dumps(
                    {"verdicts": [{"candidate": 0, "class": "CONTRADICTORY", "reason": "moved"}]}
                )
            )
        ),
    )
    with b.client(key) as c:
        moved = c.post("/api/memories/rin", json={"content": "User lives in Sendai."})
        assert moved.status_code == 201 and moved.json()["status"] == "created", moved.text
    moved_key = moved.json()["memory"]["key"]
    deadline = time.monotonic() + 20
    while len(fake_api.received) == asked and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(fake_api.received) == asked + 1, "no process asked the LLM"
    holders = [pid for kind, status, pid in _jobs(db) if status == "running"]
    assert len(holders) == 1
    victim, survivor = (a, b) if holders[0] == a.proc.pid else (b, a)
    assert holders[0] == victim.proc.pid
    os.kill(victim.proc.pid, signal.SIGKILL)
    victim.proc.wait(10)

    # The survivor takes the job back once the lease expires — no restart — and finishes it.
    killed_at = time.monotonic()
    _drained(survivor, key, "rin", timeout=30)
    assert time.monotonic() - killed_at >= LEASE_S - 0.5  # not before the lease expired
    assert {status for kind, status, _ in _jobs(db) if kind != "decay"} == {"done"}
    assert len(fake_api.received) == asked + 2  # the survivor asked again
    with survivor.client(key) as c:
        listed = c.get("/api/memories/rin", params={"limit": 100}).json()["memories"]
        osaka = c.get(f"/api/memories/rin/{fact_key}").json()
    assert {m["key"] for m in listed} >= {*keys, fact_key, moved_key}
    assert osaka["superseded_by"] == moved_key

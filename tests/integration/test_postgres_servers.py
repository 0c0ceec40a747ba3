"""Two ``omoide serve`` processes on one PostgreSQL database (issue 11): concurrent writes
through both, a contradiction written through one closing a fact written through the other,
and a ``kill -9`` of one losing no acknowledged write and leaving no job stuck.

The servers are real processes with the bundled USE embedder (its meaning decides the
contradiction) and a 2-second job lease, so a dead process's jobs are taken back quickly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest
from omoide_testing import free_port
from pg_testing import SEE_ALL, PgServer

pytestmark = pytest.mark.slow

ADMIN = "omo_admin_two-servers"
OMOIDE = Path(sys.executable).parent / "omoide"
LEASE_S = 2


@dataclass
class Served:
    proc: subprocess.Popen[bytes]
    url: str

    def client(self, key: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {key}"}, timeout=60
        )


def _start(url: str, data: Path, log: Path) -> Served:
    port = free_port()
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "use",
        "OMOIDE_DATA": str(data),
        "OMOIDE_PORT": str(port),
        "OMOIDE_ADMIN_KEY": ADMIN,
        "OMOIDE_DATABASE_URL": url,
        "OMOIDE_JOB_LEASE_SECONDS": str(LEASE_S),
    }
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(OMOIDE), "serve"], env=env, stdout=out, stderr=out, stdin=subprocess.DEVNULL
        )
    return Served(proc, f"http://127.0.0.1:{port}")


def _wait_ready(served: Served, log: Path, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert served.proc.poll() is None, log.read_text(errors="replace")
        try:
            if httpx.get(served.url + "/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"server did not start: {log.read_text(errors='replace')}")


@contextmanager
def serving(pg_server: PgServer, tmp_path: Path, n: int) -> Iterator[tuple[list[Served], str]]:
    """``n`` servers on one new database; their list and the database URL."""
    with pg_server.database() as url:
        logs = [tmp_path / f"{i}.log" for i in range(n)]
        servers = [_start(url, tmp_path / f"data{i}", log) for i, log in enumerate(logs)]
        try:
            for served, log in zip(servers, logs, strict=True):
                _wait_ready(served, log)
            yield servers, url
        finally:
            for served in servers:
                if served.proc.poll() is None:
                    served.proc.terminate()
                    try:
                        served.proc.wait(15)
                    except subprocess.TimeoutExpired:
                        served.proc.kill()
                        served.proc.wait(5)


def _add(client: httpx.Client, content: str) -> str:
    reply = client.post("/api/memories/rin", json={"content": content})
    assert reply.status_code == 201, reply.text
    return str(reply.json()["memory"]["key"])


def _open_jobs(url: str) -> list[tuple[int, str, str]]:
    with psycopg.connect(url, options=SEE_ALL) as conn:
        return [
            tuple(r)
            for r in conn.execute(
                "SELECT id, kind, status FROM jobs WHERE status IN ('pending', 'running') "
                "AND kind NOT IN ('decay') ORDER BY id"
            )
        ]


def _wait_no_open_jobs(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (left := _open_jobs(url)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == [], left


def test_two_servers_share_one_database(pg_server: PgServer, tmp_path: Path) -> None:
    with serving(pg_server, tmp_path, 2) as ([a, b], url):
        with a.client(ADMIN) as admin:
            reply = admin.post("/api/personas", json={"name": "rin"})
            assert reply.status_code == 201, reply.text
            key = reply.json()["api_key"]
        with a.client(key) as ca, b.client(key) as cb:
            # Concurrent writes through both processes: every one acknowledged, every one seen
            # by both.
            texts = [f"Note {i}: the user mentioned the {i}th hiking trail" for i in range(24)]
            with ThreadPoolExecutor(8) as pool:
                keys = list(
                    pool.map(lambda it: _add(ca if it[0] % 2 else cb, it[1]), enumerate(texts))
                )
            assert len(set(keys)) == len(texts)
            for client in (ca, cb):
                listed = client.get("/api/memories/rin", params={"limit": 100}).json()
                assert set(keys) <= {m["key"] for m in listed["memories"]}

            # A fact written through A is closed by a contradiction written through B.
            _wait_no_open_jobs(url, 60)
            old = _add(ca, "User lives in Tokyo")
            _wait_no_open_jobs(url, 60)
            new = _add(cb, "User moved to Osaka last month")
            _wait_no_open_jobs(url, 60)
            closed = ca.get(f"/api/memories/rin/{old}").json()
            assert closed["superseded_by"] == new
            assert closed["status"] == "active"

            # kill -9 of B while it acknowledges writes: nothing acknowledged is lost, and the
            # jobs it held are finished by A once their lease runs out.
            acked: list[str] = []
            stop = threading.Event()

            def write_through_b() -> None:
                i = 0
                while not stop.is_set():
                    i += 1
                    try:
                        acked.append(_add(cb, f"Kill test note {i} about a mountain hut"))
                    except (httpx.HTTPError, AssertionError):
                        return

            writer = threading.Thread(target=write_through_b)
            writer.start()
            deadline = time.monotonic() + 60
            while len(acked) < 5 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.kill(b.proc.pid, signal.SIGKILL)
            b.proc.wait(10)
            stop.set()
            writer.join(30)
            assert len(acked) >= 5
            for memory_key in acked:
                assert ca.get(f"/api/memories/rin/{memory_key}").status_code == 200, memory_key
            _wait_no_open_jobs(url, 60)


def test_a_job_whose_process_died_is_taken_back_after_its_lease(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """A job left running by a process that is gone (lease not renewed) is claimed and done
    by a live server without any restart."""
    with serving(pg_server, tmp_path, 1) as ([a], url):
        with a.client(ADMIN) as admin:
            key = admin.post("/api/personas", json={"name": "rin"}).json()["api_key"]
        with a.client(key) as ca:
            memory = _add(ca, "User keeps a sourdough starter")
            _wait_no_open_jobs(url, 60)
        with psycopg.connect(url, options=SEE_ALL) as conn:
            job = conn.execute(
                "INSERT INTO jobs (persona_id, kind, payload, status, attempts, run_after, "
                "created_at, started_at, worker, lease_until) SELECT id, 'memory.evolve', "
                "%s, 'running', 1, '2026-01-01T00:00:00.000000+00:00', "
                "'2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00', "
                "'gone-host:1:dead', to_char((clock_timestamp() + interval '1 second') "
                "AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"') "
                "FROM personas WHERE name = 'rin' RETURNING id",
                (f'{{"key": "{memory}"}}',),
            ).fetchone()[0]
        deadline = time.monotonic() + 30
        status = "running"
        while status != "done" and time.monotonic() < deadline:
            time.sleep(0.2)
            with psycopg.connect(url, options=SEE_ALL) as conn:
                status, worker = conn.execute(
                    "SELECT status, worker FROM jobs WHERE id = %s", (job,)
                ).fetchone()
        assert status == "done"
        assert worker != "gone-host:1:dead"

"""Test helpers importable from any test module (tests/support is on the path)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from omoide.api.http.protocol import OmoideH11Protocol
from omoide.clock import Clock
from omoide.config import Settings
from omoide.embed import Embedder
from omoide.wiring import Omoide, build

__all__ = [
    "Holding",
    "LiveServer",
    "Turn",
    "chat_notes",
    "exported_lines",
    "files_holding",
    "free_port",
    "import_lines",
    "migrated_copy",
    "migrated_template",
    "refused",
    "serve_in_thread",
    "wait_for_jobs",
]

# Where a text is still stored: file names (SQLite) or "table.column" names (PostgreSQL).
Holding = Callable[[str], list[str]]


# Twelve turns of a chat that nobody ends (user Nora, assistant Haru): the idle-session and the
# context-after-end tests post it.
UNENDED_CHAT = [
    ("Nora", "user", "Guess what, I adopted a beagle puppy named Biscuit last weekend."),
    ("Haru", "assistant", "A beagle! How is Biscuit settling in?"),
    ("Nora", "user", "He chewed my favourite running shoes on the first night."),
    ("Haru", "assistant", "Oh no. Puppies do that while they are teething."),
    ("Nora", "user", "I signed him up for obedience classes at the Riverside dog school."),
    ("Haru", "assistant", "That sounds like a good idea. When do they start?"),
    ("Nora", "user", "The classes start next Tuesday and run for eight weeks."),
    ("Haru", "assistant", "Eight weeks is a solid course."),
    ("Nora", "user", "By the way, my name is Nora Lind. My neighbour Tomas has a beagle too."),
    ("Haru", "assistant", "Lovely, a friend for Biscuit."),
    ("Nora", "user", "I bought a bright red harness for Biscuit at the pet shop downtown."),
    ("Haru", "assistant", "Red will look great on him."),
]


def post_unended_chat(client: httpx.Client, persona: str, session_id: str) -> None:
    """Open ``session_id`` and post ``UNENDED_CHAT`` to it (external ids t0, t1, ...)."""
    opened = client.post(f"/api/sessions/{persona}", json={"session_id": session_id})
    assert opened.status_code == 201, opened.text
    events = [
        {"speaker": who, "role": role, "content": text, "external_id": f"t{i}"}
        for i, (who, role, text) in enumerate(UNENDED_CHAT)
    ]
    reply = client.post(f"/api/sessions/{persona}/{session_id}/events", json={"events": events})
    assert reply.json()["accepted"] == len(UNENDED_CHAT)


# A turn of a chat posted as a session event: (speaker, role, content) or, with event
# metadata, (speaker, role, content, metadata).
Turn = tuple[str, str, str] | tuple[str, str, str, dict[str, Any]]


def chat_notes(
    client: httpx.Client,
    app: Omoide,
    persona: str,
    session_id: str,
    turns: Sequence[Turn] = (),
    *,
    start: datetime | None = None,
    step_s: float = 30.0,
    first_id: int = 0,
) -> list[dict[str, Any]]:
    """A chat recorded and ended as a client does it, and the notes it left: ``turns`` posted
    to ``session_id`` (opened first; no turns: the session is there already, as the chat
    proxy records it), external ids t<first_id>, t<first_id + 1>, …, timestamped ``step_s``
    apart from ``start`` when given; then the session is ended, the persona's jobs drained,
    and its notes listed (``GET /api/memories``, newest first, up to 200)."""
    if turns:
        opened = client.post(f"/api/sessions/{persona}", json={"session_id": session_id})
        assert opened.status_code == 201, opened.text
        events = []
        for i, (speaker, role, content, *metadata) in enumerate(turns):
            event: dict[str, Any] = {
                "speaker": speaker,
                "role": role,
                "content": content,
                "external_id": f"t{first_id + i}",
            }
            if start is not None:
                event["timestamp"] = (start + timedelta(seconds=step_s * i)).isoformat()
            if metadata:
                event["metadata"] = metadata[0]
            events.append(event)
        reply = client.post(f"/api/sessions/{persona}/{session_id}/events", json={"events": events})
        assert reply.json()["accepted"] == len(events), reply.text
    ended = client.post(f"/api/sessions/{persona}/{session_id}/end")
    assert ended.status_code == 200, ended.text
    wait_for_jobs(app, persona)
    listed = client.get(f"/api/memories/{persona}", params={"limit": 200})
    assert listed.status_code == 200, listed.text
    return list(listed.json()["memories"])


def refused(reply: httpx.Response, *statuses: int) -> dict[str, Any]:
    """The error of a refused request: one of ``statuses``, in the API's one error shape."""
    assert reply.status_code in statuses, (reply.status_code, reply.text[:300])
    body = reply.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    return body["error"]


def exported_lines(client: httpx.Client, persona: str) -> list[dict[str, Any]]:
    """The persona's export as records, after writing one of each kind a test may edit: a
    session ``t1`` with one turn, a block ``b1``, the user-state ``name`` and a memory."""
    assert client.post(f"/api/sessions/{persona}", json={"session_id": "t1"}).status_code == 201
    assert (
        client.post(
            f"/api/sessions/{persona}/t1/events",
            json={"events": [{"speaker": "Ken", "content": "hello there"}]},
        ).status_code
        == 200
    )
    assert (
        client.post(f"/api/blocks/{persona}", json={"block_name": "b1", "content": "c"}).status_code
        == 200
    )
    assert client.put(f"/api/user-state/{persona}", json={"name": "Ken"}).status_code == 200
    assert (
        client.post(
            f"/api/memories/{persona}", json={"content": "Ken drinks green tea.", "tags": ["tea"]}
        ).status_code
        == 201
    )
    return [json.loads(line) for line in client.get(f"/api/export/{persona}").text.splitlines()]


def import_lines(client: httpx.Client, persona: str, lines: list[dict[str, Any]]) -> httpx.Response:
    """POST the records as an NDJSON import into ``persona``."""
    return client.post(
        f"/api/import/{persona}",
        headers={"content-type": "application/x-ndjson"},
        content="\n".join(json.dumps(r) for r in lines).encode(),
    )


def free_port() -> int:
    """A port free now, for a child process to bind (``omoide serve --port``). The kernel picks
    it at random among the free ones; a server in this process binds its own socket instead
    (:func:`serve_in_thread`)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    """A real uvicorn server in a thread, with the admin key and a client factory."""

    url: str
    admin_key: str
    omoide: Omoide

    def client(self, key: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)

    def admin(self) -> httpx.Client:
        return self.client(self.admin_key)

    def create_persona(self, name: str) -> str:
        """Create a persona through the API; returns its key."""
        with self.admin() as c:
            reply = c.post("/api/personas", json={"name": name})
            assert reply.status_code == 201, reply.text
            return str(reply.json()["api_key"])

    @contextmanager
    def signed_in(self, key: str) -> Iterator[httpx.Client]:
        """A dashboard client signed in with ``key`` (the login form, with its CSRF token)."""
        with httpx.Client(base_url=self.url, timeout=30) as client:
            csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text)
            assert csrf is not None
            signed = client.post("/login", data={"key": key, "csrf": csrf.group(1)})
            assert (signed.status_code, signed.headers.get("location")) == (303, "/"), signed.text
            yield client


class _PromptServer(uvicorn.Server):
    """uvicorn's server, stopping as soon as ``should_exit`` is set: uvicorn looks at it every
    0.1 s, which every test serving over HTTP waited for (half of it on average) on teardown."""

    _loop: asyncio.AbstractEventLoop | None = None
    _woken: asyncio.Event | None = None
    _exit = False

    @property  # type: ignore[override]
    def should_exit(self) -> bool:
        return self._exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        self._exit = value
        loop, woken = self._loop, self._woken
        if value and loop is not None and woken is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                loop.call_soon_threadsafe(woken.set)

    async def main_loop(self) -> None:
        """uvicorn's loop (a tick every 0.1 s), woken early by ``should_exit``."""
        self._woken = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown without its fixed 0.1 s pause: stop listening, ask each open
        connection to close, wait (polling every 5 ms, 10 s at most) until the connections and
        their tasks are gone, then run the app's lifespan shutdown."""
        for listening in self.servers:
            listening.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        deadline = time.monotonic() + 10
        while (
            (self.server_state.connections or self.server_state.tasks)
            and not self.force_exit
            and time.monotonic() < deadline
        ):
            await asyncio.sleep(0.005)
        for task in self.server_state.tasks:
            task.cancel()
        for listening in self.servers:
            await listening.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()


def serve_in_thread(app: object) -> tuple[uvicorn.Server, threading.Thread, str]:
    """``app`` served by uvicorn in a daemon thread, as `omoide serve` serves it; returns the
    server, its thread and its URL. The listening socket is bound here and handed to uvicorn,
    so no other process (a parallel test worker) can take the port between choosing it and
    binding it."""
    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # As uvicorn's own bind does: without it every small response waits out the client's
    # delayed ACK (~40 ms a request; a dashboard sweep took 75 s instead of 10).
    listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listening.bind(("127.0.0.1", 0))
    port = int(listening.getsockname()[1])
    server = _PromptServer(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="on",
            http=OmoideH11Protocol,
        )
    )  # as `omoide serve`
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{port}"


def wait_for_jobs(app: Omoide, persona: str, timeout: float = 60.0) -> None:
    """Block until the persona's queue is drained by the server's workers (a real model's
    jobs on a loaded machine took over 20 s)."""
    persona_id = app.store.get_persona(persona).id
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = app.jobs.counts(persona_id)
        if counts.pending + counts.running == 0:
            return
        time.sleep(0.05)
    raise AssertionError(f"jobs for {persona} not drained in {timeout} s")


def migrated_template(folder: Path) -> Path:
    """A SQLite database in ``folder`` with every migration applied and nothing else (no
    embedder record, no row): what a new data folder holds once its migrations ran."""
    from omoide.store.sqlite.db import Database

    path = folder / "omoide.db"
    Database(path).close()  # the last connection to close checkpoints and removes the WAL
    leftovers = [p.name for p in folder.iterdir() if p != path]
    assert not leftovers, f"the template left {leftovers}: it would not be one whole file"
    return path


def migrated_copy(template: Path, db_path: Path) -> None:
    """Start a new data folder's database as a copy of ``template``, with the modes the store
    gives a new one (folder 0700, file 0600); a database already there is left as it is."""
    from omoide.store.sqlite.files import private_database

    if db_path.exists():
        return
    private_database(db_path)  # creates the folder 0700 and an empty file 0600
    with template.open("rb") as source, db_path.open("r+b") as target:
        shutil.copyfileobj(source, target)


def files_holding(folder: Path, text: str) -> list[str]:
    """Names of the files under ``folder`` (database, WAL, shared memory …) whose bytes contain
    ``text`` in UTF-8: where an erased text could still be read from disk.

    Read by another process (``grep``), not this one: closing a file this process opened drops
    every POSIX lock the process holds on that file, SQLite's included, so a read of the test's
    own connection (what holds an erase's scrub back) would stop holding anything for other
    processes, and a test would pass on a checkpoint only the lost lock let run."""
    assert "\n" not in text, "grep reads a pattern per line"
    if not folder.exists():
        return []
    done = subprocess.run(
        ["grep", "-rlaF", "-e", text, "--", str(folder)],
        capture_output=True,
        env={**os.environ, "LC_ALL": "C"},  # bytes, not characters
        check=False,
    )
    if done.returncode not in (0, 1):  # 1: no file holds it
        raise AssertionError(done.stderr.decode(errors="replace"))
    return sorted(
        str(Path(name).relative_to(folder)) for name in os.fsdecode(done.stdout).splitlines()
    )


@contextmanager
def served(app: Omoide, data_dir: Path, admin_key: str) -> Iterator[LiveServer]:
    """``app`` (already built, e.g. with a chat upstream or an LLM) served over real HTTP in a
    thread, with ``admin_key``; the server stops on exit (closing ``app`` is the caller's)."""
    from omoide.api.http.app import create_app

    app.auth.ensure_admin_key(data_dir, admin_key)
    server, thread, url = serve_in_thread(create_app(app))
    try:
        yield LiveServer(url=url, admin_key=admin_key, omoide=app)
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def live_server(
    data_dir: Path,
    embedder: Embedder,
    admin_key: str,
    environ: dict[str, str] | None = None,
    clock: Clock | None = None,
) -> Iterator[LiveServer]:
    """A real server on ``data_dir`` with ``embedder`` (a real one: these tests measure
    behaviour that depends on meaning), no LLM, the given admin key, and ``environ``'s
    settings; on the system clock unless ``clock`` is given (a test that compares scores
    across requests holds it still: a note's strength, part of its score, fades with time)."""
    app = build(
        Settings.from_env(environ or {}, data_dir=data_dir),
        embedder=embedder,
        llm=None,
        clock=clock,
    )
    try:
        with served(app, data_dir, admin_key) as server:
            yield server
    finally:
        app.close()

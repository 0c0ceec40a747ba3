"""Shared fixtures: small and real. A temp data folder, a fixed clock, the deterministic hash
embedder, a wired app, and a real uvicorn server on a free port for HTTP tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import uvicorn

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import Omoide, build

SHARED_BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
def embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def make_app(data_dir: Path, clock: FixedClock, embedder: HashEmbedder
             ) -> Iterator[Callable[..., Omoide]]:
    """Build a wired Omoide on the temp data folder (same folder on each call)."""
    built: list[Omoide] = []

    def make(environ: dict[str, str] | None = None, **kwargs: object) -> Omoide:
        settings = Settings.from_env(environ or {}, data_dir=data_dir)
        kwargs.setdefault("embedder", embedder)
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("llm", None)
        app = build(settings, **kwargs)  # type: ignore[arg-type]
        built.append(app)
        return app

    yield make
    for app in built:
        app.close()


@pytest.fixture
def app(make_app: Callable[..., Omoide]) -> Omoide:
    return make_app()


@pytest.fixture
def persona(app: Omoide) -> str:
    app.auth.create_persona("rin")
    return "rin"


def free_port() -> int:
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


def serve_in_thread(app: object) -> tuple[uvicorn.Server, threading.Thread, str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,  # type: ignore[arg-type]
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{port}"


@pytest.fixture
def server(app: Omoide, data_dir: Path) -> Iterator[LiveServer]:
    from omoide.api.http.app import create_app

    admin_key = "omo_admin_test-key"
    app.auth.ensure_admin_key(data_dir, admin_key)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=admin_key, omoide=app)
    uv.should_exit = True
    thread.join(10)


def wait_for_jobs(app: Omoide, persona: str, timeout: float = 20.0) -> None:
    """Block until the persona's queue is drained by the server's workers."""
    persona_id = app.store.get_persona(persona).id
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = app.jobs.counts(persona_id)
        if counts.pending + counts.running == 0:
            return
        time.sleep(0.05)
    raise AssertionError(f"jobs for {persona} not drained in {timeout} s")

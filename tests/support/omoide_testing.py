"""Test helpers importable from any test module (tests/support is on the path)."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import uvicorn

from omoide.wiring import Omoide

__all__ = ["LiveServer", "files_holding", "free_port", "serve_in_thread", "wait_for_jobs"]


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


def files_holding(folder: Path, text: str) -> list[str]:
    """Names of the files under ``folder`` (database, WAL, shared memory …) whose bytes contain
    ``text`` in UTF-8: where an erased text could still be read from disk."""
    needle = text.encode("utf-8")
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and needle in p.read_bytes())

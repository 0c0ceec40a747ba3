"""An Omoide to measure: ``omoide serve`` with a temporary data folder, driven over HTTP exactly
as a client drives it (default parameters unless a benchmark says otherwise), or an app built
in-process on a data folder (for variants run through ``SearchService.search(..., plan=...)``).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from lib.datasets import DEFAULT_LOCOMO_DIR, LocomoConversation
from lib.reports import REPO

TURN_SPACING = timedelta(seconds=10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def local_server(
    data_dir: Path,
    embedder: str | None,
    admin_key: str,
    extra_env: Mapping[str, str] | None = None,
    src: Path | None = None,
) -> Iterator[str]:
    """``omoide serve`` on a free port with ``data_dir`` (and ``extra_env`` on top of the
    default environment); yields its URL, stops it after. With ``src``, the server is that
    source tree's (its ``src`` folder first on the path) run by this interpreter, e.g. an export
    of an older commit; otherwise the repository's installed ``omoide``."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMOIDE_")}
    env.update(OMOIDE_ADMIN_KEY=admin_key, OMOIDE_LLM_PROVIDER="none")
    if embedder:
        env["OMOIDE_EMBEDDER"] = embedder
    env.update(extra_env or {})
    command = [str(REPO / ".venv" / "bin" / "omoide")]
    if src is not None:
        env["PYTHONPATH"] = str(src / "src")
        command = [sys.executable, "-c", "from omoide.cli import main; main()"]
    log_path = data_dir.parent / "server.log"
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as server_log:
        proc = subprocess.Popen(
            [*command, "serve", "--data", str(data_dir), "--port", str(port)],
            env=env,
            stdout=server_log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, proc, log_path)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_healthy(
    url: str, proc: subprocess.Popen[bytes], log_path: Path, timeout_s: float = 180.0
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"omoide serve exited ({proc.returncode}):\n"
                + log_path.read_text(errors="replace")[-2000:]
            )
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"omoide serve did not answer /health within {timeout_s:.0f} s")


class OmoideClient:
    def __init__(self, url: str, admin_key: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=120)
        self.admin_key = admin_key

    def health(self) -> dict[str, Any]:
        return self._ok(self.http.get("/health"))

    def create_persona(self, name: str) -> str:
        reply = self._ok(
            self.http.post("/api/personas", json={"name": name}, headers=self._auth(self.admin_key))
        )
        return str(reply["api_key"])

    def put_settings(self, persona: str, key: str, patch: dict[str, Any]) -> None:
        self._ok(self.http.put(f"/api/settings/{persona}", json=patch, headers=self._auth(key)))

    def ingest_locomo(self, persona: str, key: str, conv: LocomoConversation) -> int:
        """Post every session's turns and end it; returns the number of events accepted."""
        accepted = 0
        for session in conv.sessions:
            start = (session.date_time or datetime(2023, 1, 1)).replace(tzinfo=UTC)
            sid = f"session_{session.number}"
            self._ok(
                self.http.post(
                    f"/api/sessions/{persona}",
                    headers=self._auth(key),
                    json={"session_id": sid, "started_at": start.isoformat()},
                )
            )
            events = [
                {
                    "speaker": t.speaker,
                    "role": "user",
                    "content": t.text,
                    "external_id": t.dia_id,
                    "timestamp": (start + i * TURN_SPACING).isoformat(),
                    **({"metadata": {"image_caption": t.image_caption}} if t.image_caption else {}),
                }
                for i, t in enumerate(session.turns)
            ]
            reply = self._ok(
                self.http.post(
                    f"/api/sessions/{persona}/{sid}/events",
                    json={"events": events},
                    headers=self._auth(key),
                )
            )
            accepted += int(reply["accepted"])
            self._ok(self.http.post(f"/api/sessions/{persona}/{sid}/end", headers=self._auth(key)))
        return accepted

    def drain(self, persona: str, key: str, timeout_s: float = 7200.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while True:
            jobs = self._ok(self.http.get(f"/api/jobs/{persona}", headers=self._auth(key)))
            if jobs["pending"] + jobs["running"] == 0:
                return jobs
            if time.monotonic() > deadline:
                raise RuntimeError(f"job queue of {persona} not drained: {jobs}")
            time.sleep(0.5)

    def existing_persona(self, sample_id: str) -> str:
        """The persona an earlier run made for a conversation (``locomo-<id>-<hex>``)."""
        reply = self._ok(self.http.get("/api/personas", headers=self._auth(self.admin_key)))
        names = [
            p["name"] for p in reply["personas"] if p["name"].startswith(f"locomo-{sample_id}-")
        ]
        if len(names) != 1:
            raise SystemExit(f"expected one persona locomo-{sample_id}-*, found {names}")
        return names[0]

    def search(
        self, persona: str, key: str, query: str, top_k: int, extra: dict[str, str] | None = None
    ) -> tuple[list[dict[str, Any]], float]:
        start = time.perf_counter()
        reply = self._ok(
            self.http.get(
                f"/api/search/{persona}",
                headers=self._auth(key),
                params={"q": query, "top_k": top_k, **(extra or {})},
            )
        )
        return reply["results"], (time.perf_counter() - start) * 1000

    @staticmethod
    def _auth(key: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {key}"}

    @staticmethod
    def _ok(response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise RuntimeError(
                f"{response.request.method} {response.request.url.path} → "
                f"{response.status_code}: {response.text[:500]}"
            )
        return response.json()


def open_app(data_dir: Path, embedder: str | None = None, now: datetime | None = None) -> Any:
    """The app over an existing data folder, in-process, no LLM (``omoide.wiring.build``).
    ``now`` fixes the clock: live strength depends on it, so two runs over the same folder
    rank the same only with the same ``now``."""
    from omoide.clock import FixedClock
    from omoide.config import Settings
    from omoide.wiring import build

    overrides = {"embedder": embedder} if embedder else {}
    settings = Settings.from_env({"OMOIDE_LLM_PROVIDER": "none"}, data_dir=data_dir, **overrides)
    return build(settings, llm=None, clock=None if now is None else FixedClock(now))


def kept_ingest_parser(doc: str | None, folder: str = "folder") -> argparse.ArgumentParser:
    """The options every probe of a kept LoCoMo ingest takes (``bench/locomo.py --keep``): the
    folder, the data it was ingested from, the fixed clock, the conversations and the token
    budget; a probe adds its own."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument(folder, type=Path)
    parser.add_argument("--data", type=Path, default=DEFAULT_LOCOMO_DIR)
    parser.add_argument("--now", type=datetime.fromisoformat, required=True)
    parser.add_argument("--conversations", default="26,30,41")
    parser.add_argument("--budget", type=int, default=1000)
    return parser


def index_corpus(
    app: Any, persona: str, memories: Mapping[str, str], embedder: Any
) -> list[tuple[Any, str]]:
    """Create ``persona`` on an in-process ``app`` and store each of ``memories`` (set id →
    text) as a plain memory with its passage vector: no dedup, no evolution, fresh strength,
    as a retrieval set is indexed. Returns (stored memory, set id) pairs in the set's order."""
    from omoide.engine.fsrs import initial_stability

    app.auth.create_persona(persona)
    store = app.store.memories(persona)
    vectors = embedder.embed_passages(list(memories.values()))
    return [
        (
            store.insert(
                app.memories.build_new(content=content),
                vector=vector,
                stability=initial_stability(0.0),
                now=app.clock.now(),
            ),
            memory_id,
        )
        for (memory_id, content), vector in zip(memories.items(), vectors, strict=True)
    ]

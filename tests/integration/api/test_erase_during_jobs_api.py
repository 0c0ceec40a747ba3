"""Erasing a persona (``DELETE /api/personas/{name}``) while one of its background jobs runs and
others wait: the running job is discarded with one INFO line (no failure, no traceback), the
waiting ones go with the persona, and another persona's jobs run as before."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from omoide_testing import LiveServer, served

from omoide.embed.hashing import HashEmbedder
from omoide.wiring import Omoide


class GatedEmbedder(HashEmbedder):
    """The hash embedder, except that once armed its next passage batch waits until the test
    releases it: a background job held in the middle of its handler."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.inside = threading.Event()
        self.release = threading.Event()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.armed:
            self.armed = False
            self.inside.set()
            assert self.release.wait(30), "the test never released the job"
        return super().embed_passages(texts)


@pytest.fixture
def gate() -> GatedEmbedder:
    return GatedEmbedder()


@pytest.fixture
def live(
    make_app: Callable[..., Omoide], gate: GatedEmbedder, data_dir: Path
) -> Iterator[LiveServer]:
    """A server whose workers do not run: the test runs each job in a thread of its own."""
    with served(
        make_app({"OMOIDE_WORKERS": "0"}, embedder=gate), data_dir, "omo_admin_erase-jobs"
    ) as server:
        yield server


def _jobs(live: LiveServer, persona_id: int) -> list[tuple[str, str]]:
    return [
        (r[0], r[1])
        for r in live.omoide.store.db.conn()
        .execute("SELECT kind, status FROM jobs WHERE persona_id = ?", (persona_id,))
        .fetchall()
    ]


@pytest.mark.parametrize("job", ["session.segment", "episode.consolidate"])
def test_erasing_a_persona_discards_its_running_and_queued_jobs(
    live: LiveServer, gate: GatedEmbedder, caplog: pytest.LogCaptureFixture, job: str
) -> None:
    caplog.set_level(logging.INFO, logger="omoide")
    omoide = live.omoide
    with (
        live.client(live.create_persona("rin")) as rin,
        live.client(live.create_persona("kai")) as kai,
    ):
        rin.post("/api/sessions/rin", json={"session_id": "s1"}).raise_for_status()
        turns = [
            {"speaker": "Ken", "content": f"My sister Aiko lives in Kyoto, part {i}."}
            for i in range(6)
        ]
        rin.post("/api/sessions/rin/s1/events", json={"events": turns}).raise_for_status()
        rin.post("/api/sessions/rin/s1/end").raise_for_status()
        kai.post("/api/memories/kai", json={"content": "Kai grows tomatoes."}).raise_for_status()
    rin_id = omoide.store.get_persona("rin").id
    if job == "episode.consolidate":  # segment first, so that consolidation is next
        while ("session.segment", "pending") in _jobs(live, rin_id):
            assert omoide.runner.run_once(persona_id=rin_id)
    waiting = [kind for kind, status in _jobs(live, rin_id) if status == "pending"]
    assert job in waiting
    open_jobs = len(
        [
            k
            for k, status in _jobs(live, rin_id)
            if status in ("pending", "running") and k != "decay"
        ]
    )
    gate.armed = True
    worker = threading.Thread(target=omoide.runner.run_once, kwargs={"persona_id": rin_id})
    worker.start()
    try:
        assert gate.inside.wait(20), "the job never reached its embedder"
        assert (job, "running") in _jobs(live, rin_id)
        with live.admin() as admin:
            erased = admin.delete("/api/personas/rin")
        assert erased.status_code == 200, erased.text
        assert erased.json()["jobs_discarded"] == open_jobs >= 1  # the running one among them
    finally:
        gate.release.set()
        worker.join(30)
    assert not worker.is_alive()

    discarded = [
        r for r in caplog.records if r.name == "omoide.jobs" and "discarded" in r.getMessage()
    ]
    assert len(discarded) == 1 and discarded[0].levelno == logging.INFO
    assert f"{job} persona=rin discarded: its persona" in discarded[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING
    ]
    assert not [r for r in caplog.records if r.exc_info]
    assert _jobs(live, rin_id) == []  # the queued ones went with the persona

    # Another persona is untouched: its job runs, nothing failed.
    assert omoide.runner.run_until_idle() >= 1
    with live.client(live.create_persona("rin")) as rin_again:  # a new persona of that name
        assert rin_again.get("/api/jobs/rin").json()["failures"] == []
    with live.admin() as admin:
        report = admin.get("/api/jobs/kai").json()
    assert (report["pending"], report["running"], report["failed"]) == (0, 0, 0)
    assert report["done"] >= 1 and report["failures"] == []

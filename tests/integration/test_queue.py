"""Waiting for background work is scoped by persona (QueueService, real SQLite)."""

from __future__ import annotations

import pytest

from omoide.errors import InvalidInput, NotFound
from omoide.store.sqlite.unit_of_work import enqueue
from omoide.wiring import Omoide


def backlog(app: Omoide, persona: str, n: int, kind: str = "test.backlog") -> None:
    persona_id = app.store.get_persona(persona).id
    with app.store.db.write() as conn:
        for _ in range(n):
            enqueue(conn, kind=kind, persona_id=persona_id, payload={}, now=app.clock.now())


def test_wait_runs_and_waits_for_one_persona_only(app: Omoide, persona: str) -> None:
    app.auth.create_persona("haru")
    backlog(app, "haru", 3)
    ran: list[str] = []
    app.runner.handlers["test.mine"] = lambda job: ran.append(job.persona or "")
    backlog(app, persona, 2, kind="test.mine")
    seen = []

    state = app.queue.wait(persona, timeout=5, run=True, on_progress=seen.append)

    assert state.drained and ran == [persona, persona]
    assert [s.pending for s in seen] == [2, 1, 0]
    assert app.queue.state("haru").pending == 3


def test_run_ready_leaves_other_personas_alone(app: Omoide, persona: str) -> None:
    app.auth.create_persona("haru")
    backlog(app, "haru", 3)
    app.memories.create(persona, app.memories.build_new(content="Rin grows tomatoes at home"))
    assert app.queue.run_ready(persona) == 1  # its evolution job
    assert app.queue.state(persona).drained
    assert app.queue.state("haru").pending == 3


def test_wait_times_out_and_checks_its_arguments(app: Omoide, persona: str) -> None:
    backlog(app, persona, 1)
    state = app.queue.wait(persona, timeout=0)
    assert (state.drained, state.pending) == (False, 1)
    with pytest.raises(InvalidInput):
        app.queue.wait(persona, timeout=-1)
    with pytest.raises(NotFound):
        app.queue.wait("nobody", timeout=0)

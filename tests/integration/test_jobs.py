"""The durable job queue: enqueued with the write, retried with backoff, resumed after a crash."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from omoide.clock import FixedClock
from omoide.jobs import JobRunner
from omoide.service.memories import EVOLVE_JOB
from omoide.store.sqlite.jobs import Job
from omoide.wiring import Omoide


def test_create_enqueues_evolution_in_the_same_transaction(app: Omoide, persona: str) -> None:
    app.memories.create(persona, app.memories.build_new(content="User lives in Tokyo"))
    rows = app.store.db.conn().execute("SELECT kind, status FROM jobs").fetchall()
    assert [tuple(r) for r in rows] == [(EVOLVE_JOB, "pending")]


def test_failing_job_is_retried_with_backoff_then_marked_failed(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    persona_id = app.store.get_persona(persona).id
    app.jobs.enqueue(
        kind="explode", persona_id=persona_id, payload={}, now=clock.now(), max_attempts=3
    )
    calls: list[int] = []

    def explode(job: Job) -> None:
        calls.append(job.attempts)
        raise RuntimeError("boom")

    runner = JobRunner(app.jobs, clock, {"explode": explode}, backoff_base_s=10)
    assert runner.run_once()
    assert not runner.run_once()  # backing off: not ready yet
    clock.advance(seconds=10)
    assert runner.run_once()
    clock.advance(seconds=19)
    assert not runner.run_once()
    clock.advance(seconds=1)
    assert runner.run_once()
    assert calls == [1, 2, 3]
    counts = app.jobs.counts(persona_id)
    assert (counts.pending, counts.failed) == (0, 1)
    assert app.jobs.failures(persona_id)[0]["last_error"] == "RuntimeError: boom"


def test_job_left_running_by_a_crash_completes_after_restart_exactly_once(
    make_app: Callable[..., Omoide], clock: FixedClock
) -> None:
    first = make_app()
    first.auth.create_persona("rin")
    make = first.memories.build_new
    first.memories.create("rin", make(content="User goes hiking in the Alps every summer"))
    first.runner.run_until_idle()
    key = first.memories.create(
        "rin", make(content="User goes hiking in the Alps every summer with friends")
    ).memory.key
    crashed = first.jobs.claim(now=clock.now())  # a worker took the job …
    assert crashed is not None and crashed.payload == {"key": key}
    first.close()  # … and the process died before finishing it

    second = make_app()
    persona_id = second.store.get_persona("rin").id
    assert second.jobs.counts(persona_id).running == 1
    second.runner.start()
    try:
        deadline_runs = 0
        while second.jobs.counts(persona_id).pending + second.jobs.counts(persona_id).running:
            deadline_runs += 1
            assert deadline_runs < 400
            import time

            time.sleep(0.02)
    finally:
        second.runner.stop()
    memory = second.memories.get("rin", key, recall=False)
    assert memory.evolved_at is not None
    # Running the same job again (a second crash after the effect committed) changes nothing.
    assert second.evolution.evolve("rin", key) is False
    links = second.memories.links("rin", key)
    assert all(link.co_activation_count == 1 for link in links)


def test_scheduler_keeps_one_decay_job_per_persona(app: Omoide, persona: str) -> None:
    assert app.schedule_decay() == 1
    assert app.schedule_decay() == 0
    counts = app.jobs.counts(app.store.get_persona(persona).id)
    assert (counts.pending, counts.scheduled) == (0, 1)


def test_decay_job_runs_when_due_and_reschedules(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.memories.create(persona, app.memories.build_new(content="User lives in Tokyo"))
    app.runner.run_until_idle()
    app.schedule_decay()
    clock.advance(hours=6)
    assert app.runner.run_until_idle() == 1
    rows = (
        app.store.db.conn()
        .execute("SELECT status, COUNT(*) FROM jobs WHERE kind = 'decay' GROUP BY status")
        .fetchall()
    )
    assert dict(rows) == {"done": 1, "pending": 1}
    assert app.store.last_decay_at() == clock.now()


def test_claimed_job_is_not_claimed_twice(app: Omoide, persona: str, clock: FixedClock) -> None:
    store = type(app.jobs)(app.store.db)
    store.enqueue(kind="x", persona_id=None, payload={}, now=clock.now())
    assert store.claim(now=clock.now()) is not None
    assert store.claim(now=clock.now()) is None


def test_start_up_recovery_relies_on_leases_not_pids(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """What a restart takes back at once is what no live worker can hold, on any host: an
    expired lease (even when a process with the recorded pid runs here: pids name processes of
    one host) and this process's own claims. A live lease is left alone even when no process
    here has its pid (its worker runs on another machine); it comes back if it expires."""
    import subprocess

    store = type(app.jobs)(app.store.db)
    for _ in range(3):
        store.enqueue(kind="x", persona_id=None, payload={}, now=clock.now())
    mine = store.claim(now=clock.now())  # job 1, claimed by this process's worker
    assert mine is not None and mine.id == 1
    here = subprocess.Popen(["sleep", "30"])
    gone = subprocess.Popen(["true"])
    gone.wait()
    try:
        with app.store.db.write() as conn:
            for job_id, worker, pid, lease_until in (
                (2, "elsewhere:4242:5eed", gone.pid, "9999-01-01T00:00:00+00:00"),
                (3, "elsewhere:4243:beef", here.pid, "2000-01-01T00:00:00+00:00"),
            ):
                conn.execute(
                    "UPDATE jobs SET status = 'running', worker = ?, claimed_by = ?, "
                    "lease_until = ?, attempts = 1 WHERE id = ?",
                    (worker, pid, lease_until, job_id),
                )
        assert store.recover() == 2
        rows = dict(app.store.db.conn().execute("SELECT id, status FROM jobs").fetchall())
        assert rows == {1: "pending", 2: "running", 3: "pending"}
        with app.store.db.write() as conn:  # the other host's worker stops renewing its lease
            conn.execute("UPDATE jobs SET lease_until = '2000-01-01T00:00:00+00:00' WHERE id = 2")
        assert store.recover() == 1
    finally:
        here.kill()
        here.wait()


def test_a_failed_attempt_is_logged_with_its_message(
    app: Omoide, persona: str, clock: FixedClock, caplog: pytest.LogCaptureFixture
) -> None:
    """The warning names the error and says what it was ("Conflict: session was segmented
    concurrently"), not the exception's class alone."""
    persona_id = app.store.get_persona(persona).id
    app.jobs.enqueue(kind="explode", persona_id=persona_id, payload={}, now=clock.now())

    def explode(job: Job) -> None:
        raise RuntimeError("the session was segmented concurrently")

    with caplog.at_level(logging.WARNING, logger="omoide.jobs"):
        assert JobRunner(app.jobs, clock, {"explode": explode}).run_once()
    assert "failed (pending): RuntimeError: the session was segmented concurrently" in caplog.text

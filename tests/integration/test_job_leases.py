"""Job leases: a claim holds while its worker renews it, and any process takes back a job whose
lease expired (no restart needed); periodic duties run once per interval across processes."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from omoide.clock import FixedClock
from omoide.jobs import JobRunner
from omoide.model import Job
from omoide.service.memories import EVOLVE_JOB
from omoide.wiring import Omoide


class Wall:
    """A wall clock the test moves (leases are wall time, not the application clock)."""

    def __init__(self) -> None:
        self.at = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def wall() -> Wall:
    return Wall()


def _status(app: Omoide, job_id: int) -> str:
    return str(
        app.store.db.conn().execute("SELECT status FROM jobs WHERE id = ?", (job_id,)).fetchone()[0]
    )


def test_expired_lease_is_taken_back_by_another_worker(
    app: Omoide, persona: str, clock: FixedClock, wall: Wall
) -> None:
    jobs = type(app.jobs)(app.store.db, lease_s=30, wall=wall)
    job_id = jobs.enqueue(kind="x", persona_id=None, payload={}, now=clock.now())
    held = jobs.claim(now=clock.now(), worker="a")
    assert held is not None and held.worker == "a" and held.attempts == 1
    wall.advance(29)
    assert jobs.claim(now=clock.now(), worker="b") is None  # still leased
    wall.advance(2)
    taken = jobs.claim(now=clock.now(), worker="b")
    assert taken is not None and taken.id == job_id and taken.worker == "b"
    assert taken.attempts == 2
    # The worker that lost the lease can neither finish nor fail the job any more.
    assert jobs.complete(job_id, now=clock.now(), worker="a") is False
    assert jobs.fail(held, "late", now=clock.now(), backoff_s=1) == "lost"
    assert jobs.heartbeat(held) is False
    assert _status(app, job_id) == "running"
    assert jobs.complete(job_id, now=clock.now(), worker="b") is True
    assert _status(app, job_id) == "done"


def test_a_job_whose_worker_dies_every_time_fails_after_its_attempts(
    app: Omoide, clock: FixedClock, wall: Wall
) -> None:
    jobs = type(app.jobs)(app.store.db, lease_s=30, wall=wall)
    job_id = jobs.enqueue(kind="x", persona_id=None, payload={}, now=clock.now(), max_attempts=2)
    for worker in ("a", "b"):
        assert jobs.claim(now=clock.now(), worker=worker) is not None
        wall.advance(31)  # the worker died holding it
    assert jobs.claim(now=clock.now(), worker="c") is None
    assert _status(app, job_id) == "failed"
    error = app.store.db.conn().execute("SELECT last_error FROM jobs").fetchone()[0]
    assert error == "worker lost: its lease expired on attempt 2 of 2"


def test_heartbeat_keeps_the_lease(
    app: Omoide, persona: str, clock: FixedClock, wall: Wall
) -> None:
    jobs = type(app.jobs)(app.store.db, lease_s=30, wall=wall)
    jobs.enqueue(kind="x", persona_id=None, payload={}, now=clock.now())
    held = jobs.claim(now=clock.now(), worker="a")
    assert held is not None
    for _ in range(5):
        wall.advance(20)
        assert jobs.heartbeat(held) is True
        assert jobs.claim(now=clock.now(), worker="b") is None


def test_runner_renews_its_lease_while_a_handler_runs(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    persona_id = app.store.get_persona(persona).id
    app.jobs.enqueue(kind="slow", persona_id=persona_id, payload={}, now=clock.now())
    started, release = threading.Event(), threading.Event()

    def slow(job: Job) -> None:
        started.set()
        assert release.wait(10)

    # a lease of 1.5 s, renewed every 0.5 s: a beat may come a second late on a loaded machine
    runner = JobRunner(app.jobs, clock, {"slow": slow}, lease_s=1.5)
    thread = threading.Thread(target=runner.run_once)
    thread.start()
    try:
        assert started.wait(10)
        other = type(app.jobs)(app.store.db, lease_s=1.5)
        deadline = time.monotonic() + 3.0  # two leases long: the first ran out unrenewed
        while time.monotonic() < deadline:
            assert other.claim(now=clock.now(), worker="thief") is None
            time.sleep(0.05)
    finally:
        release.set()
        thread.join(10)
    counts = app.jobs.counts(persona_id)
    assert (counts.running, counts.done) == (0, 1)


def test_evolution_taken_back_after_an_expired_lease_applies_once(
    app: Omoide, persona: str, clock: FixedClock, wall: Wall
) -> None:
    make = app.memories.build_new
    app.memories.create(persona, make(content="User goes hiking in the Alps every summer"))
    app.runner.run_until_idle()
    key = app.memories.create(
        persona, make(content="User goes hiking in the Alps every summer with friends")
    ).memory.key
    jobs = type(app.jobs)(app.store.db, lease_s=30, wall=wall)
    first = jobs.claim(now=clock.now(), worker="a")
    assert first is not None and first.kind == EVOLVE_JOB
    assert app.evolution.evolve(persona, key) is not False  # worker a applied the effect …
    wall.advance(31)  # … then hung past its lease before recording completion
    second = jobs.claim(now=clock.now(), worker="b")
    assert second is not None and second.id == first.id
    assert app.evolution.evolve(persona, key) is False  # the re-run changes nothing
    assert jobs.complete(second.id, now=clock.now(), worker="b")
    assert not jobs.complete(first.id, now=clock.now(), worker="a")
    assert all(link.co_activation_count == 1 for link in app.memories.links(persona, key))


def test_periodic_duty_is_claimed_once_per_interval(app: Omoide, wall: Wall) -> None:
    a = type(app.jobs)(app.store.db, wall=wall)
    b = type(app.jobs)(app.store.db, wall=wall)
    assert a.claim_periodic("tick", every_s=60, worker="a") is True
    assert b.claim_periodic("tick", every_s=60, worker="b") is False
    wall.advance(59)
    assert a.claim_periodic("tick", every_s=60, worker="a") is False
    assert b.claim_periodic("tick", every_s=60, worker="b") is False
    wall.advance(1)
    assert b.claim_periodic("tick", every_s=60, worker="b") is True
    assert a.claim_periodic("tick", every_s=60, worker="a") is False
    assert a.claim_periodic("other", every_s=60, worker="a") is True  # per duty name


def test_two_schedulers_share_one_tick_per_interval(app: Omoide, clock: FixedClock) -> None:
    """Two runners on one database (as two processes would be): scheduled ticks run once per
    interval in total, a forced tick always runs."""
    ran: list[str] = []
    runners = [
        JobRunner(app.jobs, clock, {}, tick=lambda n=n: ran.append(n), tick_every_s=30.0)
        for n in ("a", "b")
    ]
    for runner in runners:
        runner.start()
    try:
        deadline = time.monotonic() + 30
        while not all(runner._scheduler and runner._scheduler.ticks_done for runner in runners):
            assert time.monotonic() < deadline, ran
            time.sleep(0.02)
        assert len(ran) == 1  # both schedulers have had their first turn: one ticked
        assert runners[1].tick_now()
        assert len(ran) == 2 and ran[-1] == "b"
    finally:
        for runner in runners:
            runner.stop()


def test_decay_is_queued_once_however_many_schedulers(app: Omoide, persona: str) -> None:
    assert app.maintenance.schedule_decay() == 1
    assert app.maintenance.schedule_decay() == 0
    counts = app.jobs.counts(app.store.get_persona(persona).id)
    assert counts.scheduled == 1


def test_lease_setting_is_validated() -> None:
    from omoide.config import Settings
    from omoide.errors import InvalidInput

    assert Settings.from_env({}).job_lease_s == 60.0
    assert Settings.from_env({"OMOIDE_JOB_LEASE_SECONDS": "2.5"}).job_lease_s == 2.5
    for bad in ("soon", "0", "-3"):
        with pytest.raises(InvalidInput, match="OMOIDE_JOB_LEASE_SECONDS"):
            Settings.from_env({"OMOIDE_JOB_LEASE_SECONDS": bad})


def test_leases_follow_the_clock_every_server_shares(
    app: Omoide, persona: str, clock: FixedClock, store_kind: str
) -> None:
    """A lease ends at the shared clock's time plus the lease length: PostgreSQL's clock (servers
    on several machines share it, whatever their own clocks say), or, for SQLite's one-machine
    file, that machine's."""

    def shared_now() -> datetime:
        if store_kind == "postgres":
            value: datetime = app.store.db.conn().execute("SELECT clock_timestamp()").fetchone()[0]
            return value
        return datetime.now(UTC)

    jobs = type(app.jobs)(app.store.db, lease_s=30)
    jobs.enqueue(kind="x", persona_id=None, payload={}, now=clock.now())
    before = shared_now()
    held = jobs.claim(now=clock.now(), worker="a")
    after = shared_now()
    assert held is not None
    until = datetime.fromisoformat(
        app.store.db.conn()
        .execute("SELECT lease_until FROM jobs WHERE id = ?", (held.id,))
        .fetchone()[0]
    )
    assert before + timedelta(seconds=30) <= until <= after + timedelta(seconds=30)


def test_evolution_runs_one_memory_at_a_time_per_persona_in_order(
    app: Omoide, persona: str, clock: FixedClock, wall: Wall
) -> None:
    """A new memory closes only the nearest older memory it contradicts, so evolutions of one
    persona must run in the order the memories were written: four moves evolved by four workers
    at once each closed a different one and left two places current. An in-order kind waits for
    the persona's older job of its kind; other kinds and other personas do not wait."""
    assert app.jobs.in_order == (EVOLVE_JOB,)  # what the server runs with
    jobs = type(app.jobs)(app.store.db, lease_s=30, wall=wall, in_order=(EVOLVE_JOB,))
    app.auth.create_persona("kai")
    rin, kai = app.store.get_persona(persona).id, app.store.get_persona("kai").id
    now = clock.now()
    first = jobs.enqueue(
        kind=EVOLVE_JOB, persona_id=rin, payload={"key": "a"}, now=now, max_attempts=1
    )
    second = jobs.enqueue(kind=EVOLVE_JOB, persona_id=rin, payload={"key": "b"}, now=now)
    third = jobs.enqueue(kind=EVOLVE_JOB, persona_id=rin, payload={"key": "c"}, now=now)
    other_kind = jobs.enqueue(kind="x", persona_id=rin, payload={}, now=now)
    other_persona = jobs.enqueue(kind=EVOLVE_JOB, persona_id=kai, payload={"key": "k"}, now=now)
    held = jobs.claim(now=now, worker="w1")
    assert held is not None and held.id == first
    claimed = {
        job.id
        for job in (jobs.claim(now=now, worker=w) for w in ("w2", "w3", "w4"))
        if job is not None
    }
    assert claimed == {other_kind, other_persona}  # rin's later evolutions wait
    assert jobs.fail(held, "boom", now=now, backoff_s=1) == "failed"  # a failed one holds none
    taken = jobs.claim(now=now, worker="w2")
    assert taken is not None and taken.id == second
    assert jobs.claim(now=now, worker="w3") is None
    assert jobs.complete(second, now=now, worker="w2")
    taken = jobs.claim(now=now, worker="w3")
    assert taken is not None and taken.id == third


def test_an_evolution_waiting_out_its_backoff_holds_the_personas_later_ones(
    app: Omoide, persona: str, clock: FixedClock, wall: Wall
) -> None:
    """docs/jobs.md: a retrying evolution keeps its persona's later evolutions waiting until it
    succeeds or fails for good (the order a close relies on), then they run in order."""
    jobs = type(app.jobs)(app.store.db, lease_s=30, wall=wall, in_order=(EVOLVE_JOB,))
    rin = app.store.get_persona(persona).id
    now = clock.now()
    first = jobs.enqueue(kind=EVOLVE_JOB, persona_id=rin, payload={"key": "a"}, now=now)
    second = jobs.enqueue(kind=EVOLVE_JOB, persona_id=rin, payload={"key": "b"}, now=now)
    held = jobs.claim(now=now, worker="w1")
    assert held is not None and held.id == first
    assert jobs.fail(held, "boom", now=now, backoff_s=2) == "pending"
    assert jobs.claim(now=now, worker="w2") is None  # the later one waits out the backoff too
    later = now + timedelta(seconds=2)
    retried = jobs.claim(now=later, worker="w2")
    assert retried is not None and retried.id == first and retried.attempts == 2
    assert jobs.complete(first, now=later, worker="w2")
    taken = jobs.claim(now=later, worker="w3")
    assert taken is not None and taken.id == second

"""SqliteStore.decay_all against a real SQLite file: engine values, scoping, last_decay_at."""

from __future__ import annotations

from datetime import timedelta

import pytest

from omoide.clock import FixedClock, iso
from omoide.engine.fsrs import strength
from omoide.model import NewMemory
from omoide.wiring import Omoide


def add(app: Omoide, persona: str, content: str, *, importance: float, stability: float) -> int:
    store = app.store.memories(persona)
    vector = app.embedder.embed_passages([content])[0]
    memory = store.insert(
        NewMemory(content=content, importance=importance),
        vector=vector,
        stability=stability,
        now=app.clock.now(),
    )
    return store.id_of(memory.key)


def stored(app: Omoide, memory_id: int) -> tuple[float, str]:
    row = (
        app.store.db.conn()
        .execute(
            "SELECT strength, last_decay_at FROM memory_strength WHERE memory_id = ?", (memory_id,)
        )
        .fetchone()
    )
    return float(row[0]), str(row[1])


def test_decay_all_stores_the_engine_strength_for_each_memory(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    ids = [
        add(app, persona, f"memory number {i}", importance=0.2 + 0.1 * i, stability=stability)
        for i, stability in enumerate((1.0, 5.0, 10.0, 365.0))
    ]
    clock.advance(days=3, hours=5)
    assert app.store.decay_all(now=clock.now()) == 4
    for i, (memory_id, stability) in enumerate(zip(ids, (1.0, 5.0, 10.0, 365.0), strict=True)):
        value, stamp = stored(app, memory_id)
        assert value == pytest.approx(strength(0.2 + 0.1 * i, 3 + 5 / 24, stability), rel=1e-9)
        assert stamp == iso(clock.now())


def test_decay_all_counts_from_last_access_when_there_is_one(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    memory_id = add(app, persona, "recalled memory", importance=1.0, stability=1.0)
    clock.advance(days=10)
    app.store.db.conn().execute(
        "UPDATE memories SET last_accessed = ? WHERE id = ?",
        (iso(clock.now() - timedelta(days=1)), memory_id),
    )
    app.store.decay_all(now=clock.now())
    assert stored(app, memory_id)[0] == pytest.approx(20**-0.5)


def test_decay_all_treats_a_future_access_as_no_time_elapsed(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    memory_id = add(app, persona, "clock skew", importance=0.6, stability=1.0)
    app.store.db.conn().execute(
        "UPDATE memories SET last_accessed = ? WHERE id = ?",
        (iso(clock.now() + timedelta(hours=5)), memory_id),
    )
    app.store.decay_all(now=clock.now())
    assert stored(app, memory_id)[0] == pytest.approx(0.6)


def test_decay_all_for_one_persona_leaves_the_others_alone(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.auth.create_persona("other")
    mine = add(app, persona, "mine", importance=0.8, stability=1.0)
    theirs = add(app, "other", "theirs", importance=0.8, stability=1.0)
    before = stored(app, theirs)
    clock.advance(days=1)
    assert app.store.decay_all(now=clock.now(), persona=persona) == 1
    assert stored(app, mine)[0] == pytest.approx(0.8 * 20**-0.5)
    assert stored(app, theirs) == before


def test_decay_all_of_an_empty_store_is_zero(app: Omoide, clock: FixedClock) -> None:
    assert app.store.decay_all(now=clock.now()) == 0

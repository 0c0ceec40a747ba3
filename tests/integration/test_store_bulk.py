"""MemoryStore.insert_many against a real SQLite file: the same rows as insert, one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import numpy as np
import psycopg
import pytest

from omoide.clock import FixedClock
from omoide.model import NewMemory
from omoide.store.sqlite.memories import MemoryStore
from omoide.wiring import Omoide

NEWS = (
    NewMemory(content="User lives in Tokyo with a cat named Miso", tags=("home",), importance=0.7),
    NewMemory(
        content="らうらうは三毛猫のミケを飼っている", emotion_intensity=0.8, emotion_type="joy"
    ),
    NewMemory(content="Haru prefers green tea in the morning", metadata={"origin": "import"}),
)


def bulk(
    app: Omoide,
    persona: str,
    news: tuple[NewMemory, ...] = NEWS,
    stabilities: tuple[float, ...] = (1.0, 10.0, 1.0),
) -> MemoryStore:
    store = app.store.memories(persona)
    vectors = app.embedder.embed_passages([n.content for n in news])
    store.insert_many(news, vectors, stabilities=stabilities, now=app.clock.now())
    return store


def count(app: Omoide, table: str) -> int:
    return int(app.store.db.conn().execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def test_insert_many_writes_memory_strength_version_fts_and_vector_rows(
    app: Omoide, persona: str
) -> None:
    bulk(app, persona)
    for table in (
        "memories",
        "memory_strength",
        "memory_versions",
        "memory_vectors",
        "memories_fts",
        "memories_fts_tri",
    ):
        assert count(app, table) == 3, table


def test_insert_many_returns_memories_in_input_order(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    store = app.store.memories(persona)
    vectors = app.embedder.embed_passages([n.content for n in NEWS])
    made = store.insert_many(NEWS, vectors, stabilities=[1.0, 10.0, 1.0], now=clock.now())
    assert [m.content for m in made] == [n.content for n in NEWS]
    assert [m.stability for m in made] == [1.0, 10.0, 1.0]
    assert [m.strength for m in made] == [0.7, 0.5, 0.5]
    assert made[0].tags == ("home",)
    assert made[1].emotion_type == "joy"
    assert made[2].metadata == {"origin": "import"}
    assert len({m.key for m in made}) == 3
    assert all(m.created_at == clock.now() for m in made)


def test_insert_many_version_image_matches_single_insert(app: Omoide, persona: str) -> None:
    app.auth.create_persona("other")
    single = app.store.memories("other")
    vector = app.embedder.embed_passages([NEWS[0].content])[0]
    one = single.insert(NEWS[0], vector=vector, stability=1.0, now=app.clock.now())
    store = app.store.memories(persona)
    made = store.insert_many(NEWS[:1], vector[None, :], stabilities=[1.0], now=app.clock.now())
    [version] = store.history(made[0].key)
    assert version.after == single.history(one.key)[0].after
    assert version.change == "create"
    assert version.version == 1


def test_insert_many_memories_are_found_by_keyword_and_vector_search(
    app: Omoide, persona: str
) -> None:
    store = bulk(app, persona)
    tokyo = store.keyword_search("Tokyo", limit=5)
    mike = store.keyword_search("三毛猫", limit=5)
    assert len(tokyo) == 1
    assert len(mike) == 1
    query = app.embedder.embed_query("Haru prefers green tea in the morning")
    best_id, best_cos = store.vectors.search(query, limit=1)[0]
    assert store.by_ids([best_id])[best_id].content == "Haru prefers green tea in the morning"
    assert best_cos > 0.99


def test_insert_many_is_seen_by_a_fresh_vector_index(
    app: Omoide, persona: str, make_app: Callable[..., Omoide]
) -> None:
    bulk(app, persona)
    reopened = make_app()
    assert len(reopened.store.memories(persona).vectors) == 3


def test_insert_many_continues_ids_after_single_inserts(app: Omoide, persona: str) -> None:
    store = app.store.memories(persona)
    vector = app.embedder.embed_passages(["first one by one"])[0]
    store.insert(
        NewMemory(content="first one by one"), vector=vector, stability=1.0, now=app.clock.now()
    )
    bulk(app, persona)
    ids = [r[0] for r in app.store.db.conn().execute("SELECT id FROM memories ORDER BY id")]
    assert ids == [1, 2, 3, 4]


def test_insert_many_writes_nothing_when_one_row_fails(app: Omoide, persona: str) -> None:
    broken = (*NEWS[:2], NewMemory(content="points at a missing event", source_event_ids=(999,)))
    with pytest.raises((sqlite3.IntegrityError, psycopg.IntegrityError)):
        bulk(app, persona, broken)
    for table in ("memories", "memory_strength", "memory_vectors", "memories_fts"):
        assert count(app, table) == 0, table
    assert len(app.store.memories(persona).vectors) == 0


def test_insert_many_rejects_lengths_that_differ(app: Omoide, persona: str) -> None:
    store = app.store.memories(persona)
    with pytest.raises(ValueError, match="same length"):
        store.insert_many(
            NEWS, np.zeros((2, app.embedder.dim)), stabilities=[1.0] * 3, now=app.clock.now()
        )


def test_insert_many_of_nothing_writes_nothing(app: Omoide, persona: str) -> None:
    store = app.store.memories(persona)
    assert (
        store.insert_many([], np.zeros((0, app.embedder.dim)), stabilities=[], now=app.clock.now())
        == []
    )
    assert count(app, "memories") == 0


def test_keyword_search_keeps_to_the_persona_and_to_active_notes(app: Omoide, persona: str) -> None:
    """The notes' keyword index is keyed by persona on SQLite: another persona's notes with
    the same words are not found, and a tombstoned note stays out even when its content is
    changed afterwards."""
    app.auth.create_persona("other")
    store, other = bulk(app, persona), bulk(app, "other")
    tokyo = store.keyword_search("Tokyo", limit=5)
    [theirs] = other.keyword_search("Tokyo", limit=5)
    [hit] = tokyo
    assert hit.rowid != theirs.rowid
    key = store.by_ids([hit.rowid])[hit.rowid].key
    store.tombstone(key, now=app.clock.now())
    store.update(
        key,
        {"content": "User lives in Tokyo near the river"},
        now=app.clock.now(),
        changed_by="user",
    )
    assert store.keyword_search("Tokyo", limit=5) == []
    assert store.keyword_search("river", limit=5) == []

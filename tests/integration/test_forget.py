"""Forgetting against a real SQLite folder: a purge, a deleted conversation and a deleted
persona leave the erased text nowhere in the data folder's bytes (database, WAL, shm)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from omoide_testing import files_holding

from omoide.clock import FixedClock
from omoide.errors import NotFound
from omoide.wiring import Omoide

PIN = "ZQXJV-4827"  # a marker no other text in the folder contains


def create(app: Omoide, persona: str, content: str, **fields: Any) -> Any:
    return app.memories.create(persona, app.memories.build_new(content=content, **fields))


def test_purge_erases_every_trace_of_the_memory(app: Omoide, persona: str, data_dir: Path,
                                                clock: FixedClock) -> None:
    old = create(app, persona, "The user's bank PIN is 1111").memory
    secret = create(app, persona, f"The user's bank PIN is now {PIN}", tags=["pin-" + PIN],
                    metadata={"note": PIN}).memory
    app.memories.update(persona, secret.key, content=f"The user's bank PIN is {PIN} (new card)")
    memories = app.store.memories(persona)
    old_id, secret_id = memories.id_of(old.key), memories.id_of(secret.key)
    # As evolution would: a link both ways, summary_ref, and the old fact closed by the secret.
    memories.apply_evolution(secret.key, now=clock.now(), neighbour_ids=[old_id],
                             link_increment=0.2, link_cap=1.0, extends=[],
                             supersedes=[(old_id, clock.now())])
    assert files_holding(data_dir, PIN)

    app.memories.purge(persona, secret.key)

    assert files_holding(data_dir, PIN) == []
    conn = app.store.db.conn()
    for table, column in [("memories", "id"), ("memory_versions", "memory_id"),
                          ("memory_strength", "memory_id"), ("memory_vectors", "memory_id"),
                          ("memory_tags", "memory_id"), ("memory_links", "a"),
                          ("memory_links", "b"), ("memories_fts", "rowid"),
                          ("memories_fts_tri", "rowid")]:
        assert conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?",
                            (secret_id,)).fetchone()[0] == 0, table
    assert conn.execute("SELECT COUNT(*) FROM jobs WHERE payload LIKE ?",
                        (f"%{secret.key}%",)).fetchone()[0] == 0
    with pytest.raises(NotFound):
        app.memories.get(persona, secret.key)
    survivor = app.memories.get(persona, old.key, recall=False)
    assert (survivor.superseded_by, survivor.summary_ref, survivor.links) == (None, None, ())
    last = app.memories.history(persona, old.key)[-1]
    assert (last.changed_by, last.after["superseded_by"]) == ("forget", None)
    assert app.store.memories(persona).vectors.get(secret_id) is None


def test_purge_keeps_other_memories_searchable(app: Omoide, persona: str,
                                               data_dir: Path) -> None:
    keep = create(app, persona, "The user grows tomatoes on the balcony").memory
    secret = create(app, persona, f"Door code {PIN} for the office").memory
    app.memories.purge(persona, secret.key)
    request = app.search.build_request(persona, query="tomatoes balcony", mode="keyword")
    assert [h.id for h in app.search.search(persona, request).results] == [keep.key]
    request = app.search.build_request(persona, query=f"door code {PIN}", mode="keyword")
    assert app.search.search(persona, request).results == []
    assert app.memories.stats(persona).total == 1


def test_purge_of_a_tombstoned_memory_erases_it_too(app: Omoide, persona: str,
                                                    data_dir: Path) -> None:
    secret = create(app, persona, f"Locker combination {PIN}").memory
    app.memories.delete(persona, secret.key)
    assert files_holding(data_dir, PIN)  # a tombstone keeps the text (and its history)
    app.memories.purge(persona, secret.key)
    assert files_holding(data_dir, PIN) == []


def test_purge_of_an_unknown_key_is_not_found(app: Omoide, persona: str) -> None:
    with pytest.raises(NotFound):
        app.memories.purge(persona, "mem_doesnotexist")
    with pytest.raises(NotFound):
        app.memories.purge("nobody", "mem_doesnotexist")

"""Forgetting against a real SQLite folder: a purge, a deleted conversation and a deleted
persona leave the erased text nowhere in the data folder's bytes (database, WAL, shm)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from omoide_testing import Holding

from omoide.clock import FixedClock
from omoide.errors import NotFound, Unauthorized
from omoide.wiring import Omoide

PIN = "ZQXJV-4827"  # a marker no other text in the folder contains


def create(app: Omoide, persona: str, content: str, **fields: Any) -> Any:
    return app.memories.create(persona, app.memories.build_new(content=content, **fields))


def test_purge_erases_every_trace_of_the_memory(
    app: Omoide, persona: str, holding: Holding, clock: FixedClock
) -> None:
    old = create(app, persona, "The user's bank PIN is 1111").memory
    secret = create(
        app,
        persona,
        f"The user's bank PIN is now {PIN}",
        tags=["pin-" + PIN],
        metadata={"note": PIN},
    ).memory
    app.memories.update(persona, secret.key, content=f"The user's bank PIN is {PIN} (new card)")
    memories = app.store.memories(persona)
    old_id, secret_id = memories.id_of(old.key), memories.id_of(secret.key)
    # As evolution would: a link both ways, summary_ref, and the old fact closed by the secret.
    memories.apply_evolution(
        secret.key,
        now=clock.now(),
        neighbour_ids=[old_id],
        link_increment=0.2,
        link_cap=1.0,
        extends=[],
        supersedes=[(old_id, clock.now())],
    )
    assert holding(PIN)

    app.memories.purge(persona, secret.key)

    assert holding(PIN) == []
    conn = app.store.db.conn()
    for table, column in [
        ("memories", "id"),
        ("memory_versions", "memory_id"),
        ("memory_strength", "memory_id"),
        ("memory_vectors", "memory_id"),
        ("memory_tags", "memory_id"),
        ("memory_links", "a"),
        ("memory_links", "b"),
        ("memories_fts", "rowid"),
        ("memories_fts_tri", "rowid"),
    ]:
        assert (
            conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (secret_id,)
            ).fetchone()[0]
            == 0
        ), table
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM jobs WHERE payload LIKE ?", (f"%{secret.key}%",)
        ).fetchone()[0]
        == 0
    )
    with pytest.raises(NotFound):
        app.memories.get(persona, secret.key)
    survivor = app.memories.get(persona, old.key, recall=False)
    assert (survivor.superseded_by, survivor.summary_ref, survivor.links) == (None, None, ())
    last = app.memories.history(persona, old.key)[-1]
    assert (last.changed_by, last.after["superseded_by"]) == ("forget", None)
    assert app.store.memories(persona).vectors.get(secret_id) is None


def test_purge_takes_back_the_tags_its_evolution_merged_into_older_memories(
    app: Omoide, persona: str, holding: Holding, clock: FixedClock
) -> None:
    old = create(app, persona, "The user keeps a diary", tags=["diary"], importance=0.3).memory
    secret = create(
        app,
        persona,
        f"The user hides the diary key, code {PIN}",
        tags=["diary", "pin-" + PIN],
        importance=0.9,
    ).memory
    later = create(
        app, persona, "The user writes in the diary every night", tags=["habit"], importance=0.5
    ).memory
    memories = app.store.memories(persona)
    old_id = memories.id_of(old.key)
    # As evolution judging both EXTENDABLE would: tags merged, importance raised to the max.
    memories.apply_evolution(
        secret.key,
        now=clock.now(),
        neighbour_ids=[],
        link_increment=0.2,
        link_cap=1.0,
        extends=[(old_id, ("diary", "pin-" + PIN), 0.9)],
        supersedes=[],
    )
    clock.advance(seconds=1)
    memories.apply_evolution(
        later.key,
        now=clock.now(),
        neighbour_ids=[],
        link_increment=0.2,
        link_cap=1.0,
        extends=[(old_id, ("diary", "pin-" + PIN, "habit"), 0.9)],
        supersedes=[],
    )
    assert app.memories.get(persona, old.key, recall=False).tags == ("diary", "pin-" + PIN, "habit")

    app.memories.purge(persona, secret.key)

    assert holding(PIN) == []  # not in the tags, the tag index, nor any version's image
    kept = app.memories.get(persona, old.key, recall=False)
    assert (kept.tags, kept.importance) == (("diary", "habit"), 0.3)
    history = app.memories.history(persona, old.key)
    assert [(v.change, v.changed_by) for v in history] == [
        ("create", "user"),
        ("extend", "evolution"),
        ("update", "forget"),
    ]
    assert history[1].after["tags"] == ["diary", "habit"]  # the later extend keeps its own tag
    tags = (
        app.store.db.conn()
        .execute("SELECT tag FROM memory_tags WHERE memory_id = ? ORDER BY tag", (old_id,))
        .fetchall()
    )
    assert [r[0] for r in tags] == ["diary", "habit"]  # the index tag filters read


def test_purge_takes_the_remainders_split_off_from_the_memory_with_it(
    app: Omoide, persona: str, holding: Holding
) -> None:
    def split_off(content: str, source_ref: str) -> Any:  # as evolution writes a remainder
        new = replace(
            app.memories.build_new(content=content), source="evolution", source_ref=source_ref
        )
        return app.memories.create(persona, new).memory

    source = create(app, persona, f"The user's locker code is {PIN} and she swims on Fridays")
    first = split_off(f"Her locker code is {PIN}", source.memory.key)
    second = split_off(f"The gym locker opens with {PIN} since spring", first.key)
    other = split_off("The user keeps bees on the roof", "mem_0000000000000000")

    also = app.memories.purge(persona, source.memory.key).also

    assert sorted(also) == sorted([first.key, second.key])
    assert holding(PIN) == []
    assert app.memories.get(persona, other.key, recall=False).content == other.content
    assert app.memories.purge(persona, other.key).also == ()


def test_evolution_writes_no_remainder_of_a_memory_purged_while_it_judged(
    app: Omoide, persona: str, holding: Holding, clock: FixedClock
) -> None:
    """Evolution reads a compound memory, judges part of it contradicted and splits off the
    unchanged part; the user purges the compound memory before evolution writes. The
    remainder (part of the purged text) must not be written back, and the other effects on
    the memory are skipped; a remainder whose conversation was erased loses those sources."""
    old = create(app, persona, f"The user's locker code is {PIN} and she swims on Fridays")
    new = create(app, persona, "The user stopped swimming this year").memory
    kept = create(app, persona, "The user walks to work and cycles on Sundays").memory
    memories = app.store.memories(persona)
    old_id, kept_id = memories.id_of(old.memory.key), memories.id_of(kept.key)

    def split(content: str, of: str, events: tuple[int, ...] = ()) -> Any:
        part = replace(
            app.memories.build_new(content=content),
            source="evolution",
            source_ref=of,
            source_event_ids=events,
        )
        return part, app.embedder.embed_passages([content])[0], 1.0

    app.memories.purge(persona, old.memory.key)  # committed while evolution was judging

    assert memories.apply_evolution(
        new.key,
        now=clock.now(),
        neighbour_ids=[],
        link_increment=0.2,
        link_cap=1.0,
        extends=[],
        supersedes=[(old_id, clock.now()), (kept_id, clock.now())],
        remainders=[
            split(f"Her locker code is {PIN}", old.memory.key),
            split("The user walks to work", kept.key, events=(987654,)),
        ],
    )

    assert holding(PIN) == []
    listed = {m.content: m for m in app.memories.list_recent(persona, limit=10)}
    assert set(listed) == {new.content, kept.content, "The user walks to work"}
    assert listed["The user walks to work"].sources == ()  # no such turn (erased)


def test_purge_keeps_other_memories_searchable(app: Omoide, persona: str, data_dir: Path) -> None:
    keep = create(app, persona, "The user grows tomatoes on the balcony").memory
    secret = create(app, persona, f"Door code {PIN} for the office").memory
    app.memories.purge(persona, secret.key)
    request = app.search.build_request(persona, query="tomatoes balcony", mode="keyword")
    assert [h.id for h in app.search.search(persona, request).results] == [keep.key]
    request = app.search.build_request(persona, query=f"door code {PIN}", mode="keyword")
    assert app.search.search(persona, request).results == []
    assert app.memories.stats(persona).total == 1


def test_purge_of_a_tombstoned_memory_erases_it_too(
    app: Omoide, persona: str, holding: Holding
) -> None:
    secret = create(app, persona, f"Locker combination {PIN}").memory
    app.memories.delete(persona, secret.key)
    assert holding(PIN)  # a tombstone keeps the text (and its history)
    app.memories.purge(persona, secret.key)
    assert holding(PIN) == []


def test_purge_of_an_unknown_key_is_not_found(app: Omoide, persona: str) -> None:
    with pytest.raises(NotFound):
        app.memories.purge(persona, "mem_doesnotexist")
    with pytest.raises(NotFound):
        app.memories.purge("nobody", "mem_doesnotexist")


TURNS = [
    {"speaker": "Ken", "content": "Hi, I just moved to Kyoto last month."},
    {"speaker": "Omoide", "role": "assistant", "content": "Welcome to Kyoto! How is it?"},
    {"speaker": "Ken", "content": f"Great. My favourite food is {PIN} ramen from the corner shop."},
    {"speaker": "Ken", "content": "Do you know what QWPMX-77 means, by the way?"},
    {"speaker": "Omoide", "role": "assistant", "content": "Nice!"},
]


def converse(app: Omoide, persona: str, session_id: str, turns: list[dict[str, Any]]) -> None:
    app.sessions.open(persona, session_id=session_id)
    app.sessions.record(persona, session_id, turns)
    app.sessions.end(persona, session_id)
    app.runner.run_until_idle()


def test_deleting_a_conversation_with_its_notes_erases_its_text(
    app: Omoide, persona: str, holding: Holding
) -> None:
    converse(app, persona, "s1", TURNS)
    converse(app, persona, "s2", [{"speaker": "Ken", "content": "I play the saxophone."}])
    notes = [key for _, keys in app.sessions.episodes(persona, "s1") for key in keys]
    assert notes and holding(PIN) and holding("QWPMX-77")

    erased = app.forget.delete_session(persona, "s1", with_notes=True)

    assert (erased.events, sorted(erased.keys)) == (len(TURNS), sorted(notes))
    assert holding(PIN) == [] and holding("QWPMX-77") == []
    with pytest.raises(NotFound):
        app.sessions.episodes(persona, "s1")
    assert app.sessions.episodes(persona, "s2")  # the other conversation is untouched
    request = app.search.build_request(persona, query="saxophone", include_episodes=True)
    assert app.search.search(persona, request).results
    request = app.search.build_request(persona, query="Kyoto ramen", include_episodes=True)
    assert all("Kyoto" not in hit.content for hit in app.search.search(persona, request).results)


def test_deleting_a_conversation_keeps_its_notes_unless_asked(
    app: Omoide, persona: str, holding: Holding
) -> None:
    converse(app, persona, "s1", TURNS)
    notes = [key for _, keys in app.sessions.episodes(persona, "s1") for key in keys]

    erased = app.forget.delete_session(persona, "s1")

    assert erased.keys == () and erased.episodes == 1
    assert holding("QWPMX-77") == []  # a turn that became no note
    for key in notes:
        kept = app.memories.get(persona, key, recall=False)
        assert (kept.sources, kept.source_ref) == ((), None)
    conn = app.store.db.conn()
    for table in (
        "session_events",
        "episodes",
        "sessions",
        "session_events_fts",
        "episodes_fts",
        "event_vectors",
        "episode_vectors",
    ):
        assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0, table
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM jobs WHERE kind IN ('session.segment', 'episode.consolidate')"
        ).fetchone()[0]
        == 0
    )


def test_deleting_an_unknown_conversation_is_not_found(app: Omoide, persona: str) -> None:
    with pytest.raises(NotFound):
        app.forget.delete_session(persona, "nope")
    with pytest.raises(NotFound):
        app.forget.delete_session("nobody", "nope")


@pytest.mark.sqlite_only
def test_deleting_a_persona_erases_every_row_keyed_by_it(app: Omoide, holding: Holding) -> None:
    _, other_key = app.auth.create_persona("haru")
    create(app, "haru", "Haru likes green tea")
    persona = "mika"
    _, key = app.auth.create_persona(persona)
    create(app, persona, f"The user's PIN is {PIN}", tags=[PIN])
    converse(app, persona, "s1", TURNS)
    app.blocks.write_block(persona, block_name="secrets", content=f"PIN {PIN}")
    app.state.update_user_state(persona, {"pin": PIN})
    app.state.update_persona_state(persona, {"mood": PIN})
    persona_id = app.store.get_persona(persona).id
    app.store.memories(persona).vectors  # noqa: B018 — a cached handle must not survive

    erased = app.forget.delete_persona(persona)

    assert erased.memories >= 2 and erased.sessions == 1
    assert holding(PIN) == [] and holding("QWPMX-77") == []
    conn = app.store.db.conn()
    for (table,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
    ).fetchall():
        columns = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
        if "persona_id" in columns:
            assert (
                conn.execute(
                    f"SELECT COUNT(*) FROM {table} WHERE persona_id = ?", (persona_id,)
                ).fetchone()[0]
                == 0
            ), table
        if "persona" in columns:
            assert (
                conn.execute(
                    f"SELECT COUNT(*) FROM {table} WHERE persona = ?", (persona,)
                ).fetchone()[0]
                == 0
            ), table
    for table, rows in (
        ("memories_fts", 1),
        ("memories_fts_tri", 1),
        ("session_events_fts", 0),
        ("episodes_fts", 0),
    ):
        assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == rows, table
    with pytest.raises(NotFound):
        app.store.get_persona(persona)
    with pytest.raises(Unauthorized):
        app.auth.authenticate(f"Bearer {key}")
    assert app.auth.authenticate(f"Bearer {other_key}").persona == "haru"
    assert app.memories.stats("haru").active == 1
    app.auth.create_persona(persona)  # the name is free again, and empty
    assert app.memories.stats(persona).total == 0
    with pytest.raises(NotFound):
        app.forget.delete_persona("nobody")


def test_a_persona_deleted_by_another_process_is_never_reached_through_old_handles(
    make_app: Any, app: Omoide
) -> None:
    app.auth.create_persona("mika")
    create(app, "mika", "Mika keeps bees")
    app.sessions.open("mika", session_id="s1")
    other = make_app()  # another process on the same folder
    other.forget.delete_persona("mika")
    with pytest.raises(NotFound):
        app.memories.list_recent("mika")
    other.auth.create_persona("mika")
    assert create(app, "mika", f"Mika's code is {PIN}").status == "created"
    assert [m.content for m in other.memories.list_recent("mika")] == [f"Mika's code is {PIN}"]
    assert app.sessions.open("mika", session_id="s1")[1]  # a new session, not the old one


@pytest.mark.sqlite_only
def test_every_connection_overwrites_deleted_content(app: Omoide, persona: str) -> None:
    """Without it (the default of many SQLite builds) an edited memory's old text stays in the
    page's free space, where a later purge cannot reach it."""
    import threading

    seen: list[int] = []
    thread = threading.Thread(
        target=lambda: seen.append(
            app.store.db.conn().execute("PRAGMA secure_delete").fetchone()[0]
        )
    )
    thread.start()
    thread.join()
    assert seen == [1]
    assert app.store.db.conn().execute("PRAGMA secure_delete").fetchone()[0] == 1


def test_evolution_checks_every_remainder_in_one_statement_per_table(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """Whether each remainder's closed memory and source turns still exist is asked once for
    all remainders, not once per remainder and turn."""
    new = create(app, persona, "The user moved to a new flat").memory
    olds = [
        create(app, persona, text).memory
        for text in (
            "The user walks to work and cycles on Sundays",
            "The user bakes bread and keeps bees",
            "The user sings in a choir and paints",
        )
    ]
    memories = app.store.memories(persona)

    def split(content: str, of: str, events: tuple[int, ...]) -> Any:
        part = replace(
            app.memories.build_new(content=content),
            source="evolution",
            source_ref=of,
            source_event_ids=events,
        )
        return part, app.embedder.embed_passages([content])[0], 1.0

    with app.store.db.trace() as seen:
        assert memories.apply_evolution(
            new.key,
            now=clock.now(),
            neighbour_ids=[],
            link_increment=0.2,
            link_cap=1.0,
            extends=[],
            supersedes=[(memories.id_of(m.key), clock.now()) for m in olds],
            remainders=[
                split(m.content.split(" and ")[0], m.key, (900 + i, 950 + i))
                for i, m in enumerate(olds)
            ],
        )
    checks = [s for s in seen if re.search(r"FROM (memories|session_events) WHERE", s)]
    assert len(checks) == 2
    listed = {m.content for m in app.memories.list_recent(persona, limit=10)}
    assert {"The user walks to work", "The user bakes bread", "The user sings in a choir"} <= listed


def test_a_purge_names_the_conversations_it_was_drawn_from(app: Omoide, persona: str) -> None:
    """said_in: every session holding a source turn of the memory (one turn of s1 and one of
    s2 restating it), sorted; the conversations stay. A memory of no conversation: none."""
    converse(app, persona, "s1", [{"speaker": "Ken", "content": "I play the saxophone."}])
    converse(
        app, persona, "s2", [{"speaker": "Ken", "content": "As I said, I play the saxophone."}]
    )
    notes = {
        key for s in ("s1", "s2") for _, keys in app.sessions.episodes(persona, s) for key in keys
    }
    assert notes
    sources = {
        key: {s.event_id for s in app.memories.get(persona, key, recall=False).sources}
        for key in notes
    }
    key = max(sources, key=lambda k: len(sources[k]))
    assert len(sources[key]) == 2, sources  # s2's restatement joined s1's note
    assert app.memories.purge(persona, key).said_in == ("s1", "s2")
    assert len(app.sessions.episodes(persona, "s1")) == 1  # the conversation stays
    alone = create(app, persona, "The user keeps bees on the roof").memory
    assert app.memories.purge(persona, alone.key).said_in == ()

"""Schema migrations: applied on open, recorded, and upgrading old databases keeps their data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from omoide.model import SessionEnd
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.migrations import MIGRATIONS, applied_migrations
from omoide.store.sqlite.sessions import SessionStore
from omoide.store.sqlite.sessions_meta import SessionMetaStore


def test_open_applies_every_migration_in_order(tmp_path: Path) -> None:
    db = Database(tmp_path / "o.db")
    assert applied_migrations(db.conn()) == [m.number for m in MIGRATIONS]
    db.close()


def test_upgrade_from_first_migration_keeps_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = Database(path, upto=1)
    assert applied_migrations(old.conn()) == [1]
    with old.write() as conn:
        conn.execute("INSERT INTO personas (name, created_at) VALUES ('rin', '2026-01-01')")
        conn.execute(
            "INSERT INTO memories (key, persona_id, content, importance, created_at, updated_at)"
            " VALUES ('mem_1', 1, 'User lives in Tokyo', 0.5, '2026-01-01', '2026-01-01')"
        )
    old.close()

    new = Database(path)
    conn = new.conn()
    assert applied_migrations(conn) == [m.number for m in MIGRATIONS]
    assert conn.execute("SELECT content FROM memories").fetchone()[0] == "User lives in Tokyo"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {
        "memory_blocks",
        "user_state_history",
        "persona_state_history",
        "jobs",
        "sessions",
        "session_events",
        "episodes",
        "memories_fts",
        "memories_fts_tri",
    } <= tables
    new.close()


def test_every_intermediate_version_upgrades_to_latest(tmp_path: Path) -> None:
    for migration in MIGRATIONS:
        path = tmp_path / f"v{migration.number}.db"
        Database(path, upto=migration.number).close()
        db = Database(path)
        assert applied_migrations(db.conn())[-1] == MIGRATIONS[-1].number
        db.close()


def test_database_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    db = Database(tmp_path / "o.db")
    conn = db.conn()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30000
    db.close()


def test_failed_write_rolls_back(tmp_path: Path) -> None:
    db = Database(tmp_path / "o.db")
    try:
        with db.write() as conn:
            conn.execute("INSERT INTO personas (name, created_at) VALUES ('a', 'x')")
            conn.execute("INSERT INTO personas (name, created_at) VALUES ('a', 'x')")
    except sqlite3.IntegrityError:
        pass
    assert db.conn().execute("SELECT COUNT(*) FROM personas").fetchone()[0] == 0
    db.close()


def test_tag_index_is_backfilled_on_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "v6.db"
    old = Database(path, upto=6)
    with old.write() as conn:
        conn.execute("INSERT INTO personas (name, created_at) VALUES ('rin', '2026-01-01')")
        conn.execute(
            "INSERT INTO memories (key, persona_id, content, importance, tags, created_at, "
            "updated_at) VALUES ('mem_1', 1, 'Trip', 0.5, '[\"travel\", \"family\"]', "
            "'2026-01-01', '2026-01-01')"
        )
    old.close()
    new = Database(path)
    rows = new.conn().execute("SELECT tag FROM memory_tags ORDER BY tag").fetchall()
    assert [r[0] for r in rows] == ["family", "travel"]
    new.close()


def test_forget_provenance_is_backfilled_only_where_it_is_exact(tmp_path: Path) -> None:
    """Migration 16: an evolution's version rows get their cause (a supersede from its image,
    an extend from the one memory evolved in that same transaction); state rows written before
    it have no source session, so deleting a conversation keeps them."""
    path = tmp_path / "v13.db"
    old = Database(path, upto=13)
    t1, t2 = "2026-01-02T00:00:00+00:00", "2026-01-03T00:00:00+00:00"
    with old.write() as conn:
        conn.execute("INSERT INTO personas (name, created_at) VALUES ('rin', '2026-01-01')")
        for key, evolved in (("mem_old", None), ("mem_a", t1), ("mem_b", t2), ("mem_c", t2)):
            conn.execute(
                "INSERT INTO memories (key, persona_id, content, importance, created_at, "
                "updated_at, evolved_at) VALUES (?, 1, ?, 0.5, '2026-01-01', '2026-01-01', ?)",
                (key, f"text of {key}", evolved),
            )
        for version, (change, at, after) in enumerate(
            (
                ("extend", t1, '{"tags": ["a"]}'),  # one memory evolved at t1: exact
                ("extend", t2, '{"tags": ["b"]}'),  # two evolved at t2: unknown
                ("supersede", t2, '{"superseded_by": "mem_b"}'),
            ),
            start=1,
        ):
            conn.execute(
                "INSERT INTO memory_versions (memory_id, version, change, changed_by, "
                "changed_at, before, after) VALUES (1, ?, ?, 'evolution', ?, '{}', ?)",
                (version, change, at, after),
            )
        conn.execute(
            "INSERT INTO user_state_history (persona, key, value, valid_from, "
            "created_at) VALUES ('rin', 'name', 'Ken', ?, ?)",
            (t1, t1),
        )
    old.close()
    new = Database(path)
    conn = new.conn()
    causes = conn.execute("SELECT cause FROM memory_versions ORDER BY version").fetchall()
    assert [r[0] for r in causes] == ["mem_a", None, "mem_b"]
    assert conn.execute("SELECT source_session FROM user_state_history").fetchone()[0] is None
    new.close()


def test_notes_keyword_index_is_keyed_by_persona_on_upgrade(tmp_path: Path) -> None:
    """Migration 14: a folder written before it (keyword rows under the memory id) is searched
    through the persona-keyed index after it: each persona finds its own notes, a tombstoned
    note's stale row is gone, and a note written after the upgrade is found too."""
    from dataclasses import replace
    from datetime import UTC, datetime

    from omoide.model import NewMemory
    from omoide.store.sqlite.indexes import MEMORY_FTS
    from omoide.store.sqlite.store import SqliteStore

    path = tmp_path / "v13.db"
    old = Database(path, upto=13)
    notes = [
        (1, "rin", "Rin lives in Osaka", "active"),
        (2, "ken", "Ken lives in Osaka", "active"),
        (3, "rin", "Rin had a cat in Osaka", "tombstoned"),
        (4, "rin", "らうらうは大阪に住んでいる", "active"),
    ]
    with old.write() as conn:
        for name in ("rin", "ken"):
            conn.execute(
                "INSERT INTO personas (name, created_at) VALUES (?, '2026-01-01')", (name,)
            )
        for memory_id, name, content, status in notes:
            conn.execute(
                "INSERT INTO memories (id, key, persona_id, content, importance, status, "
                "created_at, updated_at) SELECT ?, ?, id, ?, 0.5, ?, '2026-01-01', "
                "'2026-01-01' FROM personas WHERE name = ?",
                (memory_id, f"mem_{memory_id}", content, status, name),
            )
            conn.execute(
                "INSERT INTO memory_strength (memory_id, strength, stability, "
                "last_decay_at) VALUES (?, 0.5, 1.0, '2026-01-01')",
                (memory_id,),
            )
        # as the code before migration 14 wrote them, the tombstoned row's included
        replace(MEMORY_FTS, persona_keyed=False).index(
            conn, [(memory_id, content) for memory_id, _, content, _ in notes]
        )
    old.close()

    store = SqliteStore(path, model_id="hash", dim=8)
    conn = store.db.conn()
    assert 14 in applied_migrations(conn)
    rin, ken = (store.get_persona(n).id for n in ("rin", "ken"))
    assert {r[0] for r in conn.execute("SELECT rowid FROM memories_fts")} == {
        rin << 32 | 1,
        ken << 32 | 2,
        rin << 32 | 4,
    }
    rin_notes = store.memories("rin")
    assert [h.rowid for h in rin_notes.keyword_search("Osaka", limit=10)] == [1]
    assert [h.rowid for h in rin_notes.keyword_search("大阪", limit=10)] == [4]
    assert [h.rowid for h in store.memories("ken").keyword_search("Osaka", limit=10)] == [2]
    assert rin_notes.keyword_search("cat", limit=10) == []
    written = rin_notes.insert_many(
        [NewMemory(content="Rin moved from Osaka to Kobe")],
        np.ones((1, 8), dtype=np.float32),
        stabilities=[1.0],
        now=datetime(2026, 2, 1, tzinfo=UTC),
    )
    found = rin_notes.keyword_search("Kobe", limit=10)
    assert [h.rowid for h in found] == [rin_notes.id_of(written[0].key)]
    store.close()


def _autoincrement(conn: sqlite3.Connection, table: str) -> bool:
    ddl = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    return "AUTOINCREMENT" in ddl


def test_ids_clients_see_are_never_reused_after_upgrade(tmp_path: Path) -> None:
    """A folder made by the schema before migration 20 (plain rowid keys): its turns, episodes,
    jobs and keys tables are rebuilt with AUTOINCREMENT in place, rows, links and indexes
    kept, and an id erased after the upgrade is never handed out again."""
    path = tmp_path / "v16.db"
    old = Database(path, upto=16)
    with old.write() as conn:
        conn.execute("INSERT INTO personas (name, created_at) VALUES ('rin', '2026-01-01')")
        conn.execute(
            "INSERT INTO api_keys (key_hash, prefix, persona_id, created_at) "
            "VALUES ('h1', 'p', 1, '2026-01-01')"
        )
        conn.execute(
            "INSERT INTO sessions (persona_id, session_id, started_at) "
            "VALUES (1, 's1', '2026-01-01')"
        )
        for seq in (1, 2, 3, 4):
            conn.execute(
                "INSERT INTO session_events (session_pk, persona_id, seq, speaker, role, "
                "content, timestamp, created_at) VALUES (1, 1, ?, 'Ken', 'user', ?, "
                "'2026-01-01', '2026-01-01')",
                (seq, f"turn {seq}"),
            )
        conn.execute(
            "INSERT INTO episodes (session_pk, persona_id, first_event_id, "
            "last_event_id, first_seq, last_seq, content, started_at, ended_at, "
            "created_at) VALUES (1, 1, 1, 3, 1, 3, 'ep', 'x', 'x', 'x')"
        )
        conn.execute("UPDATE session_events SET episode_id = 1")
        conn.execute(
            "INSERT INTO event_vectors (event_id, model_id, dim, vector) "
            "VALUES (2, 'm', 1, x'00000000')"
        )
        conn.execute(
            "INSERT INTO jobs (persona_id, kind, run_after, created_at, worker) "
            "VALUES (1, 'session.segment', 'x', 'x', 'w1')"
        )
    assert not _autoincrement(old.conn(), "session_events")
    old.close()

    db = Database(path)
    conn = db.conn()
    assert applied_migrations(conn)[-1] == MIGRATIONS[-1].number
    for table in ("session_events", "episodes", "jobs", "api_keys"):
        assert _autoincrement(conn, table), table
    assert [r[0] for r in conn.execute("SELECT content FROM session_events ORDER BY id")] == [
        "turn 1",
        "turn 2",
        "turn 3",
        "turn 4",
    ]
    assert conn.execute("SELECT worker FROM jobs").fetchone()[0] == "w1"  # a later column
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    indexes = {
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN "
            "('session_events', 'jobs')"
        )
    }
    assert {
        "session_events_episode",
        "session_events_external",
        "jobs_ready",
        "jobs_persona",
        "jobs_leases",
    } <= indexes
    with pytest.raises(sqlite3.IntegrityError), db.write() as w:
        w.execute("DELETE FROM session_events WHERE id = 2")  # its vector still refers to it
    with db.write() as w:
        w.execute("DELETE FROM session_events WHERE id = 4")
        w.execute("DELETE FROM jobs")
        w.execute(
            "INSERT INTO session_events (session_pk, persona_id, seq, speaker, role, "
            "content, timestamp, created_at) VALUES (1, 1, 5, 'Ken', 'user', 'new', 'x', "
            "'x')"
        )
        w.execute(
            "INSERT INTO jobs (persona_id, kind, run_after, created_at) "
            "VALUES (1, 'session.segment', 'x', 'x')"
        )
    assert conn.execute("SELECT id FROM session_events WHERE content = 'new'").fetchone()[0] == 5
    assert conn.execute("SELECT id FROM jobs").fetchone()[0] == 2
    db.close()


def test_successors_start_when_they_closed_their_predecessor(tmp_path: Path) -> None:
    """Migration 22: a successor with no ``valid_from`` starts at the earliest ``valid_until``
    of the facts it closed; one with its own start, or whose own end is not after that, keeps
    its window; a fact closed by no successor is left alone."""
    path = tmp_path / "v21.db"
    t1, t2, t3 = (
        "2026-01-02T00:00:00+00:00",
        "2026-01-03T00:00:00+00:00",
        "2026-01-04T00:00:00+00:00",
    )
    rows = (  # key, valid_from, valid_until, superseded_by
        ("mem_tokyo", None, t2, "mem_osaka"),
        ("mem_nagoya", None, t3, "mem_osaka"),
        ("mem_osaka", None, None, None),
        ("mem_cat", None, t2, "mem_dog"),
        ("mem_dog", t1, None, None),
        ("mem_tea", None, t2, "mem_coffee"),
        ("mem_coffee", None, t1, None),
        ("mem_alone", None, t2, None),
    )
    _store_windows(path, 21, rows)
    new = Database(path)
    starts = dict(new.conn().execute("SELECT key, valid_from FROM memories").fetchall())
    assert starts == {
        "mem_tokyo": None,
        "mem_nagoya": None,
        "mem_osaka": t2,
        "mem_cat": None,
        "mem_dog": t1,
        "mem_tea": None,
        "mem_coffee": None,
        "mem_alone": None,
    }
    new.close()


def test_sessions_ended_before_causes_were_recorded_read_as_unknown(tmp_path: Path) -> None:
    """Migration 23: ``sessions.ended_by`` is NULL for every session ended before it (nothing
    tells how); an open session ended afterwards gets its cause."""
    path = tmp_path / "v22.db"
    old = Database(path, upto=22)
    with old.write() as conn:
        conn.execute("INSERT INTO personas (name, created_at) VALUES ('rin', '2026-01-01')")
        for session_id, ended in (("done", "2026-01-02T10:00:00+00:00"), ("open", None)):
            conn.execute(
                "INSERT INTO sessions (persona_id, session_id, started_at, ended_at, "
                "metadata) VALUES (1, ?, '2026-01-02T09:00:00+00:00', ?, '{}')",
                (session_id, ended),
            )
    old.close()
    new = Database(path)
    listed = {s.session_id: s for s in SessionMetaStore(new, 1).page(limit=10)}
    assert listed["done"].ended_at is not None and listed["done"].ended_by is None
    assert listed["open"].ended_at is None and listed["open"].ended_by is None
    sessions = SessionStore(new, 1, "rin", "hash", 8)
    assert sessions.end_open(by=SessionEnd.IDLE) == ["open"]
    assert sessions.get("open").ended_by == SessionEnd.IDLE
    assert sessions.get("done").ended_by is None
    new.close()


def test_facts_closed_before_they_began_get_an_empty_window(tmp_path: Path) -> None:
    """Migration 24: a fact evolution closed before its own start (``valid_until`` before
    ``valid_from``) is closed where it would have begun; every other window is left alone."""
    path = tmp_path / "v23.db"
    t1, t2 = "2026-01-02T00:00:00.000000+00:00", "2026-01-03T00:00:00.000000+00:00"
    rows = (  # key, valid_from, valid_until, superseded_by
        ("mem_planned", t2, t1, "mem_stay"),
        ("mem_stay", t1, None, None),
        ("mem_held", t1, t2, "mem_next"),
        ("mem_next", None, None, None),
        ("mem_open_start", None, t1, None),
    )
    _store_windows(path, 23, rows)
    new = Database(path)
    windows = {
        key: (start, end)
        for key, start, end in new.conn().execute(
            "SELECT key, valid_from, valid_until FROM memories"
        )
    }
    assert windows == {
        "mem_planned": (t2, t2),
        "mem_stay": (t1, None),
        "mem_held": (t1, t2),
        "mem_next": (None, None),
        "mem_open_start": (None, t1),
    }
    new.close()


def _store_windows(
    path: Path, upto: int, rows: tuple[tuple[str, str | None, str | None, str | None], ...]
) -> None:
    """A database at schema ``upto`` holding persona rin's memories ``rows`` (key, valid_from,
    valid_until, superseded_by)."""
    old = Database(path, upto=upto)
    with old.write() as conn:
        conn.execute("INSERT INTO personas (name, created_at) VALUES ('rin', '2026-01-01')")
        for key, start, end, successor in rows:
            conn.execute(
                "INSERT INTO memories (key, persona_id, content, importance, created_at, "
                "updated_at, valid_from, valid_until, superseded_by) "
                "VALUES (?, 1, ?, 0.5, '2026-01-01', '2026-01-01', ?, ?, ?)",
                (key, f"text of {key}", start, end, successor),
            )
    old.close()

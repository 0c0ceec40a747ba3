"""Upgrading an existing PostgreSQL database, as a user running the PostgreSQL store takes it when
a new Omoide starts on it (SQLite's: test_migrations.py).

For every migration N (the list is ``MIGRATIONS``, so one added later is covered as well): a new
database is brought to schema N, given the rows a persona's use leaves at that version (written
with plain SQL as the code of that version wrote them, since today's store expects the latest
schema), then opened by today's Omoide. Every migration is then recorded once; every row written
before is still there, changed only where a later migration documents a change; the data reads
through today's services (search, sessions, state, blocks, keys, queue) and takes new writes;
a second open applies nothing; and the schema is the one a new database gets (columns, indexes,
constraints, triggers, functions, row-level security and its policies).

Rows written before their keyword tables existed (notes at schema 1; turns and episodes at 5)
are not in those tables afterwards: migrations 2 and 6 create them empty, as SQLite's do. No
Omoide ever wrote such rows on PostgreSQL (its first release created schemas 1-13 together, and
a first start stopped between two migrations leaves no row), so keyword search is asserted from
the schemas that have the tables; those rows are still found by meaning.

Servers starting together on an old database apply each migration once (the advisory lock).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from pg_testing import SEE_ALL, PgServer

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.engine.lang import normalise
from omoide.model import MemoryKind
from omoide.service.auth import hash_key
from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import MIGRATIONS, apply_migrations
from omoide.store.postgres.rls import CROSS_PERSONA, bind_session
from omoide.store.sqlite import fts_terms
from omoide.store.sqlite.fts_terms import words_body
from omoide.wiring import Omoide, build

NUMBERS = [m.number for m in MIGRATIONS]
START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
T0, T1, T2 = ("2026-01-02T09:00:00+00:00", "2026-01-03T09:00:00+00:00", "2026-01-04T09:00:00+00:00")
RIN_KEY = "omo_rin_upgrade-test-key-0123456789"
OLD_RIN_KEY = "omo_rin_upgrade-test-key-revoked"
HARU_KEY = "omo_haru_upgrade-test-key-0123456789"
EMBEDDER = HashEmbedder()

# (key, persona, content, tags, valid_until, superseded_by, status)
MEMORIES = (
    (
        "mem_osaka",
        "rin",
        "Rin lives in Osaka near the river",
        ["home", "travel"],
        None,
        None,
        "active",
    ),
    ("mem_tokyo", "rin", "Rin lives in Tokyo", ["home"], T1, "mem_osaka", "active"),
    ("mem_cafe", "rin", "Rin drinks café au lait every morning", ["food"], None, None, "active"),
    ("mem_ja", "rin", "らうらうは大阪の川の近くに住んでいる", [], None, None, "active"),
    ("mem_cat", "rin", "Rin had a cat named Tama", ["pets"], None, None, "tombstoned"),
    ("mem_haru", "haru", "Haru lives in Osaka too", ["home"], None, None, "active"),
)
TURNS = (
    (1, "Ken", "user", "We went hiking on Mount Rokko and saw the whole bay"),
    (2, "Rin", "assistant", "The view over the bay from Rokko must have been lovely"),
)
EPISODE = "Ken told Rin about a hike on Mount Rokko with a view over the bay"


@dataclass(frozen=True)
class Rewrite:
    """A column of rows written before migration ``number`` that the migration rewrites."""

    number: int
    table: str
    column: str


# What the migrations document changing in rows that exist (each checked on its own below);
# columns a migration adds are not compared, they did not exist before it. A new migration that
# rewrites stored values adds its entry here, and its check to _check_rewrites.
REWRITES = (
    Rewrite(13, "api_keys", "prefix"),  # the key's fingerprint
    Rewrite(19, "memories_fts", "body"),  # Latin diacritics folded
    Rewrite(19, "memories_fts", "words"),  # generated from body
    Rewrite(22, "memories", "valid_from"),  # a successor starts when it closed its predecessor
)


@pytest.fixture(scope="module")
def fresh_schema(pg_server: PgServer) -> dict[str, Any]:
    """The schema of a database made new by today's Omoide."""
    with pg_server.database() as url:
        return _schema(url)


@pytest.mark.parametrize("upto", NUMBERS, ids=[f"from_{n}" for n in NUMBERS])
def test_a_database_at_every_version_upgrades_to_the_latest_with_its_rows(
    pg_server: PgServer, upto: int, tmp_path: Path, fresh_schema: dict[str, Any]
) -> None:
    with pg_server.unmigrated(f"up{upto}") as url:
        with _owner(url) as raw:
            assert apply_migrations(raw, upto=upto) == [n for n in NUMBERS if n <= upto]
            _write_rows(raw, upto)
        before = _rows(url)

        app = _app(url, tmp_path)
        try:
            record = _record(url)
            assert [number for number, _ in record] == NUMBERS
            after = _rows(url)
            _check_rows_kept(before, after, upto)
            _check_rewrites(url, upto)
            _check_reads(app, url, upto)
        finally:
            app.close()
        _app(url, tmp_path).close()  # a second open applies nothing
        assert _record(url) == record
        assert _schema(url) == fresh_schema


def test_stores_opened_together_on_an_old_database_apply_each_migration_once(
    pg_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Three opens at once on a database at migration 1: each waits for the advisory lock and
    finds what another applied; none fails on a table another created."""
    caplog.set_level(logging.INFO, logger="omoide.store.postgres.migrations")
    with pg_server.unmigrated("together") as url:
        with _owner(url) as raw:
            apply_migrations(raw, upto=1)
            raw.execute("INSERT INTO personas (name, created_at) VALUES ('rin', %s)", (T0,))
        caplog.clear()
        gate = threading.Barrier(3)
        failures: list[BaseException] = []

        def open_one() -> None:
            try:
                gate.wait()
                PgDatabase(url, max_size=1).close()
            except BaseException as exc:  # reported below, with the test's assertion
                failures.append(exc)

        threads = [threading.Thread(target=open_one) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert failures == []
        applied = [r.getMessage() for r in caplog.records if r.msg.startswith("applied migration")]
        assert sorted(applied) == [
            f"applied migration {m.number:04d}_{m.name}" for m in MIGRATIONS[1:]
        ]
        assert [number for number, _ in _record(url)] == NUMBERS
        with psycopg.connect(url, options=SEE_ALL) as conn:
            assert conn.execute("SELECT name FROM personas").fetchall() == [("rin",)]


# -- the old database ---------------------------------------------------------------------------


@contextmanager
def _owner(url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(url, autocommit=True) as raw:
        bind_session(raw, CROSS_PERSONA)
        yield raw


def _insert(raw: psycopg.Connection[Any], sql: str, params: tuple[Any, ...]) -> int:
    """Runs one ``INSERT`` and returns the new row's id."""
    return raw.execute(sql + " RETURNING id", params).fetchone()[0]


def _embed(raw: psycopg.Connection[Any], owner: str, rowid: int, text: str) -> None:
    """The vector row of one ``owner`` row (a memory, event or episode): ``{owner}_vectors``,
    keyed by ``{owner}_id``, as the embedder wrote it."""
    vector = "[" + ",".join(repr(float(x)) for x in EMBEDDER.embed_passages([text])[0]) + "]"
    raw.execute(
        f"INSERT INTO {owner}_vectors ({owner}_id, model_id, dim, vector) "
        "VALUES (%s, %s, %s, %s::vector)",
        (rowid, EMBEDDER.model_id, EMBEDDER.dim, vector),
    )


def _words(text: str, upto: int) -> str:
    """The words table's body as the code at schema ``upto`` wrote it: Latin diacritics kept
    before migration 19 (which folds the rows written before it)."""
    if upto >= 19:
        return words_body(normalise(text))
    with mock.patch.object(fts_terms, "fold_latin", lambda run: run):
        return words_body(normalise(text))


def _index(raw: psycopg.Connection[Any], name: str, rowid: int, text: str, upto: int) -> None:
    """Both keyword index rows of one row (``FtsIndex.index``: rowid and body only; from
    migration 17 a trigger fills their persona)."""
    raw.execute(
        f"INSERT INTO {name}_fts (rowid, body) VALUES (%s, %s)", (rowid, _words(text, upto))
    )
    raw.execute(
        f"INSERT INTO {name}_fts_tri (rowid, body) VALUES (%s, %s)", (rowid, normalise(text))
    )


def _write_rows(raw: psycopg.Connection[Any], upto: int) -> None:
    """What two personas' use leaves in a database at schema ``upto``: memories with their
    strength, versions, links, vectors, tags and keyword rows; API keys; then, as far as the
    tables exist, blocks and state, a job, a session with turns and an episode, the
    embedder's record and a periodic claim."""

    def at(number: int) -> bool:
        return upto >= number

    persona = {
        name: _insert(raw, "INSERT INTO personas (name, created_at) VALUES (%s, %s)", (name, T0))
        for name in ("rin", "haru")
    }
    for key, name, revoked in (
        (RIN_KEY, "rin", None),
        (OLD_RIN_KEY, "rin", T1),
        (HARU_KEY, "haru", None),
    ):
        raw.execute(
            "INSERT INTO api_keys (key_hash, prefix, persona_id, is_admin, created_at, "
            "revoked_at) VALUES (%s, %s, %s, 0, %s, %s)",
            (hash_key(key), hash_key(key)[:8] if at(13) else key[:12], persona[name], T0, revoked),
        )
    memory: dict[str, int] = {}
    for key, name, content, tags, until, successor, status in MEMORIES:
        pid = persona[name]
        memory[key] = mid = _insert(
            raw,
            "INSERT INTO memories (key, persona_id, content, kind, importance, tags, "
            "created_at, updated_at, valid_until, superseded_by, status) "
            "VALUES (%s, %s, %s, 'fact', 0.6, %s, %s, %s, %s, %s, %s)",
            (key, pid, content, json.dumps(tags), T0, T0, until, successor, status),
        )
        raw.execute(
            "INSERT INTO memory_strength (memory_id, strength, stability, last_decay_at) "
            "VALUES (%s, 1.0, 2.5, %s)",
            (mid, T0),
        )
        raw.execute(
            "INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, "
            "before, after) VALUES (%s, 1, 'create', 'user', %s, NULL, %s)",
            (mid, T0, json.dumps({"content": content, "tags": tags}, ensure_ascii=False)),
        )
        _embed(raw, "memory", mid, content)
        if at(2) and status == "active":  # a tombstone leaves the keyword index
            _index(raw, "memories", mid, content, upto)
        if at(7):  # before, migration 7 fills the table from the tags column
            for tag in tags:
                raw.execute(
                    "INSERT INTO memory_tags (memory_id, persona_id, tag) VALUES (%s, %s, %s)",
                    (mid, pid, tag),
                )
    # evolution closed Tokyo with Osaka (its version row names its cause from migration 16)
    raw.execute(
        "INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, "
        "before, after" + (", cause" if at(16) else "") + ") VALUES (%s, 2, 'supersede', "
        "'evolution', %s, '{}', %s" + (", 'mem_osaka'" if at(16) else "") + ")",
        (memory["mem_tokyo"], T1, json.dumps({"superseded_by": "mem_osaka", "valid_until": T1})),
    )
    raw.execute(
        "INSERT INTO memory_links (a, b, link_type, weight, co_activation_count, last_activated) "
        "VALUES (%s, %s, 'SEMANTIC', 0.4, 2, %s)",
        (memory["mem_osaka"], memory["mem_ja"], T1),
    )
    if at(22):  # before, migration 22 gives the successor this start
        raw.execute("UPDATE memories SET valid_from = %s WHERE key = 'mem_osaka'", (T1,))
    if at(3):
        raw.execute(
            "INSERT INTO memory_blocks (persona_id, block_name, content, block_type, "
            "max_tokens, priority, metadata, created_at, updated_at) "
            "VALUES (%s, 'user_model', 'Ken likes green tea', 'custom', 500, 0, '{}', %s, %s)",
            (persona["rin"], T0, T0),
        )
        for table, key, old, new in (
            ("user_state_history", "city", "Tokyo", "Osaka"),
            ("persona_state_history", "mood", "calm", "cheerful"),
        ):
            raw.execute(
                f"INSERT INTO {table} (persona, key, value, valid_from, valid_until, created_at) "
                "VALUES ('rin', %s, %s, %s, %s, %s)",
                (key, old, T0, T1, T0),
            )
            raw.execute(
                f"INSERT INTO {table} (persona, key, value, valid_from, created_at"
                + (", source_session" if at(16) else "")
                + ") VALUES ('rin', %s, %s, %s, %s"
                + (", 's1'" if at(16) else "")
                + ")",
                (key, new, T1, T1),
            )
    if at(4):
        raw.execute(
            "INSERT INTO jobs (persona_id, kind, payload, status, max_attempts, run_after, "
            "created_at) VALUES (%s, 'evolve', %s, 'pending', 5, %s, %s)",
            (persona["rin"], json.dumps({"key": "mem_cafe"}), T0, T0),
        )
    if at(5):
        _write_session(raw, persona["rin"], memory["mem_osaka"], upto)
    if at(8):
        raw.execute(
            "INSERT INTO embedder (id, model_id, dim, recorded_at) VALUES (1, %s, %s, %s)",
            (EMBEDDER.model_id, EMBEDDER.dim, T0),
        )
    if at(12):
        raw.execute(
            "INSERT INTO periodic_claims (name, next_due, worker) VALUES ('decay', %s, 'w1')",
            (T2,),
        )


def _write_session(raw: psycopg.Connection[Any], pid: int, source: int, upto: int) -> None:
    """Session ``s1``, ended, with two turns segmented into one episode (the source of
    ``mem_osaka``), and session ``s2``, still open with no turn."""

    session = _insert(
        raw,
        "INSERT INTO sessions (persona_id, session_id, started_at, ended_at, metadata, "
        "segmented_upto_seq) VALUES (%s, 's1', %s, %s, '{}', 2)",
        (pid, T0, T1),
    )
    raw.execute(
        "INSERT INTO sessions (persona_id, session_id, started_at, metadata) "
        "VALUES (%s, 's2', %s, '{}')",
        (pid, T2),
    )
    if upto >= 10:
        raw.execute("UPDATE sessions SET last_event_at = %s WHERE id = %s", (T0, session))
    if upto >= 23:
        raw.execute("UPDATE sessions SET ended_by = 'client' WHERE id = %s", (session,))
    events = []
    for seq, speaker, role, content in TURNS:
        event = _insert(
            raw,
            "INSERT INTO session_events (session_pk, persona_id, seq, speaker, role, content, "
            "timestamp, metadata, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, '{}', %s)",
            (session, pid, seq, speaker, role, content, T0, T0),
        )
        events.append(event)
        _embed(raw, "event", event, content)
        if upto >= 6:
            _index(raw, "session_events", event, content, upto)
    episode = _insert(
        raw,
        "INSERT INTO episodes (session_pk, persona_id, first_event_id, last_event_id, "
        "first_seq, last_seq, content, topic, started_at, ended_at, created_at, "
        "consolidated_at) VALUES (%s, %s, %s, %s, 1, 2, %s, 'hiking', %s, %s, %s, %s)",
        (session, pid, events[0], events[-1], EPISODE, T0, T0, T0, T1),
    )
    raw.execute(
        "UPDATE session_events SET episode_id = %s WHERE session_pk = %s", (episode, session)
    )
    _embed(raw, "episode", episode, EPISODE)
    if upto >= 6:
        _index(raw, "episodes", episode, EPISODE, upto)
    raw.execute(
        "INSERT INTO memory_sources (memory_id, event_id) VALUES (%s, %s)", (source, events[0])
    )
    raw.execute(  # the note consolidated from the episode
        "UPDATE memories SET source = 'consolidation', source_ref = %s WHERE id = %s",
        (str(episode), source),
    )


# -- what the upgrade left ----------------------------------------------------------------------


def _app(url: str, data: Path) -> Omoide:
    return build(  # no job worker started: the old database's job stays pending
        Settings.from_env({"OMOIDE_DATABASE_URL": url}, data_dir=data),
        embedder=EMBEDDER,
        clock=FixedClock(START),
        llm=None,
    )


def _record(url: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT number, applied_at FROM schema_migrations ORDER BY number"
        ).fetchall()


def _rows(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table but the migrations' record, each as column → value, in a
    stable order."""
    out: dict[str, list[dict[str, Any]]] = {}
    with psycopg.connect(url, options=SEE_ALL) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename <> 'schema_migrations' ORDER BY tablename"
            )
        ]
        for table in tables:
            cur = conn.execute(f"SELECT * FROM {table}")
            names = [d.name for d in cur.description or ()]
            rows = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
            out[table] = sorted(rows, key=lambda row: repr(sorted(row.items())))
    return out


def _check_rows_kept(
    before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]], upto: int
) -> None:
    """Every table of the old schema holds the same rows, in the columns it had, but for the
    columns a later migration documents rewriting (:data:`REWRITES`, checked on their own)."""
    rewritten = {(r.table, r.column) for r in REWRITES if r.number > upto}
    for table, rows in before.items():
        assert table in after, table
        kept = [c for c in (rows[0] if rows else {}) if (table, c) not in rewritten]
        old = sorted((tuple(row[c] for c in kept) for row in rows), key=repr)
        new = sorted((tuple(row[c] for c in kept) for row in after[table]), key=repr)
        assert new == old, table


def _check_rewrites(url: str, upto: int) -> None:
    """The rows each later migration rewrites, as it documents."""
    with psycopg.connect(url, options=SEE_ALL) as conn:
        prefixes = conn.execute("SELECT key_hash, prefix FROM api_keys").fetchall()
        assert all(prefix == key_hash[:8] for key_hash, prefix in prefixes)
        (start,) = conn.execute(
            "SELECT valid_from FROM memories WHERE key = 'mem_osaka'"
        ).fetchone()
        assert start == T1
        causes = conn.execute(
            "SELECT cause FROM memory_versions v JOIN memories m ON m.id = v.memory_id "
            "WHERE m.key = 'mem_tokyo' ORDER BY version"
        ).fetchall()
        assert causes == [(None,), ("mem_osaka",)]
        bodies = conn.execute(
            "SELECT body FROM memories_fts WHERE body ~ '[^\\x01-\\x7f]'"
        ).fetchall()
        assert all("é" not in body for (body,) in bodies)
        for name in ("memories", "episodes", "session_events"):
            for table in (f"{name}_fts", f"{name}_fts_tri"):
                unowned = conn.execute(
                    f"SELECT COUNT(*) FROM {table} f JOIN {name} b ON b.id = f.rowid "
                    "WHERE f.persona_id IS DISTINCT FROM b.persona_id"
                ).fetchone()
                assert unowned == (0,), table
            stale = conn.execute(
                f"SELECT COUNT(*) FROM {name}_fts_tri WHERE grams <> omoide_trigrams(body)"
            ).fetchone()
            assert stale == (0,), name
        if upto >= 5:
            (last,) = conn.execute(
                "SELECT last_event_at FROM sessions WHERE session_id = 's1'"
            ).fetchone()
            assert last == T0


def _check_reads(app: Omoide, url: str, upto: int) -> None:
    """Today's services read the upgraded rows, and write new ones."""
    assert app.auth.authenticate(f"Bearer {RIN_KEY}").persona == "rin"
    assert app.auth.authenticate(f"Bearer {HARU_KEY}").persona == "haru"
    with pytest.raises(Exception, match="unknown or revoked"):
        app.auth.authenticate(f"Bearer {OLD_RIN_KEY}")

    def found(persona: str, query: str, **filters: Any) -> list[str]:
        request = app.search.build_request(persona, query=query, **filters)
        return [hit.id for hit in app.search.search(persona, request, recall=False).results]

    assert found("rin", "Osaka river")[0] == "mem_osaka"
    assert "mem_haru" not in found("rin", "Osaka")
    if upto >= 2:  # the keyword tables (see the module docstring)
        assert found("rin", "cafe", mode="keyword") == ["mem_cafe"]
        assert found("rin", "大阪の川", mode="keyword") == ["mem_ja"]
    assert set(found("rin", "lives", tags=["travel"])) == {"mem_osaka"}
    assert found("haru", "Osaka")[0] == "mem_haru"
    assert "mem_cat" not in found("rin", "cat named Tama")
    assert app.memories.get("rin", "mem_cat", recall=False).status == "tombstoned"
    osaka = app.memories.get("rin", "mem_osaka", recall=False)
    assert (osaka.content, osaka.tags) == ("Rin lives in Osaka near the river", ("home", "travel"))
    assert [v.change for v in app.memories.history("rin", "mem_tokyo")] == ["create", "supersede"]
    assert [link.other_key for link in app.memories.links("rin", "mem_osaka")] == ["mem_ja"]

    written = app.memories.create(
        "rin", app.memories.build_new(content="Rin bought a blue bicycle", kind=MemoryKind.FACT)
    )
    assert written.memory is not None
    assert found("rin", "bicycle", mode="keyword") == [written.memory.key]

    if upto >= 3:
        assert app.state.get_current_user_state("rin") == {"city": "Osaka"}
        assert app.state.get_current_persona_state("rin") == {"mood": "cheerful"}
        assert [b.content for b in app.blocks.list_blocks("rin")] == ["Ken likes green tea"]
    if upto >= 4:
        assert app.queue.state("rin").pending >= 1
    if upto >= 5:
        listed = {s.session_id: s for s in app.sessions.list_recent("rin")}
        assert set(listed) == {"s1", "s2"}
        assert (listed["s1"].events, listed["s1"].episodes) == (2, 1)
        assert listed["s2"].ended_at is None
        [(episode, notes)] = app.sessions.episodes("rin", "s1")
        assert (episode.content, notes) == (EPISODE, ["mem_osaka"])
        request = app.search.build_request("rin", query="hike on Mount Rokko")
        excerpts = app.search.search_episodes("rin", request).results
        assert excerpts and excerpts[0].id == str(episode.id)


# The catalogue of the schema, as lists of rows: what an upgraded database must match.
_CATALOGUE = {
    "columns": """
        SELECT table_name, ordinal_position, column_name, data_type, udt_name, is_nullable,
               column_default, is_identity, identity_generation, is_generated,
               generation_expression
        FROM information_schema.columns WHERE table_schema = current_schema()""",
    "constraints": """
        SELECT c.conrelid::regclass::text, c.conname, c.contype, pg_get_constraintdef(c.oid)
        FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = current_schema()""",
    "indexes": """
        SELECT tablename, indexname, indexdef FROM pg_indexes
        WHERE schemaname = current_schema()""",
    "walls": """
        SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r'""",
    "policies": """
        SELECT tablename, policyname, permissive, roles::text, cmd, qual, with_check
        FROM pg_policies WHERE schemaname = current_schema()""",
    "triggers": """
        SELECT t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND NOT t.tgisinternal""",
    "functions": """
        SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p
        JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')""",
    "extensions": "SELECT extname FROM pg_extension",
}


def _schema(url: str) -> dict[str, Any]:
    with psycopg.connect(url) as conn:
        return {
            name: sorted(conn.execute(query).fetchall(), key=repr)
            for name, query in _CATALOGUE.items()
        }

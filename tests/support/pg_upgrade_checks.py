"""What an upgrade of an older PostgreSQL database must leave of the rows pg_old_rows.py
wrote: the rows kept, the rewrites the migrations document, today's services reading and
writing them, and the schema a new database gets (tests/integration/test_postgres_upgrades.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest
from pg_old_rows import (
    EMBEDDER,
    EPISODE,
    HARU_KEY,
    OLD_RIN_KEY,
    REWRITES,
    RIN_KEY,
    START,
    T0,
    T1,
)
from pg_testing import SEE_ALL

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.model import MemoryKind
from omoide.wiring import Omoide, build


def open_app(url: str, data: Path) -> Omoide:
    return build(  # no job worker started: the old database's job stays pending
        Settings.from_env({"OMOIDE_DATABASE_URL": url}, data_dir=data),
        embedder=EMBEDDER,
        clock=FixedClock(START),
        llm=None,
    )


def migrations_record(url: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT number, applied_at FROM schema_migrations ORDER BY number"
        ).fetchall()


def all_rows(url: str) -> dict[str, list[dict[str, Any]]]:
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


def check_rows_kept(
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


def check_rewrites(url: str, upto: int) -> None:
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


def check_reads(app: Omoide, url: str, upto: int) -> None:
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


def schema_of(url: str) -> dict[str, Any]:
    with psycopg.connect(url) as conn:
        return {
            name: sorted(conn.execute(query).fetchall(), key=repr)
            for name, query in _CATALOGUE.items()
        }

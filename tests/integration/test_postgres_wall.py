"""The persona wall in PostgreSQL (row-level security, ``store/postgres/rls.py``): a query
issued through a persona-bound transaction sees and writes that persona's rows only, even with
no ``WHERE`` at all; a connection bound to nobody sees nothing; the explicit bypass sees all."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest
from pg_testing import SEE_ALL, PgServer

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.errors import StorageUnavailable
from omoide.store.postgres.db import PersonaDb
from omoide.store.postgres.rls import WALLED_TABLES, warn_if_unwalled
from omoide.wiring import Omoide, build

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
# Derived keyword-index tables, left out of the wall on purpose (rls.py says why).
UNWALLED_INDEXES = {
    f"{base}{suffix}"
    for base in ("memories", "session_events", "episodes")
    for suffix in ("_fts", "_fts_tri")
}


@pytest.fixture
def app(pg_server: PgServer, tmp_path: object) -> Iterator[Omoide]:
    with pg_server.database() as url:
        built = build(
            Settings.from_env({"OMOIDE_DATABASE_URL": url}, data_dir=tmp_path),
            embedder=HashEmbedder(),
            clock=FixedClock(START),
            llm=None,
        )
        try:
            _fill(built)
            yield built
        finally:
            built.close()


def _fill(app: Omoide) -> None:
    """Two personas holding a row in every walled table."""
    for name, who in (("rin", "Rau"), ("haru", "Ken")):
        app.auth.create_persona(name)
        new = app.memories.build_new
        first = app.memories.create(name, new(content=f"{who} keeps bees", tags=["home"]))
        app.memories.create(name, new(content=f"{who} drinks tea", tags=["food"]))
        app.memories.update(name, first.memory.key, content=f"{who} keeps three hives")
        app.sessions.open(name, session_id="s1")
        app.sessions.record(
            name,
            "s1",
            [
                {"speaker": who, "content": f"{who} talks about bees"},
                {"speaker": "AI", "content": "Tell me more"},
            ],
        )
        app.sessions.end(name, "s1")
        with app.store.memories(name).db.write() as conn:  # no WHERE: the wall scopes them
            ids = [r[0] for r in conn.execute("SELECT id FROM memories ORDER BY id")]
            event = conn.execute("SELECT min(id) FROM session_events").fetchone()[0]
            conn.execute(
                "INSERT INTO memory_links (a, b, link_type, weight, last_activated) "
                "VALUES (?, ?, 'SEMANTIC', 0.5, ?)",
                (ids[0], ids[1], START.isoformat()),
            )
            conn.execute(
                "INSERT INTO memory_sources (memory_id, event_id) VALUES (?, ?)", (ids[0], event)
            )
        app.state.update(name, user={"name": who}, persona_state={"mood": "calm"})
        app.blocks.write_block(name, block_name="user_model", content=f"{who} likes bees")
    app.runner.run_until_idle()


def _owners(app: Omoide) -> dict[str, dict[int, int]]:
    """Per walled table: persona id → rows, read past the wall (the explicit bypass)."""
    owner_sql = {
        "persona_id": "persona_id",
        "persona": "(SELECT id FROM personas p WHERE p.name = t.persona)",
    }
    out: dict[str, dict[int, int]] = {}
    conn = app.store.db.conn()  # the store root: across personas by design
    for table, condition in WALLED_TABLES.items():
        if condition == "persona_id = omoide_persona()":
            who = owner_sql["persona_id"]
        elif condition.startswith("persona ="):
            who = owner_sql["persona"]
        else:  # a child: its parent's persona
            parent, column = {
                "memory_links": ("memories", "a"),
                "event_vectors": ("session_events", "event_id"),
                "episode_vectors": ("episodes", "episode_id"),
            }.get(table, ("memories", "memory_id"))
            who = f"(SELECT o.persona_id FROM {parent} o WHERE o.id = t.{column})"
        out[table] = {
            int(r[0]): int(r[1])
            for r in conn.execute(f"SELECT {who}, count(*) FROM {table} t GROUP BY 1")
            if r[0] is not None
        }
    return out


def test_the_app_connects_as_an_ordinary_role(app: Omoide) -> None:
    """A superuser (or BYPASSRLS role) is never walled: the suite runs as the tables' owner."""
    row = (
        app.store.db.conn()
        .execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        .fetchone()
    )
    assert (row[0], row[1]) == (False, False)


def test_a_persona_bound_transaction_sees_only_its_persona(app: Omoide) -> None:
    owners = _owners(app)
    rin, haru = app.store.get_persona("rin").id, app.store.get_persona("haru").id
    for table, by_persona in owners.items():
        assert by_persona.get(rin) and by_persona.get(haru), (table, by_persona)
    handle = app.store.memories("rin")
    with handle.db.write() as conn:  # a write transaction bound to rin, unscoped queries
        for table in WALLED_TABLES:
            seen = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            assert seen == owners[table].get(rin, 0), table
        text = " ".join(r[0] for r in conn.execute("SELECT content FROM memories"))
        assert "Rau" in text and "Ken" not in text
    reader = PersonaDb(app.store.db, haru).conn()  # an autocommit read bound to haru
    for table in WALLED_TABLES:
        seen = reader.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        assert seen == owners[table].get(haru, 0), table
    events = [r[0] for r in reader.execute("SELECT content FROM session_events")]
    assert events and all("Rau" not in e for e in events)


def test_a_bound_transaction_cannot_write_another_personas_rows(app: Omoide) -> None:
    """The wall's refusal is PostgreSQL's 42501, said as every 42501 is (refusals.py: a 503
    naming the statement, with the server's words, "violates row-level security policy")."""
    haru = app.store.get_persona("haru").id
    with (
        pytest.raises(StorageUnavailable, match=r"INSERT .* violates row-level security") as no,
        app.store.memories("rin").db.write() as conn,
    ):
        conn.execute(
            "INSERT INTO memory_blocks (persona_id, block_name, content, created_at, "
            "updated_at) VALUES (?, 'planted', 'x', ?, ?)",
            (haru, START.isoformat(), START.isoformat()),
        )
    assert isinstance(no.value.__cause__, psycopg.errors.InsufficientPrivilege)
    with app.store.memories("rin").db.write() as conn:  # nor touch them
        assert (
            conn.execute(
                "UPDATE memories SET importance = 1 WHERE persona_id = ?", (haru,)
            ).rowcount
            == 0
        )
        assert (
            conn.execute("DELETE FROM session_events WHERE persona_id = ?", (haru,)).rowcount == 0
        )


def test_unbound_sees_nothing_and_the_bypass_sees_all(app: Omoide) -> None:
    bare = app.store.db.db  # the database without a scope: the wall fails closed
    owners = _owners(app)
    for table in WALLED_TABLES:
        assert bare.conn().execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
        total = app.store.db.conn().execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        assert total == sum(owners[table].values()), table
    with psycopg.connect(app.store.url) as conn:  # another client bound to nobody
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 0
    with psycopg.connect(app.store.url, options=SEE_ALL) as conn:
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 4


def test_every_table_holding_a_personas_rows_is_walled(app: Omoide) -> None:
    """A new table keyed by a persona (or by a walled parent) must join the wall."""
    conn = app.store.db.conn()
    forced = {
        r[0]
        for r in conn.execute(
            "SELECT relname FROM pg_class WHERE relforcerowsecurity AND relrowsecurity "
            "AND relnamespace = current_schema()::regnamespace"
        )
    }
    keyed = {
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT c.table_name FROM information_schema.columns c "
            "JOIN information_schema.tables t USING (table_schema, table_name) "
            "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
            "AND c.column_name IN ('persona_id', 'persona', 'memory_id', 'event_id', "
            "'episode_id')"
        )
    }
    assert forced == set(WALLED_TABLES)
    assert keyed - UNWALLED_INDEXES <= forced  # the index rows' persona_id: migration 17
    everything = {
        r[0]
        for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    }
    assert everything - forced - UNWALLED_INDEXES == {
        "personas",
        "schema_migrations",
        "embedder",
        "periodic_claims",
        "owed_vacuums",  # table names only (store/postgres/owed_vacuums.py)
    }


def test_a_role_the_wall_does_not_apply_to_is_warned_about(
    app: Omoide, pg_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    assert warn_if_unwalled(app.store.db.conn()) is True
    assert "row-level security" not in caplog.text
    with psycopg.connect(pg_server.admin_url) as conn:  # the superuser
        assert warn_if_unwalled(conn) is False
    assert "does not apply" in caplog.text

"""The shortcuts the fixtures take to give each test a fresh store (tests/conftest.py) leave
exactly what the long way leaves: a copied SQLite template is a database the migrations just
made, and an emptied PostgreSQL database holds no row and counts ids from 1 again."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import psycopg
import pytest
from omoide_testing import migrated_copy
from pg_testing import SEE_ALL, PgServer

from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.migrations import MIGRATIONS, applied_migrations
from omoide.wiring import Omoide, build


def _schema(path: Path) -> list[tuple[str, str, str]]:
    db = Database(path, migrate=False)
    rows = (
        db.conn()
        .execute("SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name")
        .fetchall()
    )
    db.close()
    return [tuple(r) for r in rows]


@pytest.mark.sqlite_only
def test_a_copied_template_is_what_the_migrations_make(
    sqlite_template: Path, tmp_path: Path
) -> None:
    migrated = tmp_path / "migrated" / "omoide.db"
    Database(migrated).close()
    copied = tmp_path / "copied" / "omoide.db"
    migrated_copy(sqlite_template, copied)
    assert _schema(copied) == _schema(migrated)
    db = Database(copied)  # opening it applies nothing more
    assert applied_migrations(db.conn()) == [m.number for m in MIGRATIONS]
    assert db.conn().execute("SELECT COUNT(*) FROM personas").fetchone()[0] == 0
    db.close()
    assert stat.S_IMODE(os.stat(copied).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(copied.parent).st_mode) == 0o700


def _app(url: str, folder: Path) -> Omoide:
    return build(
        Settings.from_env({"OMOIDE_DATABASE_URL": url}, data_dir=folder),
        embedder=HashEmbedder(),
        llm=None,
        chat_upstream=None,
    )


def test_an_emptied_database_holds_no_row_and_restarts_its_ids(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.emptied()
    app = _app(url, tmp_path)
    for name in ("rin", "kai"):
        app.auth.create_persona(name)
        app.memories.create(name, app.memories.build_new(content=f"{name} drinks green tea."))
    app.close()
    assert pg_server.emptied() == url
    with psycopg.connect(url, autocommit=True, options=SEE_ALL) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename <> 'schema_migrations'"
            )
        ]
        assert {
            t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables
        } == dict.fromkeys(tables, 0)
        assert conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0] > 0
    app = _app(url, tmp_path)
    app.auth.create_persona("mio")
    assert app.store.get_persona("mio").id == 1
    app.close()

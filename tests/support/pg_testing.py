"""A real PostgreSQL (with pgvector) for the tests: one server per test run, started by the
``pgserver`` wheel (no network, no system install). Tests share one migrated database that is
emptied (every row deleted, ids restarted) before each test; a test that needs a database
of its own (the multi-process and migration tests) asks for a new one. The server runs without
fsync: durability against power loss is not what these tests measure.

Omoide connects as :data:`OWNER`, an ordinary role owning the test databases, as a deployment
should (a superuser is never subject to row-level security, so the persona wall of
``store/postgres/rls.py`` would not be tested); the superuser only creates databases, the
``vector`` extension, and empties tables. :data:`SEE_ALL` is the connection option a test's own
direct queries use to read every persona's rows."""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["OWNER", "SEE_ALL", "PgServer", "rows_holding", "start_pg_server"]

_TEMPLATE = "omoide_template"
OWNER = "omoide_owner"
SEE_ALL = "-c omoide.persona=*"  # psycopg.connect(url, options=SEE_ALL): past the wall


# One round trip: delete every row of every table but the migrations' record (foreign keys not
# enforced meanwhile: the order of the deletes does not matter), then restart every sequence.
_EMPTY_ALL = """
DO $$
DECLARE name text;
BEGIN
    SET LOCAL session_replication_role = replica;
    FOR name IN SELECT quote_ident(tablename) FROM pg_tables
                WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' LOOP
        EXECUTE 'DELETE FROM ' || name;
    END LOOP;
    FOR name IN SELECT c.oid::regclass::text FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind = 'S' AND n.nspname = current_schema() LOOP
        PERFORM setval(name, 1, false);
    END LOOP;
END $$
"""


class PgServer:
    """A running PostgreSQL server from the ``pgserver`` wheel (no network, no system install)."""

    def __init__(self, root: Path) -> None:
        import pgserver

        _find_bundled_libraries(Path(pgserver.__file__).parent)
        self.root = root
        self._server = pgserver.get_server(root / "pgdata", cleanup_mode="stop")
        self.admin_url = self._server.get_uri()
        self._names = itertools.count(1)
        self._lock = threading.Lock()
        self._template_ready = False
        self._shared: str | None = None
        with self._admin() as conn:  # type: ignore[attr-defined]
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                conn.execute(f"ALTER SYSTEM SET {setting} = off")
            conn.execute("SELECT pg_reload_conf()")
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (OWNER,)).fetchone():
                conn.execute(f"CREATE ROLE {OWNER} LOGIN")

    def url(self, database: str) -> str:
        """The URL of ``database`` on this server as :data:`OWNER` (a Unix socket in the
        server's folder)."""
        scheme, _, rest = self.admin_url_of(database).partition("://")
        return f"{scheme}://{OWNER}@{rest.split('@', 1)[1]}"

    def admin_url_of(self, database: str) -> str:
        """The URL of ``database`` as the superuser."""
        return self._server.get_uri(database)

    def _admin(self) -> object:
        import psycopg

        return psycopg.connect(self.admin_url, autocommit=True)

    def _ensure_template(self) -> None:
        import psycopg

        from omoide.store.postgres.db import PgDatabase

        with self._lock:
            if self._template_ready:
                return
            with self._admin() as conn:  # type: ignore[attr-defined]
                conn.execute(f"DROP DATABASE IF EXISTS {_TEMPLATE} WITH (FORCE)")
                conn.execute(f"CREATE DATABASE {_TEMPLATE} OWNER {OWNER}")
            with psycopg.connect(self.admin_url_of(_TEMPLATE), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")  # a superuser's to create
            PgDatabase(self.url(_TEMPLATE), max_size=1).close()
            self._template_ready = True

    def new_database(self) -> str:
        """A new empty-but-migrated database; returns its name."""
        self._ensure_template()
        name = f"t{os.getpid()}_{next(self._names)}"
        with self._admin() as conn:  # type: ignore[attr-defined]
            conn.execute(
                f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE} STRATEGY FILE_COPY OWNER {OWNER}"
            )
        return name

    def drop_database(self, name: str) -> None:
        with self._admin() as conn:  # type: ignore[attr-defined]
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    @contextmanager
    def database(self) -> Iterator[str]:
        """A fresh database for one test; its URL, dropped afterwards."""
        name = self.new_database()
        try:
            yield self.url(name)
        finally:
            self.drop_database(name)

    @contextmanager
    def unmigrated(self, prefix: str) -> Iterator[str]:
        """A database with pgvector but no migration applied yet (a migration test applies
        them up to the one before its own); its URL, dropped afterwards."""
        import psycopg

        name = f"{prefix}_{os.getpid()}"
        with self._admin() as conn:  # type: ignore[attr-defined]
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name} OWNER {OWNER}")
        try:
            with psycopg.connect(self.admin_url_of(name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")  # a superuser's to create
            yield self.url(name)
        finally:
            self.drop_database(name)

    def emptied(self) -> str:
        """The URL of the shared test database with every table emptied and every identity
        restarted at 1 (what ``TRUNCATE ... RESTART IDENTITY`` leaves). Rows are deleted, not
        truncated: a test leaves a few rows, and TRUNCATE gives each of the ~26 tables and
        their indexes new files (about 0.15 s per test, against 0.03 s)."""
        import psycopg

        if self._shared is None:
            self._shared = self.new_database()
        url = self.url(self._shared)
        with psycopg.connect(self.admin_url_of(self._shared), autocommit=True) as conn:
            conn.execute(_EMPTY_ALL)
        return url

    def stop(self) -> None:
        self._server.cleanup()

    def restart(self) -> None:
        """Start again after :meth:`stop` (same folder, same databases)."""
        import pgserver

        self._server = pgserver.get_server(self.root / "pgdata", cleanup_mode="stop")


def _find_bundled_libraries(package: Path) -> None:
    """Name the wheel's bundled libraries (``pgserver.libs``, beside the package) on
    ``LD_LIBRARY_PATH``, which the server's commands inherit. Started as root, pgserver runs
    ``initdb`` as its own user; a sandbox that denies that user ``/proc/self/exe`` leaves the
    loader unable to expand ``$ORIGIN`` in ``initdb``'s RPATH, and ``initdb`` exits 127."""
    bundled = package.parent / "pgserver.libs"
    known = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    if bundled.is_dir() and str(bundled) not in known:
        os.environ["LD_LIBRARY_PATH"] = os.pathsep.join([str(bundled), *known])


def start_pg_server() -> tuple[PgServer, tempfile.TemporaryDirectory[str]]:
    folder = tempfile.TemporaryDirectory(prefix="omoide-pg-")
    return PgServer(Path(folder.name)), folder


def rows_holding(url: str, text: str) -> list[str]:
    """``table.column`` of every text column of the database holding ``text`` in some row:
    where an erased text could still be read through SQL."""
    import psycopg
    from psycopg import sql

    found = []
    with psycopg.connect(url, autocommit=True, options=SEE_ALL) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND data_type = 'text' "
            "ORDER BY table_name, column_name"
        ).fetchall()
        for table, column in columns:
            query = sql.SQL("SELECT 1 FROM {} WHERE strpos({}, %s) > 0 LIMIT 1").format(
                sql.Identifier(table), sql.Identifier(column)
            )
            if conn.execute(query, (text,)).fetchone():
                found.append(f"{table}.{column}")
    return found

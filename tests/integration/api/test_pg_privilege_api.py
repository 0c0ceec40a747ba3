"""A PostgreSQL role that lacks a privilege Omoide needs (SQLSTATE 42501
``insufficient_privilege``: a role granted too little, or tables a migration added after the
grants) is a 503 ``storage_unavailable`` naming the role, the operation and the grant to give,
over HTTP and MCP (a tool error); nothing of the write is stored, reads go on, and the write
succeeds once the privilege is granted. Before: a 500 ``internal``.

Real on this server: Omoide connects as a role of the test's own, granted every privilege on
the tables of a database of its own but INSERT on ``memories``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from mcp_checks import in_process_tool_error
from omoide_testing import served
from pg_testing import OWNER, PgServer
from psycopg.conninfo import conninfo_to_dict

from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import Omoide, build

pytestmark = pytest.mark.postgres_only

ROLE = "qa40_app"


@pytest.fixture
def database(pg_server: PgServer) -> Iterator[str]:
    """A migrated database of the test's own (as its owner), and :data:`ROLE` granted every
    privilege on its schema, tables and sequences but INSERT on ``memories``; its URL as the
    owner."""
    with psycopg.connect(pg_server.admin_url, autocommit=True) as admin:
        admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
        admin.execute(f"CREATE ROLE {ROLE} LOGIN")
    try:
        with pg_server.database() as url:
            with psycopg.connect(url, autocommit=True) as owner:
                owner.execute(
                    # CREATE on the schema: the start-up's CREATE TABLE IF NOT EXISTS of the
                    # migrations' record asks for it even when the table exists
                    f"GRANT CREATE ON SCHEMA public TO {ROLE}; "
                    f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public "
                    f"TO {ROLE}; GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO "
                    f"{ROLE}; REVOKE INSERT ON memories FROM {ROLE}"
                )
            yield url
    finally:
        with psycopg.connect(pg_server.admin_url, autocommit=True) as admin:
            admin.execute(f"DROP ROLE IF EXISTS {ROLE}")


@pytest.fixture
def build_on(data_dir: Path, embedder: HashEmbedder) -> Iterator[Callable[[str], Omoide]]:
    built: list[Omoide] = []

    def make(url: str) -> Omoide:
        environ = {"OMOIDE_DATABASE_URL": url, "OMOIDE_WORKERS": "0"}
        app = build(Settings.from_env(environ, data_dir=data_dir), embedder=embedder, llm=None)
        built.append(app)
        return app

    yield make
    for app in built:
        app.close()


def test_a_privilege_the_role_lacks_is_503_naming_the_role_and_the_operation(
    database: str, build_on: Callable[[str], Omoide], data_dir: Path
) -> None:
    _, key = build_on(database).auth.create_persona("rin")
    app = build_on(database.replace(f"//{OWNER}@", f"//{ROLE}@"))
    with served(app, data_dir, "omo_admin_test-key") as server, server.client(key) as rin:
        reply = rin.post("/api/memories/rin", json={"content": "The user keeps bees."})
        assert reply.status_code == 503, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_unavailable"
        name = conninfo_to_dict(database)["dbname"]
        assert error["message"] == (
            f"the PostgreSQL database '{name}' refused INSERT to the role '{ROLE}', which "
            "lacks the privilege (permission denied for table memories); nothing of this "
            "request was stored: grant the role that privilege (GRANT INSERT ON that table "
            f"TO {ROLE}), or connect as the owner of Omoide's tables (docs/deploy.md)"
        )
        assert "Retry-After" not in reply.headers  # not until someone grants it
        message = in_process_tool_error(
            server.omoide, "rin", "memory_create", content="The user keeps bees."
        )
        assert "refused INSERT to the role 'qa40_app'" in message, message
        assert rin.get("/api/memories/rin").json()["memories"] == []  # reads go on
        with psycopg.connect(database, autocommit=True) as owner:
            owner.execute(f"GRANT INSERT ON memories TO {ROLE}")
        again = rin.post("/api/memories/rin", json={"content": "The user keeps bees."})
        assert again.status_code == 201, again.text

"""PostgreSQL's full disk is the same 507 ``storage_full`` as SQLite's, not a 500.

The server here raises the real error (SQLSTATE 53100 ``disk_full``) from a trigger on the
memories table: the same error object, through the same connection, as a data file that could
not grow (``could not extend file ...: No space left on device``). Filling a disk for real needs
a file system of its own (the memories table moved to a tablespace on a 512 KB tmpfs, which
only root can mount): done once by hand, it gave that error, 53100, after 414 memories, and
the same 507 with the server's message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer
from pg_testing import SEE_ALL

from omoide.cli import main

_FULL = """
CREATE FUNCTION no_room() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device'
        USING ERRCODE = 'disk_full';
END $$;
CREATE TRIGGER no_room BEFORE INSERT ON memories FOR EACH ROW EXECUTE FUNCTION no_room();
"""
_ROOM_AGAIN = "DROP TRIGGER no_room ON memories; DROP FUNCTION no_room()"

# SQLite's full disk (a real small file system) is tests/integration/test_qa36b_lifecycle.py's
pytestmark = pytest.mark.postgres_only


@pytest.fixture
def url(store_environ: dict[str, str]) -> str:
    return store_environ["OMOIDE_DATABASE_URL"]


@pytest.fixture
def full_disk(url: str) -> Iterator[None]:
    with psycopg.connect(url, autocommit=True, options=SEE_ALL) as conn:
        conn.execute(_FULL)
        try:
            yield
        finally:
            conn.execute(_ROOM_AGAIN)


def test_a_full_disk_is_507_naming_the_database(
    url: str, server: LiveServer, full_disk: None
) -> None:
    """Before: 500 ``internal_error`` (psycopg.errors.DiskFull reached the app's handler)."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        reply = rin.post("/api/memories/rin", json={"content": "The user keeps bees."})
        assert reply.status_code == 507, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_full"
        database = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
        assert f"the disk of the PostgreSQL database '{database}' is full" in error["message"]
        assert "No space left on device" in error["message"]
        assert rin.get("/api/memories/rin").json()["memories"] == []  # nothing half-stored


def test_a_full_disk_is_one_cli_line(
    url: str, full_disk: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("OMOIDE_DATABASE_URL", url)
    runner = CliRunner()
    assert runner.invoke(main, ["persona", "create", "rin"], catch_exceptions=False).exit_code == 0
    done = runner.invoke(main, ["memory", "add", "-p", "rin", "bees"], catch_exceptions=False)
    assert done.exit_code == 1, done.output
    assert done.output.startswith("Error: the disk of the PostgreSQL database ")
    assert done.output.count("\n") == 1

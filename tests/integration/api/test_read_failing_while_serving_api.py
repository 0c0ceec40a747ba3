"""A read of the data folder that the operating system fails while the server runs (SQLite's
"disk I/O error", ``SQLITE_IOERR``: a disk failing reads, a file cut short under the process)
is a 503 ``storage_unavailable`` naming the folder and what to check, over HTTP, MCP (a tool
error) and the dashboard (its error page), and the same requests are served again once the
file reads again. Before: a 500 ``internal`` over HTTP, an internal error over MCP (a write's
"disk I/O error" was already the 503 of a folder that stopped taking writes,
test_unwritable_while_serving_api.py).

The failure is real: the database's write-ahead log cut to zero bytes under the running server
(another program's ``truncate``), after a write of another process (the CLI) made every
connection of the server drop the pages it had cached. SQLite then reads a committed page
from the log and gets nothing back: ``SQLITE_IOERR_SHORT_READ``. (A disk failing reads with
``EIO`` needs a faulty device, which this machine cannot make: no device mapper; a short read
is the I/O error SQLite meets the same way.) The log's bytes are put back afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp_checks import in_process_tool_error
from omoide_testing import LiveServer

from omoide.cli import main

# SQLite's files in the data folder; PostgreSQL's data files are the server's own
pytestmark = pytest.mark.sqlite_only


def _added_by_another_process(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``omoide memory add`` on the server's folder: the server's connections see the log
    changed by another writer and drop every page they cached."""
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    done = CliRunner().invoke(main, ["memory", "add", "-p", "rin", "The user grows tomatoes."])
    assert done.exit_code == 0, done.output


def test_a_read_the_disk_fails_is_503_over_http_mcp_and_the_dashboard(
    held_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = held_server.create_persona("rin")
    settings = held_server.omoide.settings
    data = str(settings.data_dir)
    wal = settings.db_path.with_name(settings.db_path.name + "-wal")
    with held_server.client(key) as rin, held_server.signed_in(key) as page:
        assert rin.post("/api/memories/rin", json={"content": "The user keeps bees."}).is_success
        _added_by_another_process(settings.data_dir, monkeypatch)
        logged = wal.read_bytes()
        wal.write_bytes(b"")  # cut short: SQLite's index still says the pages are in it
        try:
            replies = [
                rin.get("/api/memories/rin"),
                rin.get("/api/search/rin", params={"q": "bees"}),
            ]
            mcp = in_process_tool_error(held_server.omoide, "rin", "memory_search", query="bees")
            dashboard = page.get("/p/rin/memories", params={"q": "bees"})
        finally:
            wal.write_bytes(logged)
        for reply in replies:
            assert reply.status_code == 503, reply.text
            error = reply.json()["error"]
            assert error["code"] == "storage_unavailable"
            message = error["message"]
            assert message.startswith(
                f"the data folder '{data}' failed a read of omoide.db (disk I/O error, "
                "SQLITE_IOERR_SHORT_READ) while this process had it open: the disk or the "
                "file system under it is failing reads (see the system log)"
            ), message
            assert "then try again" in message and "omoide restore" in message, message
        assert "failed a read of omoide.db (disk I/O error" in mcp, mcp
        assert "then try again" in mcp, mcp
        assert dashboard.status_code == 503, dashboard.text
        assert "failed a read of omoide.db (disk I/O error" in dashboard.text
        assert '<a href="/">' in dashboard.text
        listed = rin.get("/api/memories/rin")  # the file reads again: served again
        assert listed.status_code == 200, listed.text
        contents = sorted(m["content"] for m in listed.json()["memories"])
        assert contents == ["The user grows tomatoes.", "The user keeps bees."]
        assert page.get("/p/rin/memories", params={"q": "bees"}).status_code == 200

"""A database found damaged while the server runs (SQLite's "database disk image is
malformed", ``SQLITE_CORRUPT``) is a 503 ``storage_unavailable`` naming the data folder and
the remedy (``omoide restore --force`` from a backup), not a 500.

The damage is real: every page of ``omoide.db`` after the first (the header and the schema)
overwritten with garbage under the running server, after its write-ahead log was checkpointed
into the file (so what the server reads is the file's pages)."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer

# SQLite's damaged file; PostgreSQL's data files are the server's own
pytestmark = pytest.mark.sqlite_only


def _damage(path: str) -> None:
    with open(path, "r+b") as file:
        header = file.read(100)
        page = int.from_bytes(header[16:18], "big") or 65536
        size = file.seek(0, 2)
        file.seek(page)
        file.write(bytes(range(256)) * ((size - page) // 256 + 1))


def test_a_database_damaged_under_the_running_server_is_503_naming_the_remedy(
    held_server: LiveServer,
) -> None:
    """Before: 500 ``internal`` ("database disk image is malformed" reached the app's
    last-resort handler)."""
    key = held_server.create_persona("rin")
    omoide = held_server.omoide
    with held_server.client(key) as rin:
        for n in range(30):
            assert rin.post("/api/memories/rin", json={"content": f"Fact {n}."}).is_success
        assert omoide.store.db.checkpoint()  # type: ignore[attr-defined]
        _damage(str(omoide.settings.db_path))
        replies = [
            rin.get("/api/memories/rin"),
            rin.get("/api/search/rin", params={"q": "fact"}),
            rin.post("/api/memories/rin", json={"content": "One more."}),
        ]
    data = str(omoide.settings.data_dir)
    for reply in replies:
        assert reply.status_code == 503, reply.text
        error = reply.json()["error"]
        assert error["code"] == "storage_unavailable"
        assert error["message"].startswith(
            f"the database omoide.db in the data folder '{data}' cannot be read ("
        ), error["message"]
        assert "restore it from a backup (omoide restore --from FILE --force)" in (error["message"])

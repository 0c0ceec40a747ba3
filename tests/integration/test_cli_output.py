"""What the ``omoide`` commands print, through the entry point: ``--json`` wherever a command
prints data, one line per row in the human form, the conversations list, an empty import file
refused, and a bad ``OMOIDE_PORT`` named in one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("OMOIDE_PORT", raising=False)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> click.testing.Result:
        return runner.invoke(main, list(args), catch_exceptions=False, input=input)

    return invoke


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
        else:
            found.append((*prefix, name))
    return found


# Commands whose result is an action's outcome on stderr (progress, a count), a stream they write
# (export), or a process (serve, mcp): they print no data to stdout to make JSON of.
NO_DATA = {("serve",), ("mcp",), ("export",), ("reindex",), ("decay",)}


def test_every_command_that_prints_data_takes_json() -> None:
    missing = [
        " ".join(path)
        for path in _commands(main)
        if path not in NO_DATA and "as_json" not in {p.name for p in _command(path).params}
    ]
    assert missing == []


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    return command


def test_search_and_memory_list_print_one_line_per_row(run) -> None:
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "Shopping list:\nmilk\n\neggs and  bread")
    run("memory", "add", "-p", "rin", "The user buys milk on Fridays.")
    searched = run("search", "-p", "rin", "milk")
    assert searched.exit_code == 0
    lines = searched.output.splitlines()
    assert len(lines) == 2
    assert any(line.endswith("Shopping list: milk eggs and bread") for line in lines)
    as_json = json.loads(run("search", "-p", "rin", "milk", "--json").output)
    assert "Shopping list:\nmilk\n\neggs and  bread" in {r["content"] for r in as_json}
    listed = run("memory", "list", "-p", "rin").output.splitlines()
    assert len(listed) == 2
    assert run("memory", "list", "-p", "rin", "--offset", "1").output.splitlines() == listed[1:]
    long = "word " * 40
    run("memory", "add", "-p", "rin", long)
    shown = run("memory", "list", "-p", "rin", "--limit", "1").output.rstrip("\n")
    assert "\n" not in shown and shown.endswith("…")


def test_session_list_prints_the_conversations_newest_first(run, tmp_path: Path) -> None:
    from omoide.config import Settings
    from omoide.wiring import build

    run("persona", "create", "rin")
    assert run("session", "list", "-p", "rin").output.strip() == "(no sessions)"
    assert json.loads(run("session", "list", "-p", "rin", "--json").output) == []
    app = build(
        Settings.from_env({"OMOIDE_EMBEDDER": "hash"}, data_dir=tmp_path / "data"), llm=None
    )
    app.sessions.open("rin", session_id="first", started_at="2026-11-01T09:00:00Z")
    app.sessions.record(
        "rin",
        "first",
        [
            {"speaker": "Ken", "content": "Hello", "timestamp": "2026-11-01T09:05:00Z"},
            {"speaker": "Rin", "content": "Hi Ken", "timestamp": "2026-11-01T09:06:00Z"},
        ],
    )
    app.sessions.end("rin", "first")
    app.sessions.open("rin", session_id="second", started_at="2026-11-02T09:00:00Z")
    app.close()

    lines = run("session", "list", "-p", "rin").output.splitlines()
    assert lines[0].startswith("second  open  started 2026-11-02T09:00, no turns  0 turns")
    assert lines[1].startswith("first  ended ") and " by client  " in lines[1]
    assert "2026-11-01T09:05 .. 2026-11-01T09:06  2 turns" in lines[1]
    rows = json.loads(run("session", "list", "-p", "rin", "--json").output)
    assert [(r["session_id"], r["status"], r["ended_by"], r["events"]) for r in rows] == [
        ("second", "open", None, 0),
        ("first", "ended", "client", 2),
    ]
    with sqlite3.connect(tmp_path / "data" / "omoide.db") as db:  # ended before causes were
        db.execute("UPDATE sessions SET ended_by = NULL")  # recorded (migration 23)
    db.close()
    assert " by unknown  " in run("session", "list", "-p", "rin").output.splitlines()[1]
    assert [
        r["session_id"]
        for r in json.loads(
            run("session", "list", "-p", "rin", "--limit", "1", "--offset", "1", "--json").output
        )
    ] == ["first"]
    for args in (["--limit", "0"], ["--limit", "1001"], ["--offset", "-1"]):
        refused = run("session", "list", "-p", "rin", *args)  # a bad value of the option
        assert refused.exit_code == 2, args
        assert refused.output.splitlines()[-1].startswith(f"Error: Invalid value for '{args[0]}'")
    ghost = run("session", "list", "-p", "ghost")
    assert ghost.exit_code == 1 and "ghost" in ghost.output


def test_session_end_says_when_and_how_it_ended(run, tmp_path: Path) -> None:
    """``omoide session end`` ends a conversation as session_end does and says its end and
    cause; an ended one keeps both (the idle sweep's end stays ``idle``)."""
    from omoide.config import Settings
    from omoide.model import SessionEnd
    from omoide.wiring import build

    run("persona", "create", "rin")
    app = build(
        Settings.from_env({"OMOIDE_EMBEDDER": "hash"}, data_dir=tmp_path / "data"), llm=None
    )
    for sid in ("talk", "quiet"):
        app.sessions.open("rin", session_id=sid, started_at="2026-11-01T09:00:00Z")
    quiet = app.sessions.end("rin", "quiet", by=SessionEnd.IDLE)
    app.close()

    ended = run("session", "end", "-p", "rin", "talk")
    assert ended.exit_code == 0, ended.output
    assert ended.output.startswith("ended talk ")
    assert ended.output.strip().endswith(" by client (consolidation queued)")
    again = json.loads(run("session", "end", "-p", "rin", "quiet", "--json").output)
    assert quiet.ended_at is not None
    assert again == {
        "session_id": "quiet",
        "ended_at": quiet.ended_at.isoformat(),
        "ended_by": "idle",
        "queued": False,
        "already_ended": True,
    }
    told = run("session", "end", "-p", "rin", "quiet").output.strip()
    assert told.startswith("quiet had already ended ") and told.endswith(
        " by idle (nothing queued)"
    )
    listed = {
        r["session_id"]: r["ended_by"]
        for r in json.loads(run("session", "list", "-p", "rin", "--json").output)
    }
    assert listed == {"talk": "client", "quiet": "idle"}
    ghost = run("session", "end", "-p", "rin", "nope")
    assert ghost.exit_code == 1 and "nope" in ghost.output
    assert len(ghost.output.strip().splitlines()) == 1


def test_jobs_status_prints_the_counts_and_failures(run) -> None:
    run("persona", "create", "rin")
    run("memory", "add", "-p", "rin", "Rin grows tomatoes")
    status = json.loads(run("jobs", "status", "-p", "rin", "--json").output)
    assert {k: status[k] for k in ("persona", "pending", "running", "failed")} == {
        "persona": "rin",
        "pending": 0,
        "running": 0,
        "failed": 0,
    }
    assert status["failures"] == [] and status["done"] >= 1
    assert run("jobs", "status", "-p", "rin").output.startswith("pending=0 running=0 failed=0")


@pytest.mark.parametrize("source", ["omoide", "mem0", "mcp-memory", "chat"])
@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_an_empty_import_file_is_refused(run, tmp_path: Path, source: str, text: str) -> None:
    file = tmp_path / "empty.json"
    file.write_text(text, encoding="utf-8")
    run("persona", "create", "rin")
    result = run("import", "-p", "rin", "--from", source, str(file))
    assert result.exit_code == 1
    assert "Error: " in result.output and "empty" in result.output
    assert "Traceback" not in result.output and "imported into" not in result.output


@pytest.mark.parametrize(
    ("source", "text", "says"),
    [
        ("mem0", "[]", "holds no memory"),
        ("mem0", '{"results": []}', "holds no memory"),
        ("mem0", '[{"memory": "Likes tea", "user_id": "u1"}]', "holds no memory of user_id 'u2'"),
    ],
)
def test_an_import_file_without_memories_is_refused(
    run, tmp_path: Path, source: str, text: str, says: str
) -> None:
    file = tmp_path / "nothing.json"
    file.write_text(text, encoding="utf-8")
    result = (
        run("import", "-p", "rin", "--from", source, "--user-id", "u2", str(file))
        if "user_id" in says
        else run("import", "-p", "rin", "--from", source, str(file))
    )
    assert result.exit_code == 1 and says in result.output, result.output
    assert "imported into" not in result.output
    assert run("persona", "list").output.strip() == "(no personas)"  # made for it, erased


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (
            "abc",
            (
                "OMOIDE_PORT must be an integer written with the digits 0-9 (as in JSON: e.g. 5 or "
                '300), got "abc"'
            ),
        ),
        ("70000", "OMOIDE_PORT (--port) must be 0-65535, got 70000"),
        ("-1", "OMOIDE_PORT (--port) must be 0-65535, got -1"),
    ],
)
def test_a_bad_omoide_port_is_one_line_naming_the_variable(
    run, monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    monkeypatch.setenv("OMOIDE_PORT", value)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {says}"


def test_memory_add_reads_its_text_from_stdin_given_a_dash(run) -> None:
    """``omoide memory add -p rin -`` stored the memory "-"; a dash reads standard input, and
    a blank input is refused as blank text is."""
    assert run("persona", "create", "rin").exit_code == 0
    added = run("memory", "add", "-p", "rin", "-", "--json", input="Ken drinks green tea.\n")
    assert added.exit_code == 0, added.output
    assert json.loads(added.output)["memory"]["content"] == "Ken drinks green tea."
    blank = run("memory", "add", "-p", "rin", "-", input="  \n")
    assert blank.exit_code == 1 and "content must not be empty" in blank.output


def test_counts_print_singular_for_one_and_plural_otherwise(run) -> None:
    run("persona", "create", "rin")
    run("persona", "create", "ami")
    run("memory", "add", "-p", "rin", "The user plays the cello.")
    for text in ("The user lives in Osaka.", "The user likes green tea."):
        run("memory", "add", "-p", "ami", text)
    assert sorted(run("persona", "list").output.splitlines()) == [
        "ami\t2 memories",
        "rin\t1 memory",
    ]
    erased = run("persona", "delete", "rin", "--yes")
    assert erased.output.startswith("erased persona rin (1 memory, 0 sessions")

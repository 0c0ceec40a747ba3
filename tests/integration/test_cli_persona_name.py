"""Session 24's probe: ``omoide mcp --persona 'a b'`` built the app (the data folder opened,
the embedder loaded: a second or more) before refusing the name, and so did every command
taking a persona. The name is now checked as it is read: one line, exit status 1, nothing
built (the data folder is not even created)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main

MESSAGE = "Error: invalid persona name \"a b\": use 1-64 ASCII letters, digits, '_' or '-'"

COMMANDS = [
    ["mcp", "--persona", "a b"],
    ["memory", "add", "-p", "a b", "hello"],
    ["memory", "list", "-p", "a b"],
    ["session", "list", "-p", "a b"],
    ["jobs", "wait", "-p", "a b"],
    ["jobs", "status", "-p", "a b"],
    ["search", "-p", "a b", "tea"],
    ["stats", "-p", "a b"],
    ["reindex", "-p", "a b"],
    ["decay", "-p", "a b"],
    ["export", "-p", "a b"],
    ["persona", "create", "a b"],
    ["persona", "delete", "a b", "--yes"],
    ["persona", "key", "list", "a b"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_malformed_persona_name_is_refused_before_anything_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    # an embedder that cannot be built: reaching the build would fail with another message
    monkeypatch.setenv("OMOIDE_EMBEDDER", "no-such-model")
    done = CliRunner().invoke(main, command)
    assert done.exit_code == 1, done.output
    assert done.output.strip() == MESSAGE
    assert not data.exists()


def test_omoide_mcp_refuses_the_name_at_once(tmp_path: Path) -> None:
    """Through the installed entry point, as an MCP client starts it: stdout stays empty."""
    data = tmp_path / "data"
    env = {**os.environ, "OMOIDE_DATA": str(data), "OMOIDE_EMBEDDER": "no-such-model"}
    omoide = Path(sys.executable).parent / "omoide"
    done = subprocess.run(
        [str(omoide), "mcp", "--persona", "a b"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == MESSAGE
    assert done.stdout == ""
    assert not data.exists()


def test_a_long_or_odd_persona_name_is_shown_cut_and_in_json_quotes(tmp_path: Path) -> None:
    """Session 30: the refusal echoed the name in Python's repr, whole (300 characters)."""
    env = {**os.environ, "OMOIDE_DATA": str(tmp_path / "data"), "OMOIDE_EMBEDDER": "hash"}
    omoide = Path(sys.executable).parent / "omoide"
    for name, shown in [
        ("x" * 300, '"' + "x" * 78 + "…"),  # quoted(): cut at ECHO_CHARS, as every echo
        ("it's", '"it\'s"'),
        ("tab\there", '"tab\\there"'),
    ]:
        done = subprocess.run(
            [str(omoide), "stats", "--persona", name],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 1
        assert (
            done.stderr.strip() == f"Error: invalid persona name {shown}: use 1-64 ASCII "
            "letters, digits, '_' or '-'"
        ), done.stderr


# the commands whose --persona is required (reindex and decay cover every persona without it)
MISSING = [
    c for c in COMMANDS if ("-p" in c or "--persona" in c) and c[0] not in ("reindex", "decay")
]


@pytest.mark.parametrize("command", MISSING, ids=" ".join)
def test_a_missing_persona_option_is_said_missing_before_anything_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """With click 8.3 and later, an option's explicit ``default=None`` is a value: a required
    ``--persona`` left out ran the command with none, and ``omoide stats`` said "invalid
    persona name "None"" (``memory list`` opened the folder first)."""
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "no-such-model")
    at = command.index("-p" if "-p" in command else "--persona")
    done = CliRunner().invoke(main, command[:at] + command[at + 2 :])
    assert done.exit_code == 2, done.output
    assert done.output.strip().endswith("Error: Missing option '--persona' / '-p'."), done.output
    assert not data.exists()

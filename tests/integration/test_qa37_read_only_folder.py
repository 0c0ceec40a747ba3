"""A data folder on a read-only file system (a backup mounted read-only, a snapshot): the
reading commands read it, the writing ones are refused with one line naming the folder.

The folder: a real read-only bind mount, in a mount namespace of the command's own
(``unshare -m``, which needs root or user namespaces: skipped where neither is allowed); the
real ``omoide`` executable runs inside it. Before, every command, reading or not, was refused
("cannot write in the data folder …: Read-only file system"): SQLite's default open asks for
read-write, and its WAL mode for a ``-shm`` file the folder cannot hold."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

OMOIDE = Path(sys.executable).parent / "omoide"
SEP = "----qa37----"


def _env(data: Path) -> dict[str, str]:
    env = {**os.environ, "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(data)}
    env.pop("OMOIDE_DATABASE_URL", None)
    return env


def _can_mount(folder: Path) -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = f"mount --bind -o ro {shlex.quote(str(folder))} {shlex.quote(str(folder))}"
    return subprocess.run(["unshare", "-m", "sh", "-c", probe], capture_output=True).returncode == 0


def _on_read_only_mount(folder: Path, data: Path, commands: list[str]) -> list[tuple[int, str]]:
    """Each command's exit status and output (stdout and stderr), run one after the other
    with ``folder`` mounted read-only."""
    where = shlex.quote(str(folder))
    script = [f"mount --bind -o ro {where} {where} || exit 99"]
    for command in commands:
        script.append(f'{shlex.quote(str(OMOIDE))} {command} 2>&1; echo "{SEP}$?"')
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", "\n".join(script)],
        env=_env(data),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    parts = done.stdout.split(SEP)
    results = []
    for i in range(len(commands)):
        status, _, _ = parts[i + 1].partition("\n")
        results.append((int(status), parts[i].split("\n", 1)[-1] if i else parts[i]))
    return results


def test_reading_commands_read_a_read_only_folder_and_writing_ones_are_one_line(
    tmp_path: Path,
) -> None:
    mounted, data = tmp_path / "backup", tmp_path / "backup" / "data"
    mounted.mkdir()
    if not _can_mount(mounted):
        pytest.skip("no read-only bind mount here (needs root or user namespaces)")

    def run(*args: str) -> str:
        done = subprocess.run(
            [str(OMOIDE), *args], env=_env(data), capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    run("persona", "create", "rin")
    key = run("memory", "add", "-p", "rin", "The user likes green tea").split()[-1]
    before = (data / "omoide.db").read_bytes()
    reads = [
        "persona list",
        "memory list -p rin",
        f"memory get -p rin {key}",
        f"memory history -p rin {key}",
        "search -p rin tea",
        "export -p rin",
        "stats -p rin",
        "session list -p rin",
        "jobs status -p rin",
        "persona key list rin",
        f"backup --to {shlex.quote(str(tmp_path / 'copy.db'))}",
    ]
    writes = [
        "memory add -p rin bees",
        "persona create ken",
        f"memory delete -p rin {key}",
        "decay",
    ]
    results = _on_read_only_mount(mounted, data, reads + writes)
    for command, (status, output) in zip(reads, results[: len(reads)], strict=True):
        assert status == 0, (command, output)
        assert "Error" not in output and "Traceback" not in output, (command, output)
    outputs = dict(zip(reads, (output for _, output in results), strict=False))
    assert "green tea" in outputs["search -p rin tea"]
    assert "green tea" in outputs[f"memory get -p rin {key}"]
    exported = [json.loads(line) for line in outputs["export -p rin"].splitlines()]
    assert any(r.get("content") == "The user likes green tea" for r in exported)
    assert (tmp_path / "copy.db").stat().st_size > 0
    for command, (status, output) in zip(writes, results[len(reads) :], strict=True):
        assert status == 1, (command, output)
        assert output.count("\n") == 1 and "Traceback" not in output, (command, output)
        assert output.startswith(("Error: the data folder ", "Error: cannot write in the data "))
        assert str(data) in output and ("read-only" in output or "Read-only" in output)
    assert (data / "omoide.db").read_bytes() == before  # a get or a search recorded no recall
    assert sorted(p.name for p in data.iterdir()) == ["omoide.db", "omoide.lock"]

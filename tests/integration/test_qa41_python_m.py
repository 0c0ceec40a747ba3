"""Session 41: ``python -m omoide`` answered "No module named omoide.__main__"; it runs the
``omoide`` command, as an environment whose PATH lacks the script needs (a process of its own)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import omoide

pytestmark = pytest.mark.sqlite_only  # the command line, not the store


def test_python_m_omoide_runs_the_command(tmp_path: Path) -> None:
    src = str(Path(omoide.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-m", "omoide", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": src, "OMOIDE_DATA": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("omoide, version "), done.stdout
    usage = subprocess.run(
        [sys.executable, "-m", "omoide", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
    )
    assert usage.returncode == 0 and "Usage: omoide " in usage.stdout, usage.stdout

"""Every ``omoide`` command module can be imported first, in a fresh interpreter (a command
module importing ``omoide.cli``, which imports it, was a circular import)."""

from __future__ import annotations

import subprocess
import sys

import pytest

MODULES = [
    "omoide.cli_interop",
    "omoide.cli_jobs",
    "omoide.cli_memory",
    "omoide.cli_ops",
    "omoide.cli_migrate",
]


@pytest.mark.parametrize("module", MODULES)
def test_a_command_module_imports_first(module: str) -> None:
    code = f"import {module}; import omoide.cli; print(len(omoide.cli.main.commands))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 10  # every command registered


def test_python_dash_m_runs_the_command() -> None:
    """``python -m omoide.cli serve --help`` printed nothing and exited 0 (no ``__main__``)."""
    done = subprocess.run(
        [sys.executable, "-m", "omoide.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "--port" in done.stdout

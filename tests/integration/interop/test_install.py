"""The package as users install it: build the wheel, install it into a fresh virtual
environment (no index: the wheel itself, with this test venv's packages for its
dependencies), run ``omoide --version`` and a search with the bundled default embedder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from omoide import __version__

REPO = Path(__file__).resolve().parents[3]


def run(*args: str | Path, env: dict[str, str] | None = None) -> str:
    """``args`` run without ``PYTHONPATH``: a checkout's ``src`` on it (``PYTHONPATH=src
    pytest``) came before the fresh venv, so the wheel's ``omoide`` was never the one run."""
    env = {k: v for k, v in (os.environ if env is None else env).items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.slow
def test_wheel_installs_and_runs_a_search(tmp_path: Path) -> None:
    # built from a copy: setuptools writes build/ next to the sources it builds
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(
        REPO / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    dist = tmp_path / "dist"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "--quiet",
        "-w",
        dist,
        source,
    )
    (wheel,) = dist.glob("omoide-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "omoide/embed/calibration_pairs.jsonl",
        "omoide/engine/classify/judge.json",
        "omoide/store/sqlite/migrations.py",
        "omoide/py.typed",
        "omoide/api/http/dashboard/templates/base.html",
    ):
        assert needed in names, needed
    assert not any(n.startswith(("tests/", "bench/")) for n in names)

    venv = tmp_path / "fresh"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
        wheel,
    )
    # the dependencies come from this test venv's site-packages (after the fresh one's)
    fresh_site = Path(
        run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    )
    (fresh_site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = run(python, "-c", "import omoide; print(omoide.__file__)").strip()
    assert where.startswith(str(venv)), where  # the wheel's copy, not the checkout

    omoide = venv / "bin" / "omoide"
    assert __version__ in run(omoide, "--version")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMOIDE_")}
    env["OMOIDE_DATA"] = str(tmp_path / "data")
    run(omoide, "persona", "create", "rin", env=env)
    run(
        omoide,
        "memory",
        "add",
        "-p",
        "rin",
        "The user keeps two cats named Mochi and Kinako",
        env=env,
    )
    found = run(omoide, "search", "-p", "rin", "what pets does the user have", env=env)
    assert "Mochi" in found

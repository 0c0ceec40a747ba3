"""Reports: the one markdown table helper, result files, machine facts and progress logging.

Benchmarks are commands, not tests: they measure and describe, they assert nothing. Every script
writes ``<out>.md`` and ``<out>.json`` under ``bench/results/`` through :func:`write_results`;
a probe whose ``--out`` is one markdown listing writes it through :func:`write_markdown`.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "bench" / "results"

_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY")


def md_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub markdown table; cells are shown as ``str`` shows them (format floats first,
    e.g. with :func:`fmt`)."""
    lines = [
        "| " + " | ".join(str(h) for h in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def write_markdown(path: Path, markdown: str) -> Path:
    """Write ``markdown`` to ``path`` as it is named (UTF-8, ending in exactly one newline)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(markdown.rstrip("\n") + "\n", encoding="utf-8")
    return path


def result_paths(out: Path) -> tuple[Path, Path]:
    """The two files ``write_results`` writes for ``out``: ``<out>.md`` and ``<out>.json``
    (a given ``.md`` or ``.json`` is dropped; any other dot stays part of the name:
    ``r_beta0.5``)."""
    base = out.with_suffix("") if out.suffix in (".md", ".json") else out
    md_path, json_path = (base.with_name(base.name + ext) for ext in (".md", ".json"))
    return md_path, json_path


def write_results(out: Path, markdown: str, data: Any) -> tuple[Path, Path]:
    """Write ``<out>.md`` and ``<out>.json``; ``out`` is a path without extension (a given
    ``.md`` or ``.json`` is dropped; any other dot stays part of the name: ``r_beta0.5``)."""
    md_path, json_path = result_paths(out)
    write_markdown(md_path, markdown)
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return md_path, json_path


def emit(args: Any, markdown: str, data: Any) -> None:
    """Write the result files to ``args.out`` and print the report (JSON with ``--json``)."""
    write_results(args.out, markdown, data)
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else markdown)


def finish(lines: Sequence[str], data: Any, out: Path | str | None) -> int:
    """A script's last step: print its report's ``lines`` (joined by newlines) and, when
    ``out`` is given, write them and ``data`` there (:func:`write_results`); 0, its exit
    status."""
    text = "\n".join(lines)
    print(text)
    if out:
        write_results(Path(out), text, data)
    return 0


def shown_path(path: Path) -> str:
    """A path as a report shows it: relative to the repository when inside it."""
    resolved = path.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(path)


def command_line() -> str:
    return " ".join([".venv/bin/python", os.path.relpath(sys.argv[0], REPO), *sys.argv[1:]])


# -- machine ------------------------------------------------------------------------------------


def load_average() -> tuple[float, float, float]:
    one, five, fifteen = os.getloadavg()
    return round(one, 2), round(five, 2), round(fifteen, 2)


def git_revision() -> str:
    """Commit and whether the tree had local changes (read-only git)."""

    def git(*args: str) -> str:
        try:
            return subprocess.run(
                ["git", *args], cwd=REPO, capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = [line for line in git("status", "--porcelain", "--", "src").splitlines() if line]
    return f"{commit} + {len(changed)} changed files in src" if changed else commit


def machine_info() -> dict[str, Any]:
    return {
        "revision": git_revision(),
        "cpus": os.cpu_count(),
        "load_average": load_average(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "numpy": np.__version__,
        "platform": platform.platform(),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command_line(),
        "threads_env": {k: os.environ.get(k) for k in _THREAD_VARS},
    }


def rss_mb() -> float:
    """Resident set size now (Linux ``/proc``; 0 where unavailable)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (``ru_maxrss`` is KiB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def log(message: str) -> None:
    """Progress on stderr, so ``--json`` output on stdout stays clean."""
    print(
        f"[{time.strftime('%H:%M:%S')} load {load_average()[0]:.1f}] {message}",
        file=sys.stderr,
        flush=True,
    )

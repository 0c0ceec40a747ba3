"""bench/README.md names every benchmark command a user runs (``bench/<name>.py``; the
``bench/_<name>_*.py`` parts of a larger command are not run on their own): a script added
without its entry fails here."""

from __future__ import annotations

import re
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_bench_readme_names_every_command() -> None:
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    commands = sorted(p.name for p in BENCH.glob("*.py") if not p.name.startswith("_"))
    assert commands, "no bench/*.py found"
    # named as `name.py` or `bench/name.py`, not only inside a longer name (`dedup.py` in
    # `train_dedup.py`)
    missing = [name for name in commands if not re.search(rf"(?<![\w.-]){re.escape(name)}", readme)]
    assert missing == [], f"bench/README.md names no {missing}"

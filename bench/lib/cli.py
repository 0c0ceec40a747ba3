"""The one argument-parser pattern of the bench scripts.

Every script starts from :func:`parser`: its description is the first line of the script's
docstring, and it has ``--out`` (report path without extension, under ``bench/results/``),
``--json`` (print the JSON report instead of markdown) and, for scripts that read shared data,
``--data PATH`` defaulting to ``../shared/bench/...`` beside the repository (never copied in).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lib.datasets import DATA_ROOT
from lib.reports import RESULTS

__all__ = ["DATA_ROOT", "parser"]


def parser(
    doc: str | None, *, out: str | None, data: str | Path | None = None
) -> argparse.ArgumentParser:
    """A parser with the standard arguments. ``out`` names the report under bench/results/
    (None: the script names it from its other arguments);
    ``data`` adds ``--data`` defaulting to it: a string is relative to ``../shared/bench``, a
    Path is taken as it is (data kept in the repository, ``bench/data/``)."""
    first = (doc or "").strip().split("\n")[0]
    parser = argparse.ArgumentParser(description=first)
    if data is not None:
        default = data if isinstance(data, Path) else DATA_ROOT / data
        shown = data if isinstance(data, Path) else f"../shared/bench/{data}"
        parser.add_argument(
            "--data", type=Path, default=default, help=f"Benchmark data (default: {shown})."
        )
    parser.add_argument(
        "--out",
        type=Path,
        default=None if out is None else RESULTS / out,
        help="Report path without extension (default: bench/results/"
        f"{out or '<named by the run>'}).",
    )
    parser.add_argument(
        "--json", action="store_true", help="Print the JSON report instead of markdown."
    )
    return parser

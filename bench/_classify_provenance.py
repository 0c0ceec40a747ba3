"""What produced a judge file (``bench/train_classifier.py``), written into it beside the models.

Round 28's judge could not be refitted: a fit with the same sources and settings differed from
it by up to 0.17 in weights, and nothing in the file told why (``bench/results/judge38.md``:
feature definitions had moved under it). So the training command writes ``provenance`` into
``judge.json``: the command, the code it ran (git revision and a digest of the engine and the
training modules), the library versions, every source file with its pair count and digest, and
per embedder a digest of what the model was fitted on: the labels, each named feature's column
and the vector blocks. Two runs of one command on the same data and code write the same bytes
(no time, no path of this machine); ``--check`` recomputes the inputs under today's code and
names each feature whose values moved since the file was written, without fitting.
"""

from __future__ import annotations

import hashlib
import json
import platform
import subprocess
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from lib.reports import REPO

DIGEST = 16  # hex characters kept of a sha256: enough to tell two inputs apart, short to read
# The code a judge depends on: the engine (every rule signal and feature), the embedders, and
# the training modules. Other modules (the store, the server) leave the digest alone.
CODE = ("src/omoide/engine", "src/omoide/embed", "bench/lib")
TRAINING = "bench/_classify_*.py", "bench/train_classifier.py"
LIBRARIES = ("numpy", "scikit-learn")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:DIGEST]


def array_digest(values: np.ndarray) -> str:
    """The digest of an array's values as float64 (an int or bool array too), row by row."""
    return digest(np.ascontiguousarray(values, dtype=np.float64).tobytes())


def json_digest(value: object) -> str:
    """A JSON value's digest (its keys sorted): a kept model named by its weights."""
    return digest(json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8"))


def file_digest(path: Path) -> str:
    return digest(path.read_bytes())


def code_files(repo: Path = REPO) -> list[Path]:
    """The Python files a judge depends on (``CODE``, ``TRAINING``), in one order."""
    files = [p for root in CODE for p in (repo / root).rglob("*.py")]
    files += [p for pattern in TRAINING for p in repo.glob(pattern)]
    return sorted(set(files))


def code_digest(repo: Path = REPO) -> str:
    """One digest of the code files' relative paths and contents."""
    h = hashlib.sha256()
    for path in code_files(repo):
        h.update(str(path.relative_to(repo)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:DIGEST]


def code_revision(repo: Path = REPO) -> str:
    """The git commit the code is at, ``+modified`` when a code file differs from it (a run
    from an uncommitted tree); "unknown" outside a git checkout."""
    try:
        head = _git(repo, "rev-parse", "HEAD")
        changed = _git(repo, "status", "--porcelain", "--", *CODE, *TRAINING)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+modified" if changed else "")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def library_versions() -> dict[str, str]:
    """Python's and the numeric libraries' versions (a fit may move with them)."""
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "absent"
    return out


def sources_record(sources: dict[str, Path], counts: dict[str, int]) -> list[dict[str, object]]:
    """Each source fitted on: its name, file (relative to the repository when inside it), the
    pairs read from it and the file's digest."""
    return [
        {
            "name": name,
            "file": _shown(path),
            "pairs": counts.get(name, 0),
            "sha256": file_digest(path),
        }
        for name, path in sources.items()
    ]


def files_record(paths: Iterable[Path]) -> list[dict[str, str]]:
    return [{"file": _shown(p), "sha256": file_digest(p)} for p in paths]


def _shown(path: Path) -> str:
    resolved = path.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else path.name


def inputs_record(data, columns: np.ndarray, fitted: np.ndarray) -> dict[str, object]:
    """What one embedder's model was fitted on (``_classify_data.Data``): the rows (all, and
    those fitted on), the labels, each named feature's column read by the model, and the vector
    blocks; the extra rows (distractors, duplicates) the same way when there are any."""
    record: dict[str, object] = {
        "rows": len(data.y),
        "fitted_rows": len(fitted),
        "labels": array_digest(data.y),
        "fitted": array_digest(fitted),
        "features": {data.names[i]: array_digest(data.x[:, i]) for i in columns},
        "vectors": array_digest(np.hstack(data.blocks)) if data.blocks else "",
    }
    if data.extra is not None:
        extra = data.extra
        record["extra_rows"] = len(extra.y)
        record["extra"] = array_digest(
            np.hstack([extra.x[:, columns], *extra.blocks, extra.y[:, None]])
        )
    return record


def moved(stored: dict[str, object], now: dict[str, object]) -> list[str]:
    """What differs between two ``inputs_record``s, one line each (no line: the same inputs)."""
    lines = [
        f"{key}: {stored.get(key)} → {now.get(key)}"
        for key in ("rows", "fitted_rows", "labels", "fitted", "vectors", "extra_rows", "extra")
        if stored.get(key) != now.get(key)
    ]
    old, new = dict(stored.get("features", {})), dict(now.get("features", {}))  # type: ignore[arg-type]
    lines += [
        f"feature {name}: values moved" for name in old if name in new and old[name] != new[name]
    ]
    lines += [f"feature {name}: not read now" for name in old if name not in new]
    lines += [f"feature {name}: new" for name in new if name not in old]
    return lines

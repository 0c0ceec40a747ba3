"""What the MCP endpoint's duplicate-key check costs on a request body (``json_text.key_twice``).

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/mcp_key_check.py [--compare REV]

The endpoint reads every ``/mcp`` body once with :func:`omoide.engine.json_text.key_twice` before
the SDK parses it (``api/mcp/http.py``). Four ``tools/call`` bodies, from a short memory to the
1 MB body limit: the check's milliseconds beside a plain ``json.loads`` of the same bytes (the
floor: the check is one parse). ``--compare`` times the ``key_twice`` of another commit too
(its ``src/omoide/engine/json_text.py``, read with ``git show``), interleaved with this tree's,
so the two see the same load. Minimum of ``--repeats`` rounds each.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lib.reports import REPO, RESULTS, command_line, emit, load_average, md_table
from omoide.engine import json_text


def _body(arguments: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "tool", "arguments": arguments},
        }
    ).encode()


def _events(n: int, words: int) -> dict[str, Any]:
    return {
        "session_id": "s",
        "events": [
            {
                "speaker": "Ken",
                "role": "user",
                "content": f"turn {i} " * words,
                "external_id": f"t{i}",
                "metadata": {"n": i},
            }
            for i in range(n)
        ],
    }


BODIES = {
    "one short memory": _body(
        {"content": "User likes green tea", "tags": ["food"], "importance": 0.6}
    ),
    "one 50,000-character memory": _body({"content": "長い文章です。" * 7000}),
    "200 events": _body(_events(200, 30)),
    "2,000 events (~1 MB)": _body(_events(2000, 40)),
}


def _key_twice_at(rev: str) -> Callable[[bytes], object]:
    source = subprocess.run(
        ["git", "show", f"{rev}:src/omoide/engine/json_text.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "json_text_compared.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("json_text_compared", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module.key_twice  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", metavar="REV", help="a commit whose check to time beside")
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--out", type=Path, default=RESULTS / "mcp_key_check")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    checks: dict[str, Callable[[bytes], object]] = {"key_twice": json_text.key_twice}
    if args.compare:
        checks[f"at {args.compare}"] = _key_twice_at(args.compare)
    checks["json.loads"] = json.loads
    rows, data = [], {}
    for name, body in BODIES.items():
        number = 100 if len(body) < 200_000 else 10
        best = dict.fromkeys(checks, float("inf"))
        for _ in range(args.repeats):
            for label, check in checks.items():
                took = timeit.timeit(lambda c=check, b=body: c(b), number=number) / number
                best[label] = min(best[label], took * 1000)
        data[name] = {"bytes": len(body), **{k: round(v, 4) for k, v in best.items()}}
        rows.append([name, f"{len(body) / 1024:.0f} KiB", *(f"{best[k]:.3f}" for k in checks)])
    header = ["body", "size", *(f"{k} ms" for k in checks)]
    markdown = "\n".join(
        [
            "# The MCP endpoint's duplicate-key check",
            "",
            f"`{command_line()}` (load {load_average()})",
            "",
            md_table(header, rows),
            "",
            "The check is one parse of the body: `json.loads` is its floor.",
        ]
    )
    emit(args, markdown, {"command": command_line(), "bodies": data})


if __name__ == "__main__":
    main()

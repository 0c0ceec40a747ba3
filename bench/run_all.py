"""`make bench`: run the standard benchmark set and index its reports.

The standard set is the benchmarks that finish in minutes on a laptop and cover retrieval,
classification, tokens and latency; each script runs as its own process (as a user would run
it) with its report written under ``bench/results/standard/``, so the full runs committed in
``bench/results/`` are never overwritten by the quicker standard runs. ``index.md`` lists each
script, its command, its wall time and whether it succeeded. Slow benchmarks (full LoCoMo
ingestion through the HTTP API, ``core.py`` at 100k, ``dashboard.py``, ``search_study.py``,
``calibrate.py``, ``chat.py``, ``segment.py``) are run by hand; see ``bench/README.md``.

    .venv/bin/python bench/run_all.py [--only NAME,...] [--out DIR] [--list]
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from lib.cli import parser
from lib.reports import REPO, emit, log, machine_info, md_table


@dataclass(frozen=True)
class Step:
    name: str  # also the report's file name under the output folder
    script: str
    args: tuple[str, ...]
    what: str


STANDARD = (
    Step(
        "retrieval",
        "retrieval.py",
        ("--embedder", "e5"),
        "retrieval_ja through SearchService (e5; hybrid, semantic, keyword)",
    ),
    Step(
        "classify_offline",
        "classify.py",
        ("--engine", "offline"),
        "3-op classifier (rules + learned judge, e5) on our pairs and the shared dev set",
    ),
    Step("tokens", "tokens.py", (), "offline token estimate against XLM-R's tokenizer"),
    Step("consolidate", "consolidate.py", (), "offline consolidation of LoCoMo sessions"),
    Step(
        "core_quick",
        "core.py",
        ("--quick", "--threads", "1"),
        "search / create latency, ingest, decay and RSS on a small corpus (smoke sizes)",
    ),
)


def run_step(step: Step, out: Path) -> dict[str, object]:
    command = [
        str(REPO / ".venv" / "bin" / "python"),
        str(REPO / "bench" / step.script),
        *step.args,
        "--out",
        str(out / step.name),
    ]
    shown = " ".join([".venv/bin/python", f"bench/{step.script}", *step.args])
    log(f"{step.name}: {shown}")
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False
    )
    seconds = round(time.perf_counter() - started, 1)
    ok = done.returncode == 0
    log(f"{step.name}: {'ok' if ok else f'FAILED ({done.returncode})'} in {seconds} s")
    if not ok:
        print(done.stderr[-3000:], file=sys.stderr)
    return {
        "name": step.name,
        "command": shown,
        "what": step.what,
        "seconds": seconds,
        "ok": ok,
        "report": f"{step.name}.md" if ok else None,
    }


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="standard/index")
    bench.add_argument("--only", default="", help="Comma-separated step names.")
    bench.add_argument("--list", action="store_true", help="List the standard set and exit.")
    args = bench.parse_args(argv)
    if args.list:
        print(
            md_table(
                ["step", "command", "what"],
                [[s.name, f"bench/{s.script} {' '.join(s.args)}", s.what] for s in STANDARD],
            )
        )
        return 0
    wanted = {n.strip() for n in args.only.split(",") if n.strip()}
    unknown = wanted - {s.name for s in STANDARD}
    if unknown:
        bench.error(f"unknown step(s) {', '.join(sorted(unknown))}")
    steps = [s for s in STANDARD if not wanted or s.name in wanted]
    started = time.perf_counter()
    results = [run_step(step, args.out.parent) for step in steps]
    total = round(time.perf_counter() - started, 1)
    rows = [
        [
            r["name"],
            f"`{r['command']}`",
            r["what"],
            r["seconds"],
            f"[report]({r['report']})" if r["ok"] else "**failed**",
        ]
        for r in results
    ]
    markdown = "\n".join(
        [
            "# Standard benchmark set (`make bench`)",
            "",
            f"{len(results)} scripts in {total} s; revision {machine_info()['revision']}. "
            "Reports beside this file; full runs are in `bench/results/`.",
            "",
            md_table(["step", "command", "what", "seconds", "report"], rows),
        ]
    )
    emit(args, markdown, {"machine": machine_info(), "total_s": total, "steps": results})
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())

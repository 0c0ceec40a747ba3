"""The vector side of a search alone, at sizes where it dominates: exact float32 scoring of every
row against the int8 first pass (``store/quantized.py``) on the same in-memory index.

For each size, one persona's index (``store.vectors.VectorIndex``) is filled with the synthetic
corpus's vectors and languages (``lib.synthetic.SyntheticCorpus``), then the default search's
vector call (language-centred, pool 50) runs for every query of ``lib.synthetic.SEARCH_QUERIES``
(embedded beforehand by the real model), first scoring every row in float32, then through the
int8 first pass. Reported: wall and CPU p50/p95 of each, the rows the first pass let through,
the time to build the int8 copy, and whether both returned the same ids in the same order
(they must: the first pass is exact).

    .venv/bin/python bench/vector_scale.py --sizes 100000,1000000 [--repeats 3]

Results: bench/results/vector_scale.{md,json}.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lib.metrics import Repeated, timed_wall_cpu_ms
from lib.reports import RESULTS, load_average, log, machine_info, md_table, write_results
from lib.synthetic import SEARCH_QUERIES, SyntheticCorpus, chunks
from omoide.embed import make_embedder
from omoide.store.quantized import QuantizedRows
from omoide.store.vectors import VectorIndex, language_of

POOL = 50
BATCH = 20_000


def fill(n: int, dim: int) -> VectorIndex:
    index = VectorIndex(dim, quantize_from=10**12)  # float32 for every row until switched
    index.reserve(n)
    corpus, added = SyntheticCorpus(dim), 0
    for size in chunks(n, BATCH):
        news, vectors, _ = corpus.batch(size)
        index.add(range(added, added + size), vectors, [language_of(m.content) for m in news])
        added += size
    return index


def timed(
    index: VectorIndex, vectors: dict[str, np.ndarray], repeats: int
) -> tuple[dict[str, Any], dict[str, list[int]]]:
    walls, cpus, answers = [], [], {}
    for _ in range(repeats):
        wall_run, cpu_run = [], []
        for query, vector in vectors.items():
            wall, cpu, hits = timed_wall_cpu_ms(
                lambda v=vector, q=query: index.search(v, limit=POOL, centred_for=q)
            )
            wall_run.append(wall)
            cpu_run.append(cpu)
            answers[query] = [i for i, _ in hits]
        walls.append(wall_run)
        cpus.append(cpu_run)
    cpu = Repeated.of(cpus).as_dict()
    return (
        {
            **Repeated.of(walls).as_dict(),
            **{f"cpu_{k}": v for k, v in cpu.items() if k.endswith("_ms")},
        },
        answers,
    )


def bench_size(n: int, vectors: dict[str, np.ndarray], dim: int, repeats: int) -> dict[str, Any]:
    began = time.perf_counter()
    index = fill(n, dim)
    out: dict[str, Any] = {
        "n": n,
        "fill_s": round(time.perf_counter() - began, 1),
        "load_average": load_average(),
    }
    out["exact"], exact = timed(index, vectors, repeats)
    index.quantize_from = 0
    first = next(iter(vectors.items()))
    began = time.perf_counter()
    index.search(first[1], limit=POOL, centred_for=first[0])  # builds the int8 copy
    out["build_s"] = round(time.perf_counter() - began, 2)
    kept: list[int] = []
    survivors = QuantizedRows.survivors

    def counting(self: QuantizedRows, *args: Any, **kwargs: Any) -> np.ndarray:
        rows = survivors(self, *args, **kwargs)
        kept.append(int(rows.size))
        return rows

    QuantizedRows.survivors = counting  # type: ignore[method-assign]
    try:
        out["int8"], quick = timed(index, vectors, repeats)
    finally:
        QuantizedRows.survivors = survivors  # type: ignore[method-assign]
    out["survivors_p50"], out["survivors_max"] = int(np.median(kept)), max(kept)
    out["same_ids"] = sum(exact[q] == quick[q] for q in vectors)
    out["queries"] = len(vectors)
    out["load_average_after"] = load_average()
    log(
        f"{n}: exact p95 {out['exact']['p95_best_ms']:.1f} ms, int8 p95 "
        f"{out['int8']['p95_best_ms']:.1f} ms, {out['same_ids']}/{len(vectors)} identical"
    )
    return out


def render(result: dict[str, Any]) -> str:
    rows = [
        [
            r["n"],
            f"{r['exact']['p50_best_ms']:.1f} / {r['exact']['p95_best_ms']:.1f}",
            f"{r['exact']['cpu_p50_best_ms']:.1f} / {r['exact']['cpu_p95_best_ms']:.1f}",
            f"{r['int8']['p50_best_ms']:.1f} / {r['int8']['p95_best_ms']:.1f}",
            f"{r['int8']['cpu_p50_best_ms']:.1f} / {r['int8']['cpu_p95_best_ms']:.1f}",
            f"{r['survivors_p50']} ({r['survivors_max']})",
            r["build_s"],
            f"{r['same_ids']}/{r['queries']}",
            "{:.1f}–{:.1f}".format(r["load_average"][0], r["load_average_after"][0]),
        ]
        for r in result["sizes"]
    ]
    return "\n".join(
        [
            "# Vector search alone: float32 on every row vs the int8 first pass",
            "",
            f"Machine: {result['machine']['cpus']} cores shared with other work, revision "
            f"{result['machine']['revision']}, started {result['machine']['started_at']}.",
            "",
            f"Command: `{result['command']}`",
            "",
            "One persona's in-memory index (synthetic corpus vectors and languages), the default "
            f"search's centred vector call, pool {POOL}, queries embedded beforehand by "
            f"`{result['embedder']}`. Best repeat's p50 / p95; CPU is this process's.",
            "",
            md_table(
                [
                    "vectors",
                    "float32 p50 / p95 ms",
                    "float32 CPU ms",
                    "int8 pass p50 / p95 ms",
                    "int8 CPU ms",
                    "rows scored in float32 p50 (max)",
                    "int8 copy built in s",
                    "same ids, same order",
                    "load",
                ],
                rows,
            ),
            "",
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--out", default=str(RESULTS / "vector_scale"))
    args = parser.parse_args(argv)
    embedder = make_embedder(args.embedder, threads=1)
    vectors = {q: embedder.embed_query(q) for q in SEARCH_QUERIES}
    result = {
        "machine": machine_info(),
        "embedder": args.embedder,
        "command": "python bench/vector_scale.py " + " ".join(argv or sys.argv[1:]),
        "sizes": [
            bench_size(int(n), vectors, embedder.dim, args.repeats) for n in args.sizes.split(",")
        ],
    }
    md, js = write_results(Path(args.out), render(result), result)
    log(f"wrote {md} and {js}")


if __name__ == "__main__":
    main()

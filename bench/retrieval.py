"""Retrieval quality through the real search pipeline on the Japanese/English set.

Every memory line of ``retrieval_ja/dev.jsonl`` is stored for one persona (through the store's
normal insert, so FTS rows and vectors are the real ones; dedup is bypassed because the set
contains deliberate near-duplicates that are each judged), then every query runs through
``SearchService.search`` exactly as the HTTP API runs it (notes only: the set has no
conversations), by the default search plan or by ``--plan NAME`` (a preset of
``omoide.engine.search_plan``). Reports R@1/@5/@10 and MRR overall and per query kind, for each
embedder and search mode. The JSON report also keeps one row per query under each embedder and
mode (``modes.<mode>.queries``: id, kind, lang, rank of the first relevant memory, reciprocal
rank), so that a grouping the set does not carry (a list of query ids) can be scored from it
(:func:`score_group`).

    .venv/bin/python bench/retrieval.py [--data PATH] [--embedder e5|use|all]
        [--modes hybrid,...] [--plan NAME] [--json] [--out PATH]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lib.cli import parser
from lib.datasets import RetrievalQuery, RetrievalSet, load_retrieval_set
from lib.harness import index_corpus
from lib.metrics import first_rank, percentile, rank_summary
from lib.reports import command_line, emit, md_table
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.search_plan import SearchPlan, preset
from omoide.wiring import Omoide, build

KINDS = ("keyword", "paraphrase", "crosslingual", "direct")


def run(
    embedder_name: str, data: RetrievalSet, modes: list[str], plan: SearchPlan
) -> dict[str, Any]:
    embedder = make_embedder(embedder_name)
    with tempfile.TemporaryDirectory() as tmp:
        app = build(Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None)
        started = time.perf_counter()
        key_to_id = {
            memory.key: memory_id
            for memory, memory_id in index_corpus(app, "bench", data.memories, embedder)
        }
        ingest_s = time.perf_counter() - started
        results = {
            "embedder": embedder.model_id,
            "ingest_s": round(ingest_s, 2),
            "modes": {mode: evaluate(app, data.queries, key_to_id, mode, plan) for mode in modes},
        }
        app.close()
    return results


def evaluate(
    app: Omoide,
    queries: tuple[RetrievalQuery, ...],
    key_to_id: dict[str, str],
    mode: str,
    plan: SearchPlan,
) -> dict[str, Any]:
    per_kind: dict[str, list[int | None]] = {}
    rows = []
    latencies = []
    for q in queries:
        request = app.search.build_request(
            "bench", query=q.query, top_k=10, mode=mode, include_episodes=False
        )
        started = time.perf_counter()
        hits = app.search.search("bench", request, recall=False, plan=plan).results
        latencies.append(1000 * (time.perf_counter() - started))
        rank = first_rank([key_to_id.get(h.id) for h in hits], q.relevant)
        per_kind.setdefault(q.kind, []).append(rank)
        rows.append(query_row(q, rank))
    everything = [r for ranks in per_kind.values() for r in ranks]
    return {
        "all": rank_summary(everything),
        "by_kind": {k: rank_summary(v) for k, v in sorted(per_kind.items())},
        "p50_ms": round(percentile(latencies, 50), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "queries": rows,
    }


def query_row(query: RetrievalQuery, rank: int | None) -> dict[str, Any]:
    """One query's outcome, for groupings the set's kinds do not hold (a README's list of
    query ids, e.g. questions about time): ``rank`` of the first relevant memory in the top
    10 (None: not there) and its reciprocal rank (0 when not found), the term of the MRR."""
    return {
        "id": query.id,
        "kind": query.kind,
        "lang": query.lang,
        "rank": rank,
        "rr": round(1 / rank, 4) if rank else 0.0,
    }


def score_group(rows: list[dict[str, Any]], ids: Iterable[str]) -> dict[str, Any]:
    """MRR and R@k of the queries named by ``ids`` (from one embedder and mode's ``queries``
    rows); a named id with no row is an error, never left out silently."""
    by_id = {row["id"]: row for row in rows}
    wanted = list(dict.fromkeys(ids))
    missing = [i for i in wanted if i not in by_id]
    if missing:
        raise KeyError(f"no query row for {', '.join(missing[:5])}")
    return rank_summary([by_id[i]["rank"] for i in wanted])


def report(results: list[dict[str, Any]], path: Path, plan_name: str) -> str:
    rows = []
    for res in results:
        for mode, m in res["modes"].items():
            kinds = m["by_kind"]
            rows.append(
                [
                    res["embedder"].split("@")[0],
                    mode,
                    f"{m['all']['mrr']:.3f}",
                    *(f"{m['all'][k]:.2f}" for k in ("r@1", "r@5", "r@10")),
                    *(f"{kinds.get(k, {}).get('mrr', 0):.3f}" for k in KINDS),
                    m["p50_ms"],
                ]
            )
    header = ["embedder", "mode", "MRR", "R@1", "R@5", "R@10", *KINDS, "p50 ms"]
    return "\n".join(
        [
            "# Retrieval through the search pipeline (retrieval_ja)",
            "",
            f"Data: `{path}`. Command: `{command_line()}`. Search plan: `{plan_name}`.",
            "",
            md_table(header, rows),
            "",
            "Per-kind columns are MRR.",
        ]
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    bench = parser(__doc__, out="retrieval", data="retrieval_ja/dev.jsonl")
    bench.add_argument("--embedder", default="all", choices=["e5", "use", "all"])
    bench.add_argument("--modes", default="hybrid,semantic,keyword")
    bench.add_argument("--plan", default="default", help="Search plan preset (default: default).")
    return bench.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.data.exists():
        print(f"no data at {args.data}; pass --data PATH", file=sys.stderr)
        return 2
    data = load_retrieval_set(args.data)
    names = ["e5", "use"] if args.embedder == "all" else [args.embedder]
    results = [run(n, data, args.modes.split(","), preset(args.plan)) for n in names]
    emit(args, report(results, args.data, args.plan), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

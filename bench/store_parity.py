"""Search quality on both stores (issue 11, item 2): the retrieval_ja set through the same
search pipeline on SQLite (FTS5) and on PostgreSQL (``tsvector`` + trigram arrays), so a gap in
keyword search between the two adapters shows as a gap in MRR / recall.

The memories are stored and the queries run exactly as ``bench/retrieval.py`` does (its
``evaluate``); only the store differs. Nothing is tuned here: both adapters run with the
defaults, so there is no tuning split to keep apart.

    .venv/bin/python bench/store_parity.py --data ../shared/bench/retrieval_ja/dev.jsonl \\
        [--embedder use] [--modes keyword,hybrid] [--pg-url postgresql://…]
        [--pg-ann-rows 1]   # PostgreSQL searches the vectors through HNSW in SQL
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from lib.datasets import RetrievalSet, load_retrieval_set
from lib.harness import index_corpus
from lib.reports import RESULTS, write_results
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.search_plan import DEFAULT_PLAN
from omoide.wiring import build
from retrieval import evaluate
from scale import fresh_database, postgres_url

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "bench" / "retrieval_ja" / "dev.jsonl"


def run_store(
    kind: str,
    embedder: Any,
    data: RetrievalSet,
    modes: list[str],
    root: Path,
    pg_admin: str,
    ann_rows: int | None = None,
) -> dict[str, Any]:
    environ = {}
    if kind == "postgres":
        environ["OMOIDE_DATABASE_URL"] = fresh_database(pg_admin, "parity")
        if ann_rows is not None:  # search the persona through the HNSW index in SQL
            environ["OMOIDE_PG_ANN_ROWS"] = str(ann_rows)
    app = build(Settings.from_env(environ, data_dir=root / kind), embedder=embedder, llm=None)
    try:
        key_to_id = {
            memory.key: memory_id
            for memory, memory_id in index_corpus(app, "bench", data.memories, embedder)
        }
        if kind == "postgres" and ann_rows is not None:
            app.store.ensure_ann_index()  # type: ignore[attr-defined]
        return {mode: evaluate(app, data.queries, key_to_id, mode, DEFAULT_PLAN) for mode in modes}
    finally:
        app.close()


def render(result: dict[str, Any]) -> str:
    lines = [
        "# Search on both stores (retrieval_ja)",
        "",
        f"Data: `{result['data']}` ({result['queries']} queries). Embedder: "
        f"`{result['embedder']}`. Command: `{result['command']}`.",
        "",
        "| mode | store | MRR | R@1 | R@5 | R@10 | keyword kind MRR | crosslingual MRR |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for mode in result["modes"]:
        for kind in ("sqlite", "postgres"):
            m = result["stores"][kind][mode]
            kinds = m["by_kind"]
            lines.append(
                f"| {mode} | {kind} | {m['all']['mrr']:.3f} | {m['all']['r@1']:.2f} | "
                f"{m['all']['r@5']:.2f} | {m['all']['r@10']:.2f} | "
                f"{kinds.get('keyword', {}).get('mrr', 0):.3f} | "
                f"{kinds.get('crosslingual', {}).get('mrr', 0):.3f} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--embedder", default="use", choices=["e5", "use", "hash"])
    parser.add_argument("--modes", default="keyword,hybrid")
    parser.add_argument("--pg-url", default=None)
    parser.add_argument(
        "--pg-ann-rows",
        type=int,
        default=None,
        help="OMOIDE_PG_ANN_ROWS for the PostgreSQL run (1: HNSW path)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "store_parity")
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"no data at {args.data}; pass --data PATH", file=sys.stderr)
        return 2
    data = load_retrieval_set(args.data)
    embedder = make_embedder(args.embedder)
    modes = args.modes.split(",")
    result: dict[str, Any] = {
        "data": str(args.data),
        "queries": len(data.queries),
        "embedder": embedder.model_id,
        "modes": modes,
        "stores": {},
        "command": "python bench/store_parity.py " + " ".join(argv or sys.argv[1:]),
    }
    with (
        tempfile.TemporaryDirectory(prefix="omoide-parity-") as tmp,
        postgres_url(args.pg_url, Path(tmp)) as pg_admin,
    ):
        for kind in ("sqlite", "postgres"):
            result["stores"][kind] = run_store(
                kind, embedder, data, modes, Path(tmp), pg_admin, args.pg_ann_rows
            )
    text = render(result)
    print(text)
    write_results(args.out, text, json.loads(json.dumps(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

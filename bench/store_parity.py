"""Search quality on both stores (issue 11, item 2): the retrieval_ja set through the same
search pipeline on SQLite (FTS5) and on PostgreSQL (``tsvector`` + trigram arrays), so a gap in
keyword search between the two adapters shows as a gap in MRR / recall.

The memories are stored and the queries run exactly as ``bench/retrieval.py`` does (its
``evaluate``); only the store differs. Nothing is tuned here: both adapters run with the
defaults, so there is no tuning split to keep apart.

    .venv/bin/python bench/store_parity.py --data ../shared/bench/retrieval_ja/dev.jsonl \\
        [--embedder use] [--modes keyword,hybrid] [--pg-url postgresql://…]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import RESULTS, write_results
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.fsrs import initial_stability
from omoide.wiring import build
from retrieval import DEFAULT, evaluate, load
from scale import fresh_database, postgres_url


def run_store(kind: str, embedder: Any, memories: list[dict], queries: list[dict],
              modes: list[str], root: Path, pg_admin: str) -> dict[str, Any]:
    environ = {}
    if kind == "postgres":
        environ["OMOIDE_DATABASE_URL"] = fresh_database(pg_admin, "parity")
    app = build(Settings.from_env(environ, data_dir=root / kind), embedder=embedder, llm=None)
    try:
        app.auth.create_persona("bench")
        store = app.store.memories("bench")
        vectors = embedder.embed_passages([m["content"] for m in memories])
        key_to_id: dict[str, str] = {}
        for row, vector in zip(memories, vectors, strict=True):
            memory = store.insert(app.memories.build_new(content=row["content"]),
                                  vector=vector, stability=initial_stability(0.0),
                                  now=app.clock.now())
            key_to_id[memory.key] = row["id"]
        return {mode: evaluate(app, queries, key_to_id, mode) for mode in modes}
    finally:
        app.close()


def render(result: dict[str, Any]) -> str:
    lines = ["# Search on both stores (retrieval_ja)", "",
             f"Data: `{result['data']}` ({result['queries']} queries). Embedder: "
             f"`{result['embedder']}`. Command: `{result['command']}`.", "",
             "| mode | store | MRR | R@1 | R@5 | R@10 | keyword kind MRR | crosslingual MRR |",
             "|---|---|---|---|---|---|---|---|"]
    for mode in result["modes"]:
        for kind in ("sqlite", "postgres"):
            m = result["stores"][kind][mode]
            kinds = m["by_kind"]
            lines.append(f"| {mode} | {kind} | {m['all']['mrr']:.3f} | {m['all']['r@1']:.2f} | "
                         f"{m['all']['r@5']:.2f} | {m['all']['r@10']:.2f} | "
                         f"{kinds.get('keyword', {}).get('mrr', 0):.3f} | "
                         f"{kinds.get('crosslingual', {}).get('mrr', 0):.3f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--embedder", default="use", choices=["e5", "use", "hash"])
    parser.add_argument("--modes", default="keyword,hybrid")
    parser.add_argument("--pg-url", default=None)
    parser.add_argument("--out", type=Path, default=RESULTS / "store_parity")
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"no data at {args.data}; pass --data PATH", file=sys.stderr)
        return 2
    memories, queries = load(args.data)
    embedder = make_embedder(args.embedder)
    modes = args.modes.split(",")
    result: dict[str, Any] = {"data": str(args.data), "queries": len(queries),
                              "embedder": embedder.model_id, "modes": modes, "stores": {},
                              "command": "python bench/store_parity.py "
                                         + " ".join(argv or sys.argv[1:])}
    with tempfile.TemporaryDirectory(prefix="omoide-parity-") as tmp, \
            postgres_url(args.pg_url, Path(tmp)) as pg_admin:
        for kind in ("sqlite", "postgres"):
            result["stores"][kind] = run_store(kind, embedder, memories, queries, modes,
                                               Path(tmp), pg_admin)
    text = render(result)
    print(text)
    write_results(args.out, text, json.loads(json.dumps(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Retrieval quality through the real search pipeline on the Japanese/English set.

Every memory line of ``retrieval_ja/dev.jsonl`` is stored for one persona (through the store's
normal insert, so FTS rows and vectors are the real ones; dedup is bypassed because the set
contains deliberate near-duplicates that are each judged), then every query runs through
``SearchService.search`` exactly as the HTTP API runs it. Reports R@1/@5/@10 and MRR overall
and per query kind, for each embedder and search mode.

    python bench/retrieval.py [--data PATH] [--embedder e5|use|all] [--modes hybrid,...] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.fsrs import initial_stability
from omoide.wiring import build

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "bench" / "retrieval_ja" / "dev.jsonl"
OUT = ROOT / "bench" / "results" / "retrieval"


def load(path: Path) -> tuple[list[dict], list[dict]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return ([r for r in rows if r["type"] == "memory"], [r for r in rows if r["type"] == "query"])


def run(embedder_name: str, memories: list[dict], queries: list[dict],
        modes: list[str]) -> dict:
    embedder = make_embedder(embedder_name)
    with tempfile.TemporaryDirectory() as tmp:
        app = build(Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None)
        app.auth.create_persona("bench")
        store = app.store.memories("bench")
        started = time.perf_counter()
        vectors = embedder.embed_passages([m["content"] for m in memories])
        key_to_id: dict[str, str] = {}
        for row, vector in zip(memories, vectors, strict=True):
            new = app.memories.build_new(content=row["content"])
            memory = store.insert(new, vector=vector, stability=initial_stability(0.0),
                                  now=app.clock.now())
            key_to_id[memory.key] = row["id"]
        ingest_s = time.perf_counter() - started
        results = {"embedder": embedder.model_id, "ingest_s": round(ingest_s, 2), "modes": {}}
        for mode in modes:
            results["modes"][mode] = evaluate(app, queries, key_to_id, mode)
        app.close()
    return results


def evaluate(app, queries: list[dict], key_to_id: dict[str, str], mode: str) -> dict:
    per_kind: dict[str, list[tuple[int | None]]] = {}
    latencies = []
    for q in queries:
        request = app.search.build_request("bench", query=q["query"], top_k=10, mode=mode,
                                           include_episodes=False)
        started = time.perf_counter()
        hits = app.search.search("bench", request, recall=False).results
        latencies.append(time.perf_counter() - started)
        ranked = [key_to_id.get(h.id) for h in hits]
        rank = next((i + 1 for i, mid in enumerate(ranked) if mid in q["relevant"]), None)
        per_kind.setdefault(q["kind"], []).append(rank)
    def summary(ranks: list) -> dict:
        n = len(ranks)
        return {"n": n, "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
                **{f"r@{k}": round(sum(1 for r in ranks if r and r <= k) / n, 3)
                   for k in (1, 5, 10)}}
    everything = [r for ranks in per_kind.values() for r in ranks]
    latencies.sort()
    return {"all": summary(everything),
            "by_kind": {k: summary(v) for k, v in sorted(per_kind.items())},
            "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
            "p95_ms": round(1000 * latencies[int(len(latencies) * 0.95)], 1)}


def report(results: list[dict], path: Path) -> str:
    lines = ["# Retrieval through the search pipeline (retrieval_ja)", "",
             f"Data: `{path}`. Command: `python bench/retrieval.py`.", "",
             "| embedder | mode | MRR | R@1 | R@5 | R@10 | keyword | paraphrase | crosslingual "
             "| direct | p50 ms |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for res in results:
        for mode, m in res["modes"].items():
            kinds = m["by_kind"]
            lines.append(
                f"| {res['embedder'].split('@')[0]} | {mode} | {m['all']['mrr']:.3f} | "
                f"{m['all']['r@1']:.2f} | {m['all']['r@5']:.2f} | {m['all']['r@10']:.2f} | "
                + " | ".join(f"{kinds.get(k, {}).get('mrr', 0):.3f}"
                             for k in ("keyword", "paraphrase", "crosslingual", "direct"))
                + f" | {m['p50_ms']} |")
    lines += ["", "Per-kind columns are MRR."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT)
    parser.add_argument("--embedder", default="all", choices=["e5", "use", "all"])
    parser.add_argument("--modes", default="hybrid,semantic,keyword")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.data.exists():
        print(f"no data at {args.data}; pass --data PATH", file=sys.stderr)
        return 2
    memories, queries = load(args.data)
    names = ["e5", "use"] if args.embedder == "all" else [args.embedder]
    results = [run(n, memories, queries, args.modes.split(",")) for n in names]
    text = report(results, args.data)
    print(json.dumps(results, indent=2, ensure_ascii=False) if args.json else text)
    OUT.parent.mkdir(exist_ok=True)
    OUT.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
    OUT.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

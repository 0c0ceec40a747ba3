"""The search companion's weight and pool, chosen by leave-one-set-out on the retrieval sets.

For each server embedder (e5, USE) and each set (the shared dev set and the seen holdouts
retrieval_holdout_a..d), the memories are indexed once and every query is run through
``SearchService.search`` (notes only, hybrid, top 10) by each plan of the grid: the default plan
with ``companion_weight`` in {0, .3, .4, .5, .6} × ``companion_pool`` in {20, 40}. For each
held-out set, the grid point with the best mean MRR over the other four sets is chosen, and its
MRR on the held-out set is reported. Latency: the default plan with the companion's cache
emptied before every query (cold) and on a second pass (warm), next to ``no_companion``.

    PYTHONPATH=src .venv/bin/python bench/companion_study.py [--out search16_study]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from lib.datasets import load_retrieval_set
from lib.harness import index_corpus
from lib.metrics import first_rank, percentile
from lib.reports import REPO, RESULTS, md_table, write_markdown, write_results
from omoide.config import Settings
from omoide.embed import make_embedder
from omoide.engine.search_plan import DEFAULT_PLAN, SearchPlan
from omoide.wiring import build

SETS = {
    "dev": Path("/work/shared/bench/retrieval_ja/dev.jsonl"),
    **{x.upper(): REPO / "bench" / "data" / f"retrieval_holdout_{x}.jsonl" for x in "abcd"},
}
WEIGHTS = (0.0, 0.3, 0.4, 0.5, 0.6)
POOLS = (20, 40)
KINDS = ("keyword", "paraphrase", "crosslingual", "direct")


def grid() -> dict[str, SearchPlan]:
    plans = {"w0": replace(DEFAULT_PLAN, companion_weight=0.0)}
    for w in WEIGHTS[1:]:
        for n in POOLS:
            plans[f"w{w}/N{n}"] = replace(DEFAULT_PLAN, companion_weight=w, companion_pool=n)
    return plans


def run_set(primary: str, path: Path, plans: dict[str, SearchPlan]) -> dict[str, Any]:
    data = load_retrieval_set(path)
    embedder = make_embedder(primary)
    out: dict[str, Any] = {"kinds": [q.kind for q in data.queries], "rr": {}, "ms": {}}
    with tempfile.TemporaryDirectory() as tmp:
        app = build(Settings.from_env({}, data_dir=Path(tmp)), embedder=embedder, llm=None)
        ids = {m.key: i for m, i in index_corpus(app, "bench", data.memories, embedder)}
        companion = app.search.companion

        def one(query: str, plan: SearchPlan) -> tuple[list[str | None], float]:
            request = app.search.build_request(
                "bench", query=query, top_k=10, mode="hybrid", include_episodes=False
            )
            started = time.perf_counter()
            hits = app.search.search("bench", request, recall=False, plan=plan).results
            return [ids.get(h.id) for h in hits], 1000 * (time.perf_counter() - started)

        if companion is not None:
            started = time.perf_counter()
            companion.embedder()
            out["load_s"] = round(time.perf_counter() - started, 2)
        base, cold, warm = [], [], []
        for q in data.queries:  # latency first: old behaviour, cold, warm
            base.append(one(q.query, plans["w0"])[1])
            if companion is not None:
                companion.vectors.clear()
            cold.append(one(q.query, DEFAULT_PLAN)[1])
            warm.append(one(q.query, DEFAULT_PLAN)[1])
        out["ms"] = {
            name: [round(percentile(v, 50), 1), round(percentile(v, 95), 1)]
            for name, v in (("no_companion", base), ("cold", cold), ("warm", warm))
        }
        for name, plan in plans.items():
            rr = []
            for q in data.queries:
                rank = first_rank(one(q.query, plan)[0], q.relevant)
                rr.append(0.0 if rank is None else 1.0 / rank)
            out["rr"][name] = rr
        app.close()
    return out


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def loso(runs: dict[str, Any]) -> list[tuple[str, str, float, float]]:
    """(held-out set, chosen plan, held-out MRR, held-out MRR of w0) per fold; the choice is
    the best mean of per-set MRR over the other sets (ties: the earlier, smaller plan)."""
    folds = []
    for held in runs:
        rest = [s for s in runs if s != held]
        plans = list(runs[held]["rr"])
        best = max(
            plans, key=lambda p: (mean([mean(runs[s]["rr"][p]) for s in rest]), -plans.index(p))
        )
        folds.append((held, best, mean(runs[held]["rr"][best]), mean(runs[held]["rr"]["w0"])))
    return folds


def report(study: dict[str, dict[str, Any]]) -> str:
    lines = ["# Search companion: leave-one-set-out (bench/companion_study.py)", ""]
    for primary, runs in study.items():
        plans = list(next(iter(runs.values()))["rr"])
        lines += [
            f"## {primary} primary",
            "",
            "In-sample MRR per grid point:",
            "",
            md_table(
                ["plan", *runs, "mean"],
                [
                    [
                        p,
                        *(f"{mean(r['rr'][p]):.3f}" for r in runs.values()),
                        f"{mean([mean(r['rr'][p]) for r in runs.values()]):.3f}",
                    ]
                    for p in plans
                ],
            ),
            "",
            "Leave-one-set-out (held-out MRR):",
            "",
            md_table(
                ["held out", "chosen on the other four", "held-out MRR", "w0 MRR"],
                [[h, p, f"{m:.3f}", f"{b:.3f}"] for h, p, m, b in loso(runs)],
            ),
            "",
        ]
        rows = []
        for name, r in runs.items():
            for kind in KINDS:
                idx = [i for i, k in enumerate(r["kinds"]) if k == kind]
                if idx:
                    rows.append(
                        [
                            name,
                            kind,
                            len(idx),
                            f"{mean([r['rr']['w0'][i] for i in idx]):.3f}",
                            f"{mean([r['rr']['w0.5/N40'][i] for i in idx]):.3f}",
                        ]
                    )
        lines += [
            "Per kind (MRR, w0 → w0.5/N40):",
            "",
            md_table(["set", "kind", "n", "w0", "w0.5/N40"], rows),
            "",
            "Latency ms [p50, p95] (one thread):",
            "",
            md_table(
                ["set", "no_companion", "cold", "warm", "load s"],
                [[n, *r["ms"].values(), r.get("load_s", "")] for n, r in runs.items()],
            ),
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--out", default="search16_study")
    args.add_argument("--primaries", default="e5,use")
    args.add_argument("--json-in", type=Path, default=None, help="re-report a saved study")
    opts = args.parse_args(argv)
    if opts.json_in:
        study = json.loads(opts.json_in.read_text())
    else:
        plans = grid()
        study = {}
        for primary in opts.primaries.split(","):
            study[primary] = {}
            for name, path in SETS.items():
                study[primary][name] = run_set(primary, path, plans)
                print(primary, name, study[primary][name]["ms"], flush=True)
    text = report(study)
    if opts.json_in:  # re-reporting a saved study rewrites only the markdown
        write_markdown(RESULTS / f"{opts.out}.md", text)
    else:
        write_results(RESULTS / opts.out, text, study)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Cross-script keyword credit on the retrieval sets, chosen by leave-one-set-out.

For each embedder and each retrieval set (``retrieval_ja/dev.jsonl``, ``bench/data/
retrieval_holdout_a.jsonl`` and ``_b.jsonl`` by default), the candidate lists of every query are
read once through the real store and tier (``bench/_fusion_lists.py``), then ranked by the real
engine functions (``plan_weights``, ``credit_cross_script``, ``fuse``) for each share of
``SearchPlan.cross_script_credit`` in the grid. The share is chosen on two sets (mean MRR) and
scored on the third, for each set in turn (ties go to the smaller share). Also reports MRR per
query kind and per language direction (the query's script against the relevant memory's), and
where the relevant memory ranks in each list for the cross-lingual and paraphrase queries that
miss rank 1. ``bench/retrieval.py`` gives the end-to-end numbers of the committed default.

    .venv/bin/python bench/fusion_study.py [--sets NAME=PATH,...] [--embedder e5|use|all]
        [--cache DIR] [--out PATH] [--json]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from _fusion_lists import candidate_lists
from lib.cli import parser
from lib.datasets import DATA_ROOT, load_retrieval_set
from lib.reports import command_line, emit, md_table
from omoide.config import PersonaSettings
from omoide.engine.fusion import Scored, credit_cross_script, fuse
from omoide.engine.search_plan import DEFAULT_PLAN, SearchPlan, plan_weights

GRID = (0.0, 0.25, 0.5, 0.75, 1.0)
SETS = {
    "dev": DATA_ROOT / "retrieval_ja/dev.jsonl",
    "A": Path("bench/data/retrieval_holdout_a.jsonl"),
    "B": Path("bench/data/retrieval_holdout_b.jsonl"),
}
Row = dict[str, Any]


def ranking(q: Row, plan: SearchPlan) -> list[str]:
    """The memory ids of one query as ``HybridRetriever`` ranks them under ``plan``."""
    index = {m: i for i, m in enumerate(q["script"])}
    names = {i: m for m, i in index.items()}
    keyword = [Scored(index[m], s) for m, s in q["keyword"]]
    semantic = [Scored(index[m], s) for m, s in q["semantic"]]
    scripts = {index[m]: s for m, s in q["script"].items()}
    cfg = PersonaSettings()
    weights = plan_weights(
        plan,
        keyword=cfg.keyword_weight,
        semantic=cfg.semantic_weight,
        query_script=q["query_script"],
        top_script=scripts[semantic[0].id] if semantic else None,
    )
    if weights.keyword > 0 and plan.cross_script_credit > 0 and keyword:
        keyword = credit_cross_script(
            keyword,
            semantic,
            script_of=scripts,
            query_script=q["query_script"],
            share=plan.cross_script_credit,
        )
    return [names[s.id] for s in fuse(keyword, semantic, weights=weights, method=plan.fusion)]


def rank_of(ids: list[str], relevant: set[str]) -> int | None:
    return next((i for i, m in enumerate(ids, 1) if m in relevant), None)


def direction(q: Row) -> str:
    scripts = {q["script"][m] for m in q["relevant"]}
    if scripts == {q["query_script"]}:
        return "same"
    if q["query_script"] in scripts:
        return "mixed"
    return "en->ja" if q["query_script"] == 0 else "ja->en"


def scores(rows: list[Row], plan: SearchPlan) -> dict[str, float]:
    """MRR@10 overall, per kind and per kind × direction."""
    groups: dict[str, list[float]] = defaultdict(list)
    for q in rows:
        rank = rank_of(ranking(q, plan)[:10], set(q["relevant"]))
        rr = 0.0 if rank is None else 1.0 / rank
        for key in ("all", q["kind"], f"{q['kind']} {direction(q)}"):
            groups[key].append(rr)
    return {k: sum(v) / len(v) for k, v in groups.items()} | {
        f"n {k}": len(v) for k, v in groups.items()
    }


def loso(table: dict[str, dict[float, dict[str, float]]]) -> list[dict[str, Any]]:
    folds = []
    for held in table:
        train = [s for s in table if s != held]
        share = max(GRID, key=lambda g: (sum(table[s][g]["all"] for s in train), -g))
        folds.append(
            {
                "held_out": held,
                "chosen": share,
                "before": table[held][0.0]["all"],
                "after": table[held][share]["all"],
            }
        )
    return folds


def misses(rows: list[Row], plan: SearchPlan) -> list[list[Any]]:
    out = []
    for q in rows:
        if q["kind"] not in ("crosslingual", "paraphrase"):
            continue
        relevant = set(q["relevant"])
        fused = rank_of(ranking(q, plan), relevant)
        if fused == 1:
            continue
        sem = [m for m, _ in q["semantic"]]
        sem_rank = rank_of(sem, relevant)
        own = (
            None
            if sem_rank is None
            else rank_of(
                [m for m in sem if q["script"][m] == q["script"][sem[sem_rank - 1]]], relevant
            )
        )
        out.append(
            [
                q["kind"],
                direction(q),
                fused,
                rank_of([m for m, _ in q["keyword"]], relevant),
                sem_rank,
                own,
            ]
        )
    return out


def study(names: list[str], sets: dict[str, Path], cache: Path) -> dict[str, Any]:
    cache.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    for emb in names:
        table: dict[str, dict[float, dict[str, float]]] = {}
        miss: dict[str, dict[str, list[list[Any]]]] = {}
        for name, path in sets.items():
            file = cache / f"{emb}_{name}.json"
            if not file.exists():
                file.write_text(
                    json.dumps(candidate_lists(emb, load_retrieval_set(path)), ensure_ascii=False)
                )
            rows = json.loads(file.read_text())
            table[name] = {
                g: scores(rows, replace(DEFAULT_PLAN, cross_script_credit=g)) for g in GRID
            }
            miss[name] = {
                str(g): misses(rows, replace(DEFAULT_PLAN, cross_script_credit=g))
                for g in (0.0, DEFAULT_PLAN.cross_script_credit)
            }
        results[emb] = {"grid": table, "loso": loso(table), "misses": miss}
    return results


def report(results: dict[str, Any]) -> str:
    lines = [
        "# Cross-script keyword credit: leave-one-set-out (retrieval sets)",
        "",
        f"Command: `{command_line()}`. Default share: "
        f"{DEFAULT_PLAN.cross_script_credit}. MRR@10 of the hybrid ranking.",
        "",
    ]
    for emb, res in results.items():
        lines += [
            f"## {emb}",
            "",
            "Leave one set out (share chosen on the other two):",
            "",
            md_table(
                ["held out", "chosen share", "MRR before", "MRR after", "Δ"],
                [
                    [
                        f["held_out"],
                        f["chosen"],
                        f"{f['before']:.3f}",
                        f"{f['after']:.3f}",
                        f"{f['after'] - f['before']:+.3f}",
                    ]
                    for f in res["loso"]
                ],
            ),
            "",
        ]
        for name, grid in res["grid"].items():
            keys = sorted(k for k in grid[0.0] if not k.startswith("n "))
            lines += [
                f"{name} (n per group: "
                + ", ".join(f"{k} {grid[0.0]['n ' + k]}" for k in keys)
                + ")",
                "",
                md_table(
                    ["share", *keys], [[g, *(f"{grid[g][k]:.3f}" for k in keys)] for g in GRID]
                ),
                "",
            ]
        lines += [
            "Cross-lingual and paraphrase queries below rank 1 (share 0 → default): kind,"
            " direction, fused rank, keyword rank, semantic rank, rank among the semantic"
            " candidates of the relevant memory's script.",
            "",
        ]
        for name, by in res["misses"].items():
            for share, rows in by.items():
                lines += [
                    f"- {name}, share {share}: "
                    + "; ".join(" ".join(str(v) for v in row) for row in rows)
                ]
        lines += [""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="fusion_study")
    bench.add_argument("--embedder", default="all", choices=["e5", "use", "all"])
    bench.add_argument("--sets", default=None, help="NAME=PATH,... (default: dev, A, B).")
    bench.add_argument(
        "--cache",
        type=Path,
        default=Path("/tmp/fusion_study_lists"),
        help="Where candidate lists are kept between runs (one per set).",
    )
    args = bench.parse_args(argv)
    sets = (
        SETS
        if not args.sets
        else {n: Path(p) for n, p in (item.split("=", 1) for item in args.sets.split(","))}
    )
    names = ["e5", "use"] if args.embedder == "all" else [args.embedder]
    results = study(names, sets, args.cache)
    emit(args, report(results), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Retrieval study: keyword, semantic and hybrid plans, per embedder, on the bench data.

Runs Omoide's own FTS code (``omoide.store.sqlite.fts_search``) on a real temporary SQLite
database and exact numpy cosine search over cached embeddings, then fuses with
``omoide.engine.fusion``.
Datasets: ``retrieval_ja/dev.jsonl`` (one persona) and the LoCoMo conversations (one persona per
conversation). Writes ``bench/results/embedder_comparison.md`` and ``.json``.

    .venv/bin/python bench/search_study.py [--data ../shared/bench] [--json] [--out PATH]

Parts: ``_study_data.py`` (data, cached embeddings, the two sides), ``_study_eval.py`` (plans,
metrics, the fusion study), ``_study_cost.py`` (latency and cost), ``_study_report.py``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from _study_cost import study_cost, study_latency
from _study_data import load_embedder, load_ja, load_locomo
from _study_eval import EMBEDDERS, Study, study_fts, study_fusion
from _study_report import recommend, render
from lib.cli import parser as bench_parser
from lib.reports import emit


def main(argv: Sequence[str] | None = None) -> int:
    import sys
    import tempfile
    from datetime import UTC, datetime

    parser = bench_parser(__doc__, out="embedder_comparison", data="")
    parser.add_argument("--rows", type=int, default=100_000, help="rows for the latency table")
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    ja = load_ja(args.data / "retrieval_ja" / "dev.jsonl")
    locomo = load_locomo(args.data / "locomo")
    embedders = {name: load_embedder(name) for name in EMBEDDERS}
    with tempfile.TemporaryDirectory(prefix="omoide-study-") as tmp:
        study = Study(ja, locomo, Path(tmp))
        print("keyword index variants", flush=True)
        report: dict = {"fts": study_fts(study, embedders)}
        print("fusion", flush=True)
        report["fusion"] = study_fusion(study, study.beds(None, embedders))
        print("cost", flush=True)
        report["cost_load_average"] = round(os.getloadavg()[0], 1)
        report["cost"] = study_cost(study, embedders)
        if not args.skip_latency:
            report["latency"] = study_latency(study, args.rows)
    report.update(
        command=" ".join(
            ["python bench/search_study.py", *(sys.argv[1:] if argv is None else argv)]
        ),
        when=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        seconds=round(time.perf_counter() - started),
        locomo_questions=sum(len(c.queries) for c in locomo),
    )
    report["recommendation"] = recommend(report)
    emit(args, render(report), report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

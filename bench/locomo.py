"""Benchmark: LoCoMo retrieval through Omoide's HTTP API, against BM25 baselines (issue 5 item 5).

What it measures. Each LoCoMo conversation becomes one persona. Every session is opened, its
turns are posted as events (``speaker``, text, a shared photo's caption as metadata.image_caption,
``external_id`` = the ``dia_id``, timestamp = the session's date with the turns
ten seconds apart) and the session is ended; then the bench waits until the persona's job queue
is empty (segmentation into episodes, consolidation into notes). Ingest time = posting +
draining. Every question of categories 1–4 is then asked through ``GET /api/search``; results
are mapped back to ``dia_id``s through their ``sources``.
Both LoCoMo speakers are people whose facts are asked about, so every turn is posted with role
``user``. Searches pass only ``q`` and ``top_k``, exactly as a client would: what is measured is
the default search.

Splits: conversations 26, 30 and 41 are the tuning split (every retrieval default was chosen on
them); 42 and 43 are the validation split, scored and reported separately and never tuned on.

Context budget (tokens = characters / 4; results are joined by a newline, which counts too).
Results are taken in rank order — **strict** (the headline): a result counts only if all of it
fits in what is left of the budget; packing stops at the first result that does not fit;
**truncate**: the first result that does not fit is cut to what is left and packing stops; its
text counts for containment, and of its sources only those whose whole line is inside the cut.

Metrics, overall and per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop):
evidence recall@budget (share of a question's evidence turns cited by the included results,
averaged over questions with evidence); containment@budget (the normalised gold answer — lower
case, punctuation and a/an/the removed, spaces collapsed — is a substring of the included text);
recall_any@5/@10 (some evidence turn cited in the first 5/10 results, no budget); MRR; p50/p95
search latency (HTTP round trip) and ingest time per conversation. Baselines (``lib/bm25.py``):
BM25 over single turns, and BM25 with each hit expanded to its ±1 neighbours.

Search plans (``--plan NAME,...``, the presets of ``omoide.engine.search_plan``) are measured
in-process on the same data folder through ``SearchService.search(..., plan=...)`` — the real
code path, nothing patched — and reported as ``plan:NAME`` rows beside the server's own row;
``plan:default`` must equal it. ``--reuse DIR`` scores plans on a data folder kept by ``--keep``
(no server, no ingest; give ``--out``); ``--now`` fixes its clock (live strength depends on
it), so two runs over the same folder compare result by result.

Usage::

    .venv/bin/python bench/locomo.py [--data DIR] [--url URL --admin-key KEY]
        [--embedder e5|use] [--budget 1000] [--top-k 50] [--conversations 26,30] [--json]
        [--search-param NAME=VALUE] [--setting NAME=VALUE] [--details FILE] [--out PATH]
        [--keep DIR] [--plan NAME,...] [--reuse DIR [--now ISO]] [--skip-ingest]
"""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from lib.bm25 import Baselines
from lib.cli import parser as bench_parser
from lib.datasets import LocomoConversation, LocomoQA, list_conversation_files, load_conversation
from lib.harness import OmoideClient, local_server, open_app
from lib.locomo_report import analyse, build_report
from lib.metrics import (
    CATEGORIES,
    QuestionScore,
    Retrieved,
    pack,
    score_question,
    summarise,
    to_retrieved,
)
from lib.reports import RESULTS, emit, log


@dataclass
class ConversationRun:
    sample_id: str
    turns: int
    questions: int
    ingest_s: float = 0.0
    post_s: float = 0.0
    jobs: dict[str, Any] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    scores: dict[str, list[QuestionScore]] = field(default_factory=lambda: defaultdict(list))
    details: list[dict[str, Any]] = field(default_factory=list)
    analysis: list[dict[str, Any]] = field(default_factory=list)

    def score(
        self, system: str, qa: LocomoQA, ranked: Sequence[Retrieved], budget: int, details: bool
    ) -> None:
        """Score one question for one system; with ``--details`` keep what was retrieved."""
        score = score_question(qa, ranked, budget)
        self.scores[system].append(score)
        if details:
            self.details.append(
                {
                    "system": system,
                    "conversation": self.sample_id,
                    "question": qa.question,
                    "answer": qa.answer,
                    "category": qa.category,
                    "evidence": list(qa.evidence),
                    "recall": score.recall,
                    "contained": score.contained,
                    "rr": score.rr,
                    "included": len(pack(ranked, budget).included),
                    "top": [
                        {"kind": r.kind, "dia_ids": list(r.dia_ids), "chars": len(r.content)}
                        for r in ranked[:15]
                    ],
                }
            )

    def baselines(self, bm25: Baselines, qa: LocomoQA, args: argparse.Namespace) -> None:
        self.score("bm25", qa, bm25.bm25(qa.question), args.budget, bool(args.details))
        self.score(
            "bm25_neighbours",
            qa,
            bm25.bm25_neighbours(qa.question),
            args.budget,
            bool(args.details),
        )


def questions_of(conv: LocomoConversation) -> list[LocomoQA]:
    return [qa for qa in conv.qa if qa.category in CATEGORIES]


def run_conversation(
    client: OmoideClient, conv: LocomoConversation, args: argparse.Namespace, app: Any
) -> ConversationRun:
    questions = questions_of(conv)
    run = ConversationRun(conv.sample_id, sum(1 for _ in conv.turns()), len(questions))
    if args.skip_ingest:
        persona, key = client.existing_persona(conv.sample_id), client.admin_key
    else:
        persona = f"locomo-{conv.sample_id}-{secrets.token_hex(3)}"
        key = client.create_persona(persona)
    if args.setting:
        client.put_settings(persona, key, dict(args.setting))
    if not args.skip_ingest:
        start = time.perf_counter()
        client.ingest_locomo(persona, key, conv)
        run.post_s = time.perf_counter() - start
        run.jobs = client.drain(persona, key)
        run.ingest_s = time.perf_counter() - start
        log(
            f"conversation {conv.sample_id}: {run.turns} turns ingested in {run.ingest_s:.1f} s "
            f"(posting {run.post_s:.1f} s); jobs failed: {run.jobs['failed']}"
        )
    bm25 = Baselines(conv)
    for qa in questions:
        hits, ms = client.search(persona, key, qa.question, args.top_k, dict(args.search_param))
        run.latencies_ms.append(ms)
        ranked = [to_retrieved(h) for h in hits]
        run.score("omoide", qa, ranked, args.budget, bool(args.details))
        run.baselines(bm25, qa, args)
        run.analysis.append(analyse(qa, ranked, args.budget))
    run_plans(app, run, persona, questions, args)
    return run


def run_plans(
    app: Any,
    run: ConversationRun,
    persona: str,
    questions: Sequence[LocomoQA],
    args: argparse.Namespace,
) -> None:
    """Each ``--plan`` through the real search service, in-process, nothing written."""
    if not args.plan:
        return
    from omoide.api.render import render_hit
    from omoide.engine.search_plan import preset

    for name in args.plan:
        plan = preset(name)
        for qa in questions:
            request = app.search.build_request(persona, query=qa.question, top_k=args.top_k)
            hits = app.search.search(persona, request, recall=False, plan=plan).results
            run.score(
                f"plan:{name}",
                qa,
                [to_retrieved(render_hit(h)) for h in hits],
                args.budget,
                bool(args.details),
            )


def run_all(
    url: str,
    admin_key: str,
    conversations: Sequence[LocomoConversation],
    args: argparse.Namespace,
    app: Any,
) -> tuple[list[ConversationRun], dict[str, Any]]:
    client = OmoideClient(url, admin_key)
    health = client.health()
    log(f"server {url} up, embedder {health.get('embedder')}")
    runs = []
    for conv in conversations:
        runs.append(run_conversation(client, conv, args, app))
        log_run(runs[-1])
    return runs, health


def run_reused(
    data_dir: Path, conversations: Sequence[LocomoConversation], args: argparse.Namespace
) -> tuple[list[ConversationRun], dict[str, Any]]:
    """Baselines and plans on a kept data folder (the personas it holds), in-process."""
    app = open_app(data_dir, args.embedder, args.now)
    names = [p.name for p in app.store.list_personas()]
    runs = []
    for conv in conversations:
        persona = next((n for n in names if n.startswith(f"locomo-{conv.sample_id}-")), None)
        if persona is None:
            log(f"conversation {conv.sample_id}: not in {data_dir}, skipped")
            continue
        questions = questions_of(conv)
        run = ConversationRun(conv.sample_id, sum(1 for _ in conv.turns()), len(questions))
        bm25 = Baselines(conv)
        for qa in questions:
            run.baselines(bm25, qa, args)
        run_plans(app, run, persona, questions, args)
        runs.append(run)
        log_run(run)
    return runs, {"embedder": app.embedder.model_id}


def log_run(run: ConversationRun) -> None:
    log(
        f"conversation {run.sample_id}: "
        + "; ".join(
            f"{k} {v['evidence_recall']:.3f}/{v['containment']:.3f}"
            for k, v in ((k, summarise(v)) for k, v in run.scores.items())
        )
    )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = bench_parser(__doc__, out="locomo", data="locomo")
    add = parser.add_argument
    add("--url", help="A running Omoide (default: start one).")
    add("--admin-key", help="Admin key of --url.")
    add(
        "--embedder",
        choices=("e5", "use", "hash"),
        default=None,
        help="OMOIDE_EMBEDDER for the self-started server (default: its own).",
    )
    add("--budget", type=int, default=1000, help="Context budget in tokens.")
    add("--top-k", type=int, default=50, help="top_k of each search.")
    add("--conversations", default="", help="Comma-separated sample ids, e.g. 26,30; default all.")
    add(
        "--plan",
        default=[],
        type=lambda t: [p.strip() for p in t.split(",") if p.strip()],
        help="Comma-separated search plan presets to measure in-process next to the server.",
    )
    add("--keep", type=Path, default=None, help="Copy the server's data folder here at the end.")
    add(
        "--search-param",
        action="append",
        default=[],
        type=_pair,
        metavar="NAME=VALUE",
        help="Extra query parameter of every search (e.g. importance_weight=0); repeatable.",
    )
    add(
        "--setting",
        action="append",
        default=[],
        type=_pair,
        metavar="NAME=VALUE",
        help="Persona setting PUT before ingest (e.g. keyword_weight=0.5); repeatable.",
    )
    add(
        "--skip-ingest",
        action="store_true",
        help="With --url: query the personas an earlier run left there.",
    )
    add("--details", type=Path, default=None, help="Write every question's results here (JSON).")
    add(
        "--reuse",
        type=Path,
        default=None,
        help="Plans only: open a data folder saved by --keep in-process; needs --out.",
    )
    add(
        "--now",
        type=datetime.fromisoformat,
        default=None,
        help="With --reuse: fix the clock (ISO time), so runs compare exactly.",
    )
    args = parser.parse_args(argv)
    if args.url and not args.admin_key:
        parser.error("--url needs --admin-key")
    if args.skip_ingest and not args.url:
        parser.error("--skip-ingest needs --url")
    if args.url and args.plan:
        parser.error("--plan runs in-process: not with --url")
    if args.reuse and (args.url or args.out == RESULTS / "locomo"):
        parser.error("--reuse measures plans only: give --out, not --url")
    return args


def _pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def load_selected(data: Path, wanted: str) -> list[LocomoConversation]:
    ids = [w.strip() for w in wanted.split(",") if w.strip()]
    files = list_conversation_files(data)
    if ids:
        files = [f for f in files if f.stem in ids]
        missing = set(ids) - {f.stem for f in files}
        if missing:
            raise SystemExit(f"no conversation file for {', '.join(sorted(missing))} in {data}")
    return [load_conversation(f) for f in files]


def main(argv: Sequence[str] | None = None) -> None:
    # A plain SIGTERM would skip the finally blocks and leave the server running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args(argv)
    conversations = load_selected(args.data, args.conversations)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omoide-locomo-") as tmp:
        data_dir = Path(tmp) / "data"
        if args.reuse:
            runs, health = run_reused(args.reuse, conversations, args)
        elif args.url:
            runs, health = run_all(args.url, args.admin_key, conversations, args, None)
        else:
            admin_key = "adm_" + secrets.token_urlsafe(24)
            with local_server(data_dir, args.embedder, admin_key) as url:
                app = open_app(data_dir, args.embedder) if args.plan else None
                runs, health = run_all(url, admin_key, conversations, args, app)
            if args.keep:
                shutil.copytree(data_dir, args.keep, dirs_exist_ok=True)
    md, data = build_report(
        runs,
        args,
        health,
        time.perf_counter() - started,
        (__doc__ or "").split("Usage::")[0].strip(),
    )
    if args.details:
        args.details.write_text(
            json.dumps([d for r in runs for d in r.details]) + "\n", encoding="utf-8"
        )
    emit(args, md, data)


if __name__ == "__main__":
    main()

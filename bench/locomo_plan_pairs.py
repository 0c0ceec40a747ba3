"""Probe: the real default search under several search plans, paired, on a kept LoCoMo ingest.

Opens a copy of a data folder kept by ``bench/locomo.py --keep`` in-process with the clock fixed,
asks every question of the chosen conversations once per plan through ``SearchService.search``
(the whole read path: both tiers, the merge; no cache, so a plan may change anything) with only
``q`` and ``top_k``, scores each result list with the LoCoMo scorer and prints each plan's
evidence recall / containment within the budget per conversation and overall, with the paired
difference to ``default`` and its bootstrap 95% interval (``locomo_budget.report``).

    python bench/locomo_plan_pairs.py COPY --now 2026-12-05T12:00:00+00:00 \
        --conversations 26,30,41 --variants default,shared_scale,shared_scale=1+scale_depth=60

A variant is a preset name (``engine.search_plan.PRESETS``) or ``field=value`` pairs joined by
``+`` over the default plan (booleans as 1 / 0).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import fields, replace
from pathlib import Path

from lib.harness import kept_ingest_parser, open_app
from lib.metrics import QuestionScore, score_question, to_retrieved
from omoide.api.render import render_hit
from omoide.engine.search_plan import DEFAULT_PLAN, PRESETS, SearchPlan

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of
from locomo_budget import report


def plan_of(variant: str) -> SearchPlan:
    """A preset by name, or the default plan with ``field=value`` pairs joined by ``+``."""
    if variant in PRESETS:
        return PRESETS[variant]
    kinds = {f.name: f.type for f in fields(SearchPlan)}
    changes: dict[str, object] = {}
    for pair in variant.split("+"):
        name, _, value = pair.partition("=")
        if name not in kinds or not value:
            raise SystemExit(f"unknown variant {variant}")
        current = getattr(DEFAULT_PLAN, name)
        if isinstance(current, bool):
            changes[name] = value == "1"
        elif isinstance(current, int):
            changes[name] = int(value)
        elif isinstance(current, float) or current is None:
            changes[name] = float(value)
        else:
            changes[name] = value
    return replace(DEFAULT_PLAN, **changes)


def main(argv: Sequence[str] | None = None) -> None:
    parser = kept_ingest_parser(__doc__, "copy")
    parser.add_argument("--variants", default="default")
    parser.add_argument("--top-k", type=int, default=50)
    parser.add_argument("--embedder", default=None)
    args = parser.parse_args(argv)
    app = open_app(args.copy, args.embedder, args.now)
    names = [p.name for p in app.store.list_personas()]
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    plans = {v: plan_of(v) for v in variants}
    scores: dict[str, list[tuple[str, QuestionScore]]] = {v: [] for v in variants}
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        for qa in questions_of(conv):
            request = app.search.build_request(persona, query=qa.question, top_k=args.top_k)
            for variant, plan in plans.items():
                hits = app.search.search(persona, request, recall=False, plan=plan).results
                ranked = [to_retrieved(render_hit(h)) for h in hits]
                scores[variant].append((conv.sample_id, score_question(qa, ranked, args.budget)))
        print(f"conversation {conv.sample_id} done", file=sys.stderr, flush=True)
    report(scores, variants)


if __name__ == "__main__":
    main()

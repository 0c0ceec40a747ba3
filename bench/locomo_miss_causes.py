"""Probe: why each evidence turn a default search leaves out of the budget is left out.

Opens a data folder kept by ``bench/locomo.py --keep`` in-process (clock fixed), asks each
question of the chosen conversations through the real search service (``--plan``, top_k 50),
packs the results into the budget as the scorer does, and sorts every evidence turn outside
the budget into one cause:

- ``no_candidate``: no result of the top 50 cites it, no note cites it at all, and the turn
  tier's candidate pools (keyword and semantic, ``episode_pool`` each) do not hold it
  (candidate generation);
- ``note_ranked_out`` / ``turn_ranked_out``: no result of the top 50 cites it, but a note
  citing it exists (every note is a candidate at this pool size), or the turn is in a turn
  pool: it was ranked out (and by which side of the turn pool it came: keyword, semantic,
  both);
- ``below_budget``: a result of the top 50 cites it, below the budget; sub-sorted by whether
  the budget's *spend* could have let it in: ``would_fit_without_waste`` when the characters
  above it minus the budget's waste (notes whose every source turn a result above already
  shows, notes without a source, excerpt lines of turns already shown) leave room for it,
  else ``ranked_too_low``.

Prints counts by question category, the ranks of ranked-out evidence in the full orders
(notes by the note search at top_k 100; turns by their fused rank), and how the budget's
characters are spent (notes, excerpts, waste). Tuning conversations only: the validation
ones' questions are not to be read.

    python bench/locomo_miss_causes.py COPY --now 2026-12-05T12:00:00+00:00 \
        --conversations 26,30,41 --out /tmp/causes.md
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from lib.harness import open_app
from lib.metrics import CATEGORIES, Retrieved, pack, to_retrieved
from lib.reports import write_markdown

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of
from locomo_misses import miss_parser

CAUSES = (
    "no_candidate",
    "note_ranked_out",
    "turn_ranked_out",
    "would_fit_without_waste",
    "ranked_too_low",
)


def waste(included: Sequence[Retrieved]) -> tuple[int, int, int]:
    """Characters of the budget spent on turns shown twice: (notes whose every source a
    result above cites, notes citing nothing, excerpt lines whose turn a result above cites)."""
    seen: set[str] = set()
    dup = unsourced = lines = 0
    for r in included:
        if r.kind == "note":
            if not r.dia_ids:
                unsourced += len(r.content) + 1
            elif set(r.dia_ids) <= seen:
                dup += len(r.content) + 1
        elif r.line_sources:
            body = r.content.split("\n")[-len(r.line_sources) :]
            lines += sum(
                len(line) + 1
                for line, (_, d) in zip(body, r.line_sources, strict=True)
                if d in seen
            )
        seen.update(r.dia_ids)
    return dup, unsourced, lines


def main(argv: Sequence[str] | None = None) -> None:
    from omoide.api.render import render_hit
    from omoide.engine.search_plan import preset
    from omoide.service.retrieval import TurnTier

    args = miss_parser(__doc__).parse_args(argv)
    app = open_app(args.folder, None, args.now)
    plan = preset(args.plan)
    notes_plan = preset("notes_only")
    names = [p.name for p in app.store.list_personas()]
    causes: dict[int, Counter[str]] = defaultdict(Counter)
    by_question: dict[int, Counter[str]] = defaultdict(Counter)
    sides: Counter[str] = Counter()
    note_ranks: list[int] = []
    turn_ranks: list[int] = []
    spend: Counter[str] = Counter()
    holders: Counter[tuple[int, str]] = Counter()  # (category, kind) of a result below budget
    questions = 0
    lines_out: list[str] = []
    budget_chars = args.budget * 4
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        sessions = app.store.sessions(persona)
        cfg = app.search.settings.get(persona)
        memories = app.store.memories(persona)
        noted: set[str] = set()
        for memory in memories.list_recent(limit=100_000):
            noted.update(s.external_id for s in memory.sources if s.external_id)
        for qa in questions_of(conv):
            if not qa.evidence:
                continue
            questions += 1
            request = app.search.build_request(persona, query=qa.question, top_k=args.top_k)
            hits = app.search.search(persona, request, recall=False, plan=plan).results
            ranked = [to_retrieved(render_hit(h)) for h in hits]
            packed = pack(ranked, args.budget)
            n = len(packed.included)
            dup, unsourced, dup_lines = waste(packed.included)
            spend["notes"] += sum(len(r.content) for r in packed.included if r.kind == "note")
            spend["excerpts"] += sum(len(r.content) for r in packed.included if r.kind != "note")
            spend["dup_notes"] += dup
            spend["unsourced"] += unsourced
            spend["dup_lines"] += dup_lines
            spend["left"] += budget_chars - len(packed.text)
            missing = [e for e in qa.evidence if e not in packed.cited]
            if not missing:
                continue
            nreq = app.search.build_request(persona, query=qa.question, top_k=100)
            note_hits = [
                to_retrieved(render_hit(h))
                for h in app.search.search(persona, nreq, recall=False, plan=notes_plan).results
            ]
            tier = TurnTier(sessions)
            vector = app.search.retriever.embed_query(qa.question)
            kw = {s.id for s in tier.keyword(qa.question, limit=plan.episode_pool)}
            sem = {
                s.id
                for s in tier.semantic(
                    vector, query=qa.question, limit=plan.episode_pool, allowed=None
                )
            }
            fused = app.search.episodes.retriever.retrieve(
                tier,
                qa.question,
                plan=plan,
                pool=plan.episode_pool,
                query_vector=vector,
                keyword_weight=cfg.keyword_weight,
                semantic_weight=cfg.semantic_weight,
            ).ranked
            events = sessions.events_by_ids([s.id for s in fused])
            fused_rank = {
                events[s.id].external_id: i for i, s in enumerate(fused) if s.id in events
            }
            id_of = {events[s.id].external_id: s.id for s in fused if s.id in events}
            found: list[str] = []
            for e in missing:
                rank = next((i for i, r in enumerate(ranked) if e in r.dia_ids), None)
                note_rank = next((i for i, r in enumerate(note_hits) if e in r.dia_ids), None)
                in_pool = e in fused_rank
                if rank is not None:
                    before = sum(len(r.content) + 1 for r in ranked[:rank])
                    room = before - dup - unsourced - dup_lines + len(ranked[rank].content)
                    cause = "would_fit_without_waste" if room <= budget_chars else "ranked_too_low"
                elif e in noted:
                    cause = "note_ranked_out"
                    note_ranks.append(100 if note_rank is None else note_rank)
                elif in_pool:
                    cause = "turn_ranked_out"
                    row = id_of[e]
                    sides[
                        "keyword+semantic"
                        if row in kw and row in sem
                        else "keyword"
                        if row in kw
                        else "semantic"
                        if row in sem
                        else "neither (fresh)"
                    ] += 1
                    turn_ranks.append(fused_rank[e])
                else:
                    cause = "no_candidate"
                if rank is not None:
                    holders[(qa.category, ranked[rank].kind)] += 1
                causes[qa.category][cause] += 1
                causes[0][cause] += 1
                found.append(cause)
                lines_out.append(
                    f"- [{CATEGORIES[qa.category]} · {cause}] {e} rank {rank} note_rank "
                    f"{note_rank} turn_rank {fused_rank.get(e)} in {n} · "
                    + (
                        f"{ranked[rank].kind} {len(ranked[rank].content)} ch · "
                        if rank is not None
                        else ""
                    )
                    + qa.question
                )
            # a question by the cause of its missing turn hardest to reach (the first in CAUSES)
            worst = min(found, key=CAUSES.index)
            by_question[qa.category][worst] += 1
            by_question[0][worst] += 1
    rows = []
    for title, table in (
        ("evidence turns out", causes),
        ("questions missing evidence (by their hardest turn)", by_question),
    ):
        rows += [
            "",
            f"| category | {title} | " + " | ".join(CAUSES) + " |",
            "|" + "---|" * (len(CAUSES) + 2),
        ]
        for cat in sorted(table, key=lambda c: (c == 0, c)):
            c = table[cat]
            name = "all" if cat == 0 else CATEGORIES[cat]
            rows.append(
                f"| {name} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in CAUSES) + " |"
            )
    q = max(questions, 1)
    report = (
        "\n".join(rows)
        + f"\n\nBudget spend per question ({questions} questions, characters): "
        + ", ".join(f"{k} {v / q:.0f}" for k, v in spend.items())
        + f"\n\nTurn ranked out, by pool side: {dict(sides)}"
        + f"\n\nNote ranks of ranked-out notes (0-based, notes-only order; 100: beyond): "
        f"{sorted(note_ranks)}\n\nFused turn ranks of ranked-out turns: "
        f"{sorted(turn_ranks)}"
        + "\n\nBelow the budget, the result citing the turn (category, kind): "
        + ", ".join(f"{CATEGORIES[c]} {k} {v}" for (c, k), v in sorted(holders.items()))
    )
    write_markdown(
        args.out,
        f"# Miss causes ({args.plan}, {args.conversations})\n\n{report}\n\n" + "\n".join(lines_out),
    )
    print(report)


if __name__ == "__main__":
    main()

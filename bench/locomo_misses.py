"""Probe: what a default search's 1,000 tokens held for the questions it missed, and why.

Opens a data folder kept by ``bench/locomo.py --keep`` in-process (clock fixed), asks each
question of the chosen conversations through the real search service with a plan preset (the
default unless ``--plan``), packs the results into the budget as the LoCoMo scorer does, and
for every question that misses some evidence turn or does not contain the answer writes what
the evidence was, where each evidence turn was ranked (in the budget, in the first 15 results
after it, further down, or in no result), and what the budget held instead. Prints counts by
category of where the missed evidence sat and of how the budget was spent, and evidence recall
counted on turns shown whole only (an excerpt line cut short, " …", does not count): the
scorer counts an excerpt's sources, so a variant that shortens lines could gain recall without
showing more evidence, and this number tells the two apart.

    python bench/locomo_misses.py COPY --now 2026-12-01T17:00:00+00:00 \
        --conversations 26,30,41 [--plan default] --out /tmp/misses.md
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lib.datasets import LocomoConversation, LocomoQA
from lib.harness import kept_ingest_parser, open_app
from lib.metrics import CATEGORIES, Retrieved, contains_answer, pack, to_retrieved
from lib.reports import write_markdown

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of


def where(evidence: str, ranked: Sequence[Retrieved], included: int) -> str:
    """Where an evidence turn was ranked: in the budget, just after it, further, or nowhere."""
    rank = next((i for i, r in enumerate(ranked) if evidence in r.dia_ids), None)
    if rank is None:
        return "none"
    if rank < included:
        return "budget"
    return "next15" if rank < 15 else "beyond"


def whole_lines(result: Retrieved) -> set[str]:
    """The turns a result shows whole: a note's sources, an excerpt's lines not cut short."""
    if result.kind != "episode" or not result.line_sources:
        return set(result.dia_ids)
    body = result.content.split("\n")[-len(result.dia_ids) :]
    return {d for line, d in zip(body, result.dia_ids, strict=True) if not line.endswith(" …")}


def read_question(
    qa: LocomoQA, ranked: Sequence[Retrieved], conv: LocomoConversation, budget: int
) -> dict[str, Any]:
    packed = pack(ranked, budget)
    n = len(packed.included)
    turns = conv.turn_index()
    places = {e: where(e, ranked, n) for e in qa.evidence}
    cited_twice = Counter(d for r in packed.included for d in r.dia_ids)
    whole = set().union(*(whole_lines(r) for r in packed.included)) if packed.included else set()
    return {
        "qa": qa,
        "places": places,
        "contained": contains_answer(packed.text, qa.answer),
        "included": packed.included,
        "ranked": ranked,
        "notes": sum(1 for r in packed.included if r.kind == "note"),
        "excerpts": sum(1 for r in packed.included if r.kind == "episode"),
        "note_chars": sum(len(r.content) for r in packed.included if r.kind == "note"),
        "excerpt_chars": sum(len(r.content) for r in packed.included if r.kind == "episode"),
        "unsourced": sum(1 for r in packed.included if not r.dia_ids),
        "dup_turns": sum(c - 1 for c in cited_twice.values() if c > 1),
        "left": budget * 4 - len(packed.text),
        "cut_evidence": sum(1 for e, p in places.items() if p == "budget" and e not in whole),
        "recall_whole": (
            sum(1 for e in qa.evidence if e in whole) / len(qa.evidence) if qa.evidence else None
        ),
        "evidence_text": {e: turns[e].render() if e in turns else "?" for e in qa.evidence},
    }


def render(item: dict[str, Any]) -> str:
    qa = item["qa"]
    lines = [
        f"### [{CATEGORIES[qa.category]}] {qa.question}",
        f"gold: {qa.answer!r} · contained: {item['contained']} · budget: "
        f"{item['notes']} notes ({item['note_chars']} ch), {item['excerpts']} excerpts "
        f"({item['excerpt_chars']} ch), {item['left']} ch left",
    ]
    for e, text in item["evidence_text"].items():
        lines.append(f"- evidence {e} [{item['places'][e]}]: {text[:200]}")
    lines.append("budget held:")
    for i, r in enumerate(item["included"]):
        body = r.content.replace("\n", " ⏎ ")
        lines.append(f"  {i + 1}. {r.kind} {len(r.content)} ch {list(r.dia_ids)[:8]}: {body[:220]}")
    after = item["ranked"][len(item["included"]) : 15]
    for i, r in enumerate(after, len(item["included"]) + 1):
        mark = "*" if set(qa.evidence) & set(r.dia_ids) else " "
        lines.append(
            f"  {mark}{i}. {r.kind} {len(r.content)} ch {list(r.dia_ids)[:6]}: "
            f"{r.content.replace(chr(10), ' ⏎ ')[:120]}"
        )
    return "\n".join(lines)


def summary(items: Sequence[dict[str, Any]]) -> str:
    by_cat: dict[int, Counter[str]] = defaultdict(Counter)
    for item in items:
        cat = by_cat[item["qa"].category]
        cat["questions"] += 1
        cat["missed"] += any(p != "budget" for p in item["places"].values())
        cat["not_contained"] += not item["contained"]
        cat["all_ev_not_contained"] += not item["contained"] and all(
            p == "budget" for p in item["places"].values()
        )
        for p in item["places"].values():
            cat[f"turn_{p}"] += 1
        for key in (
            "notes",
            "excerpts",
            "note_chars",
            "excerpt_chars",
            "unsourced",
            "dup_turns",
            "left",
            "cut_evidence",
        ):
            cat[key] += item[key]
    rows = [
        "| category | q | missing some | not contained | …with all evidence shown | "
        "turns: budget / next15 / beyond / none | notes (ch) | excerpts (ch) | "
        "unsourced notes | turns shown twice | ch left | evidence only in cut lines |",
        "|" + "---|" * 12,
    ]
    for cat_id in sorted(by_cat):
        c, n = by_cat[cat_id], by_cat[cat_id]["questions"]
        rows.append(
            f"| {CATEGORIES[cat_id]} | {n} | {c['missed']} | {c['not_contained']} | "
            f"{c['all_ev_not_contained']} | {c['turn_budget']} / {c['turn_next15']} / "
            f"{c['turn_beyond']} / {c['turn_none']} | {c['notes'] / n:.1f} "
            f"({c['note_chars'] / n:.0f}) | {c['excerpts'] / n:.1f} ({c['excerpt_chars'] / n:.0f})"
            f" | {c['unsourced'] / n:.2f} | {c['dup_turns'] / n:.2f} | {c['left'] / n:.0f} |"
            f" {c['cut_evidence']} |"
        )
    return "\n".join(rows)


def miss_parser(doc: str | None) -> argparse.ArgumentParser:
    """The options of a miss study on a kept ingest: the kept folder's, a plan, top_k, --out."""
    parser = kept_ingest_parser(doc)
    parser.add_argument("--plan", default="default")
    parser.add_argument("--top-k", type=int, default=50)
    parser.add_argument("--out", type=Path, required=True)
    return parser


def ranked_questions(
    args: argparse.Namespace,
) -> Iterator[tuple[LocomoConversation, LocomoQA, list[Retrieved]]]:
    """Each question of the selected conversations with what the kept folder's search ranks
    for it (``args`` from ``miss_parser``), in-process, at the plan and top_k asked for."""
    from omoide.api.render import render_hit
    from omoide.engine.search_plan import preset

    app = open_app(args.folder, None, args.now)
    plan = preset(args.plan)
    names = [p.name for p in app.store.list_personas()]
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        for qa in questions_of(conv):
            request = app.search.build_request(persona, query=qa.question, top_k=args.top_k)
            hits = app.search.search(persona, request, recall=False, plan=plan).results
            yield conv, qa, [to_retrieved(render_hit(h)) for h in hits]


def main(argv: Sequence[str] | None = None) -> None:
    args = miss_parser(__doc__).parse_args(argv)
    items = [
        read_question(qa, ranked, conv, args.budget) for conv, qa, ranked in ranked_questions(args)
    ]
    table = summary(items)
    scored = [i["recall_whole"] for i in items if i["recall_whole"] is not None]
    table += (
        f"\n\nEvidence recall counting only turns shown whole: "
        f"{sum(scored) / len(scored):.3f} over {len(scored)} questions"
    )
    misses = [
        i for i in items if not i["contained"] or any(p != "budget" for p in i["places"].values())
    ]
    write_markdown(
        args.out,
        f"# Misses ({args.plan}, {args.conversations})\n\n{table}\n\n"
        + "\n\n".join(render(i) for i in misses),
    )
    print(table)


if __name__ == "__main__":
    main()

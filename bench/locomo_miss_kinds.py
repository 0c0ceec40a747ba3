"""Probe: sort a default search's LoCoMo misses by kind, to tell what indexing could change.

Opens a data folder kept by ``bench/locomo.py --keep`` in-process (clock fixed), asks each
question of the chosen conversations through the real search service (``--plan``, default
``default``), packs the results into the budget as the scorer does, and sorts every question
that misses something into one kind:

- recall: an evidence turn is in **no** result of the top ``--top-k`` (``not_retrieved``), or
  only in results **below the budget** (``below_budget``);
- containment, when every evidence turn is in the budget but the gold answer is not in its
  text, by where the answer's words are in the raw conversation:
  ``in_evidence_turn`` (the evidence turn as written holds it: the rendering lost it),
  ``in_caption`` (only the photo caption of an evidence turn holds it),
  ``in_neighbour`` (a turn within two of an evidence turn holds it),
  ``in_session_date`` (the session's date, written as the answer writes it),
  ``elsewhere`` (another turn of the conversation), ``not_verbatim`` (nowhere as written:
  the gold is abstractive, a relative date, a list put together, so no excerpt can contain it).

A question can miss both recall and containment; it is counted once per table. Prints the two
tables by category and writes every containment miss of the first four kinds to ``--out``, with
what the budget held for that turn. Tuning conversations only, by default: the validation ones'
questions are not to be read.

    python bench/locomo_miss_kinds.py COPY --now 2026-12-04T12:00:00+00:00 \
        --conversations 26,30,41 --out /tmp/kinds.md
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from lib.datasets import LocomoConversation, LocomoQA
from lib.metrics import CATEGORIES, Retrieved, contains_answer, pack
from lib.reports import write_markdown

sys.path.insert(0, str(Path(__file__).parent))
from locomo_misses import miss_parser, ranked_questions, where

RECALL_KINDS = ("not_retrieved", "below_budget")
CONTAIN_KINDS = (
    "in_evidence_turn",
    "in_caption",
    "in_neighbour",
    "in_session_date",
    "elsewhere",
    "not_verbatim",
)


def date_forms(when: datetime | None) -> list[str]:
    """The ways an answer writes a session's date: ``8 May 2023``, ``May 2023``, ``2023``…"""
    if when is None:
        return []
    return [
        f"{when.day} {when:%B %Y}",
        f"{when.day} {when:%B}",
        f"{when:%B %Y}",
        f"{when:%B} {when.day}, {when.year}",
        str(when.year),
    ]


def containment_kind(qa: LocomoQA, conv: LocomoConversation) -> str:
    """Where the gold answer's words are in the raw conversation (see the module docstring)."""
    order = list(conv.turns())
    position = {t.dia_id: i for i, t in enumerate(order)}
    session_of = {s.number: s for s in conv.sessions}
    evidence = [order[position[e]] for e in qa.evidence if e in position]
    if any(contains_answer(t.render(with_caption=False), qa.answer) for t in evidence):
        return "in_evidence_turn"
    if any(t.image_caption and contains_answer(t.image_caption, qa.answer) for t in evidence):
        return "in_caption"
    near = {
        order[j].dia_id
        for t in evidence
        for j in range(position[t.dia_id] - 2, position[t.dia_id] + 3)
        if 0 <= j < len(order)
    }
    if any(contains_answer(order[position[d]].render(), qa.answer) for d in near):
        return "in_neighbour"
    dates = [f for t in evidence for f in date_forms(session_of[t.session].date_time)]
    if any(contains_answer(f, qa.answer) for f in dates):
        return "in_session_date"
    if any(contains_answer(t.render(), qa.answer) for t in order):
        return "elsewhere"
    return "not_verbatim"


def turn_traits(dia_id: str, conv: LocomoConversation) -> list[str]:
    """What an evidence turn outside the budget looks like: a reply to a question (the turn
    before it, same session, asks something), a photo turn, a short turn (< 15 words)."""
    order = list(conv.turns())
    position = {t.dia_id: i for i, t in enumerate(order)}
    if dia_id not in position:
        return ["unknown"]
    turn = order[position[dia_id]]
    prev = order[position[dia_id] - 1] if position[dia_id] else None
    traits = []
    if prev is not None and prev.session == turn.session and "?" in prev.text:
        traits.append("reply")
    if turn.image_caption:
        traits.append("photo")
    if len(turn.text.split()) < 15:
        traits.append("short")
    return traits or ["plain"]


def classify(
    qa: LocomoQA, ranked: Sequence[Retrieved], conv: LocomoConversation, budget: int
) -> dict[str, Any]:
    packed = pack(ranked, budget)
    places = {e: where(e, ranked, len(packed.included)) for e in qa.evidence}
    recall = "hit"
    if any(p == "none" for p in places.values()):
        recall = "not_retrieved"
    elif any(p != "budget" for p in places.values()):
        recall = "below_budget"
    contained = contains_answer(packed.text, qa.answer)
    contain = "contained"
    if not contained and recall == "hit":
        contain = containment_kind(qa, conv)
    elif not contained:
        contain = "recall_miss"
    return {
        "qa": qa,
        "recall": recall,
        "contain": contain,
        "packed": packed,
        "places": places,
        "written": containment_kind(qa, conv),
        "contained": contained,
    }


def ceiling(items: Sequence[dict[str, Any]]) -> str:
    """Every question by where its gold answer is written, and how many the budget contained:
    a gold written nowhere in the conversation is contained only when a note rewrote the turn
    into the gold's words (a resolved date, a third-person paraphrase)."""
    counts: Counter[str] = Counter(i["written"] for i in items)
    hits: Counter[str] = Counter(i["written"] for i in items if i["contained"])
    rows = [
        "| gold written | questions | contained | evidence all in budget |",
        "|---|---|---|---|",
    ]
    for kind in CONTAIN_KINDS:
        shown = sum(1 for i in items if i["written"] == kind and i["recall"] == "hit")
        rows.append(f"| {kind} | {counts[kind]} | {hits[kind]} | {shown} |")
    return "\n".join(rows)


def table(items: Sequence[dict[str, Any]], key: str, kinds: Sequence[str]) -> str:
    by_cat: dict[int, Counter[str]] = defaultdict(Counter)
    for item in items:
        by_cat[item["qa"].category][item[key]] += 1
        by_cat[0][item[key]] += 1
    rows = ["| category | questions | " + " | ".join(kinds) + " |", "|" + "---|" * (len(kinds) + 2)]
    for cat in sorted(by_cat, key=lambda c: (c == 0, c)):
        counts = by_cat[cat]
        name = "all" if cat == 0 else CATEGORIES[cat]
        rows.append(
            f"| {name} | {sum(counts.values())} | "
            + " | ".join(str(counts[k]) for k in kinds)
            + " |"
        )
    return "\n".join(rows)


def render(item: dict[str, Any], conv: LocomoConversation) -> str:
    qa = item["qa"]
    turns = conv.turn_index()
    lines = [
        f"### [{CATEGORIES[qa.category]} · {item['contain']}] {qa.question}",
        f"gold: {qa.answer!r}",
    ]
    for e in qa.evidence:
        if e in turns:
            lines.append(f"- evidence {e}: {turns[e].render()[:300]}")
        shown = [r for r in item["packed"].included if e in r.dia_ids]
        for r in shown:
            body = r.content
            if r.kind == "episode" and r.line_sources:
                start = 0
                for end, d in r.line_sources:
                    if d == e:
                        body = r.content[start:end]
                    start = end
            lines.append(f"  shown as {r.kind}: {body.strip()[:300]}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    args = miss_parser(__doc__).parse_args(argv)
    items: list[dict[str, Any]] = []
    shown: list[str] = []
    traits: dict[str, Counter[str]] = {"none": Counter(), "below": Counter()}
    for conv, qa, ranked in ranked_questions(args):
        if not qa.evidence:
            continue
        item = classify(qa, ranked, conv, args.budget)
        items.append(item)
        for e, p in item["places"].items():
            if p != "budget":
                traits[("none" if p == "none" else "below")].update(turn_traits(e, conv))
                traits[("none" if p == "none" else "below")]["turns"] += 1
        if item["contain"] in CONTAIN_KINDS[:4]:
            shown.append(render(item, conv))
    report = (
        f"## Recall misses (some evidence turn outside the {args.budget}-token budget)\n\n"
        + table(items, "recall", ("hit", *RECALL_KINDS))
        + "\n\n## Containment misses (answer not in the budget's text)\n\n"
        + table(items, "contain", ("contained", "recall_miss", *CONTAIN_KINDS))
        + "\n\n## Where each question's gold answer is written in the conversation\n\n"
        + ceiling(items)
        + "\n\n## Evidence turns outside the budget, by trait (a turn can have several)\n\n"
        "| where | turns | reply to a question | photo | short (< 15 words) | plain |\n"
        "|---|---|---|---|---|---|\n"
        + "\n".join(
            f"| {'in no result' if k == 'none' else 'ranked below the budget'} | "
            f"{c['turns']} | {c['reply']} | {c['photo']} | {c['short']} | "
            f"{c['plain']} |"
            for k, c in traits.items()
        )
    )
    write_markdown(
        args.out,
        f"# Miss kinds ({args.plan}, {args.conversations})\n\n{report}\n\n" + "\n\n".join(shown),
    )
    print(report)


if __name__ == "__main__":
    main()

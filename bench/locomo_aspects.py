"""Probe: a budget shared by two aspects of a query (issue 8 item 1, round 34).

Aspect A is the default search. Aspect B is the same search with the query's vector built from
the query without the words a large share of the persona's rows hold (in practice the people's
names: ``SearchPlan.common_word_mix`` 1.0 instead of the default 0.7, both tiers), so it ranks
the question's *topic* over everything about the person. A variant builds each aspect's result
list with the real excerpt and merge code (over ``locomo_budget.py``'s cached pools for A and
its own cache for B), then interleaves them: the first K results of A, then B and A by turns,
a note shown once, an excerpt without the turns a result above shows.

    python bench/locomo_aspects.py COPY --now ISO --conversations 26,30,41 \
        --variants default,mix:many:0,mix:all:3,swap:many [--details FILE] [--out PATH] [--loco]

``mix:G:K`` interleaves after K results of A, for questions the gate G picks: ``many`` (the
question's grammar asks for a set gathered over time, ``lib.query_form.asks_for_many``, round
18's rule) or ``all``; other questions get A. ``swap:G`` gives the gated questions B alone.
"""

from __future__ import annotations

import json
import pickle
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from lib.harness import kept_ingest_parser, open_app
from lib.metrics import QuestionScore, score_question, to_retrieved
from lib.query_form import asks_for_many
from omoide.api.render import render_hit
from omoide.engine.hit_order import merge_ranked, without_turns
from omoide.engine.lang import query_terms, without_words
from omoide.engine.search_plan import DEFAULT_PLAN
from omoide.model import SearchHit

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of
from locomo_budget import Pools, collect, loco_lines, report_lines, windows, write_out

ASPECT_B = replace(DEFAULT_PLAN, common_word_mix=1.0)


def aspect_list(app: Any, persona: str, pools: Pools, top_k: int) -> list[SearchHit]:
    """One aspect's results, as the default search builds them from its pools."""
    eps = windows(app, persona, pools, DEFAULT_PLAN, top_k)
    return merge_ranked(pools.notes, eps, top_k)


def interleave(
    first: list[SearchHit], second: list[SearchHit], head: int, top_k: int
) -> list[SearchHit]:
    """``first[:head]``, then ``second`` and ``first`` by turns; a note shown once (also when
    an excerpt above shows all its turns); an excerpt without the turns shown above."""
    order = first[:head]
    rest_a, rest_b = first[head:], second
    for i in range(max(len(rest_a), len(rest_b))):
        order += rest_b[i : i + 1] + rest_a[i : i + 1]
    out: list[SearchHit] = []
    seen: set[str] = set()
    cited: set[int] = set()
    for hit in order:
        turns = {s.event_id for s in hit.sources}
        if hit.type == "note":
            if hit.id in seen or (turns and turns <= cited):
                continue
            seen.add(hit.id)
        elif turns & cited:
            trimmed = without_turns(hit, cited)
            if trimmed is None:
                continue
            hit = trimmed
        cited |= turns
        out.append(hit)
        if len(out) == top_k:
            break
    return out


def mmr_notes(app: Any, persona: str, notes: list[SearchHit], lam: float) -> list[SearchHit]:
    """The notes re-ordered greedily by score − ``lam`` × their highest raw cosine with a note
    chosen before them (maximal marginal relevance). The k-th note chosen takes the k-th best
    score of the list, so the notes' place among the excerpts is kept and only which notes
    fill it changes."""
    memories = app.store.memories(persona)
    index = memories.vectors
    vecs = [index.get(memories.id_of(n.id)) for n in notes]
    nearest = [0.0] * len(notes)  # highest cosine with a chosen note
    left = set(range(len(notes)))
    chosen: list[SearchHit] = []
    while left:
        best = max(left, key=lambda i: (notes[i].score - lam * nearest[i], -i))
        left.discard(best)
        chosen.append(replace(notes[best], score=notes[len(chosen)].score))
        if vecs[best] is None:
            continue
        for i in left:
            if vecs[i] is not None:
                nearest[i] = max(nearest[i], float(vecs[i] @ vecs[best]))
    return chosen


def person_queries(app: Any, persona: str, question: str, share: float) -> list[str]:
    """One query per aspect when the question holds two or more of the persona's common words
    (at least ``share`` of its notes and ten notes hold each; in practice the two speakers'
    names): the question without the other common words, for the first two; else []."""
    words = query_terms(question).words
    common = app.store.memories(persona).common_words(words, share=share, least=10)
    held = [w for w in dict.fromkeys(words) if w in common][:2]
    if len(held) < 2:
        return []
    return [without_words(question, [w for w in held if w != keep]) for keep in held]


def person_pools(
    app: Any, persona: str, conv: Any, top_k: int, share: float, cache: Path
) -> list[list[Pools]]:
    """Per question, the pools of its aspects (``person_queries``; [] for most)."""
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    out = []
    for qa in questions_of(conv):
        texts = person_queries(app, persona, qa.question, share)
        out.append([collect(app, persona, [qa], top_k, DEFAULT_PLAN, [t])[0] for t in texts])
    cache.write_bytes(pickle.dumps(out))
    return out


def interleave_many(lists: list[list[SearchHit]], head: int, top_k: int) -> list[SearchHit]:
    """``lists[0][:head]``, then the other lists and the rest of the first by turns."""
    order = lists[0][:head]
    rest = [*lists[1:], lists[0][head:]]
    for i in range(max(len(r) for r in rest)):
        for r in rest:
            order += r[i : i + 1]
    return interleave(order, [], len(order), top_k)


def lifted(notes: list[SearchHit], eps: list[SearchHit], k: int, n: int) -> list[SearchHit]:
    """The excerpts, the best ``n`` scored at least as the ``k``-th note (a reserved place)."""
    if len(notes) < k:
        return eps
    floor = notes[k - 1].score
    return [replace(h, score=max(h.score, floor)) if i < n else h for i, h in enumerate(eps)]


def gate(name: str, question: str) -> bool:
    return name == "all" or (name == "many" and asks_for_many(question))


def build(
    app: Any,
    persona: str,
    a: Pools,
    b: Pools,
    variant: str,
    top_k: int,
    persons: dict[str, list[Pools]] | None = None,
) -> list[SearchHit]:
    base, *args = variant.split(":")
    list_a = aspect_list(app, persona, a, top_k)
    if base in ("persons", "persons_only"):  # persons:SHARE:K; persons_only:SHARE
        aspects = (persons or {}).get(args[0], [])
        if not aspects:
            return list_a
        lists = [aspect_list(app, persona, p, top_k) for p in aspects]
        if base == "persons_only":
            return interleave_many(lists, 0, top_k)
        return interleave_many([list_a, *lists], int(args[1]), top_k)
    if base == "exslot":  # exslot:K:N, the best N excerpts at least as high as the K-th note
        eps = windows(app, persona, a, DEFAULT_PLAN, top_k)
        return merge_ranked(a.notes, lifted(a.notes, eps, int(args[0]), int(args[1])), top_k)
    if base == "default" or not gate(args[0], a.qa.question):
        return list_a
    if base == "mmr":  # mmr:G:LAMBDA, the notes of aspect A only
        eps = windows(app, persona, a, DEFAULT_PLAN, top_k)
        return merge_ranked(mmr_notes(app, persona, a.notes, float(args[1])), eps, top_k)
    list_b = aspect_list(app, persona, b, top_k)
    if base == "swap":
        return list_b
    if base == "mix":
        return interleave(list_a, list_b, int(args[1]), top_k)
    raise SystemExit(f"unknown variant {variant}")


def pools_of(app: Any, cache: Path, persona: str, conv: Any, top_k: int, plan: Any) -> Any:
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    pooled = collect(app, persona, questions_of(conv), top_k, plan)
    cache.write_bytes(pickle.dumps(pooled))
    return pooled


def main(argv: Sequence[str] | None = None) -> None:
    parser = kept_ingest_parser(__doc__, "copy")
    parser.add_argument("--variants", default="default")
    parser.add_argument("--top-k", type=int, default=50)
    parser.add_argument("--details", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--loco", action="store_true")
    args = parser.parse_args(argv)
    app = open_app(args.copy, None, args.now)
    names = [p.name for p in app.store.list_personas()]
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    scores: dict[str, list[tuple[str, QuestionScore]]] = {v: [] for v in variants}
    details: list[dict[str, Any]] = []
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        stem = f"{args.copy.name}_{conv.sample_id}.pkl"
        pools_a = pools_of(
            app, args.copy.parent / f"pools_{stem}", persona, conv, args.top_k, DEFAULT_PLAN
        )
        pools_b = pools_of(
            app, args.copy.parent / f"pools_b_{stem}", persona, conv, args.top_k, ASPECT_B
        )
        shares = sorted({v.split(":")[1] for v in variants if v.startswith("persons")})
        by_share = {
            sh: person_pools(
                app,
                persona,
                conv,
                args.top_k,
                float(sh),
                args.copy.parent / f"pools_p{sh}_{stem}",
            )
            for sh in shares
        }
        for variant in variants:
            for i, (a, b) in enumerate(zip(pools_a, pools_b, strict=True)):
                persons = {sh: by_share[sh][i] for sh in shares}
                hits = build(app, persona, a, b, variant, args.top_k, persons)
                ranked = [to_retrieved(render_hit(h)) for h in hits]
                score = score_question(a.qa, ranked, args.budget)
                scores[variant].append((conv.sample_id, score))
                if args.details:
                    details.append(
                        {
                            "variant": variant,
                            "conversation": conv.sample_id,
                            "question": a.qa.question,
                            "category": a.qa.category,
                            "many": asks_for_many(a.qa.question),
                            "evidence": list(a.qa.evidence),
                            "recall": score.recall,
                            "has_evidence": score.has_evidence,
                            "contained": score.contained,
                        }
                    )
        print(f"conversation {conv.sample_id} done", file=sys.stderr, flush=True)
    lines = report_lines(scores, variants)
    if args.loco:
        lines += loco_lines(scores, variants)
    for line in lines:
        print(line, flush=True)
    if args.out:
        write_out(args.out, scores, variants, lines[len(variants) :])
    if args.details:
        args.details.write_text(json.dumps(details) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Probe: what a search shows within a context budget, as variants over cached candidate pools.

Opens a copy of a kept LoCoMo data folder in-process (``--reuse``-style, clock fixed), asks every
question of the chosen conversations once through the real search service for its notes (top_k)
and once through the real turn-tier retriever for its ranked turns, caches both, then builds the
result list of each variant from the cache (excerpt windows with the episode tier's own code,
then a merge) and scores it with the LoCoMo scorer (``lib.metrics``). Variant ``default``
reproduces the default search exactly (checked against ``locomo.py --plan default``).

    python bench/locomo_budget.py COPY --now 2026-12-01T17:00:00+00:00 --conversations 26,30,41 \
        --variants default,fold_notes,... [--details FILE]

Prints each variant's evidence recall / containment per conversation and overall, and the
paired difference to ``default`` with a bootstrap 95% interval (questions resampled).
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from lib.datasets import LocomoQA
from lib.harness import kept_ingest_parser, open_app
from lib.metrics import QuestionScore, score_question, to_retrieved
from lib.note_sentences import distinctive_terms, proximity_hit, trim_hit
from lib.reports import command_line, git_revision, write_results
from lib.sentence_vectors import SentenceNoteTier, SentenceVectors, notes_with_tier, store_cost
from omoide.api.render import render_hit
from omoide.engine.budget import fold_notes, foldable_notes
from omoide.engine.hit_order import merge_ranked, without_turns
from omoide.engine.lang import query_terms
from omoide.engine.search_plan import DEFAULT_PLAN, SearchPlan
from omoide.model import SearchHit
from omoide.service.retrieval import TurnTier

sys.path.insert(0, str(Path(__file__).parent))
from locomo import load_selected, questions_of


@dataclass
class Pools:
    qa: LocomoQA
    notes: list[SearchHit]
    ranked: list[Any]  # fused turn candidates (Scored), best first
    events: dict[int, Any]
    sims: dict[int, float]


def collect(
    app: Any,
    persona: str,
    questions: Sequence[LocomoQA],
    top_k: int,
    plan: SearchPlan = DEFAULT_PLAN,
    texts: Sequence[str] | None = None,
) -> list[Pools]:
    """Each question's pools under ``plan``: notes through the real search, turns through the
    real turn retriever; a question is asked as ``texts[i]`` when given."""
    out = []
    store = app.store.sessions(persona)
    cfg = app.search.settings.get(persona)
    retriever = app.search.episodes.retriever
    for i, qa in enumerate(questions):
        text = qa.question if texts is None else texts[i]
        request = app.search.build_request(persona, query=text, top_k=top_k)
        notes = app.search.search(
            persona, replace(request, include_episodes=False), recall=False, plan=plan
        ).results
        tier = TurnTier(store)
        query_vector = app.embedder.embed_query(request.query)
        ranked = retriever.retrieve(
            tier,
            request.query,
            plan=plan,
            pool=plan.episode_pool,
            query_vector=query_vector,
            keyword_weight=cfg.keyword_weight,
            semantic_weight=cfg.semantic_weight,
        ).ranked
        events = store.events_by_ids([s.id for s in ranked])
        sims = tier.similarities(query_vector, events.keys())
        out.append(Pools(qa, notes, ranked, events, sims))
    return out


def windows(
    app: Any,
    persona: str,
    pools: Pools,
    plan: SearchPlan,
    limit: int,
    keep: Callable[[Any, float, float], bool] | None = None,
) -> list[SearchHit]:
    """The episode tier's excerpts from the cached ranked turns (its own code), optionally
    skipping turns ``keep(event, score, best)`` rejects."""
    best = pools.ranked[0].score if pools.ranked else 0.0
    return app.search.episodes.excerpts(
        persona,
        pools.ranked,
        pools.events,
        pools.sims,
        plan=plan,
        limit=limit,
        zone=app.search.settings.get(persona).zone,
        keep=lambda event, score: keep is None or keep(event, score, best),
    )


# -- merge variants --------------------------------------------------------------------------


def _tagged(notes: list[SearchHit], eps: list[SearchHit]) -> list[SearchHit]:
    tagged = [(h.score, 0, r, h) for r, h in enumerate(notes)]
    tagged += [(h.score, 1, r, h) for r, h in enumerate(eps)]
    tagged.sort(key=lambda t: (-t[0], t[1], t[2]))
    return [t[-1] for t in tagged]


def merge_fold(
    notes: list[SearchHit], eps: list[SearchHit], top_k: int, *, notes_by: str = "any"
) -> list[SearchHit]:
    """Default trimming of excerpts, plus: a note whose sources are all shown above is dropped
    (``notes_by``: "any" result above, "notes" only, "excerpts" only, "none")."""
    cited_any: set[int] = set()
    cited_notes: set[int] = set()
    cited_eps: set[int] = set()
    out: list[SearchHit] = []
    for hit in _tagged(notes, eps):
        turns = {s.event_id for s in hit.sources}
        if hit.type == "note" and turns and notes_by != "none":
            above = {"any": cited_any, "notes": cited_notes, "excerpts": cited_eps}[notes_by]
            if turns <= above:
                continue
        if hit.type == "episode" and turns & cited_any:
            trimmed = without_turns(hit, cited_any)
            if trimmed is None:
                continue
            hit = trimmed
        cited_any |= turns
        (cited_notes if hit.type == "note" else cited_eps).update(turns)
        out.append(hit)
        if len(out) == top_k:
            break
    return out


def excerpt_up(notes: list[SearchHit], eps: list[SearchHit], top_k: int) -> list[SearchHit]:
    """When an excerpt below shows all of a note's source turns, that excerpt moves up to the
    note's place and the note is dropped."""
    order = _tagged(notes, eps)
    placed: list[SearchHit] = []
    used: set[int] = set()
    for i, hit in enumerate(order):
        if i in used:
            continue
        if hit.type == "note" and hit.sources:
            turns = {s.event_id for s in hit.sources}
            j = next(
                (
                    j
                    for j in range(i + 1, len(order))
                    if j not in used
                    and order[j].type == "episode"
                    and turns <= {s.event_id for s in order[j].sources}
                ),
                None,
            )
            if j is not None:
                used.add(j)
                placed.append(order[j])
                continue
        placed.append(hit)
    return _trim_in_order(placed, top_k)


def _trim_in_order(
    order: list[SearchHit], top_k: int, noted: frozenset[int] = frozenset()
) -> list[SearchHit]:
    """The first ``top_k`` of ``order``, each excerpt without the turns a result above shows
    or ``noted`` names (an excerpt left with none is dropped)."""
    cited: set[int] = set()
    out = []
    for hit in order:
        turns = {s.event_id for s in hit.sources}
        drop = cited | noted
        if hit.type == "episode" and turns & drop:
            trimmed = without_turns(hit, drop)
            if trimmed is None:
                continue
            hit = trimmed
        cited |= turns
        out.append(hit)
        if len(out) == top_k:
            break
    return out


def mmr_sources(
    notes: list[SearchHit], eps: list[SearchHit], top_k: int, *, lam: float, key: str
) -> list[SearchHit]:
    """Greedy re-order: score × (1 − lam × [a result above shares its ``key``]) where key is
    the session of its source turns (note) or excerpt."""
    pool = _tagged(notes, eps)

    def keys(hit: SearchHit) -> set[Any]:
        if key == "turn":
            return {s.event_id for s in hit.sources}
        # the LoCoMo session of each source turn (D<session>:<turn>; a probe, not production)
        return {(s.external_id or "").split(":")[0] for s in hit.sources} - {""}

    chosen: list[SearchHit] = []
    seen: set[Any] = set()
    left = list(pool)
    while left and len(chosen) < top_k:
        best_i = max(
            range(len(left)),
            key=lambda i: (left[i].score * (1 - lam * bool(keys(left[i]) & seen)), -i),
        )
        hit = left.pop(best_i)
        chosen.append(hit)
        seen |= keys(hit)
    return _trim_in_order(chosen, top_k)


def carried(line: str, note: str) -> float:
    """The share of ``line``'s content terms (``engine.lang.query_terms``: Latin words and CJK
    terms, search stopwords aside) that ``note`` carries too; 1.0 for a line without any."""
    terms = _terms(line)
    return len(terms & _terms(note)) / len(terms) if terms else 1.0


def _terms(text: str) -> set[str]:
    found = query_terms(text)
    return {*found.words, *found.cjk}


def fold_covered(
    hit: SearchHit, by_turn: dict[int, SearchHit], cover: float
) -> tuple[SearchHit, list[SearchHit]]:
    """``engine.budget.fold_notes`` with only the notes that carry ``cover`` of their line."""
    _, *lines = hit.content.split("\n")
    if cover > 0.0 and len(lines) == len(hit.sources):
        by_turn = {
            t: n
            for t, n in by_turn.items()
            if all(
                carried(line, n.content) >= cover
                for line, src in zip(lines, hit.sources, strict=True)
                if src.event_id == t
            )
        }
    return fold_notes(hit, by_turn)


def merge_cover(
    notes: list[SearchHit],
    eps: list[SearchHit],
    top_k: int,
    *,
    fold_cover: float,
    trim_cover: float,
    drop: bool = False,
) -> list[SearchHit]:
    """The default merge, where a turn's line gives way to a note (folded into it, or trimmed
    because the note is above) only when the note carries ``fold_cover`` / ``trim_cover`` of
    the line's content terms (``engine.budget.carried``); ``drop``: a note not folded for that
    reason is not listed again (the raw line stands for it)."""
    foldable = foldable_notes(notes)
    said: dict[int, str] = {}  # turn → the text of the result above that stands for it
    folded: set[str] = set()
    cited: set[int] = set()
    out: list[SearchHit] = []
    for hit in _tagged(notes, eps):
        if hit.type == "note" and hit.id in folded:
            continue
        turns = {src.event_id for src in hit.sources}
        if hit.type == "episode":
            _, *lines = hit.content.split("\n")
            if len(lines) == len(hit.sources):
                drop_turns = {
                    src.event_id
                    for line, src in zip(lines, hit.sources, strict=True)
                    if src.event_id in cited
                    and (
                        src.event_id not in said or carried(line, said[src.event_id]) >= trim_cover
                    )
                }
            else:
                drop_turns = cited & turns
            if drop_turns:
                trimmed = without_turns(hit, drop_turns)
                if trimmed is None:
                    continue
                hit = trimmed
            by_turn = {t: n for t, n in foldable.items() if t not in cited and n.id not in folded}
            if drop:
                _, *lines = hit.content.split("\n")
                if len(lines) == len(hit.sources):
                    for line, src in zip(lines, hit.sources, strict=True):
                        n = by_turn.get(src.event_id)
                        if n is not None and carried(line, n.content) < fold_cover:
                            folded.add(n.id)
                            by_turn.pop(src.event_id)
            hit, into = fold_covered(hit, by_turn, fold_cover)
            folded.update(n.id for n in into)
        elif hit.type == "note" and len(hit.sources) == 1:
            said.setdefault(hit.sources[0].event_id, hit.content)
        cited |= turns
        out.append(hit)
        if len(out) == top_k:
            break
    return out


# -- the variants ----------------------------------------------------------------------------


def build(app: Any, persona: str, pools: Pools, name: str, top_k: int) -> list[SearchHit]:
    plan = DEFAULT_PLAN
    base, _, arg = name.partition(":")
    if base == "strong_turns":  # excerpts from turns at least arg × the best turn's score
        ratio = float(arg)
        eps = windows(
            app, persona, pools, plan, top_k, keep=lambda _e, score, best: score >= ratio * best
        )
        return merge_ranked(pools.notes, eps, top_k)
    eps = windows(app, persona, pools, plan, top_k)
    if base == "default":
        return merge_ranked(pools.notes, eps, top_k)
    if base.startswith("ntrim") or base == "nprox":  # round 33 (lib/note_sentences.py)
        return merge_ranked(note_sentences(pools, base, arg), eps, top_k)
    if base == "cover":  # fold only a note that carries arg of its line's words
        return merge_cover(pools.notes, eps, top_k, fold_cover=float(arg), trim_cover=0.0)
    if base in ("cover_trim", "cover_both", "cover_drop"):  # arg: fold,trim shares
        fold_share, _, trim_share = arg.partition("/")
        return merge_cover(
            pools.notes,
            eps,
            top_k,
            fold_cover=float(fold_share or 0),
            trim_cover=float(trim_share or 0),
            drop=base == "cover_drop",
        )
    if base == "epw":  # excerpt scores × arg before the merge (one scale across the tiers)
        return merge_ranked(
            pools.notes, [replace(h, score=h.score * float(arg)) for h in eps], top_k
        )
    if base == "nfloor":  # notes below arg × the best result's score left out
        best = max([h.score for h in [*pools.notes, *eps]], default=0.0)
        return merge_ranked([n for n in pools.notes if n.score >= float(arg) * best], eps, top_k)
    if base == "simfloor":  # notes below a raw cosine of arg left out
        return merge_ranked(
            [n for n in pools.notes if (n.similarity or 0.0) >= float(arg)], eps, top_k
        )
    if base == "no_fold":  # the default before round 5
        return merge_ranked(pools.notes, eps, top_k, fold=False)
    if base == "fold_notes":
        return merge_fold(pools.notes, eps, top_k, notes_by=arg or "any")
    if base == "excerpt_up":
        return excerpt_up(pools.notes, eps, top_k)
    if base == "mmr_session":
        return mmr_sources(pools.notes, eps, top_k, lam=float(arg), key="session")
    if base == "mmr_turn":
        return mmr_sources(pools.notes, eps, top_k, lam=float(arg), key="turn")
    if base == "trim_noted":  # excerpt lines dropped for turns a note in `arg` results stands for
        return trim_noted(pools.notes, eps, top_k, reach=int(arg or 15))
    if base == "date_words":  # diagnostic: the excerpt header in the notes' date words
        return [_date_words(h) for h in merge_ranked(pools.notes, eps, top_k)]
    raise SystemExit(f"unknown variant {name}")


def note_sentences(pools: Pools, base: str, arg: str) -> list[SearchHit]:
    """The notes trimmed to their sentences with a distinctive question word (``ntrim``,
    ``ntrim_first``, ``ntrim_next``) or re-scored by how close those words are (``nprox:B``)."""
    terms = distinctive_terms(pools.qa.question, [n.content for n in pools.notes])
    if base == "nprox":
        hits = [proximity_hit(n, terms, float(arg)) for n in pools.notes]
        return sorted(hits, key=lambda h: -h.score)
    first, after = base == "ntrim_first", base == "ntrim_next"
    if base not in ("ntrim", "ntrim_first", "ntrim_next", "ntrim_tail"):
        raise SystemExit(f"unknown variant {base}")
    whole = int(arg) if base == "ntrim_tail" else 0  # the first `whole` notes stay whole
    return [
        n if i < whole else trim_hit(n, terms, keep_first=first, keep_next=after)
        for i, n in enumerate(pools.notes)
    ]


def _date_words(hit: SearchHit) -> SearchHit:
    if hit.type != "episode" or not hit.content.startswith("["):
        return hit
    header, _, rest = hit.content.partition("\n")
    day = datetime.fromisoformat(header.strip("[]"))
    return replace(hit, content=f"[{day.day} {day:%B %Y}]\n{rest}")


def trim_noted(
    notes: list[SearchHit], eps: list[SearchHit], top_k: int, *, reach: int
) -> list[SearchHit]:
    order = _tagged(notes, eps)
    noted = frozenset({s.event_id for h in order[:reach] if h.type == "note" for s in h.sources})
    return _trim_in_order(order, top_k, noted)


def _skip_fit(ranked: list[Any], budget: int) -> list[Any]:
    left, out = budget * 4, []
    for r in ranked:
        cost = len(r.content) + (1 if out else 0)
        if cost <= left:
            out.append(r)
            left -= cost
    return out


def bootstrap(diffs: Sequence[float], rounds: int = 2000, seed: int = 7) -> tuple[float, float]:
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def main(argv: Sequence[str] | None = None) -> None:
    parser = kept_ingest_parser(__doc__, "copy")
    parser.add_argument("--variants", default="default")
    parser.add_argument("--top-k", type=int, default=50)
    parser.add_argument("--details", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="Write OUT.md / OUT.json too.")
    parser.add_argument(
        "--loco",
        action="store_true",
        help="Choose a variant leave-one-conversation-out (recall + containment).",
    )
    parser.add_argument(
        "--cache", type=Path, default=None, help="Sentence vectors (variants sentmax, sentblend)."
    )
    args = parser.parse_args(argv)
    app = open_app(args.copy, None, args.now)
    names = [p.name for p in app.store.list_personas()]
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    scores: dict[str, list[tuple[str, QuestionScore]]] = {v: [] for v in variants}
    details: list[dict[str, Any]] = []
    sentences = None
    if any(v.startswith("sent") for v in variants):
        sentences = SentenceVectors(app.embedder, args.cache or args.copy.parent / "sentences")
    costs: list[str] = []
    for conv in load_selected(args.data, args.conversations):
        persona = next(n for n in names if n.startswith(f"locomo-{conv.sample_id}-"))
        cache = args.copy.parent / f"pools_{args.copy.name}_{conv.sample_id}.pkl"
        if cache.exists():
            cached = pickle.loads(cache.read_bytes())
        else:
            cached = collect(app, persona, questions_of(conv), args.top_k)
            cache.write_bytes(pickle.dumps(cached))
        for variant in variants:
            pooled = cached
            if variant.startswith("sent") and sentences is not None:  # notes re-scored first
                pooled, line = sentence_pools(app, persona, cached, variant, sentences, args.top_k)
                costs.append(f"{conv.sample_id} {line}")
            for pools in pooled:
                name, skip = variant.removesuffix("+skipfit"), variant.endswith("+skipfit")
                name = "default" if name.startswith("sent") else name
                hits = build(app, persona, pools, name, args.top_k)
                ranked = [to_retrieved(render_hit(h)) for h in hits]
                if skip:  # diagnostic: a client that skips what does not fit and goes on
                    ranked = _skip_fit(ranked, args.budget)
                score = score_question(pools.qa, ranked, args.budget)
                scores[variant].append((conv.sample_id, score))
                if args.details:
                    details.append(
                        {
                            "variant": variant,
                            "conversation": conv.sample_id,
                            "question": pools.qa.question,
                            "answer": pools.qa.answer,
                            "category": pools.qa.category,
                            "evidence": list(pools.qa.evidence),
                            "recall": score.recall,
                            "contained": score.contained,
                            "top": [
                                {
                                    "kind": r.kind,
                                    "dia_ids": list(r.dia_ids),
                                    "chars": len(r.content),
                                    "text": r.content,
                                }
                                for r in ranked[:15]
                            ],
                        }
                    )
        if sentences is not None:
            sentences.save()
            for asides in (True, False):
                cost = store_cost(app, persona, asides=asides)
                costs.append(
                    f"{conv.sample_id} store ({'with' if asides else 'without'} asides): "
                    + ", ".join(f"{k} {v:.2f}" for k, v in cost.items())
                )
        print(f"conversation {conv.sample_id} done", file=sys.stderr, flush=True)
    if args.loco:
        costs = [*loco_lines(scores, variants), *costs]
    report(scores, variants)
    for line in costs:
        print(line, flush=True)
    if args.out:
        write_out(args.out, scores, variants, costs)
    if args.details:
        args.details.write_text(json.dumps(details) + "\n", encoding="utf-8")


def report(scores: dict[str, list[tuple[str, QuestionScore]]], variants: list[str]) -> None:
    for line in report_lines(scores, variants):
        print(line, flush=True)


def report_lines(
    scores: dict[str, list[tuple[str, QuestionScore]]], variants: list[str]
) -> list[str]:
    """Each variant's recall / containment per conversation and overall, with its paired
    difference to ``default`` (bootstrap 95%) when there is one."""
    lines = []
    convs = sorted({c for c, _ in scores[variants[0]]})
    base = scores.get("default")
    for variant in variants:
        rows = scores[variant]
        parts = []
        for conv in [*convs, None]:
            sel = [s for c, s in rows if conv is None or c == conv]
            ev = [s.recall for s in sel if s.has_evidence]
            parts.append(
                f"{sum(ev) / len(ev):.3f} / {sum(s.contained for s in sel) / len(sel):.3f}"
            )
        line = f"{variant:24s} " + " | ".join(parts)
        if base is not None and variant != "default":
            dr = [
                s.recall - b.recall
                for (_, s), (_, b) in zip(rows, base, strict=True)
                if s.has_evidence
            ]
            dc = [
                float(s.contained) - float(b.contained)
                for (_, s), (_, b) in zip(rows, base, strict=True)
            ]
            lo, hi = bootstrap(dr)
            clo, chi = bootstrap(dc)
            up = sum(1 for d in dr if d > 0)
            down = sum(1 for d in dr if d < 0)
            line += (
                f"  Δ recall {sum(dr) / len(dr):+.3f} [{lo:+.3f}, {hi:+.3f}] "
                f"(up {up}, down {down}); Δ cont {sum(dc) / len(dc):+.3f} "
                f"[{clo:+.3f}, {chi:+.3f}] (up {sum(d > 0 for d in dc)}, "
                f"down {sum(d < 0 for d in dc)})"
            )
        lines.append(line)
    return lines


def sentence_pools(
    app: Any, persona: str, cached: list[Pools], variant: str, vectors: SentenceVectors, top_k: int
) -> tuple[list[Pools], str]:
    """The cached pools with their notes asked again of the real search, its vector candidates
    re-scored by their best sentence (``sentmax``: max; ``sentblend:W``: blend with weight W;
    ``_na``: bracketed asides are not sentences; ``lib/sentence_vectors.py``), and a line of
    what the candidates cost."""
    base, _, arg = variant.partition(":")
    how = "max" if base.startswith("sentmax") else "blend"
    weight = float(arg or 0.5)
    seen: dict[int, int] = {}
    tier = SentenceNoteTier(
        app.store.memories(persona), vectors, how, weight, seen, asides=not base.endswith("_na")
    )
    before = (vectors.notes_embedded, vectors.sentences_embedded, vectors.seconds)
    out = [
        replace(p, notes=notes_with_tier(app, persona, p.qa.question, top_k, tier)) for p in cached
    ]
    notes = vectors.notes_embedded - before[0]
    line = (
        f"{variant}: {len(seen)} candidate notes, {sum(seen.values()) / max(len(seen), 1):.2f} "
        f"sentences each, {sum(1 for n in seen.values() if n > 1)} of two or more; embedded now "
        f"{notes} notes / {vectors.sentences_embedded - before[1]} sentences in "
        f"{vectors.seconds - before[2]:.1f} s"
    )
    return out, line


def _merit(rows: Sequence[QuestionScore]) -> float:
    """Mean evidence recall (questions with evidence) + mean containment (all questions)."""
    ev = [s.recall for s in rows if s.has_evidence]
    return sum(ev) / max(len(ev), 1) + sum(bool(s.contained) for s in rows) / max(len(rows), 1)


def loco_lines(
    scores: dict[str, list[tuple[str, QuestionScore]]], variants: list[str]
) -> list[str]:
    """For each conversation, the variant (``default`` included) with the best recall +
    containment on the other conversations, and its paired difference to ``default`` on the
    held-out one; then those held-out differences pooled."""
    convs = sorted({c for c, _ in scores[variants[0]]})
    base = scores["default"]
    lines, dr, dc = (
        ["leave-one-conversation-out (chosen by recall + containment on the others):"],
        [],
        [],
    )
    for held in convs:
        chosen = max(
            variants,
            key=lambda v: (_merit([s for c, s in scores[v] if c != held]), v == "default"),
        )
        pairs = [(s, b) for (c, s), (_, b) in zip(scores[chosen], base, strict=True) if c == held]
        r = [s.recall - b.recall for s, b in pairs if s.has_evidence]
        k = [float(s.contained) - float(b.contained) for s, b in pairs]
        dr += r
        dc += k
        lines.append(
            f"  held out {held}: chosen {chosen}; Δ recall {sum(r) / len(r):+.3f}, "
            f"Δ cont {sum(k) / len(k):+.3f}"
        )
    lo, hi = bootstrap(dr)
    clo, chi = bootstrap(dc)
    lines.append(
        f"  pooled held-out: Δ recall {sum(dr) / len(dr):+.3f} [{lo:+.3f}, {hi:+.3f}] "
        f"(up {sum(d > 0 for d in dr)}, down {sum(d < 0 for d in dr)}); Δ cont "
        f"{sum(dc) / len(dc):+.3f} [{clo:+.3f}, {chi:+.3f}] (up {sum(d > 0 for d in dc)}, "
        f"down {sum(d < 0 for d in dc)})"
    )
    return lines


def write_out(
    out: Path,
    scores: dict[str, list[tuple[str, QuestionScore]]],
    variants: list[str],
    costs: Sequence[str] = (),
) -> None:
    """``OUT.md`` (the command, the commit and the printed table) and ``OUT.json``."""
    rows = [*report_lines(scores, variants), *costs]
    markdown = "\n".join(
        [
            "# LoCoMo budget variants over cached candidate pools (`bench/locomo_budget.py`)",
            "",
            f"Command: `{command_line()}` (git {git_revision()}). Columns: evidence recall /",
            "containment per conversation, then overall; the paired difference to `default`",
            "(questions resampled, 2,000 rounds).",
            "",
            "```",
            *rows,
            "```",
        ]
    )
    data = {
        "command": command_line(),
        "git": git_revision(),
        "variants": {
            v: {
                "recall": [s.recall for _, s in scores[v] if s.has_evidence],
                "contained": [bool(s.contained) for _, s in scores[v]],
            }
            for v in variants
        },
        "lines": rows,
    }
    write_results(out, markdown, data)


if __name__ == "__main__":
    main()

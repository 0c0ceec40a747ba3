"""Is there a "sure duplicate" raw cosine above which dedup's judge need not be asked?

For one embedder, every pair of the seen dedup sources (``train_dedup.SOURCES``, then
``dedup_holdout28`` … ``--last``) is read as the trainer reads it (``_train_dedup_data.read``)
and decided with the shipped judge (``dedup_judge.json``, the decision path of
``_train_dedup_choice.decide``). Then, near the top of the raw cosine:

* per bucket: duplicates, duplicates the decision misses (and how many of them only the judge
  refused: no rule or veto finding), ``different`` pairs, those dropped today, and those no
  rule or veto finding would keep (what a sure cosine below them would drop);
* a sure cosine S (pairs above it: a duplicate unless a rule or a value-veto finding keeps
  them, the judge not asked) chosen leave-one-source-out on the tuning sources (all but the
  ``--choose`` ones): the lowest grid S whose added drops stay within ``--budget`` on every
  training fold; the held-out folds' gain and added drops; the S chosen on all tuning sources
  and its numbers on the ``--choose`` sources;
* the classify sets' CONTRADICTORY / EXTENDABLE pairs (``--classify`` files, as ``different``
  pairs, ``dedup_contradictions.load``) above each S that no rule or veto finding keeps.

``--vectors`` loads (and with ``--save`` writes) a pickle of the embedding cache
(``_train_dedup_data.CACHE``) so a rerun embeds nothing; ``--cache`` is the classify pairs'
vector cache (``lib.embed_cache``).

    PYTHONPATH=src:bench python bench/dedup_sure_cosine.py --embedder use --last 33 \
        --choose dedup_holdout32 dedup_holdout33 --classify bench/data/classify_*.jsonl
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np

import _train_dedup_data as data
from _train_dedup_choice import Choice, decide, probabilities
from dedup_contradictions import load as load_classify
from lib.cli import parser
from lib.embed_cache import cached_embeddings
from lib.reports import RESULTS, emit, md_table
from omoide.engine.classify import (
    DedupModel,
    find_dedup_change,
    pair_notation,
    polarity_changed,
    status_changed,
    swapped_parts,
)
from omoide.service.dedup import kanji_readings

JUDGE = data.REPO / "src" / "omoide" / "engine" / "classify" / "dedup_judge.json"


def kept_by_finding(a: str, b: str) -> bool:
    """A rule or the value veto keeps the pair (the texts read in dedup's notation first)."""
    a, b = pair_notation(a, b, kanji=kanji_readings())
    return a != b and (
        swapped_parts(a, b) is not None
        or status_changed(a, b)
        or polarity_changed(a, b)
        or find_dedup_change(a, b) is not None
    )


def main() -> None:
    ap = parser(__doc__, out=None)
    ap.add_argument("--embedder", choices=("e5", "use"), required=True)
    ap.add_argument("--last", type=int, default=33, help="last dedup_holdoutN read")
    ap.add_argument("--choose", nargs="*", default=["dedup_holdout32", "dedup_holdout33"])
    ap.add_argument("--classify", nargs="*", type=Path, default=[])
    ap.add_argument(
        "--budget",
        type=float,
        default=0.005,
        help="most added drops per training fold (fraction of its different pairs)",
    )
    ap.add_argument("--vectors", type=Path, default=None)
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args()
    if args.out is None:
        args.out = RESULTS / f"dedup_sure_cosine_{args.embedder}"
    if args.vectors is not None and args.vectors.is_file():
        data.CACHE.update(pickle.loads(args.vectors.read_bytes()))
    sources = (
        tuple(s for s in data.SOURCES if s != "calibration_pairs")
        + tuple(f"dedup_holdout{n}" for n in range(28, args.last + 1))
        + ("calibration_pairs",)
    )
    pairs = data.load(sources)
    rows, model_id, _, cal = data.read(args.embedder, "use", pairs, plain=False)
    if args.vectors is not None and args.save:
        args.vectors.write_bytes(pickle.dumps(data.CACHE))
    models = {m["embedder"]: m for m in json.loads(JUDGE.read_text("utf-8"))["models"]}
    model = DedupModel.from_dict(models[model_id])
    raw = cal.to_raw(0.85)
    floor = cal.to_raw(0.85 - model.floor_margin)
    p = probabilities(model, rows, rows.cosine > floor)
    dec = decide(
        rows, p, raw, Choice(model.floor_margin, floor, model.threshold, model.floor_threshold)
    )
    keep = rows.traded | rows.vetoed
    choose = np.isin(rows.source, args.choose)
    tuning = [s for s in sources if s not in args.choose]
    top = 0.97 if args.embedder == "e5" else 0.94
    edges = list(np.round(np.linspace(top, 1.0, 7), 4))
    buckets = []
    for part, mask in (("tuning", ~choose), ("choose", choose)):
        for lo, hi in zip(edges, [*edges[1:], 1.01], strict=False):
            if lo >= 1.0:
                continue
            m = mask & (rows.cosine > lo) & (rows.cosine <= hi)
            dup, diff = m & (rows.label == 1), m & (rows.label == 0)
            buckets.append(
                [
                    part,
                    f"{lo}–{min(hi, 1.0)}",
                    int(dup.sum()),
                    int((dup & ~dec).sum()),
                    int((dup & ~dec & ~keep).sum()),
                    int(diff.sum()),
                    int((diff & dec).sum()),
                    int((diff & ~keep).sum()),
                ]
            )

    grid = np.round(np.arange(top, 0.99751, 0.0025), 4)
    sure = {s: np.where(rows.cosine > s, ~keep, dec) for s in grid}

    def fold(s: float | None, source: str) -> tuple[int, int, int, int]:
        m = rows.source == source
        dup, diff = m & (rows.label == 1), m & (rows.label == 0)
        new = dec if s is None else sure[s]
        return (
            int(new[dup].sum() - dec[dup].sum()),
            int(dup.sum()),
            int(new[diff].sum() - dec[diff].sum()),
            int(diff.sum()),
        )

    def pick(folds: list[str]) -> float | None:
        return next(
            (
                float(s)
                for s in grid
                if all(f[2] <= args.budget * max(f[3], 1) for f in (fold(s, x) for x in folds))
            ),
            None,
        )

    held = []
    for source in tuning:
        s = pick([x for x in tuning if x != source])
        held.append((source, s, *fold(s, source)))
    chosen = pick(tuning)
    gain, dups = sum(h[2] for h in held), sum(h[3] for h in held)
    added, diffs = sum(h[4] for h in held), sum(h[5] for h in held)
    worst = max(h[4] / max(h[5], 1) for h in held)
    on_choose = {c: fold(chosen, c) for c in args.choose}

    classify = [pr for f in args.classify for pr in load_classify(f)]
    cls_rows = []
    if classify:
        embedder = data._EMBEDDERS[args.embedder]
        texts = list(dict.fromkeys(t for pr in classify for t in (pr.a, pr.b)))
        if args.cache is not None:
            vecs = dict(zip(texts, cached_embeddings(embedder, texts, args.cache), strict=True))
        else:
            vecs, _ = data.embedded(args.embedder, texts)
        cos = np.array([float(np.dot(vecs[pr.a], vecs[pr.b])) for pr in classify])
        high = [i for i in np.flatnonzero(cos > top)]
        kept = {i: kept_by_finding(classify[i].a, classify[i].b) for i in high}
        for s in grid[::2]:
            above = [i for i in high if cos[i] > s]
            lost = [i for i in above if not kept[i]]
            cls_rows.append(
                [
                    float(s),
                    len(above),
                    sum(classify[i].shape == "CONTRADICTORY" for i in above),
                    len(lost),
                    sum(classify[i].shape == "CONTRADICTORY" for i in lost),
                ]
            )

    md = [
        f"# Sure-duplicate cosine, {args.embedder} ({model_id})",
        "",
        f"Dedup threshold raw {raw:.4f}; judge floor raw {floor:.4f}. Sources: {len(tuning)} "
        f"tuning, choose {', '.join(args.choose)}.",
        "",
        md_table(
            [
                "part",
                "raw cosine",
                "duplicates",
                "missed",
                "missed, judge only",
                "different",
                "dropped now",
                "no rule / veto finding",
            ],
            buckets,
        ),
        "",
        f"LOSO (budget {args.budget:.2%} added drops per training fold): picks "
        f"{sorted({h[1] for h in held}, key=lambda v: -1.0 if v is None else v)}; held-out "
        f"gain {gain}/{dups} (+{100 * gain / dups:.2f} pt), added drops {added}/{diffs} "
        f"(+{100 * added / diffs:.2f} pt), worst fold +{100 * worst:.2f} pt.",
        "",
        f"Chosen on all tuning sources: {chosen}; on the choose sources (gain, duplicates, "
        f"added drops, different): {on_choose}.",
    ]
    if cls_rows:
        md += [
            "",
            f"Classify C/E pairs ({len(classify)}, {len(args.classify)} files) above S:",
            "",
            md_table(["S", "above", "C above", "no finding", "C no finding"], cls_rows),
        ]
    emit(
        args,
        "\n".join(md) + "\n",
        {
            "embedder": args.embedder,
            "buckets": buckets,
            "held": held,
            "chosen": chosen,
            "choose": on_choose,
            "classify": cls_rows,
        },
    )


if __name__ == "__main__":
    main()

"""Nested leave-one-source-out scores of the learned judge's CONTRADICTORY threshold rules.

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/classify_nested.py \\
        --cache /tmp/omoide-vectors                     # → bench/results/classify_nested.md

LOSO (``bench/train_classifier.py``) chooses the thresholds on the same left-out sources it
reports, so its scores flatter the rule that chose them. Nested LOSO is the honest estimate
for a new writer: for each *outer* source, every other source is left out in turn by a model
fitted without it and without the outer one (the *inner* folds); the rule chooses the
thresholds on those inner curves only, and the outer source is scored at them by the model
fitted on everything but itself (the LOSO model). The configuration is the one training chose
(``bench/results/classify_threshold.json``, or ``--features`` / ``--blocks`` / ``--c``); the
configuration itself is not re-chosen inside (its grid would cost 36 times as much), and a
several-sentence new memory or a consolidated note closes nothing (the guard, as while no
sentence threshold is set; a note is read as the server reads one, ``note=True``). A fold
whose every pair is capped so (the notes folds) scores the same at any threshold and makes no
call on any curve: it gets no inner fits, as outer or inner (``threshold_free``).

Each rule (``_classify_thresholds.ThresholdRule``) is reported by LOSO (chosen on every fold)
and nested: mean macro-F1 over all folds and over the writers, pooled CONTRADICTORY precision
and recall, the lowest fold precision. ``--dump`` writes each pair's LOSO verdict at the
training rule (``RULE``, for reading the training folds' misses; ``dev.jsonl`` is never read here).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from _classify_common import LABELS, CachedEmbedder, load_pairs
from _classify_data import CONTRA, HOLDOUTS, NOTES, Config, Data, folds_of, load_data
from _classify_loso import fit_on, predict_on, predictions
from _classify_thresholds import RULE, ThresholdRule, curve, scores
from lib.cli import parser
from lib.reports import REPO, RESULTS, md_table, write_results
from omoide.embed import make_embedder

RULES: dict[str, ThresholdRule] = {
    "fold, 10 calls, cliff +2 (the twelfth round's)": ThresholdRule(),
    "fold, 5 calls, cliff +2": ThresholdRule(min_calls=5),
    "fold, 15 calls, cliff +2": ThresholdRule(min_calls=15),
    "fold, 20 calls, cliff +2": ThresholdRule(min_calls=20),
    "fold, 10 calls, no cliff": ThresholdRule(cliff_margin=0),
    "fold, 10 calls, cliff +2, margin +1": ThresholdRule(margin=1),
    "pooled, cliff +2": ThresholdRule(pool="pooled"),
    "pooled, cliff +2, margin +1": ThresholdRule(pool="pooled", margin=1),
    "pooled, cliff +2, margin +2": ThresholdRule(pool="pooled", margin=2),
    "pooled, cliff +2, margin +3": ThresholdRule(pool="pooled", margin=3),
    "pooled, every fold >= 0.90, cliff +2": ThresholdRule(pool="pooled", floor=0.90),
    "pooled, every fold >= 0.85, cliff +2": ThresholdRule(pool="pooled", floor=0.85),
    "Wilson z=1.0, every fold >= 0.90, cliff +2": ThresholdRule(pool="wilson", z=1.0, floor=0.90),
    "Wilson z=1.96, cliff +2": ThresholdRule(pool="wilson"),
    "Wilson z=1.64, cliff +2": ThresholdRule(pool="wilson", z=1.64),
    "Wilson z=1.0, cliff +2": ThresholdRule(pool="wilson", z=1.0),
    "Wilson z=1.0, cliff +2, margin +1 (the nineteenth round's)": ThresholdRule(
        pool="wilson", z=1.0, margin=1
    ),
    # round 23: the judge's own calls (a deciding rule's verdicts out of the pool), and the
    # sources' precisions averaged (each writer weighs one) or bounded below
    "own calls, Wilson z=1.0, cliff +2, margin +1": ThresholdRule(
        pool="wilson", z=1.0, margin=1, calls="own"
    ),
    "own calls, Wilson z=1.0, cliff +2": ThresholdRule(pool="wilson", z=1.0, calls="own"),
    "own calls, Wilson z=1.0, cliff +2, margin +2": ThresholdRule(
        pool="wilson", z=1.0, margin=2, calls="own"
    ),
    "own calls, Wilson z=1.64, cliff +2, margin +1": ThresholdRule(
        pool="wilson", z=1.64, margin=1, calls="own"
    ),
    "own calls, pooled, cliff +2, margin +1": ThresholdRule(pool="pooled", margin=1, calls="own"),
    "source mean, cliff +2, margin +1": ThresholdRule(pool="macro", margin=1),
    "own calls, source mean, cliff +2, margin +1": ThresholdRule(
        pool="macro", margin=1, calls="own"
    ),
    "own calls, a quarter of the sources under, cliff +2 (the twenty-third round's)": ThresholdRule(
        pool="quantile", quantile=0.25, calls="own"
    ),
    "own calls, a fifth of the sources under, cliff +2": ThresholdRule(
        pool="quantile", quantile=0.2, calls="own"
    ),
    "own calls, a third of the sources under, cliff +2": ThresholdRule(
        pool="quantile", quantile=1 / 3, calls="own"
    ),
    "own calls, a quarter of the sources under, cliff +2, margin +1": ThresholdRule(
        pool="quantile", quantile=0.25, calls="own", margin=1
    ),
    # round 26: every close that ships on a left-out source (sure rules and the judge), each
    # source weighing one (a sure reading that takes the easy true closes no longer raises it)
    "all closes, a quarter of the sources under, cliff +2": ThresholdRule(
        pool="quantile", quantile=0.25
    ),
    "all closes, a fifth of the sources under, cliff +2": ThresholdRule(
        pool="quantile", quantile=0.2
    ),
    "all closes, a tenth of the sources under, cliff +2": ThresholdRule(
        pool="quantile", quantile=0.1
    ),
    "all closes, every fold (20 calls), cliff +2": ThresholdRule(min_calls=20),
    "Wilson z=1.0, every fold (20 calls) >= 0.90, cliff +2, margin +1": ThresholdRule(
        pool="wilson", z=1.0, margin=1, floor=0.90, min_calls=20
    ),
    "own calls, Wilson z=1.0, every fold (20 calls) >= 0.90, cliff +2, margin +1": ThresholdRule(
        pool="wilson", z=1.0, margin=1, floor=0.90, min_calls=20, calls="own"
    ),
}


def threshold_free(data: Data, fold: str) -> bool:
    """Whether every pair of ``fold`` is capped (a notes fold: read as notes, it never closes
    through the statements' threshold): its verdicts are the same at every threshold and it
    makes no call on any curve, so it needs no inner fits, as an outer fold or an inner one."""
    return bool(data.capped[data.sources == fold].all())


def nested_probs(data: Data, cfg: Config):
    """The LOSO probabilities, and per outer source the inner LOSO probabilities of the others
    (each inner source by a model fitted without it and without the outer one); none for a
    threshold-free fold (``threshold_free``), as outer or inner."""
    folds = folds_of(data)
    live = [f for f in folds if not threshold_free(data, f)]
    n = len(data.y)
    outer = (np.zeros((n, 3)), np.zeros(n, dtype=bool))
    inner = {}
    for o in folds:
        test = np.flatnonzero(data.sources == o)
        outer[0][test], outer[1][test] = predict_on(
            data, test, fit_on(data, np.flatnonzero(data.sources != o), cfg)
        )
        if o not in live:
            continue
        probs, ruled = np.zeros((n, 3)), np.zeros(n, dtype=bool)
        for i in live:
            if i == o:
                continue
            test = np.flatnonzero(data.sources == i)
            train = np.flatnonzero((data.sources != o) & (data.sources != i))
            probs[test], ruled[test] = predict_on(data, test, fit_on(data, train, cfg))
        inner[o] = (probs, ruled)
        print(f"  outer {o} done", file=sys.stderr)
    return outer, inner


def _summary(data: Data, preds: dict[str, np.ndarray], thresholds: dict[str, dict]) -> dict:
    """Scores of each fold at its own verdicts (``preds``: fold → verdicts of every pair)."""
    by_fold = {f: scores(data, p, data.sources == f) for f, p in preds.items()}
    said = right = gold = 0
    for f, p in preds.items():
        part = data.sources == f
        said += int(((p == CONTRA) & part).sum())
        right += int(((p == CONTRA) & part & (data.y == CONTRA)).sum())
        gold += int(((data.y == CONTRA) & part).sum())
    writers = [s["all_f1"] for f, s in by_fold.items() if f.startswith("holdout")]
    precisions = [
        s[f"{lang}_cp"]
        for s in by_fold.values()
        for lang in ("en", "ja")
        if s[f"{lang}_calls"] >= 10
    ]
    return {
        "f1": round(float(np.mean([s["all_f1"] for s in by_fold.values()])), 4),
        "writers_f1": round(float(np.mean(writers)), 4) if writers else 0.0,
        "cp": round(right / max(said, 1), 4),
        "cr": round(right / max(gold, 1), 4),
        "calls": said,
        "worst_cp": min(precisions, default=1.0),
        "below_090": sum(p < 0.90 for p in precisions),
        "by_fold": by_fold,
        "thresholds": thresholds,
    }


def measure_rules(
    data: Data, outer, inner, rules: dict[str, ThresholdRule], target: float
) -> dict[str, dict]:
    folds = folds_of(data)
    live = [f for f in folds if f in inner]  # a threshold-free fold has no inner fits
    outer_curves = {f: curve(data, *outer, data.sources == f) for f in folds}
    inner_curves = {
        o: {i: curve(data, *inner[o], data.sources == i) for i in live if i != o} for o in live
    }
    out = {}
    for name, rule in rules.items():
        t = rule.choose(outer_curves, target)
        pred = predictions(data, *outer, t)
        loso = _summary(data, dict.fromkeys(folds, pred), dict.fromkeys(folds, t))
        # a threshold-free outer fold scores the same at any threshold: the LOSO one stands in
        chosen = {
            o: rule.choose(inner_curves[o], target) if o in inner_curves else t for o in folds
        }
        nested = _summary(data, {o: predictions(data, *outer, chosen[o]) for o in folds}, chosen)
        out[name] = {"loso": loso, "nested": nested}
    return out


def _load_probs(path: Path, data: Data):
    """Saved probabilities, with every pair a close-only signal or a sure rule decides for the
    data as measured now (``Data.forced``: fit-independent, so a close-only signal added since
    the probabilities were saved decides as it would have; the models' columns must be the
    same)."""
    with np.load(path) as f:
        inner = {
            k[2:]: (f[k], f["r_" + k[2:]] | data.forced) for k in f.files if k.startswith("p_")
        }
        return (f["outer_p"], f["outer_r"] | data.forced), inner


def _dump(path: Path, sources: dict[str, Path], data: Data, outer, target: float) -> None:
    pairs = [p for name in sources for p in load_pairs(sources[name])]
    folds = folds_of(data)
    t = RULE.choose({f: curve(data, *outer, data.sources == f) for f in folds}, target)
    pred = predictions(data, *outer, t)
    with path.open("w", encoding="utf-8") as f:
        for k, p in enumerate(pairs):
            f.write(
                json.dumps(
                    {
                        "id": p.id,
                        "source": str(data.sources[k]),
                        "lang": p.lang,
                        "kind": p.kind,
                        "label": p.label,
                        "pred": LABELS[pred[k]],
                        "p_c": round(float(outer[0][k, CONTRA]), 3),
                        "ruled": bool(outer[1][k]),
                        "rule": data.rules[k],
                        "old": p.old,
                        "new": p.new,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )


def render(results: dict[str, dict], cfg: Config, target: float) -> str:
    first_folds = list(next(iter(results.values()))["nested"]["by_fold"])
    n_folds, n_writers = len(first_folds), sum(f.startswith("holdout") for f in first_folds)
    lines = [
        "# Nested leave-one-source-out: the CONTRADICTORY threshold rule",
        "",
        f"Configuration (fixed, as training chose it): {cfg.label()}. Target precision "
        f"{target}. *LOSO*: the rule chooses on every left-out source and is scored on the "
        "same (what training reports); *nested*: for each outer source the rule chooses "
        "on the other sources' inner LOSO curves only, and the outer source is scored at "
        f"those thresholds. Macro-F1 mean over {n_folds} folds / {n_writers} writers; C "
        "precision / recall "
        "pooled over the folds; worst = the lowest fold-and-language C precision among "
        "those with ≥ 10 calls (n < 0.90 = how many are below 0.90).",
        "",
    ]
    rows = []
    for name, r in results.items():
        lo, ne = r["loso"], r["nested"]
        en = sorted({t["en"] for t in ne["thresholds"].values()})
        ja = sorted({t["ja"] for t in ne["thresholds"].values()})
        rows.append(
            [
                name,
                f"{lo['f1']:.4f} / {lo['writers_f1']:.4f}",
                f"{lo['cp']:.3f} / {lo['cr']:.3f}",
                f"{lo['worst_cp']:.3f}",
                " / ".join(f"{v:.2f}" for v in next(iter(lo["thresholds"].values())).values()),
                f"**{ne['f1']:.4f}** / {ne['writers_f1']:.4f}",
                f"{ne['cp']:.3f} / {ne['cr']:.3f}",
                f"{ne['worst_cp']:.3f} (n < 0.90: {ne['below_090']})",
                f"EN {en[0]:.2f}–{en[-1]:.2f}, JA {ja[0]:.2f}–{ja[-1]:.2f}",
            ]
        )
    both = f"({n_folds} / {n_writers})"
    lines += [
        md_table(
            [
                "rule",
                f"LOSO F1 {both}",
                "LOSO C P / R",
                "LOSO worst",
                "LOSO thresholds EN / JA",
                f"nested F1 {both}",
                "nested C P / R",
                "nested worst",
                "nested thresholds",
            ],
            rows,
        ),
        "",
    ]
    first = next(iter(results.values()))
    folds = list(first["nested"]["by_fold"])
    table = [
        [
            f,
            *(
                f"{r['nested']['by_fold'][f]['all_f1']:.3f} / "
                f"{r['nested']['by_fold'][f]['all_cp']:.3f}"
                for r in results.values()
            ),
        ]
        for f in folds
    ]
    lines += [
        "Nested macro-F1 / C precision per outer fold:",
        "",
        md_table(["outer fold", *results], table),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="classify_nested")
    bench.add_argument("--embedder", default="use")
    bench.add_argument("--cache", type=Path, default=None)
    bench.add_argument("--precision", type=float, default=0.95)
    bench.add_argument("--features", default=None)
    bench.add_argument("--blocks", default=None)
    bench.add_argument("--c", type=float, default=None)
    bench.add_argument(
        "--probs",
        type=Path,
        default=None,
        help="keep the LOSO and inner probabilities in this .npz (read when "
        "there: only the rules are measured again)",
    )
    bench.add_argument(
        "--dump",
        type=Path,
        default=None,
        help="write each pair's LOSO verdict (JSON Lines) to this path",
    )
    args = bench.parse_args(argv)
    chosen = json.loads((RESULTS / "classify_threshold.json").read_text())[args.embedder]
    cfg = Config(
        args.features or chosen["config"]["features"],
        "centroid",
        args.c if args.c is not None else chosen["config"]["c"],
        args.blocks or chosen["config"]["blocks"],
    )
    sources = {"pairs": REPO / "bench" / "data" / "classify_pairs.jsonl", **HOLDOUTS, **NOTES}
    embedder = make_embedder(args.embedder)
    if args.cache is not None:
        embedder = CachedEmbedder(embedder, args.cache / f"{args.embedder}.npz")
    data = load_data(sources, embedder)
    if args.probs is not None and args.probs.is_file():
        outer, inner = _load_probs(args.probs, data)
    else:
        outer, inner = nested_probs(data, cfg)
        if args.probs is not None:
            np.savez(
                args.probs,
                outer_p=outer[0],
                outer_r=outer[1],
                **{f"p_{o}": v[0] for o, v in inner.items()},
                **{f"r_{o}": v[1] for o, v in inner.items()},
            )
    if args.dump is not None:
        _dump(args.dump, sources, data, outer, args.precision)
    results = measure_rules(data, outer, inner, RULES, args.precision)
    write_results(
        args.out,
        render(results, cfg, args.precision),
        {
            "config": vars(cfg),
            "rules": {k: {**vars(v)} for k, v in RULES.items()},
            "results": results,
        },
    )
    for name, r in results.items():
        print(
            f"{name}: LOSO {r['loso']['f1']} nested {r['nested']['f1']} "
            f"C {r['nested']['cp']}/{r['nested']['cr']}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

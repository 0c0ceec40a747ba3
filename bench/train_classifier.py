"""Train the learned 3-op judge, one model per bundled embedder; write it into the package.

    .venv/bin/pip install -e '.[bench]'        # scikit-learn, for training only
    .venv/bin/python bench/train_classifier.py  # e5 + USE → src/omoide/engine/classify/judge.json

Only the ``train`` split of ``bench/data/classify_pairs.jsonl`` is read. Everything is chosen by
5-fold cross-validation on it, with a pair and its translation always in the same fold (``twin``,
or the same position within label and kind for the first batches): the regularisation ``C`` of
the logistic regression, how the embedding blocks are read, whether sure rules decide alone, and
the CONTRADICTORY threshold (the lowest probability at which out-of-fold CONTRADICTORY precision
stays ≥ ``--precision`` in each language from there up).

The embedding blocks (the new memory minus the old one, and the two differing parts) are read
along a few directions only: how far a pair's block leans towards each class's mean block on
the training pairs ("centroid"), or its top principal directions ("pcaK"). That keeps the model
to a few numbers per block learned from a few hundred pairs instead of a weight per dimension
(which memorised). The projection is linear, so it is folded into one
weight row per block and the stored model is read by the same plain-numpy code.
The validation split and ``shared/bench/classify/dev.jsonl`` are scored by ``bench/classify.py``,
never here. Writes the threshold / precision / recall curve to
``bench/results/classify_threshold.md`` and ``.json``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from _classify_common import (
    DEFAULT_PAIRS,
    LABELS,
    CachedEmbedder,
    featurise,
    load_pairs,
)
from lib.cli import parser
from lib.reports import REPO, md_table, write_results
from omoide.embed import make_embedder
from omoide.engine.classify import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    JudgeModel,
    Relation,
    decide_relation,
)
from omoide.service.classify_judge import JUDGE_FILE

OUT = REPO / "src" / "omoide" / "engine" / "classify" / JUDGE_FILE
GRID_C = (0.01, 0.03, 0.1, 0.3)
BLOCKS: tuple[str, ...] = ("diff", "new_part", "old_part")
GRID_REDUCE = ("none", "centroid", "pca16")  # how each block is read (see project)
FOLDS = 5
MIN_RULE_FIRINGS = 8
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.30, 0.96, 0.01))
CLASSES = tuple(Relation(label) for label in LABELS)


def _sklearn():
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedGroupKFold
    except ImportError:
        sys.exit("scikit-learn is needed for training: .venv/bin/pip install -e '.[bench]'")
    return LogisticRegression, StratifiedGroupKFold


Projection = list[tuple[np.ndarray, np.ndarray]]  # per block: (mean, directions dim × k)


def project(blocks: list[np.ndarray], reduce: str, y: np.ndarray | None = None,
            fitted: Projection | None = None) -> tuple[np.ndarray, Projection]:
    """Each block's coordinates along a few directions, side by side. ``reduce`` is "none",
    "centroid" (the direction from the block's mean to each class's mean, unit length: how
    much a pair's block looks like each class's) or "pcaK" (the top K principal directions).
    The directions are fitted on these rows (labels ``y``) unless ``fitted`` is given."""
    if reduce == "none" or not blocks:
        return np.zeros((len(blocks[0]) if blocks else 0, 0)), []
    if fitted is None:
        fitted = []
        for b in blocks:
            mu = b.mean(axis=0)
            if reduce == "centroid":
                assert y is not None
                directions = np.stack([b[y == k].mean(axis=0) - mu
                                       for k in range(len(CLASSES))])
                directions /= np.maximum(np.linalg.norm(directions, axis=1, keepdims=True),
                                         1e-12)
            else:
                _, _, vt = np.linalg.svd(b - mu, full_matrices=False)
                directions = vt[:int(reduce.removeprefix("pca"))]
            fitted.append((mu, directions.T))
    return np.hstack([(b - mu) @ p for b, (mu, p) in zip(blocks, fitted, strict=True)]), fitted


def _fit(x: np.ndarray, y: np.ndarray, c: float):
    logistic, _ = _sklearn()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = logistic(C=c, max_iter=5000)
    model.fit((x - mean) / scale, y)
    order = [list(model.classes_).index(i) for i in range(len(CLASSES))]
    return mean, scale, model.coef_[order], model.intercept_[order]


def fold_projection(params, n_named: int, fitted: Projection):
    """Rewrite a model over [named features, projected blocks] as one over [named features,
    whole blocks]: the projection is linear, so each block gets one weight row per class."""
    mean, scale, w, b = params
    if not fitted:
        return params
    w_named, w_proj = w[:, :n_named], w[:, n_named:] / scale[n_named:]
    bias = b - w_proj @ mean[n_named:]
    rows, start = [], 0
    for mu, p in fitted:
        part = w_proj[:, start:start + p.shape[1]]
        rows.append(part @ p.T)  # classes × dim
        bias = bias - (part @ p.T) @ mu
        start += p.shape[1]
    dim = fitted[0][0].shape[0]
    return (np.concatenate([mean[:n_named], np.zeros(dim * len(fitted))]),
            np.concatenate([scale[:n_named], np.ones(dim * len(fitted))]),
            np.hstack([w_named, *rows]), bias)


def _probabilities(params, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = params
    z = ((x - mean) / scale) @ w.T + b
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def out_of_fold(x: np.ndarray, blocks: list[np.ndarray], y: np.ndarray, strata: np.ndarray,
                groups: np.ndarray, c: float, reduce: str) -> np.ndarray:
    """Out-of-fold probabilities; the projection is fitted inside each fold too."""
    _, folds = _sklearn()
    probs = np.zeros((len(y), len(CLASSES)))
    for train, test in folds(FOLDS, shuffle=True, random_state=0).split(x, strata, groups):
        z_train, fitted = project([b[train] for b in blocks], reduce, y[train])
        z_test, _ = project([b[test] for b in blocks], reduce, fitted=fitted)
        params = _fit(np.hstack([x[train], z_train]), y[train], c)
        probs[test] = _probabilities(params, np.hstack([x[test], z_test]))
    return probs


def twin_groups(pairs) -> np.ndarray:
    """A pair and its translation share a group: ``twin`` when the pair has one, else its
    position within its label and kind (the first batches were written side by side)."""
    seen: Counter[tuple[str, str, str]] = Counter()
    groups = []
    for p in pairs:
        if p.twin:
            groups.append(f"twin:{p.twin}")
            continue
        key = (p.lang, p.label, p.kind)
        groups.append(f"{p.label}:{p.kind}:{seen[key]}")
        seen[key] += 1
    return np.array(groups)


def curve(probs: np.ndarray, y: np.ndarray, langs: np.ndarray) -> list[dict[str, float]]:
    """CONTRADICTORY precision and recall at each threshold, overall and per language."""
    contra = CLASSES.index(Relation.CONTRADICTORY)
    rows = []
    for t in THRESHOLDS:
        row: dict[str, float] = {"threshold": t}
        for name, mask in [("all", np.ones_like(y, dtype=bool))] + [
                (lang, langs == lang) for lang in ("en", "ja")]:
            said = (probs[:, contra] >= t) & mask
            gold = (y == contra) & mask
            row[f"{name}_precision"] = float((said & gold).sum() / said.sum()) if said.any() \
                else 1.0
            row[f"{name}_recall"] = float((said & gold).sum() / gold.sum()) if gold.any() else 0.0
        rows.append(row)
    return rows


def choose_threshold(rows: list[dict[str, float]], target: float) -> float:
    """The lowest threshold from which precision ≥ target in each language all the way up."""
    chosen = THRESHOLDS[-1]
    for row in reversed(rows):
        if min(row["en_precision"], row["ja_precision"]) < target:
            break
        chosen = row["threshold"]
    return chosen


def macro_f1(pred: np.ndarray, y: np.ndarray) -> float:
    f1s = []
    for k in range(len(CLASSES)):
        tp = float(((pred == k) & (y == k)).sum())
        p = tp / max((pred == k).sum(), 1)
        r = tp / max((y == k).sum(), 1)
        f1s.append(2 * p * r / (p + r) if p + r else 0.0)
    return float(np.mean(f1s))


def predictions(probs: np.ndarray, threshold: float, rules: list[str], rule_says: np.ndarray,
                overrides: tuple[str, ...]) -> np.ndarray:
    out = np.array([CLASSES.index(decide_relation(p, CLASSES, threshold)[0]) for p in probs])
    for i, rule in enumerate(rules):
        if rule in overrides:
            out[i] = rule_says[i]
    return out


def sure_rules(rules: list[str], rule_says: np.ndarray, y: np.ndarray) -> tuple[str, ...]:
    """Rules right on every training pair where they fired (and that fired often enough)."""
    sure = []
    for rule in sorted(set(rules)):
        idx = [i for i, r in enumerate(rules) if r == rule]
        if len(idx) >= MIN_RULE_FIRINGS and all(rule_says[i] == y[i] for i in idx):
            sure.append(rule)
    return tuple(sure)


def train_one(embedder_name: str, pairs, target: float, cache: Path | None = None
              ) -> tuple[JudgeModel, dict[str, object]]:
    embedder = make_embedder(embedder_name) if embedder_name != "text" else None
    if embedder is not None and cache is not None:
        embedder = CachedEmbedder(embedder, cache / f"{embedder_name}.npz")
    rows = featurise(pairs, embedder)
    names = TEXT_FEATURES + (EMBEDDING_FEATURES if embedder else ())
    dim = embedder.dim if embedder else 0
    y = np.array([LABELS.index(p.label) for p in pairs])
    langs = np.array([p.lang for p in pairs])
    strata = np.array([f"{p.lang}:{p.label}" for p in pairs])
    groups = twin_groups(pairs)
    rules = [r.text.rule for r in rows]
    rule_says = np.array([CLASSES.index(r.text.finding.relation) for r in rows])
    overrides_all = sure_rules(rules, rule_says, y)
    x = np.array([r.vector() for r in rows])
    blocks = [np.array([r.vector(BLOCKS, dim)[len(names) + i * dim:len(names) + (i + 1) * dim]
                        for r in rows]) for i in range(len(BLOCKS))] if embedder else []
    best: dict[str, object] = {}
    for reduce in GRID_REDUCE if embedder else ("none",):
        for c in GRID_C:
            probs = out_of_fold(x, blocks, y, strata, groups, c, reduce)
            points = curve(probs, y, langs)
            threshold = choose_threshold(points, target)
            for overrides in ((), overrides_all):
                # Overrides chosen on all of train would leak into the folds' scores; they
                # only apply to rules that never erred on train, so the CV score is an upper
                # bound of their benefit, and they are kept only when they beat the model.
                f1 = macro_f1(predictions(probs, threshold, rules, rule_says, overrides), y)
                if not best or f1 > best["cv_macro_f1"] + 1e-9:
                    best = {"C": c, "reduce": reduce, "threshold": threshold,
                            "overrides": overrides, "cv_macro_f1": round(f1, 4),
                            "cv_by_lang": {lang: round(macro_f1(predictions(
                                probs, threshold, rules, rule_says, overrides)[langs == lang],
                                y[langs == lang]), 4) for lang in ("en", "ja")},
                            "curve": points}
    reduce = str(best["reduce"])
    z, fitted = project(blocks, reduce, y)
    params = fold_projection(_fit(np.hstack([x, z]), y, float(best["C"])),  # type: ignore[arg-type]
                             len(names), fitted)
    kept = BLOCKS if fitted else ()
    model = JudgeModel(
        embedder=embedder.model_id if embedder else "", features=names, classes=CLASSES,
        mean=params[0], scale=params[1], weights=params[2], bias=params[3],
        contradiction_threshold=float(best["threshold"]),  # type: ignore[arg-type]
        rule_overrides=tuple(best["overrides"]),  # type: ignore[arg-type]
        blocks=kept, block_dim=dim if kept else 0)
    summary = {k: v for k, v in best.items() if k != "curve"}
    summary["curve"] = best["curve"]
    summary["n_train"] = len(pairs)
    return model, summary


def render_curve(name: str, summary: dict[str, object]) -> list[str]:
    lines = [f"## {name}", "",
             f"C={summary['C']}, vector blocks read as={summary['reduce']}, "
             f"threshold={summary['threshold']}, rule overrides="
             f"{list(summary['overrides']) or 'none'}, CV macro-F1={summary['cv_macro_f1']}"
             f" (EN {summary['cv_by_lang']['en']}, JA {summary['cv_by_lang']['ja']}; 5-fold,"
             f" {summary['n_train']} train pairs)", ""]
    rows = [[f"{row['threshold']:.2f}"
             + (" **(chosen)**" if row["threshold"] == summary["threshold"] else ""),
             *(f"{row[k]:.3f}" for k in ("all_precision", "all_recall", "en_precision",
                                         "en_recall", "ja_precision", "ja_recall"))]
            for row in summary["curve"]  # type: ignore[attr-defined]
            if not round(row["threshold"] * 100) % 5 or row["threshold"] == summary["threshold"]]
    lines.append(md_table(["threshold", "precision", "recall", "EN precision", "EN recall",
                           "JA precision", "JA recall"], rows))
    return [*lines, ""]


def _rounded(value: object) -> object:
    """Floats to 5 significant digits (the file stays small; the verdicts do not move)."""
    if isinstance(value, float):
        return float(f"{value:.5g}")
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="classify_threshold", data=DEFAULT_PAIRS)
    bench.add_argument("--embedders", default="e5,use")
    bench.add_argument("--precision", type=float, default=0.95,
                       help="CV CONTRADICTORY precision each language must keep")
    bench.add_argument("--cache", type=Path, default=None,
                       help="keep passage vectors in DIR between runs (never in the repo)")
    args = bench.parse_args(argv)
    pairs = [p for p in load_pairs(args.data) if p.split == "train"]
    models, summaries = [], {}
    for name in args.embedders.split(","):
        model, summary = train_one(name, pairs, args.precision, args.cache)
        models.append(_rounded(model.to_dict()))
        summaries[name] = summary
        print(f"{name}: C={summary['C']} reduce={summary['reduce']} "
              f"threshold={summary['threshold']} overrides="
              f"{list(summary['overrides'])} CV macro-F1={summary['cv_macro_f1']}",
              file=sys.stderr)
    OUT.write_text(json.dumps({"trained_on": str(args.data.name), "split": "train",
                               "models": models}, indent=1) + "\n", encoding="utf-8")
    lines = ["# 3-op judge: CONTRADICTORY threshold curve (train split, 5-fold CV)", "",
             "Command: `.venv/bin/python bench/train_classifier.py`", "",
             "Out-of-fold probabilities on the train split only. A pair is CONTRADICTORY when "
             "P(CONTRADICTORY) ≥ threshold; the chosen threshold is the lowest one from which "
             f"precision stays ≥ {args.precision} in each language.", ""]
    for name, summary in summaries.items():
        lines += render_curve(name, summary)
    write_results(args.out, "\n".join(lines), json.loads(json.dumps(summaries, default=list)))
    print(f"wrote {OUT.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

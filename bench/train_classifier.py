"""Train the learned 3-op judge, one model per bundled embedder; write it into the package.

    .venv/bin/pip install -e '.[bench]'        # scikit-learn, for training only
    .venv/bin/python bench/train_classifier.py  # e5 + USE → src/omoide/engine/classify/judge.json

Only the ``train`` split of ``bench/data/classify_pairs.jsonl`` is read. Everything is chosen by
5-fold cross-validation on it: the regularisation ``C`` of the logistic regression, whether
sure rules decide alone, and the CONTRADICTORY threshold (the lowest probability at which
out-of-fold CONTRADICTORY precision stays ≥ ``--precision`` in each language from there up).
The validation split and ``shared/bench/classify/dev.jsonl`` are scored by ``bench/classify.py``,
never here. Writes the threshold / precision / recall curve to
``bench/results/classify_threshold.md`` and ``.json``.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from _classify_common import (
    DEFAULT_PAIRS,
    LABELS,
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
GRID_BLOCKS: tuple[tuple[str, ...], ...] = ((), ("diff",), ("diff", "new_part", "old_part"))
FOLDS = 5
MIN_RULE_FIRINGS = 8
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.30, 0.96, 0.01))
CLASSES = tuple(Relation(label) for label in LABELS)


def _sklearn():
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedKFold
    except ImportError:
        sys.exit("scikit-learn is needed for training: .venv/bin/pip install -e '.[bench]'")
    return LogisticRegression, StratifiedKFold


def _fit(x: np.ndarray, y: np.ndarray, c: float):
    logistic, _ = _sklearn()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = logistic(C=c, max_iter=5000)
    model.fit((x - mean) / scale, y)
    order = [list(model.classes_).index(i) for i in range(len(CLASSES))]
    return mean, scale, model.coef_[order], model.intercept_[order]


def _probabilities(params, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = params
    z = ((x - mean) / scale) @ w.T + b
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def out_of_fold(x: np.ndarray, y: np.ndarray, strata: np.ndarray, c: float) -> np.ndarray:
    _, folds = _sklearn()
    probs = np.zeros((len(y), len(CLASSES)))
    for train, test in folds(FOLDS, shuffle=True, random_state=0).split(x, strata):
        probs[test] = _probabilities(_fit(x[train], y[train], c), x[test])
    return probs


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


def train_one(embedder_name: str, pairs, target: float) -> tuple[JudgeModel, dict[str, object]]:
    embedder = make_embedder(embedder_name) if embedder_name != "text" else None
    rows = featurise(pairs, embedder)
    names = TEXT_FEATURES + (EMBEDDING_FEATURES if embedder else ())
    dim = embedder.dim if embedder else 0
    y = np.array([LABELS.index(p.label) for p in pairs])
    langs = np.array([p.lang for p in pairs])
    strata = np.array([f"{p.lang}:{p.label}" for p in pairs])
    rules = [r.text.rule for r in rows]
    rule_says = np.array([CLASSES.index(r.text.finding.relation) for r in rows])
    overrides_all = sure_rules(rules, rule_says, y)
    best: dict[str, object] = {}
    for blocks in GRID_BLOCKS if embedder else ((),):
        x = np.array([r.vector(blocks, dim) for r in rows])
        for c in GRID_C:
            probs = out_of_fold(x, y, strata, c)
            points = curve(probs, y, langs)
            threshold = choose_threshold(points, target)
            for overrides in ((), overrides_all):
                # Overrides chosen on all of train would leak into the folds' scores; they
                # only apply to rules that never erred on train, so the CV score is an upper
                # bound of their benefit, and they are kept only when they beat the model.
                f1 = macro_f1(predictions(probs, threshold, rules, rule_says, overrides), y)
                if not best or f1 > best["cv_macro_f1"] + 1e-9:
                    best = {"C": c, "blocks": blocks, "threshold": threshold,
                            "overrides": overrides, "cv_macro_f1": round(f1, 4),
                            "curve": points}
    blocks = tuple(best["blocks"])  # type: ignore[arg-type]
    x = np.array([r.vector(blocks, dim) for r in rows])
    params = _fit(x, y, float(best["C"]))  # type: ignore[arg-type]
    model = JudgeModel(
        embedder=embedder.model_id if embedder else "", features=names, classes=CLASSES,
        mean=params[0], scale=params[1], weights=params[2], bias=params[3],
        contradiction_threshold=float(best["threshold"]),  # type: ignore[arg-type]
        rule_overrides=tuple(best["overrides"]),  # type: ignore[arg-type]
        blocks=blocks, block_dim=dim if blocks else 0)
    summary = {k: v for k, v in best.items() if k != "curve"}
    summary["curve"] = best["curve"]
    summary["n_train"] = len(pairs)
    return model, summary


def render_curve(name: str, summary: dict[str, object]) -> list[str]:
    lines = [f"## {name}", "",
             f"C={summary['C']}, vector blocks={list(summary['blocks']) or 'none'}, "
             f"threshold={summary['threshold']}, rule overrides="
             f"{list(summary['overrides']) or 'none'}, CV macro-F1={summary['cv_macro_f1']}"
             f" (5-fold, {summary['n_train']} train pairs)", ""]
    rows = [[f"{row['threshold']:.2f}"
             + (" **(chosen)**" if row["threshold"] == summary["threshold"] else ""),
             *(f"{row[k]:.3f}" for k in ("all_precision", "all_recall", "en_precision",
                                         "en_recall", "ja_precision", "ja_recall"))]
            for row in summary["curve"]  # type: ignore[attr-defined]
            if not round(row["threshold"] * 100) % 5 or row["threshold"] == summary["threshold"]]
    lines.append(md_table(["threshold", "precision", "recall", "EN precision", "EN recall",
                           "JA precision", "JA recall"], rows))
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="classify_threshold", data=DEFAULT_PAIRS)
    bench.add_argument("--embedders", default="e5,use")
    bench.add_argument("--precision", type=float, default=0.95,
                       help="CV CONTRADICTORY precision each language must keep")
    args = bench.parse_args(argv)
    pairs = [p for p in load_pairs(args.data) if p.split == "train"]
    models, summaries = [], {}
    for name in args.embedders.split(","):
        model, summary = train_one(name, pairs, args.precision)
        models.append(model.to_dict())
        summaries[name] = summary
        print(f"{name}: C={summary['C']} blocks={summary['blocks']} "
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

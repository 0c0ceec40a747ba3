"""What close-only signals (``judge_signals.SURE_ONLY``) add to the judge's leave-one-writer-out
calls.

Reads a pickled training ``Data`` of the seen sources (``_classify_data.load_data``: the pairs,
the writers' holdout sets, the notes sets) and the outer leave-one-source-out probabilities of
``bench/classify_nested.py`` on it (``--probs`` file: ``outer_p``, ``outer_r``), turns them into
calls as ``learned.judge`` does (a sure rule, else CONTRADICTORY at the language threshold,
else the likelier of the other two; vetoed and several-sentence pairs never close), then
applies the base signals (``--base``, by default round 23's: ``changed_from_old``,
``former_same_value``) and the signals named on the command line on the one-statement pairs.
Prints per language, over the writers' folds (the pairs file is no fold: its fires are counted
apart): where the new signals fire and on which gold labels, the closes they add (the judge's
call left the pair open), and CONTRADICTORY precision / recall / F1 and macro-F1 before and
after. ``--list`` lists every fire.

    PYTHONPATH=src .venv/bin/python bench/classify_sure_loso.py --data DATA.pkl \\
        --probs OUTER.npz note_shape_close now_negated habit_ended
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

import numpy as np

from _classify_common import load_pairs
from _classify_data import CONTRA, HOLDOUTS, NOTES
from lib.reports import REPO
from omoide.engine.classify import (
    SURE_ONLY,
    TEXT_FEATURES,
    VETO_FEATURES,
    nothing_differs,
    read_pair,
    vetoed,
)

JUDGE = REPO / "src" / "omoide" / "engine" / "classify" / "judge.json"


def shipped_thresholds(embedder: str = "multilingual-e5") -> dict[str, float]:
    """The per-language contradiction thresholds of the shipped judge for one embedder."""
    models = json.loads(JUDGE.read_text(encoding="utf-8"))["models"]
    model = next(m for m in models if m["embedder"].startswith(embedder))
    if "languages" in model:  # a judge per language: each language's own threshold
        return {
            lang: float(m["language_thresholds"][lang]) for lang, m in model["languages"].items()
        }
    return {lang: float(t) for lang, t in model["language_thresholds"].items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("signals", nargs="+", choices=SURE_ONLY)
    parser.add_argument("--data", type=Path, required=True, help="pickled _classify_data.Data")
    parser.add_argument("--probs", type=Path, required=True, help="outer LOSO npz")
    parser.add_argument("--base", default="changed_from_old,former_same_value")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    data = pickle.loads(args.data.read_bytes())
    order = list(dict.fromkeys(data.sources.tolist()))
    paths = {"pairs": REPO / "bench" / "data" / "classify_pairs.jsonl", **HOLDOUTS, **NOTES}
    pairs = [p for name in order for p in load_pairs(paths[name])]
    if len(pairs) != len(data.y):
        sys.exit("the pickled data does not match the sources in bench/data")
    outer = np.load(args.probs)
    probs, ruled = outer["outer_p"], outer["outer_r"] | data.forced
    y, c = data.y, CONTRA
    veto = np.any(
        [data.x[:, data.names.index(v)] > 0 for v in VETO_FEATURES if v in data.names], axis=0
    )
    capped = data.several | data.note | veto
    stmt = ~data.note & ~data.several
    fold = stmt & (data.sources != "pairs")
    thresholds = shipped_thresholds()
    thr = np.array([thresholds[lang] for lang in data.langs])
    rule = ruled & ~(capped & (data.rule_says == c))
    other = np.where(probs[:, 0] >= probs[:, 1], 0, 1)
    calls = np.where(rule, data.rule_says, np.where((probs[:, c] >= thr) & ~capped, c, other))
    base = [s for s in args.base.split(",") if s]
    col = {n: TEXT_FEATURES.index(n) for n in SURE_ONLY}
    differs = TEXT_FEATURES.index("subject_differs")
    by_base, by_new = np.zeros(len(y), bool), np.zeros(len(y), bool)
    alone, why = np.zeros(len(y), bool), {}
    for i in np.flatnonzero(stmt):
        text = read_pair(pairs[i].old, pairs[i].new, lang=pairs[i].lang)
        if vetoed(text) or nothing_differs(text) or text.features[differs]:
            continue
        fired = [n for n in args.signals if text.features[col[n]]]
        alone[i] = bool(fired)
        by_base[i] = any(text.features[col[n]] for n in base)
        if fired and not by_base[i]:
            by_new[i], why[i] = True, fired
    before = np.where(by_base, c, calls)
    after = np.where(by_new, c, before)
    for lang in ("en", "ja"):
        m = fold & (data.langs == lang)
        b, a = _scores(before, y, m), _scores(after, y, m)
        fires, added = m & alone, m & by_new & (before != c)
        print(
            f"{lang} (pairs {m.sum()}, gold C {(m & (y == c)).sum()}): fires {fires.sum()},"
            f" gold C {(fires & (y == c)).sum()}, false {(fires & (y != c)).sum()} | closes"
            f" added {added.sum()}: true {(added & (y == c)).sum()},"
            f" false {(added & (y != c)).sum()}"
        )
        print(
            f"   C precision {b[c][0]:.4f} -> {a[c][0]:.4f}, recall {b[c][1]:.4f} ->"
            f" {a[c][1]:.4f}, F1 {b[c][2]:.4f} -> {a[c][2]:.4f}; macro-F1"
            f" {np.mean([s[2] for s in b]):.4f} -> {np.mean([s[2] for s in a]):.4f}"
        )
        extra = stmt & ~fold & (data.langs == lang) & alone
        print(f"   pairs file (no fold): fires {extra.sum()}, false {(extra & (y != c)).sum()}")
    if args.list:
        for i in np.flatnonzero(alone):
            mark = "FALSE" if y[i] != c else "     "
            add = "ADD" if by_new[i] and before[i] != c else "   "
            print(
                f"{mark} {add} gold={data.y[i]} {data.sources[i]} p_c={probs[i, c]:.2f}"
                f" {why.get(i, 'base')} | {pairs[i].old} => {pairs[i].new}"
            )
    return 0


def _scores(pred: np.ndarray, y: np.ndarray, mask: np.ndarray) -> list[tuple[float, ...]]:
    """(precision, recall, F1) of each class on the rows of ``mask``."""
    out = []
    for k in range(3):
        tp = (mask & (pred == k) & (y == k)).sum()
        said, gold = (mask & (pred == k)).sum(), (mask & (y == k)).sum()
        p, r = (tp / said if said else 0.0), (tp / gold if gold else 0.0)
        out.append((p, r, 2 * p * r / (p + r) if p + r else 0.0))
    return out


if __name__ == "__main__":
    raise SystemExit(main())

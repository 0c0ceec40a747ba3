"""Can a learned decision close notes on writers it never saw, on top of the note rules?

    PYTHONPATH=src .venv/bin/python bench/note_learned.py --cache /tmp/omoide-vectors \\
        --measured /tmp/omoide-note-learned --out bench/results/note_close_round23_runs
    # needs scikit-learn (training only; the package reads nothing of it)

Consolidated notes close an older memory only through the note rules (``note_closes``). This
measures two learned paths that would add closes where the rules say nothing, each judged only
on what it adds (pairs the rules leave open), per language, leave-one-WRITER-out over the
notes folds ``classify_notes1`` … ``classify_notes14`` (each written by one writer):

* **the bundled judge's sentence reading** (``learned.sentence_score``, the highest over the
  note's sentences, each read alone): the judge was fitted on notes1-13's one-sentence pairs, so
  only notes14 is a writer it never saw; notes1-13 are printed as in-sample;
* **a note model**: a binary logistic regression on the judge's named features (text signals
  and cosines) of each sentence read alone, labelled with its pair's label, the pair scored by
  its highest sentence (a veto scores 0, a sure close-only signal 1, as ``sentence_score``).
  Fitted on thirteen writers, scored on the fourteenth; the threshold of a language is the
  lowest from which the added closes, pooled over the left-out writers, keep the lower end of
  the Wilson 95% interval ≥ the target all the way up; it is checked nested (for each writer,
  the threshold chosen on the other thirteen's own leave-one-out scores).

Each path is read on the note as written ("raw") and with the note form normalised ("norm":
its trailing bracketed date dropped from both memories, ``_note_learned_data.note_form``).
The statement sets read as notes (``classify_pairs``, ``classify_holdout1-33``) are scored by
the model fitted on all fourteen writers: every pair not CONTRADICTORY it adds is a false close.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np

from _classify_sentences import wilson_lower
from _note_learned_data import (
    NOTE_FOLDS,
    STATEMENT_SETS,
    Measured,
    load,
    measure_all,
    save,
)

THRESHOLDS = tuple(round(0.5 + 0.01 * i, 2) for i in range(50))
GRID_C = (0.01, 0.1, 1.0)
TARGET = 0.95
MIN_CALLS = 10  # a threshold with fewer pooled added calls keeps the target by default
LANGS = ("en", "ja")


def _fit(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=c, max_iter=2000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit((x - mean) / scale, y)
    return mean, scale, model.coef_[0].copy(), float(model.intercept_[0])


def _prob(params, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = params
    return 1.0 / (1.0 + np.exp(-(((x - mean) / scale) @ w + b)))


def pair_scores(m: Measured, reading: str, prob: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per pair, the highest sentence score among ``rows`` (veto 0, sure 1); -1 elsewhere."""
    score = np.full(len(m.pair_id), -1.0)
    value = np.where(m.veto[reading][rows], 0.0, np.where(m.sure[reading][rows], 1.0, prob))
    np.maximum.at(score, m.parent[rows], value)
    return score


def loso(m: Measured, reading: str, c: float, writers: list[str]) -> np.ndarray:
    """Each writer's pairs scored by the model fitted on the other writers' sentences."""
    score = np.full(len(m.pair_id), -1.0)
    row_src = m.pair_source[m.parent]
    y = m.pair_label[m.parent]
    for w in writers:
        fit = np.isin(row_src, writers) & (row_src != w)
        test = np.flatnonzero(row_src == w)
        params = _fit(m.x[reading][fit], y[fit], c)
        s = pair_scores(m, reading, _prob(params, m.x[reading][test]), test)
        take = m.pair_source == w
        score[take] = s[take]
    return score


def added(m: Measured, score: np.ndarray, t: float, mask: np.ndarray) -> tuple[int, int]:
    """(right, calls) of the closes a path adds at threshold ``t`` among ``mask``."""
    said = mask & (m.pair_rule == 0) & (score >= t)
    return int((said & (m.pair_label == 1)).sum()), int(said.sum())


def choose(m: Measured, score: np.ndarray, mask: np.ndarray) -> float:
    """The lowest threshold from which the added closes in ``mask`` keep the Wilson lower bound
    ≥ TARGET all the way up (fewer than MIN_CALLS calls keep it); inf when none."""
    at = float("inf")
    for t in reversed(THRESHOLDS):
        right, calls = added(m, score, t, mask)
        if calls >= MIN_CALLS and wilson_lower(right, calls) < TARGET:
            break
        at = t
    return at


def curve(m: Measured, score: np.ndarray, mask: np.ndarray, lang: str) -> list[dict]:
    rows = []
    part = mask & (m.pair_lang == lang)
    gold_open = int((part & (m.pair_label == 1) & (m.pair_rule == 0)).sum())
    for t in THRESHOLDS[::5] + (0.97, 0.98, 0.99):
        right, calls = added(m, score, t, part)
        rows.append({"t": t, "right": right, "calls": calls, "open_gold": gold_open,
                     "lower": round(wilson_lower(right, calls), 3)})
    return rows


def nested(m: Measured, reading: str, c: float, writers: list[str], outer: np.ndarray
           ) -> dict[str, dict[str, float | list[int]]]:
    """For each writer, each language's threshold chosen on the other writers' own
    leave-one-out scores (models never fitted on the writer), applied to the writer's ``outer``
    score: (threshold, right, calls) per writer and language."""
    out: dict[str, dict[str, float | list[int]]] = {}
    for w in writers:
        rest = [v for v in writers if v != w]
        inner = loso(m, reading, c, rest)
        for lang in LANGS:
            mask = (m.pair_lang == lang) & np.isin(m.pair_source, rest)
            t = choose(m, inner, mask)
            right, calls = added(m, outer, t, (m.pair_lang == lang) & (m.pair_source == w))
            out[f"{w}/{lang}"] = {"threshold": t, "added": [right, calls]}
        print(f"  nested {w}: {[out[f'{w}/{x}'] for x in LANGS]}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=None, help="folder of embedding caches")
    ap.add_argument("--measured", type=Path, required=True,
                    help="folder of measured rows (made when missing)")
    ap.add_argument("--out", type=Path, default=None, help="write <out>.json")
    ap.add_argument("--nested", default="", help="reading and C checked nested, e.g. 'norm 0.1'")
    args = ap.parse_args(argv)
    data = {}
    for name, sources in (("notes", NOTE_FOLDS), ("statements", STATEMENT_SETS)):
        path = args.measured / f"measured_{name}.npz"
        if not path.is_file():
            cache = args.cache / f"e5_{name}.npz" if args.cache else None
            save(measure_all(sources, cache), path)
        data[name] = load(path)
    m = data["notes"]
    writers = list(NOTE_FOLDS)
    report: dict = {"rules": {}, "judge": {}, "model": {}}
    every = np.ones(len(m.pair_id), dtype=bool)
    for w in [*writers, "pooled"]:
        part = every if w == "pooled" else m.pair_source == w
        for lang in LANGS:
            p = part & (m.pair_lang == lang)
            report["rules"][f"{w}/{lang}"] = {
                "gold": int((p & (m.pair_label == 1)).sum()),
                "closed": int((p & (m.pair_rule == 1)).sum()),
                "true": int((p & (m.pair_rule == 1) & (m.pair_label == 1)).sum())}
    for reading in ("raw", "norm"):
        rows = np.arange(len(m.parent))
        score = pair_scores(m, reading, m.judge[reading], rows)
        fresh = m.pair_source == "notes14"
        report["judge"][reading] = {
            lang: {"notes14": curve(m, score, fresh, lang),
                   "notes1-13 (in-sample)": curve(m, score, ~fresh, lang)} for lang in LANGS}
    for reading in ("raw", "norm"):
        for c in GRID_C:
            score = loso(m, reading, c, writers)
            key = f"{reading} C={c}"
            entry: dict = {"curve": {}, "threshold": {}, "per_writer": {}}
            for lang in LANGS:
                mask = m.pair_lang == lang
                entry["curve"][lang] = curve(m, score, every, lang)
                t = choose(m, score, mask)
                entry["threshold"][lang] = t
                for w in writers:
                    right, calls = added(m, score, t, mask & (m.pair_source == w))
                    entry["per_writer"][f"{w}/{lang}"] = [right, calls]
            report["model"][key] = entry
            print(key, entry["threshold"], {lang: entry["curve"][lang][-4:] for lang in LANGS},
                  flush=True)
    if args.nested:
        reading, c = args.nested.split()
        outer = loso(m, reading, float(c), writers)
        report["nested"] = {"config": args.nested,
                            "writers": nested(m, reading, float(c), writers, outer)}
    if args.out:
        args.out.with_suffix(".json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Can a learned decision close notes on writers it never saw, on top of the note rules?

    pip install --target DIR scikit-learn      # training only; the package reads none of it
    PYTHONPATH=src:DIR .venv/bin/python bench/note_learned.py --cache /tmp/omoide-vectors \
        --measured /tmp/omoide-note-learned --out bench/results/note_close_round23_runs

Consolidated notes close an older memory only through the note rules (``note_closes``). This
measures two learned paths that would add closes where the rules say nothing, each judged only
on what it adds (pairs the rules leave open), per language, over the notes folds
``classify_notes1`` … ``classify_notes14`` (each written by one writer):

* **the bundled judge's sentence reading** (``learned.sentence_score``, the highest over the
  note's sentences, each read alone): the judge was fitted on notes1-13's one-sentence pairs and
  on the statement sets, so only notes14 is a writer it never saw;
* **a note model**: a binary logistic regression on the judge's named features (text signals
  and cosines) of each sentence read alone, labelled with its pair's label (or, "likeliest
  sentence", a second fit keeping only the likeliest sentence of a CONTRADICTORY pair), the
  pair scored by its highest sentence (a veto scores 0, a sure close-only signal 1, as
  ``sentence_score``), optionally fitted on the statement sets' rows besides.
  Leave-one-WRITER-out: fitted on thirteen writers, scored on the fourteenth. A language's
  threshold is the lowest from which the added closes, pooled over the left-out writers, keep
  the lower end of the Wilson interval ≥ 0.95 all the way up (z = 1.96, and the looser z = 1.0
  the statements' judge uses); the configuration adding most under the looser rule is then
  checked nested (each writer's threshold chosen on the other thirteen's own leave-one-out
  scores) and on the statement sets read as notes (the model fitted on all fourteen writers;
  every added close of a pair not CONTRADICTORY is false).

Each path reads the note as written ("raw") and with the note form normalised ("norm": the
trailing bracketed date dropped from both memories, ``_note_learned_data.note_form``).
Measured rows are kept in ``--measured`` (made when missing, embedding through ``--cache``).
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _note_learned_data import (
    NOTE_FOLDS,
    READINGS,
    STATEMENT_SETS,
    Measured,
    load,
    measure_all,
    save,
)
from lib.metrics import wilson_lower
from lib.reports import write_results

THRESHOLDS = tuple(round(0.5 + 0.01 * i, 2) for i in range(50))
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


def loso(
    m: Measured,
    reading: str,
    c: float,
    writers: list[str],
    *,
    mil: bool = False,
    extra: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Each writer's pairs scored by the model fitted on the other writers' sentences
    (``extra``: rows always fitted on besides, e.g. the statement sets'; ``mil``: a second fit
    where a CONTRADICTORY pair of several sentences keeps only its likeliest sentence)."""
    score = np.full(len(m.pair_id), -1.0)
    row_src = m.pair_source[m.parent]
    y = m.pair_label[m.parent]
    x = m.x[reading]
    for w in writers:
        fit = np.isin(row_src, writers) & (row_src != w)
        params = _fit_rows(x[fit], y[fit], c, extra)
        if mil:
            keep = _likeliest(m, np.flatnonzero(fit), _prob(params, x[fit]))
            params = _fit_rows(x[keep], y[keep], c, extra)
        test = np.flatnonzero(row_src == w)
        s = pair_scores(m, reading, _prob(params, x[test]), test)
        take = m.pair_source == w
        score[take] = s[take]
    return score


def _fit_rows(x: np.ndarray, y: np.ndarray, c: float, extra: tuple[np.ndarray, np.ndarray] | None):
    if extra is not None:
        x, y = np.vstack([x, extra[0]]), np.concatenate([y, extra[1]])
    return _fit(x, y, c)


def _likeliest(m: Measured, rows: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """``rows`` less the sentences of a CONTRADICTORY pair other than its likeliest one."""
    best: dict[int, tuple[float, int]] = {}
    for r, p in zip(rows, prob, strict=True):
        pair = int(m.parent[r])
        if m.pair_label[pair] == 1 and (pair not in best or p > best[pair][0]):
            best[pair] = (float(p), int(r))
    chosen = {r for _, r in best.values()}
    return np.array([r for r in rows if m.pair_label[m.parent[r]] == 0 or r in chosen])


def added(m: Measured, score: np.ndarray, t: float, mask: np.ndarray) -> tuple[int, int]:
    """(right, calls) of the closes a path adds at threshold ``t`` among ``mask``."""
    said = mask & (m.pair_rule == 0) & (score >= t)
    return int((said & (m.pair_label == 1)).sum()), int(said.sum())


def choose(m: Measured, score: np.ndarray, mask: np.ndarray, z: float = 1.96) -> float:
    """The lowest threshold from which the added closes in ``mask`` keep the Wilson lower bound
    (``z``) ≥ TARGET all the way up (fewer than MIN_CALLS calls keep it); inf when none."""
    at = float("inf")
    for t in reversed(THRESHOLDS):
        right, calls = added(m, score, t, mask)
        if calls >= MIN_CALLS and wilson_lower(right, calls, z) < TARGET:
            break
        at = t
    return at


@dataclass(frozen=True)
class Config:
    reading: str  # "raw" or "norm"
    c: float
    mil: bool = False  # a second fit on the likeliest sentence of each CONTRADICTORY pair
    statements: bool = False  # the statement sets' rows fitted on besides

    def label(self) -> str:
        return (
            f"{self.reading}, C={self.c}{', likeliest sentence' if self.mil else ''}"
            f"{', + statement sets' if self.statements else ''}"
        )


CONFIGS = tuple(
    Config(r, c, mil) for r in ("raw", "norm") for c in (0.1, 1.0) for mil in (False, True)
) + tuple(Config("norm", c, mil, True) for c in (0.1, 1.0) for mil in (False, True))


def run(m: Measured, st: Measured, cfg: Config, writers: list[str]) -> np.ndarray:
    extra = (st.x[cfg.reading], st.pair_label[st.parent]) if cfg.statements else None
    return loso(m, cfg.reading, cfg.c, writers, mil=cfg.mil, extra=extra)


def final_scores(m: Measured, st: Measured, cfg: Config, target: Measured) -> np.ndarray:
    """``target``'s pairs scored by the model fitted on every notes writer."""
    y = m.pair_label[m.parent]
    x = m.x[cfg.reading]
    extra = (st.x[cfg.reading], st.pair_label[st.parent]) if cfg.statements else None
    params = _fit_rows(x, y, cfg.c, extra)
    if cfg.mil:
        rows = np.arange(len(m.parent))
        keep = _likeliest(m, rows, _prob(params, x))
        params = _fit_rows(x[keep], y[keep], cfg.c, extra)
    rows = np.arange(len(target.parent))
    return pair_scores(target, cfg.reading, _prob(params, target.x[cfg.reading]), rows)


def nested(
    m: Measured,
    st: Measured,
    cfg: Config,
    writers: list[str],
    outer: np.ndarray,
    zs: tuple[float, ...],
) -> dict[float, dict[str, tuple[float, int, int]]]:
    """For each writer, each language's threshold chosen on the other writers' own
    leave-one-out scores (models never fitted on the writer), applied to the writer's ``outer``
    score: per Wilson ``z``, (threshold, right, calls) per writer and language."""
    out: dict[float, dict[str, tuple[float, int, int]]] = {z: {} for z in zs}
    for w in writers:
        rest = [v for v in writers if v != w]
        inner = run(m, st, cfg, rest)
        for z in zs:
            for lang in LANGS:
                t = choose(m, inner, (m.pair_lang == lang) & np.isin(m.pair_source, rest), z)
                right, calls = added(m, outer, t, (m.pair_lang == lang) & (m.pair_source == w))
                out[z][f"{w}/{lang}"] = (t, right, calls)
        print(f"  nested {w}: {[out[z][f'{w}/{x}'] for z in zs for x in LANGS]}", flush=True)
    return out


def _cell(right: int, calls: int) -> str:
    return f"{right}/{calls}" if calls else "0"


def _prec(right: int, calls: int, z: float = 1.96) -> str:
    if not calls:
        return "no call"
    return f"{right}/{calls} = {right / calls:.3f} (lower {wilson_lower(right, calls, z):.3f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=None, help="folder of embedding caches")
    ap.add_argument(
        "--measured", type=Path, required=True, help="folder of measured rows (made when missing)"
    )
    ap.add_argument("--out", type=Path, required=True, help="write <out>.md and <out>.json")
    args = ap.parse_args(argv)
    data = {}
    for name, sources in (("notes", NOTE_FOLDS), ("statements", STATEMENT_SETS)):
        path = args.measured / f"measured_{name}.npz"
        if not path.is_file():
            cache = args.cache / f"e5_{name}.npz" if args.cache else None
            save(measure_all(sources, cache), path)
        data[name] = load(path)
    m, st = data["notes"], data["statements"]
    writers = list(NOTE_FOLDS)
    md: list[str] = []
    js: dict = {}
    shown = (0.9, 0.95, 0.97, 0.98, 0.99)
    # the rules alone: what the learned path is judged on top of
    md += [
        "## The rules alone (note_closes), per writer",
        "",
        "| writer | EN closed / C | JA closed / C |",
        "|---|---|---|",
    ]
    for w in [*writers, "pooled"]:
        part = np.ones(len(m.pair_id), bool) if w == "pooled" else m.pair_source == w
        cells = []
        for lang in LANGS:
            p = part & (m.pair_lang == lang)
            closed = int((p & (m.pair_rule == 1)).sum())
            true = int((p & (m.pair_rule == 1) & (m.pair_label == 1)).sum())
            gold = int((p & (m.pair_label == 1)).sum())
            cells.append(f"{closed} ({closed - true} false) / {gold}")
        md.append(f"| {w} | {' | '.join(cells)} |")
    for lang in LANGS:
        p = st.pair_lang == lang
        md.append(
            f"\nStatement sets read as notes, {lang}: the rules close "
            f"{int((p & (st.pair_rule == 1)).sum())}, "
            f"{int((p & (st.pair_rule == 1) & (st.pair_label == 0)).sum())} of them false."
        )
    # the bundled judge's sentence reading
    md += [
        "",
        "## The bundled judge's sentence reading: closes added over the rules (right / calls)",
        "",
        "| reading | part | lang | " + " | ".join(f">= {t}" for t in shown) + " |",
        "|---|---|---|" + "---|" * len(shown),
    ]
    for reading in READINGS:
        score = pair_scores(m, reading, m.judge[reading], np.arange(len(m.parent)))
        fresh = m.pair_source == "notes14"
        for part, mask in (("notes14 (never fitted on)", fresh), ("notes1-13 (fitted on)", ~fresh)):
            for lang in LANGS:
                cells = [_cell(*added(m, score, t, mask & (m.pair_lang == lang))) for t in shown]
                md.append(f"| {reading} | {part} | {lang} | {' | '.join(cells)} |")
        st_score = pair_scores(st, reading, st.judge[reading], np.arange(len(st.parent)))
        for lang in LANGS:
            cells = [_cell(*added(st, st_score, t, st.pair_lang == lang)) for t in shown]
            md.append(f"| {reading} | statement sets (fitted on) | {lang} | {' | '.join(cells)} |")
    # the note model, leave-one-writer-out
    md += [
        "",
        "## A note model, leave-one-writer-out over notes1-14: closes added over the "
        "rules, pooled (right / calls)",
        "",
        "Thresholds: the lowest from which the pooled added closes keep the Wilson lower "
        "bound >= 0.95 all the way up, at z = 1.96 and at the looser z = 1.0 (inf: none).",
        "",
        "| configuration | lang | "
        + " | ".join(f">= {t}" for t in shown)
        + " | threshold z=1.96 | threshold z=1.0 |",
        "|---|---|" + "---|" * len(shown) + "---|---|",
    ]
    scores: dict[Config, np.ndarray] = {}
    best: tuple[int, Config] | None = None
    for cfg in CONFIGS:
        scores[cfg] = score = run(m, st, cfg, writers)
        gain = 0
        for lang in LANGS:
            mask = m.pair_lang == lang
            cells = [_cell(*added(m, score, t, mask)) for t in shown]
            t96, t10 = choose(m, score, mask), choose(m, score, mask, 1.0)
            gain += added(m, score, t10, mask)[0] if t10 < 1 else 0
            md.append(f"| {cfg.label()} | {lang} | {' | '.join(cells)} | {t96} | {t10} |")
        if best is None or gain > best[0]:
            best = (gain, cfg)
        print(cfg.label(), flush=True)
    assert best is not None
    cfg = best[1]
    score = scores[cfg]
    js["chosen"] = cfg.label()
    md += [
        "",
        f"## The configuration that adds most under the looser rule: {cfg.label()}",
        "",
        "Per left-out writer, the closes it adds (right / calls) at fixed thresholds:",
        "",
        "| writer | "
        + " | ".join(f"EN >= {t}" for t in shown[1:])
        + " | "
        + " | ".join(f"JA >= {t}" for t in shown[1:])
        + " |",
        "|---|" + "---|" * (2 * len(shown) - 2),
    ]
    for w in writers:
        cells = [
            _cell(*added(m, score, t, (m.pair_source == w) & (m.pair_lang == lang)))
            for lang in LANGS
            for t in shown[1:]
        ]
        md.append(f"| {w} | {' | '.join(cells)} |")
    md += ["", "Pooled precision of the added closes with the Wilson 95% lower bound:", ""]
    for lang in LANGS:
        for t in shown:
            md.append(f"- {lang} >= {t}: {_prec(*added(m, score, t, m.pair_lang == lang))}")
    both = nested(m, st, cfg, writers, score, (1.96, 1.0))
    for z, out in both.items():
        md += [
            "",
            f"Nested (z = {z}): each writer's threshold chosen on the other thirteen's own "
            "leave-one-out scores:",
            "",
            "| writer | EN threshold | EN added | JA threshold | JA added |",
            "|---|---|---|---|---|",
        ]
        for w in writers:
            en, ja = out[f"{w}/en"], out[f"{w}/ja"]
            md.append(
                f"| {w} | {en[0]} | {_cell(en[1], en[2])} | {ja[0]} | {_cell(ja[1], ja[2])} |"
            )
        for lang in LANGS:
            right = sum(v[1] for k, v in out.items() if k.endswith(lang))
            calls = sum(v[2] for k, v in out.items() if k.endswith(lang))
            md.append(f"\npooled {lang}: {_prec(right, calls)}")
        js[f"nested_z{z}"] = {
            k: [None if math.isinf(v[0]) else v[0], v[1], v[2]] for k, v in out.items()
        }
    final = final_scores(m, st, cfg, st)
    md += [
        "",
        "Statement sets read as notes, scored by the model fitted on all fourteen "
        "writers (closes added over the rules; every one not CONTRADICTORY is false):",
        "",
    ]
    for lang in LANGS:
        cells = []
        for t in shown:
            right, calls = added(st, final, t, st.pair_lang == lang)
            cells.append(f">= {t}: {calls} closes, {calls - right} false")
        md.append(f"- {lang}: " + "; ".join(cells))
    write_results(args.out, "\n".join(md), js)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Train dedup's learned judge on the five dedup sources, leave-one-source-out.

Every pair (``a`` stored, then ``b``) of ``dedup_pairs`` and ``dedup_holdout`` … ``_holdout4``
is read as the write path reads it: the raw cosine of the two passages (the embedder's own),
the veto's finding and the aligned difference, whose two parts are embedded with the part
embedder (``--part-embedder``, the bundled USE; ``service.dedup.DedupDecider``). Only pairs
above the embedder's calibrated dedup threshold (the default ``dedup_threshold``) reach the
judge, so only they train it; a pair below it is never dropped and never caught.

For each embedder: a logistic regression (``engine.classify.dedup_judge.fit_logistic``) is fitted
on four sources and scores the fifth (LOSO). The probability threshold is the one with the most
paraphrases caught (mean over the five folds) whose related-but-different pairs are wrongly
dropped at most 3% on *every* left-out fold. Reported: the veto alone (before), LOSO with that
threshold (it was chosen on these LOSO scores), nested LOSO (the threshold chosen on the four
training sources' own inner LOSO scores: the honest estimate for unseen data) and in-sample (the
shipped model on all five). Writes ``src/omoide/engine/classify/dedup_judge.json`` (rounded;
the same data gives the same bytes) and ``bench/results/dedup_judge.md`` / ``.json``.

    .venv/bin/python bench/train_dedup.py [--embedder e5,use] [--part-embedder use] [--l2 10]
                                          [--no-write]
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lib.cli import parser
from lib.reports import REPO, emit, md_table
from omoide.config import PersonaSettings
from omoide.embed import Embedder, make_embedder
from omoide.engine.classify import (
    DEDUP_FEATURES,
    DedupModel,
    changed_parts,
    dedup_features,
    find_dedup_change,
    fit_logistic,
)

DATA = REPO / "bench" / "data"
SOURCES = ("dedup_pairs", "dedup_holdout", "dedup_holdout2", "dedup_holdout3", "dedup_holdout4")
MODEL_FILE = REPO / "src" / "omoide" / "engine" / "classify" / "dedup_judge.json"
MAX_DROPPED = 0.03
GRID = np.round(np.arange(0.05, 0.9951, 0.005), 3)
DIGITS = 6


@dataclass
class Rows:
    """Every pair of the five sources, read for one embedder."""

    source: np.ndarray
    lang: np.ndarray
    label: np.ndarray  # 1 duplicate, 0 different
    above: np.ndarray  # cosine above the raw dedup threshold
    vetoed: np.ndarray  # the veto found a change
    x: np.ndarray  # DEDUP_FEATURES rows


def load(sources: tuple[str, ...]) -> list[dict]:
    rows = []
    for source in sources:
        for line in (DATA / f"{source}.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows.append({"source": source, "lang": row["lang"], "a": row["a"], "b": row["b"],
                             "label": int(row["label"] == "duplicate")})
    return rows


_EMBEDDERS: dict[str, Embedder] = {}


def embedded(name: str, texts: list[str]) -> tuple[dict[str, np.ndarray], str]:
    """Passage vectors of ``texts`` (each once, in batches) and the embedder's model id."""
    if name not in _EMBEDDERS:
        _EMBEDDERS[name] = make_embedder(name)
    embedder = _EMBEDDERS[name]
    unique = list(dict.fromkeys(t for t in texts if t))
    vectors: dict[str, np.ndarray] = {}
    for i in range(0, len(unique), 64):
        batch = unique[i:i + 64]
        vectors.update(zip(batch, embedder.embed_passages(batch), strict=True))
    return vectors, embedder.model_id


def read(name: str, part_name: str, pairs: list[dict]) -> tuple[Rows, str, str, float, float]:
    started = time.perf_counter()
    vectors, model_id = embedded(name, [t for p in pairs for t in (p["a"], p["b"])])
    raw = _EMBEDDERS[name].calibration.to_raw(PersonaSettings().dedup_threshold)
    parts = [changed_parts(p["a"], p["b"]) for p in pairs]
    part_vectors, part_id = embedded(part_name, [t for pair in parts for t in pair])
    x, vetoed, cosines = [], [], []
    for pair, (removed, added) in zip(pairs, parts, strict=True):
        cosine = float(np.dot(vectors[pair["a"]], vectors[pair["b"]]))
        part = (float(np.dot(part_vectors[removed], part_vectors[added]))
                if removed and added else None)
        change = find_dedup_change(pair["a"], pair["b"])
        x.append(dedup_features(pair["a"], pair["b"], cosine=cosine, part_cosine=part,
                                change=change))
        vetoed.append(change is not None)
        cosines.append(cosine)
    rows = Rows(source=np.array([p["source"] for p in pairs]),
                lang=np.array([p["lang"] for p in pairs]),
                label=np.array([p["label"] for p in pairs]), above=np.array(cosines) > raw,
                vetoed=np.array(vetoed), x=np.round(np.array(x), DIGITS))
    return rows, model_id, part_id, raw, time.perf_counter() - started


def fit(rows: Rows, mask: np.ndarray, l2: float) -> DedupModel:
    train = mask & rows.above
    mean, scale, weights, bias = fit_logistic(rows.x[train], rows.label[train], l2)
    return DedupModel("", "", DEDUP_FEATURES, mean, scale, weights, bias, 0.5)


def probabilities(model: DedupModel, rows: Rows, mask: np.ndarray) -> np.ndarray:
    """Probability of a duplicate for rows in ``mask`` above the threshold (0 elsewhere)."""
    out = np.zeros(len(rows.label))
    for i in np.flatnonzero(mask & rows.above):
        out[i] = model.probability(rows.x[i])
    return out


def loso(rows: Rows, sources: tuple[str, ...], l2: float) -> np.ndarray:
    p = np.zeros(len(rows.label))
    for source in sources:
        held = np.isin(rows.source, [source]) & np.isin(rows.source, sources)
        train = np.isin(rows.source, [s for s in sources if s != source])
        p[held] = probabilities(fit(rows, train, l2), rows, held)[held]
    return p


def rates(dropped_or_kept: np.ndarray, rows: Rows, mask: np.ndarray) -> tuple[float, float]:
    """(paraphrases caught, related-but-different wrongly dropped) within ``mask``."""
    dup, diff = mask & (rows.label == 1), mask & (rows.label == 0)
    return (float(dropped_or_kept[dup].mean()) if dup.any() else float("nan"),
            float(dropped_or_kept[diff].mean()) if diff.any() else float("nan"))


def choose(p: np.ndarray, rows: Rows, sources: tuple[str, ...]) -> float:
    """The threshold with the most paraphrases caught (mean over folds) whose wrong drops are
    at most MAX_DROPPED on every fold."""
    best, chosen = -1.0, float(GRID[-1])
    for t in GRID:
        duplicate = rows.above & (p > t)
        scores = [rates(duplicate, rows, rows.source == s) for s in sources]
        if all(dropped <= MAX_DROPPED for _, dropped in scores):
            caught = float(np.mean([c for c, _ in scores]))
            if caught > best:
                best, chosen = caught, float(t)
    return chosen


def nested(rows: Rows, l2: float) -> tuple[np.ndarray, dict[str, float]]:
    """Outer LOSO decisions with each fold's threshold chosen on its four training sources'
    inner LOSO scores."""
    outer = loso(rows, SOURCES, l2)
    decided = np.zeros(len(rows.label), dtype=bool)
    thresholds = {}
    for source in SOURCES:
        inner_sources = tuple(s for s in SOURCES if s != source)
        t = choose(loso(rows, inner_sources, l2), rows, inner_sources)
        thresholds[source] = t
        held = rows.source == source
        decided[held] = (rows.above & (outer > t))[held]
    return decided, thresholds


def table(rows: Rows, decisions: dict[str, np.ndarray]) -> list[list[str]]:
    out = []
    for source in SOURCES:
        for lang in ("all", "en", "ja"):
            mask = (rows.source == source) & ((rows.lang == lang) if lang != "all" else True)
            cells = []
            for decided in decisions.values():
                caught, dropped = rates(decided, rows, mask)
                cells.append(f"{caught:.1%} / {dropped:.1%}")
            out.append([source, lang, *cells])
    return out


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="dedup_judge")
    bench.add_argument("--embedder", default="e5,use")
    bench.add_argument("--part-embedder", default="use",
                       help="the embedder of the aligned difference (default: use)")
    bench.add_argument("--l2", type=float, default=10.0)
    bench.add_argument("--no-write", action="store_true",
                       help="report only; leave the packaged model file alone")
    args = bench.parse_args(argv)
    pairs = load(SOURCES)
    models, lines, payload = [], [
        "# Dedup's learned judge: leave-one-source-out", "",
        f"`python bench/train_dedup.py{' ' + ' '.join(argv) if argv else ''}` (L2 {args.l2}) on "
        f"{len(pairs)} pairs from {', '.join(SOURCES)}. Each cell: paraphrases caught / "
        "related-but-different wrongly dropped, over all the source's pairs (a pair below the "
        "dedup threshold is never dropped). *Veto alone* is the rules before this judge (they "
        "were written on these five sets: in-sample for all of them). *LOSO* fits on four "
        "sources and scores the fifth, with the one threshold chosen on those LOSO scores "
        "(drops ≤ 3% on every fold). *Nested* chooses each fold's threshold on its four "
        "training sources only: the estimate for unseen pairs. *In-sample*: the shipped model, "
        "fitted on all five.", ""], []
    for name in [n.strip() for n in args.embedder.split(",") if n.strip()]:
        rows, model_id, part_id, raw, seconds = read(name, args.part_embedder, pairs)
        p = loso(rows, SOURCES, args.l2)
        threshold = choose(p, rows, SOURCES)
        final = fit(rows, np.ones(len(rows.label), dtype=bool), args.l2)
        shipped = DedupModel(model_id, part_id, DEDUP_FEATURES, np.round(final.mean, DIGITS),
                             np.round(final.scale, DIGITS), np.round(final.weights, DIGITS),
                             round(final.bias, DIGITS), threshold)
        models.append(shipped)
        nested_decided, nested_t = nested(rows, args.l2)
        all_rows = np.ones(len(rows.label), dtype=bool)
        decisions = {
            "veto alone": rows.above & ~rows.vetoed,
            "LOSO": rows.above & (p > threshold),
            "nested LOSO": nested_decided,
            "in-sample": rows.above & (probabilities(shipped, rows, all_rows) > threshold),
        }
        lines += [f"## {name} — `{model_id}`", "",
                  f"Aligned difference embedded by `{part_id}`. "
                  f"Raw dedup threshold {raw:.4f}; {int(rows.above.sum())} of {len(pairs)} pairs "
                  f"above it; probability threshold {threshold}; nested thresholds "
                  f"{', '.join(f'{s}: {t}' for s, t in nested_t.items())}; read in "
                  f"{seconds:.0f} s.", "",
                  md_table(["left-out source", "lang", *decisions], table(rows, decisions)),
                  "", "Weights (standardised features): " + ", ".join(
                      f"{f} {w:+.2f}" for f, w in zip(DEDUP_FEATURES, shipped.weights,
                                                      strict=True)) + f", bias {shipped.bias:+.2f}",
                  ""]
        lines += [f"Left-out pairs the judge got wrong ({name}, LOSO):", ""]
        loso_decided = decisions["LOSO"]
        for i in np.flatnonzero(loso_decided != (rows.label == 1)):
            kind = "dropped" if loso_decided[i] else "missed paraphrase"
            lines.append(f"- {kind} p={p[i]:.2f} [{rows.source[i]}] {pairs[i]['a']} → "
                         f"{pairs[i]['b']}" if rows.above[i] or kind == "dropped" else
                         f"- {kind} (below the dedup threshold) [{rows.source[i]}] "
                         f"{pairs[i]['a']} → {pairs[i]['b']}")
        lines.append("")
        payload.append({"embedder": name, "model_id": model_id, "raw_threshold": raw,
                        "threshold": threshold, "nested_thresholds": nested_t,
                        "rates": {k: {s: rates(v, rows, rows.source == s) for s in SOURCES}
                                  for k, v in decisions.items()}})
    if not args.no_write:
        data = {"trained_by": "bench/train_dedup.py", "sources": list(SOURCES),
                "l2": args.l2, "max_dropped": MAX_DROPPED,
                "models": [{**m.to_dict(), "part_embedder_name": args.part_embedder}
                           for m in models]}
        Path(MODEL_FILE).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    emit(args, "\n".join(lines), {"l2": args.l2, "embedders": payload})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

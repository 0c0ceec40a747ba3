"""Train dedup's learned judge on eight sources, leave-one-source-out.

The sources: ``dedup_pairs``, ``dedup_holdout`` … ``_holdout6`` (near-copies, one value changed
or not) and the calibration pairs (``src/omoide/embed/calibration_pairs.jsonl``: facts on one
topic in other words, some across languages). Every pair (``a`` stored, then ``b``) is read as
the write path reads it (``service.dedup.DedupDecider``): the raw cosine of the two passages
(the embedder's own); the two texts in dedup's notation (``pair_notation``, without a
kanji reader, as the server); the trade and status rules (parts that traded places, a status
said on one side only: never duplicates);
the veto's finding; the scope words; and the aligned difference, whose two parts are embedded
with the part embedder (``--part-embedder``, the bundled USE). Pairs above the dedup threshold reach
the judge, and with a *floor* also those down to ``floor_margin`` spec units below the persona's
``dedup_threshold``, through the embedder's calibration; a pair above the threshold is a
duplicate above probability ``threshold``, one in the band above ``floor_threshold``.

For each embedder: a logistic regression (``engine.classify.dedup_judge.fit_logistic``) on the
pairs above the floor of seven sources scores the eighth (LOSO). A floor is kept only when its
nested LOSO (thresholds chosen without the left-out source) keeps wrong drops at most 3% on
every source (``safe_margins``; on eight sources none does for e5, and 0.01 does for USE). The
floor and the two probability thresholds are the ones with the most paraphrases caught (mean
over the folds) whose related-but-different pairs are wrongly dropped at most 2% on *every*
left-out fold (``--max-dropped``; the target is 3%, and choices at 3% broke it in the nested
estimate). Reported: the veto alone, LOSO with those choices (made on these LOSO scores),
nested LOSO (each fold's choices made on the other sources' own inner LOSO scores: the honest
estimate for unseen data) and in-sample (the shipped model on all sources), and where the LOSO
misses sit (below the threshold, where only a floor reaches, or above it). Writes
``src/omoide/engine/classify/dedup_judge.json`` (rounded; the same data gives the same bytes)
and ``bench/results/dedup_judge.md`` / ``.json``.

    .venv/bin/python bench/train_dedup.py [--embedder e5,use] [--part-embedder use] [--l2 10]
        [--margins 0,0.01,0.02,0.03,0.04,0.05] [--max-dropped 0.02] [--plain]
        [--ablate notation,scope] [--no-write] [--cache PATH]

``--plain`` reads the pairs as the judge before the sixth round did (no notation step, no scope
feature, no floor): the "before" rows (``--max-dropped 0.03``, as it was chosen then).
``--ablate`` leaves one part out (a tuning aid). ``--cache`` keeps the embeddings in a file
between runs (a tuning aid; the results do not depend on it).
"""

from __future__ import annotations

import json
import pickle
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
    pair_notation,
    status_changed,
    swapped_parts,
)

DATA = REPO / "bench" / "data"
SOURCES = ("dedup_pairs", "dedup_holdout", "dedup_holdout2", "dedup_holdout3", "dedup_holdout4",
           "dedup_holdout5", "dedup_holdout6", "dedup_holdout7", "calibration_pairs")
# The calibration pairs (duplicate / related / unrelated, some across languages) hold what the
# dedup sets hold little of: facts on one topic in other words, where the floor reaches.
PATHS = {"calibration_pairs": REPO / "src" / "omoide" / "embed" / "calibration_pairs.jsonl"}
MODEL_FILE = REPO / "src" / "omoide" / "engine" / "classify" / "dedup_judge.json"
MAX_DROPPED = 0.03  # the target: wrongly dropped at most 3% on unseen pairs
# The choices are made for at most 2% on every LOSO fold: at 3% the nested estimate broke the
# target on one fold, at 2% it holds on all of them.
CHOSEN_DROPPED = 0.02
GRID = np.round(np.arange(0.05, 0.9951, 0.005), 3)
DIGITS = 6


@dataclass
class Rows:
    """Every pair of the sources, read for one embedder."""

    source: np.ndarray
    lang: np.ndarray
    label: np.ndarray  # 1 duplicate, 0 different
    cosine: np.ndarray  # raw cosine of the two memories
    traded: np.ndarray  # two parts traded places: never a duplicate
    vetoed: np.ndarray  # the veto found a change
    x: np.ndarray  # DEDUP_FEATURES rows


@dataclass(frozen=True)
class Choice:
    margin: float  # the floor, in spec units below the dedup threshold
    floor: float  # raw
    threshold: float  # probability, above the dedup threshold
    floor_threshold: float  # probability, between floor and threshold


def load(sources: tuple[str, ...]) -> list[dict]:
    rows = []
    for source in sources:
        path = PATHS.get(source, DATA / f"{source}.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows.append({"source": source, "lang": row["lang"], "a": row["a"], "b": row["b"],
                             "label": int(row["label"] == "duplicate")})
    return rows


_EMBEDDERS: dict[str, Embedder] = {}
_CACHE: dict[tuple[str, str], np.ndarray] = {}


def embedded(name: str, texts: list[str]) -> tuple[dict[str, np.ndarray], str]:
    """Passage vectors of ``texts`` (each once, in batches) and the embedder's model id."""
    if name not in _EMBEDDERS:
        _EMBEDDERS[name] = make_embedder(name)
    embedder = _EMBEDDERS[name]
    unique = list(dict.fromkeys(t for t in texts if t))
    missing = [t for t in unique if (name, t) not in _CACHE]
    for i in range(0, len(missing), 64):
        batch = missing[i:i + 64]
        for text, vector in zip(batch, embedder.embed_passages(batch), strict=True):
            _CACHE[(name, text)] = np.asarray(vector)
    return {t: _CACHE[(name, t)] for t in unique}, embedder.model_id


def read(name: str, part_name: str, pairs: list[dict], *, plain: bool,
         ablate: frozenset[str] = frozenset()) -> tuple[Rows, str, str, float]:
    vectors, model_id = embedded(name, [t for p in pairs for t in (p["a"], p["b"])])
    texts = [(p["a"], p["b"]) if plain or "notation" in ablate
             else pair_notation(p["a"], p["b"]) for p in pairs]
    parts = [changed_parts(a, b) for a, b in texts]
    part_vectors, part_id = embedded(part_name, [t for pair in parts for t in pair])
    x, vetoed, cosines, traded = [], [], [], []
    for pair, (a, b), (removed, added) in zip(pairs, texts, parts, strict=True):
        cosine = float(np.dot(vectors[pair["a"]], vectors[pair["b"]]))
        part = (float(np.dot(part_vectors[removed], part_vectors[added]))
                if removed and added else None)
        change = find_dedup_change(a, b)
        x.append(dedup_features(a, b, cosine=cosine, part_cosine=part, change=change))
        vetoed.append(change is not None)
        cosines.append(cosine)
        traded.append(swapped_parts(a, b) is not None or status_changed(a, b))
    x_arr = np.round(np.array(x), DIGITS)
    if plain or "scope" in ablate:
        x_arr[:, DEDUP_FEATURES.index("scope")] = 0.0
    rows = Rows(source=np.array([p["source"] for p in pairs]),
                lang=np.array([p["lang"] for p in pairs]),
                label=np.array([p["label"] for p in pairs]), cosine=np.array(cosines),
                traded=np.array(traded), vetoed=np.array(vetoed), x=x_arr)
    return rows, model_id, part_id, _EMBEDDERS[name].calibration


def fit(rows: Rows, mask: np.ndarray, floor: float, l2: float) -> DedupModel:
    train = mask & (rows.cosine > floor)
    mean, scale, weights, bias = fit_logistic(rows.x[train], rows.label[train], l2)
    return DedupModel("", "", DEDUP_FEATURES, mean, scale, weights, bias, 0.5)


def probabilities(model: DedupModel, rows: Rows, mask: np.ndarray) -> np.ndarray:
    out = np.zeros(len(rows.label))
    for i in np.flatnonzero(mask):
        out[i] = model.probability(rows.x[i])
    return out


def loso(rows: Rows, sources: tuple[str, ...], floor: float, l2: float) -> np.ndarray:
    """Each pair of ``sources`` scored by the model fitted on the other sources (0 below the
    floor and outside ``sources``)."""
    p = np.zeros(len(rows.label))
    for source in sources:
        held = (rows.source == source) & (rows.cosine > floor)
        train = np.isin(rows.source, [s for s in sources if s != source])
        p[held] = probabilities(fit(rows, train, floor, l2), rows, held)[held]
    return p


def decide(rows: Rows, p: np.ndarray, raw: float, choice: Choice) -> np.ndarray:
    high = rows.cosine > raw
    band = (rows.cosine > choice.floor) & ~high
    return ~rows.traded & ((high & (p > choice.threshold)) | (band & (p > choice.floor_threshold)))


def rates(decided: np.ndarray, rows: Rows, mask: np.ndarray) -> tuple[float, float]:
    """(paraphrases caught, related-but-different wrongly dropped) within ``mask``."""
    dup, diff = mask & (rows.label == 1), mask & (rows.label == 0)
    return (float(decided[dup].mean()) if dup.any() else float("nan"),
            float(decided[diff].mean()) if diff.any() else float("nan"))


def _grid_counts(rows: Rows, p: np.ndarray, zone: np.ndarray, sources: tuple[str, ...]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per grid threshold and fold: paraphrases caught and different pairs dropped in zone,
    as shares of the fold's paraphrases and different pairs."""
    caught = np.zeros((len(GRID), len(sources)))
    dropped = np.zeros((len(GRID), len(sources)))
    for k, source in enumerate(sources):
        fold = rows.source == source
        dup, diff = fold & (rows.label == 1), fold & (rows.label == 0)
        z = zone & ~rows.traded
        yes = p[None, :] > GRID[:, None]
        caught[:, k] = (yes & (z & dup)[None, :]).sum(axis=1) / max(dup.sum(), 1)
        dropped[:, k] = (yes & (z & diff)[None, :]).sum(axis=1) / max(diff.sum(), 1)
    return caught, dropped


def choose(rows: Rows, sources: tuple[str, ...], calibration, margins: list[float], l2: float,
           threshold_setting: float, max_dropped: float = CHOSEN_DROPPED
           ) -> tuple[Choice, np.ndarray]:
    """The floor and two probability thresholds with the most paraphrases caught (mean over
    folds) whose wrong drops stay at most ``max_dropped`` on every fold; and its LOSO scores."""
    raw = calibration.to_raw(threshold_setting)
    best: tuple[float, Choice, np.ndarray] | None = None
    for margin in margins:
        floor = calibration.to_raw(threshold_setting - margin) if margin else raw
        p = loso(rows, sources, floor, l2)
        high_c, high_d = _grid_counts(rows, p, rows.cosine > raw, sources)
        band = (rows.cosine > floor) & (rows.cosine <= raw)
        band_c, band_d = _grid_counts(rows, p, band, sources)
        # every (high, band) pair of thresholds at once: shape (grid, grid, folds)
        dropped = high_d[:, None, :] + band_d[None, :, :]
        caught = (high_c[:, None, :] + band_c[None, :, :]).mean(axis=2)
        ok = (dropped <= max_dropped + 1e-12).all(axis=2)
        if not margin:
            ok &= np.arange(len(GRID))[None, :] == len(GRID) - 1  # no band: one threshold
        score = np.where(ok, caught, -1.0)
        i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        value = float(score[i, j])
        if best is None or value > best[0] + 1e-12:
            best = (value, Choice(margin, floor, float(GRID[i]),
                                  float(GRID[j]) if margin else 1.0), p)
    assert best is not None
    return best[1], best[2]


def nested(rows: Rows, calibration, margins: list[float], l2: float, setting: float,
           max_dropped: float) -> tuple[np.ndarray, dict[str, Choice]]:
    """Each left-out source decided with the choice made on the other sources' inner LOSO
    scores and the model fitted on them."""
    raw = calibration.to_raw(setting)
    decided = np.zeros(len(rows.label), dtype=bool)
    choices = {}
    for source in SOURCES:
        inner = tuple(s for s in SOURCES if s != source)
        choice, _ = choose(rows, inner, calibration, margins, l2, setting, max_dropped)
        choices[source] = choice
        held = rows.source == source
        model = fit(rows, np.isin(rows.source, inner), choice.floor, l2)
        p = probabilities(model, rows, held & (rows.cosine > choice.floor))
        decided[held] = decide(rows, p, raw, choice)[held]
    return decided, choices


def safe_margins(rows: Rows, calibration, margins: list[float], l2: float, setting: float,
                 max_dropped: float) -> list[float]:
    """The floors whose nested LOSO (each fold's thresholds chosen without it) keeps wrong drops
    at most MAX_DROPPED on every fold: a floor that only LOSO vouches for is not kept (0, no
    floor, always is)."""
    kept = [0.0]
    for margin in margins:
        if margin:
            decided, _ = nested(rows, calibration, [margin], l2, setting, max_dropped)
            if all(rates(decided, rows, rows.source == s)[1] <= MAX_DROPPED + 1e-12
                   for s in SOURCES):
                kept.append(margin)
    return kept


def misses_line(rows: Rows, decided: np.ndarray, raw: float, choice: Choice) -> str:
    """Where the LOSO misses sit: below the dedup threshold (no judge sees them without a
    floor), in the floor's band, or above it, where a rule (parts traded, a status changed)
    or the judge (with or without a change the veto found) said no."""
    missed = (rows.label == 1) & ~decided
    above = missed & (rows.cosine > raw)
    judged = above & ~rows.traded
    return (f"LOSO misses: {int(missed.sum())} of {int((rows.label == 1).sum())} paraphrases; "
            f"{int((missed & (rows.cosine <= choice.floor)).sum())} below the floor, "
            f"{int((missed & (rows.cosine > choice.floor) & (rows.cosine <= raw)).sum())} in "
            f"its band, {int(above.sum())} above the dedup threshold: "
            f"{int((above & rows.traded).sum())} by a rule (traded parts, a status changed), "
            f"{int((judged & rows.vetoed).sum())} by the judge where the veto found a change, "
            f"{int((judged & ~rows.vetoed).sum())} by the judge alone.")


def table(rows: Rows, decisions: dict[str, np.ndarray]) -> list[list[str]]:
    out = []
    for source in SOURCES:
        langs = ["all", *dict.fromkeys(rows.lang[rows.source == source])]
        for lang in langs:
            mask = (rows.source == source) & ((rows.lang == lang) if lang != "all" else True)
            cells = []
            for decided in decisions.values():
                caught, dropped = rates(decided, rows, mask)
                cells.append(f"{caught:.1%} / {dropped:.1%}")
            out.append([source, lang, *cells])
    for lang in ("all", "en", "ja"):
        mask = (rows.lang == lang) if lang != "all" else np.ones(len(rows.label), dtype=bool)
        cells = []
        for decided in decisions.values():
            per_fold = [rates(decided, rows, mask & (rows.source == s)) for s in SOURCES]
            cells.append(f"{np.mean([c for c, _ in per_fold]):.1%} / "
                         f"{np.max([d for _, d in per_fold]):.1%}")
        out.append(["mean / worst fold", lang, *cells])
    return out


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out="dedup_judge")
    bench.add_argument("--embedder", default="e5,use")
    bench.add_argument("--part-embedder", default="use",
                       help="the embedder of the aligned difference (default: use)")
    bench.add_argument("--l2", type=float, default=10.0)
    bench.add_argument("--margins", default="0,0.01,0.02,0.03,0.04,0.05",
                       help="floors tried, in spec units below the dedup threshold (0.05 is "
                            "the default threshold's 0.80: the evolution anchor); each is kept "
                            "only when its nested LOSO holds 3%% on every fold")
    bench.add_argument("--max-dropped", type=float, default=CHOSEN_DROPPED,
                       help="wrong drops allowed on every left-out fold when choosing "
                            f"(default {CHOSEN_DROPPED}; the target is {MAX_DROPPED})")
    bench.add_argument("--plain", action="store_true",
                       help="the judge before this round: no notation, no scope, no floor")
    bench.add_argument("--ablate", default="",
                       help="leave out (tuning aid): notation, scope (comma-separated)")
    bench.add_argument("--no-write", action="store_true",
                       help="report only; leave the packaged model file alone")
    bench.add_argument("--cache", type=Path, default=None,
                       help="keep embeddings in this file between runs (tuning aid)")
    args = bench.parse_args(argv)
    if args.cache is not None and args.cache.is_file():
        _CACHE.update(pickle.loads(args.cache.read_bytes()))
    margins = [0.0] if args.plain else [float(m) for m in args.margins.split(",")]
    setting = PersonaSettings().dedup_threshold
    ablate = frozenset(a.strip() for a in args.ablate.split(",") if a.strip())
    pairs = load(SOURCES)
    models, lines, payload = [], [
        "# Dedup's learned judge: leave-one-source-out", "",
        f"`python bench/train_dedup.py{' ' + ' '.join(argv) if argv else ''}` (L2 {args.l2}) on "
        f"{len(pairs)} pairs from {', '.join(SOURCES)}. Each cell: paraphrases caught / "
        "related-but-different wrongly dropped, over all the source's pairs (a pair below the "
        "floor is never dropped; parts that traded places are never dropped). *Veto alone*: the "
        "value rules (written on these sets: in-sample for all of them) above the dedup "
        "threshold. *LOSO* fits on the other sources and scores the left-out one, with the "
        "floor and "
        f"thresholds chosen on those LOSO scores (drops ≤ {args.max_dropped:.1%} on every "
        f"fold; the target is {MAX_DROPPED:.0%}). *Nested* makes "
        "each fold's choices on its training sources only: the estimate for unseen "
        "pairs. *In-sample*: the shipped model, fitted on all of them. The last rows: mean "
        "caught over the folds / the worst fold's drops.", ""], []
    for name in [n.strip() for n in args.embedder.split(",") if n.strip()]:
        started = time.perf_counter()
        rows, model_id, part_id, calibration = read(name, args.part_embedder, pairs,
                                                    plain=args.plain, ablate=ablate)
        raw = calibration.to_raw(setting)
        kept = safe_margins(rows, calibration, margins, args.l2, setting, args.max_dropped)
        choice, p = choose(rows, SOURCES, calibration, kept, args.l2, setting,
                           args.max_dropped)
        final = fit(rows, np.ones(len(rows.label), dtype=bool), choice.floor, args.l2)
        shipped = DedupModel(model_id, part_id, DEDUP_FEATURES, np.round(final.mean, DIGITS),
                             np.round(final.scale, DIGITS), np.round(final.weights, DIGITS),
                             round(final.bias, DIGITS), choice.threshold,
                             floor_margin=choice.margin, floor_threshold=choice.floor_threshold)
        models.append(shipped)
        nested_decided, nested_choice = nested(rows, calibration, kept, args.l2, setting,
                                               args.max_dropped)
        in_sample = probabilities(shipped, rows, rows.cosine > choice.floor)
        decisions = {
            "veto alone": (rows.cosine > raw) & ~rows.vetoed & ~rows.traded,
            "LOSO": decide(rows, p, raw, choice),
            "nested LOSO": nested_decided,
            "in-sample": decide(rows, in_sample, raw, choice),
        }
        seconds = time.perf_counter() - started
        lines += [f"## {name} — `{model_id}`", "",
                  f"Aligned difference embedded by `{part_id}`. Floors whose nested LOSO holds "
                  f"{MAX_DROPPED:.0%} on every fold: {', '.join(map(str, kept))} (of "
                  f"{', '.join(map(str, margins))}). Raw dedup threshold {raw:.4f}; "
                  f"floor {choice.margin} below it on the spec scale = raw {choice.floor:.4f}; "
                  f"{int((rows.cosine > choice.floor).sum())} of {len(pairs)} pairs above the "
                  f"floor; probability threshold {choice.threshold} above the dedup threshold, "
                  f"{choice.floor_threshold} in the band; nested choices (margin / threshold / "
                  "band threshold) " + ", ".join(
                      f"{s}: {c.margin} / {c.threshold} / {c.floor_threshold}"
                      for s, c in nested_choice.items()) + f"; {seconds:.0f} s.", "",
                  md_table(["left-out source", "lang", *decisions], table(rows, decisions)),
                  "", "Weights (standardised features): " + ", ".join(
                      f"{f} {w:+.2f}" for f, w in zip(DEDUP_FEATURES, shipped.weights,
                                                      strict=True)) + f", bias {shipped.bias:+.2f}",
                  ""]
        loso_decided = decisions["LOSO"]
        lines += [misses_line(rows, loso_decided, raw, choice), "",
                  f"Left-out pairs the judge got wrong ({name}, LOSO):", ""]
        for i in np.flatnonzero(loso_decided != (rows.label == 1)):
            kind = "dropped" if loso_decided[i] else "missed paraphrase"
            where = (f"p={p[i]:.2f}" if rows.cosine[i] > choice.floor and not rows.traded[i]
                     else "traded parts" if rows.traded[i] else "below the floor")
            lines.append(f"- {kind} {where} cos={rows.cosine[i]:.3f} [{rows.source[i]}] "
                         f"{pairs[i]['a']} → {pairs[i]['b']}")
        lines.append("")
        payload.append({"embedder": name, "model_id": model_id, "raw_threshold": raw,
                        "choice": choice.__dict__,
                        "nested": {s: c.__dict__ for s, c in nested_choice.items()},
                        "rates": {k: {s: rates(v, rows, rows.source == s) for s in SOURCES}
                                  for k, v in decisions.items()}})
    if args.cache is not None:
        args.cache.write_bytes(pickle.dumps(_CACHE))
    if not args.no_write:
        data = {"trained_by": "bench/train_dedup.py", "sources": list(SOURCES),
                "l2": args.l2, "max_dropped": args.max_dropped,
                "models": [{**m.to_dict(), "part_embedder_name": args.part_embedder}
                           for m in models]}
        Path(MODEL_FILE).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    emit(args, "\n".join(lines), {"l2": args.l2, "embedders": payload})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

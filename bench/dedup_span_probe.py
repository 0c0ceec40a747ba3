"""Dedup probe: do embedder-judged differing spans tell a synonym from a changed value?

A tuning aid for dedup's learned judge (``train_dedup.py``), train → choose. Fresh writers'
missed paraphrases are mostly a word said another way (a kin word, a verb, a kana spelling) that
the veto or the judge reads as a changed object. Each pair (read as the write path reads it,
``_train_dedup_data.read``) gains candidate columns measured by an embedder (``--span`` names
it: ``use``, the bundled part embedder, or ``e5``), all on the aligned views of the two texts in
dedup's notation (``dedup_judge.notation_tokens``: English words, Japanese characters):

- ``span``: the cosine of the two differing spans embedded alone (0 when one side is empty);
- ``ctx``: the cosine of the two *context shifts*, ``v(a) - v(c)`` and ``v(b) - v(c)``, where
  ``c`` is the words both texts share (the aligned equal blocks, joined): what each side's own
  words add to the shared sentence, read in context. A synonym adds the same; a changed value
  adds another thing;
- ``shift_a`` / ``shift_b``: ``1 - cos(a, c)`` and ``1 - cos(b, c)``, how far each side's own
  words move the sentence;
- ``whole`` (thirty-second round): the cosine of the two memories as written, on that embedder:
  with ``--span use`` on an e5 server (or ``e5`` on a USE one), a second opinion from the other
  bundled embedder on the whole texts.

One column is derived from the judge's own features, not embedded: ``rate``, the log of how far
the pair moved per changed share, ``log((1 - notation_cosine) / changed_share)`` (a respelling
or a synonym moves the sentence little for its size, a changed object more; thirty-second round).

For each candidate set of columns (``--candidates``, ``;``-separated, ``+`` within a set,
``span*veto_word``-style products allowed) the judge is fitted and its thresholds chosen by
``_train_dedup_choice`` exactly as ``train_dedup.py`` does (the embedder's rule and floor,
``--rule`` / ``--margin``) on the training sources (``SOURCES``): LOSO and nested LOSO there;
then, without refitting, the model fitted on all of them scores the *choose* sources
(``--choose``: the freshest seen writers; their Japanese pairs pooled in a cell of their own) with
the thresholds chosen on the training sources;
and nested LOSO over training + choose sources (the ship bar's last check). Prints and writes a
markdown table. The engine's judge does not know these columns: the probe scores its rows with
the same logistic and the same identity rule (two texts alike once read: a duplicate), vectorised.

    PYTHONPATH=src:bench python bench/dedup_span_probe.py --embedder e5 --span use,e5 \
        --candidates "none;use:ctx;use:ctx+use:shift_a+use:shift_b;e5:span;use:whole;rate" \
        [--choose dedup_holdout36,dedup_holdout37] [--cache PATH] [--no-nested]
"""

from __future__ import annotations

import pickle
import time
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from pathlib import Path

import numpy as np

import _train_dedup_choice as choice_module
from _train_dedup_choice import Rule, choose, decide, fit, nested, rates
from _train_dedup_data import CACHE, DEDUP_FEATURES, SOURCES, Rows, embedded, load, read
from lib.cli import parser
from lib.reports import command_line, emit, md_table
from omoide.config import PersonaSettings
from omoide.engine.classify import DedupModel, changed_parts, notation_tokens, pair_notation
from omoide.service.dedup import kanji_readings

CHOOSE = ("dedup_holdout28", "dedup_holdout29")
DEFAULTS = {"e5": ("pooled:0.0075", 0.05), "use": ("fold:0.02", 0.03)}  # as shipped


@dataclass
class ProbeRows(Rows):
    """Rows whose ``x`` holds DEDUP_FEATURES and then the probe's columns (``names``)."""

    names: tuple[str, ...] = DEDUP_FEATURES

    @property
    def own(self) -> np.ndarray:
        return self.x[:, [self.names.index(f) for f in self.features]]


def views(first: str, second: str) -> tuple[str, str, str]:
    """The two texts as aligned tokens, joined, and the tokens they share (joined)."""
    x, y, sep = notation_tokens(first, second)
    shared = [
        t
        for tag, i1, i2, _, _ in SequenceMatcher(None, x, y, autojunk=False).get_opcodes()
        if tag == "equal"
        for t in x[i1:i2]
    ]
    return sep.join(x), sep.join(y), sep.join(shared)


def span_columns(
    name: str, pairs: list[dict], *, whole_only: bool = False
) -> dict[str, np.ndarray]:
    """The candidate columns of every pair, measured by embedder ``name`` (``whole_only``: only
    ``whole``, which needs no more than the two memories' own vectors)."""
    whole, _ = embedded(name, [t for p in pairs for t in (p["a"], p["b"])])
    cosines = [float(whole[p["a"]] @ whole[p["b"]]) for p in pairs]
    if whole_only:
        return {f"{name}:whole": np.round(np.array(cosines), 6)}
    reads = [pair_notation(p["a"], p["b"], kanji=kanji_readings()) for p in pairs]
    seen = [views(a, b) for a, b in reads]
    parts = [changed_parts(a, b) for a, b in reads]
    vec, _ = embedded(name, [t for v in seen for t in v] + [t for p in parts for t in p])
    out: dict[str, list[float]] = {
        "span": [],
        "ctx": [],
        "shift_a": [],
        "shift_b": [],
        "whole": cosines,
    }
    for (ta, tb, tc), (removed, added) in zip(seen, parts, strict=True):
        two_sided = bool(removed and added and tc)
        out["span"].append(float(vec[removed] @ vec[added]) if removed and added else 0.0)
        if not two_sided:
            for key in ("ctx", "shift_a", "shift_b"):
                out[key].append(0.0)
            continue
        va, vb, vc = vec[ta], vec[tb], vec[tc]
        da, db = va - vc, vb - vc
        na, nb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
        out["ctx"].append(float(da @ db) / (na * nb) if na > 1e-9 and nb > 1e-9 else 1.0)
        out["shift_a"].append(1.0 - float(va @ vc))
        out["shift_b"].append(1.0 - float(vb @ vc))
    return {f"{name}:{k}": np.round(np.array(v), 6) for k, v in out.items()}


def shift_rate(rows: Rows) -> np.ndarray:
    """``log((1 - notation_cosine) / changed_share)`` of every pair (floors 1e-4 and 0.01)."""
    moved = 1.0 - rows.x[:, DEDUP_FEATURES.index("notation_cosine")]
    share = rows.x[:, DEDUP_FEATURES.index("changed_share")]
    return np.log(np.maximum(moved, 1e-4) / np.maximum(share, 0.01))


def with_columns(rows: Rows, columns: dict[str, np.ndarray], wanted: list[str]) -> ProbeRows:
    base = {f: rows.x[:, i] for i, f in enumerate(DEDUP_FEATURES)} | {"rate": shift_rate(rows)}
    extra = []
    for name in wanted:
        left, _, right = name.partition("*")
        col = columns.get(left, base.get(left))
        if right:
            col = col * columns.get(right, base.get(right))
        extra.append(col)
    x = np.hstack([rows.x, *(c[:, None] for c in extra)]) if extra else rows.x
    names = DEDUP_FEATURES + tuple(wanted)
    return ProbeRows(
        rows.source, rows.lang, rows.label, rows.cosine, rows.traded, rows.vetoed, x, names, names
    )


def scored(model: DedupModel, rows: ProbeRows, mask: np.ndarray) -> np.ndarray:
    """``DedupModel.probability`` of the masked rows, vectorised, on the probe's columns."""
    out = np.zeros(len(rows.label))
    x = rows.x[mask]
    z = ((rows.own[mask] - model.mean) / model.scale) @ model.weights + model.bias
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
    col = {
        f: x[:, rows.names.index(f)] for f in ("changed_share", "veto_value", "veto_word", "scope")
    }
    p[
        (col["changed_share"] == 0)
        & (col["veto_value"] == 0)
        & (col["veto_word"] == 0)
        & (col["scope"] == 0)
    ] = 1.0
    out[mask] = p
    return out


def subset(rows: ProbeRows, mask: np.ndarray) -> ProbeRows:
    return replace(
        rows,
        source=rows.source[mask],
        lang=rows.lang[mask],
        label=rows.label[mask],
        cosine=rows.cosine[mask],
        traded=rows.traded[mask],
        vetoed=rows.vetoed[mask],
        x=rows.x[mask],
    )


def cells(decided: np.ndarray, rows: Rows, sources: tuple[str, ...]) -> str:
    per = [rates(decided, rows, rows.source == s) for s in sources]
    pooled = rates(decided, rows, np.ones(len(rows.label), dtype=bool))
    return f"{np.mean([c for c, _ in per]):.1%} / {pooled[1]:.2%} / {max(d for _, d in per):.1%}"


def evaluate(
    rows: ProbeRows, calibration, rule: Rule, margin: float, l2: float, with_nested: bool
) -> list[str]:
    """[LOSO, nested, choose sources…, nested over all] cells of one candidate."""
    setting = PersonaSettings().dedup_threshold
    raw = calibration.to_raw(setting)
    train = subset(rows, np.isin(rows.source, SOURCES))
    choice_module.SOURCES = SOURCES
    picked, p = choose(train, SOURCES, calibration, [margin], l2, setting, rule)
    out = [
        f"{picked.threshold} / {picked.floor_threshold}",
        cells(decide(train, p, raw, picked), train, SOURCES),
    ]
    if with_nested:
        out.append(
            cells(nested(train, calibration, [margin], l2, setting, rule)[0], train, SOURCES)
        )
    model = fit(train, np.ones(len(train.label), dtype=bool), picked.floor, l2)
    fresh = subset(rows, np.isin(rows.source, CHOOSE))
    decided = decide(fresh, scored(model, fresh, fresh.cosine > picked.floor), raw, picked)
    for mask in [fresh.source == s for s in CHOOSE] + [fresh.lang == "ja"]:
        caught, dropped = rates(decided, fresh, mask)
        out.append(f"{caught:.1%} / {dropped:.1%}")
    if with_nested:
        everything = SOURCES + CHOOSE
        choice_module.SOURCES = everything
        out.append(
            cells(nested(rows, calibration, [margin], l2, setting, rule)[0], rows, everything)
        )
        choice_module.SOURCES = SOURCES
    return out


def main(argv: list[str] | None = None) -> int:
    global CHOOSE
    bench = parser(__doc__, out="dedup_span_probe")
    bench.add_argument("--embedder", default="e5", help="the server embedder: e5 or use")
    bench.add_argument("--span", default="use", help="embedders that measure the spans")
    bench.add_argument(
        "--candidates",
        default="none;use:ctx;use:span",
        help="';'-separated column sets, '+' within one, 'none' for none",
    )
    bench.add_argument("--rule", default=None)
    bench.add_argument("--margin", type=float, default=None)
    bench.add_argument("--l2", type=float, default=10.0)
    bench.add_argument("--no-nested", action="store_true")
    bench.add_argument("--cache", type=Path, default=None)
    bench.add_argument(
        "--choose",
        default=",".join(CHOOSE),
        help="the choose sources, comma-separated (default: %(default)s)",
    )
    args = bench.parse_args(argv)
    CHOOSE = tuple(s.strip() for s in args.choose.split(",") if s.strip())
    if args.cache is not None and args.cache.is_file():
        CACHE.update(pickle.loads(args.cache.read_bytes()))
    started = time.perf_counter()
    name = args.embedder
    rule = Rule.parse(args.rule or DEFAULTS[name][0])
    margin = DEFAULTS[name][1] if args.margin is None else args.margin
    pairs = load(SOURCES + CHOOSE)
    rows, model_id, _, calibration = read(name, "use", pairs, plain=False)
    columns: dict[str, np.ndarray] = {}
    named = {c for candidate in args.candidates.split(";") for c in candidate.split("+")}
    for span in (s.strip() for s in args.span.split(",") if s.strip()):
        mine = {c.partition("*")[0] for c in named if c.startswith(f"{span}:")}
        columns.update(span_columns(span, pairs, whole_only=mine <= {f"{span}:whole"}))
    if args.cache is not None:
        args.cache.write_bytes(pickle.dumps(CACHE))
    choice_module.probabilities = scored  # the probe's rows carry columns the engine lacks
    table, payload = [], {}
    for candidate in args.candidates.split(";"):
        wanted = [c for c in candidate.split("+") if c and c != "none"]
        out = evaluate(
            with_columns(rows, columns, wanted),
            calibration,
            rule,
            margin,
            args.l2,
            not args.no_nested,
        )
        table.append([candidate, *out])
        payload[candidate] = out
        print(" | ".join(table[-1]), flush=True)
    head = ["added columns", "thresholds", "LOSO (train)"]
    if not args.no_nested:
        head.append("nested (train)")
    head += [f"choose {s}" for s in CHOOSE] + ["choose JA (pooled)"]
    if not args.no_nested:
        head.append("nested (train + choose)")
    lines = [
        f"# Dedup span probe — {name} (`{model_id}`)",
        "",
        f"`{command_line()}`",
        "",
        f"Rule {rule}, floor {margin}, L2 {args.l2}; training sources: {len(SOURCES)} "
        f"(`train_dedup.SOURCES`); choose: {', '.join(CHOOSE)} (scored by the judge fitted "
        "on the training sources, thresholds chosen there). LOSO / nested cells: mean "
        "paraphrases caught over the folds / related pairs wrongly dropped, pooled / the "
        "worst fold's drops. Choose cells: caught / wrongly dropped. "
        f"{time.perf_counter() - started:.0f} s.",
        "",
        md_table(head, table),
        "",
    ]
    emit(
        args,
        "\n".join(lines),
        {"embedder": name, "rule": str(rule), "margin": margin, "results": payload},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

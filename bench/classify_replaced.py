"""The packaged judge's replaced-value thresholds (``JudgeModel.replaced_thresholds``), chosen by
nested leave-one-source-out on the seen writers it was not fitted on, then scored on the choose
sets without refitting.

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/classify_replaced.py \\
        --cache DIR --out bench/results/classify_round33   # → .md and .json

A changed value said again without a change cue ("first Sunday" → "last Sunday", 50mm → 35mm,
週1 → 月2) is the largest loss of the fresh sets: the judge reads it as EXTENDABLE under its
threshold. The server lets such a reading close at a lower threshold of the pair's language when
the rules read the pair as related and a value of the old memory replaced
(``judge_signals.value_replaced``). Each set is classified twice by the server's classifier: with
no replaced thresholds, and with both at the grid's floor; a pair's verdict at threshold t is the
floor run's close by that reading ("a value replaced") when its confidence (the judge's C
probability) reaches t, else the first run's verdict.

The rule, per language: the threshold of ``GRID`` (under the language's own) with the highest mean
per-source macro-F1 of that language, among those where the lower end of the Wilson interval
(z = 1) of the sources' pooled C precision (every close of the language, the judge's and the
rules') stays ≥ 0.95; none (never) when no threshold beats leaving it off. Nested
leave-one-source-out: each source in turn is left out, the rule read off the others and the
left-out source scored at it. The sources: every seen classify set (``_classify_data``; notes sets
read as statements) that the packaged judge was not fitted on (``judge.json``'s ``trained_on``),
less the choose sets (``classify_split.CHOOSE``), which are only scored, at the threshold read off
every source. Prints and writes ``--out``; the threshold goes into ``judge.json`` by hand. The
notes' path (``classify.py --notes``) and end to end (``classify_store.py``) are measured apart.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from _classify_common import DEFAULT_PAIRS, load_pairs
from _classify_data import HOLDOUTS, NOTES
from classify import Prediction, build_classifier, predict
from classify_confusions import trained_on
from classify_split import CHOOSE
from lib.cli import parser
from lib.reports import command_line, fmt, md_table, write_results

C = "CONTRADICTORY"
LABELS = ("CONTRADICTORY", "EXTENDABLE", "INDEPENDENT")
GRID = tuple(round(0.30 + 0.01 * i, 2) for i in range(56))  # 0.30 - 0.85
TARGET = 0.95
Z = 1.0
READING = "a value replaced"

Row = tuple[Prediction, float | None]  # verdict without the tier, C probability if it may close


def row(base: Prediction, floor: Prediction) -> Row:
    lower = base.label != C and floor.label == C and READING in floor.reason
    return base, floor.confidence if lower else None


def verdicts(rows: list[Row], t: float) -> list[str]:
    return [C if p is not None and p >= t else base.label for base, p in rows]


def macro_f1(gold: list[str], said: list[str]) -> float:
    scores = []
    for label in LABELS:
        support = sum(g == label for g in gold)
        if not support:
            continue
        hit = sum(g == s == label for g, s in zip(gold, said, strict=True))
        called = sum(s == label for s in said)
        p, r = (hit / called if called else 0.0), hit / support
        scores.append(2 * p * r / (p + r) if p + r else 0.0)
    return sum(scores) / len(scores) if scores else 0.0


def tally(rows: list[Row], lang: str, t: float) -> tuple[float, int, int, int]:
    """Macro-F1, right closes, closes and gold C pairs of ``lang`` at threshold ``t``."""
    mine = [r for r in rows if r[0].pair.lang == lang]
    said, gold = verdicts(mine, t), [r[0].pair.label for r in mine]
    right = sum(s == g == C for s, g in zip(said, gold, strict=True))
    return macro_f1(gold, said), right, sum(s == C for s in said), sum(g == C for g in gold)


def wilson_low(k: int, n: int) -> float:
    if not n:
        return 1.0
    p, z2 = k / n, Z * Z
    centre = p + z2 / (2 * n)
    return (centre - Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n)


def pooled(got: list[tuple[float, int, int, int]]) -> dict[str, float]:
    k, n, g = (sum(x[i] for x in got) for i in (1, 2, 3))
    return {
        "macro_f1": sum(x[0] for x in got) / len(got),
        "precision": k / n if n else 1.0,
        "recall": k / g if g else 0.0,
        "closes": n,
        "right": k,
        "under": sum(x[2] >= 10 and x[1] / x[2] < TARGET for x in got),
    }


def choose(sources: list[list[Row]], lang: str, own: float) -> float:
    """The rule: the best mean macro-F1 where the pooled precision's Wilson bound holds."""
    best_t, best = math.inf, pooled([tally(s, lang, math.inf) for s in sources])["macro_f1"]
    for t in GRID:
        if t >= own:
            break
        got = pooled([tally(s, lang, t) for s in sources])
        if wilson_low(int(got["right"]), int(got["closes"])) < TARGET:
            continue
        if got["macro_f1"] > best + 1e-9:
            best_t, best = t, got["macro_f1"]
    return best_t


def nested(held: dict[str, list[Row]], lang: str, own: float) -> dict[str, object]:
    chosen, before, after = {}, [], []
    for left, rows in held.items():
        t = choose([r for s, r in held.items() if s != left], lang, own)
        chosen[left] = t
        before.append(tally(rows, lang, math.inf))
        after.append(tally(rows, lang, t))
    return {"thresholds": chosen, "before": pooled(before), "after": pooled(after)}


def shown(t: float) -> str:
    return "never" if math.isinf(t) else f"{t:.2f}"


def line(name: str, b: dict[str, float], a: dict[str, float]) -> list[object]:
    return [
        name,
        f"{b['macro_f1']:.4f} → {a['macro_f1']:.4f}",
        f"{fmt(b['precision'])} ({b['right']}/{b['closes']}) → "
        f"{fmt(a['precision'])} ({a['right']}/{a['closes']})",
        f"{fmt(b['recall'])} → {fmt(a['recall'])}",
        f"{b['under']} → {a['under']}",
    ]


def main() -> int:
    bench = parser(__doc__, out=None, data=DEFAULT_PAIRS)
    bench.add_argument("--cache", type=Path, default=None)
    args = bench.parse_args()
    packaged, note = build_classifier("offline", "e5", args.cache)
    model, made = packaged.model, type(packaged)
    own = dict(model.language_thresholds)
    shipped = dict(model.replaced_thresholds)
    without = made(replace(model, replaced_thresholds=()), packaged.embedder)
    floor = made(
        replace(model, replaced_thresholds=tuple((lang, GRID[0]) for lang in own)),
        packaged.embedder,
    )
    fitted = trained_on()
    sources = {"pairs": args.data, **HOLDOUTS, **NOTES}
    held: dict[str, list[Row]] = {}
    fresh: dict[str, list[Row]] = {}
    for name, path in sources.items():
        if not path.is_file() or (path.name in fitted and name not in CHOOSE):
            continue
        pairs = load_pairs(path)
        rows = [
            row(b, f) for b, f in zip(predict(pairs, without), predict(pairs, floor), strict=True)
        ]
        (fresh if name in CHOOSE else held)[name] = rows
        print(f"  {name}: {len(pairs)} pairs", flush=True)
    header = ["", "macro-F1", "C precision (right/closes)", "C recall", "sources < 0.95"]
    report: dict[str, object] = {
        "command": command_line(),
        "classifier": note,
        "sources": sorted(held),
        "choose": sorted(fresh),
        "shipped": shipped,
        "languages": {},
    }
    lines = [
        "# Replaced-value thresholds, nested leave-one-source-out",
        "",
        f"    {command_line()}",
        "",
        f"Classifier: {note}; language thresholds "
        f"{', '.join(f'{k} {v:.2f}' for k, v in own.items())}; related "
        f"{dict(model.related_thresholds)}; replaced thresholds in judge.json {shipped}. "
        f"Sources (not fitted on, not choose; notes read as statements): "
        f"{', '.join(sorted(held))}. Choose sets, scored only: {', '.join(sorted(fresh))}.",
        "",
    ]
    for lang in ("en", "ja"):
        loso = nested(held, lang, own[lang])
        final = choose(list(held.values()), lang, own[lang])
        per_set = {
            name: (tally(rows, lang, math.inf), tally(rows, lang, final))
            for name, rows in fresh.items()
        }
        both = (
            pooled([b for b, _ in per_set.values()]),
            pooled([a for _, a in per_set.values()]),
        )
        report["languages"][lang] = {
            "threshold": None if math.isinf(final) else final,
            "loso": {
                **loso,
                "thresholds": {
                    k: None if math.isinf(t) else t for k, t in loso["thresholds"].items()
                },
            },
            "choose": {n: {"before": b, "after": a} for n, (b, a) in per_set.items()},
            "choose_pooled": {"before": both[0], "after": both[1]},
        }
        picked = sorted({shown(t) for t in loso["thresholds"].values()})
        lines += [
            f"## {lang}: threshold {shown(final)} (own {own[lang]:.2f}; left-out folds chose "
            f"{', '.join(picked)})",
            "",
            md_table(
                header,
                [
                    line("left-out sources (nested LOSO)", loso["before"], loso["after"]),
                    *(
                        line(name, pooled([b]), pooled([a]))
                        for name, (b, a) in sorted(per_set.items())
                    ),
                    line("choose sets, pooled", *both),
                ],
            ),
            "",
        ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        write_results(args.out, text, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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
A judge per language, and a proxy judge: ``--language`` and ``--skip-choose``
(``_classify_tiers.add_split_arguments``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from _classify_common import DEFAULT_PAIRS
from _classify_data import HOLDOUTS, NOTES
from _classify_tiers import (
    C,
    Row,
    add_split_arguments,
    choose,
    pooled,
    read_twice,
    tally,
    tuned_model,
    with_model,
)
from classify import Prediction, build_classifier
from classify_confusions import trained_on
from classify_split import CHOOSE
from lib.cli import parser
from lib.reports import command_line, finish, fmt, md_table

GRID = tuple(round(0.30 + 0.01 * i, 2) for i in range(56))  # 0.30 - 0.85
READING = "a value replaced"


def row(base: Prediction, floor: Prediction) -> Row:
    lower = base.label != C and floor.label == C and READING in floor.reason
    return base, floor.confidence if lower else None


def nested(held: dict[str, list[Row]], lang: str, own: float) -> dict[str, object]:
    chosen, before, after = {}, [], []
    for left, rows in held.items():
        t = choose([r for s, r in held.items() if s != left], lang, own, GRID)
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
    add_split_arguments(bench)
    args = bench.parse_args()
    packaged, note = build_classifier("offline", "e5", args.cache)
    judge, made = packaged.model, type(packaged)
    model, languages = tuned_model(judge, args.language)
    own = {lang: dict(model.language_thresholds)[lang] for lang in languages}
    shipped = dict(model.replaced_thresholds)
    without = made(
        with_model(judge, args.language, replace(model, replaced_thresholds=())),
        packaged.embedder,
    )
    floor = made(
        with_model(
            judge,
            args.language,
            replace(model, replaced_thresholds=tuple((lang, GRID[0]) for lang in own)),
        ),
        packaged.embedder,
    )
    held, fresh = read_twice(
        {"pairs": args.data, **HOLDOUTS, **NOTES},
        trained_on(),
        CHOOSE,
        (without, floor),
        row,
        CHOOSE if args.skip_choose else (),
    )
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
        f"{', '.join(sorted(held))}. Choose sets, scored only: "
        f"{', '.join(sorted(fresh)) or 'none read (--skip-choose)'}.",
        "",
    ]
    for lang in languages:
        loso = nested(held, lang, own[lang])
        final = choose(list(held.values()), lang, own[lang], GRID)
        per_set = {
            name: (tally(rows, lang, math.inf), tally(rows, lang, final))
            for name, rows in fresh.items()
        }
        both = (
            (pooled([b for b, _ in per_set.values()]), pooled([a for _, a in per_set.values()]))
            if per_set
            else None  # --skip-choose: no choose set read
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
            "choose_pooled": {"before": both[0], "after": both[1]} if both else {},
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
                    *([line("choose sets, pooled", *both)] if both else []),
                ],
            ),
            "",
        ]
    return finish(lines, report, args.out)


if __name__ == "__main__":
    raise SystemExit(main())

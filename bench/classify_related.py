"""The packaged judge's related thresholds (``JudgeModel.related_thresholds``), chosen by nested
leave-one-source-out on the seen writers it was not fitted on.

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/classify_related.py \\
        --cache DIR --out bench/results/classify_related   # → .md and .json

Where the judge leans to CONTRADICTORY under its language's threshold, a lower threshold may
close; the server applies it only where the rules read the two memories as related (their
reading is not ``unrelated``), because in a store the nearest memory the judge leans to closing
with the rules saying ``unrelated`` is often another fact of the same kind, which one pair
cannot show. The sources: every seen classify set (``_classify_data``; notes sets read as
statements) that the packaged judge was not fitted on (``judge.json``'s ``trained_on``), less
the choose sets (``classify_split.CHOOSE``), which are only scored. Each set is classified twice
by the server's classifier with its language thresholds alone: as they are, and with both at
the grid's floor (a pair's judge probability is then its verdict's confidence when that run
closes it by the judge); a pair's verdict at threshold t is the floor run's close when its
confidence reaches t, else the first run's verdict.

Per language, the rule of rounds 19-22 reads a threshold off the sources' pooled closes as if
it applied to every pair (the lowest from which the lower end of the Wilson interval, z = 1, of
C precision stays ≥ 0.95 all the way up; ``_classify_thresholds.ThresholdRule``), plus a margin
of steps: so the guard can only take closes away from what the rule accepted. The margin is
chosen by nested leave-one-source-out: each source in turn is left out, the rule read off the
others, and the left-out source scored at it, guarded as the server applies it; the smallest
margin whose pooled left-out precision is not under the language thresholds' alone on the same
sources and that leaves no more sources (of ≥ 10 closes) under 0.95 is taken, and the rule with
it is read off every source. A threshold at or above the language's own leaves it as it is.
The table gives each margin with the threshold on every pair and guarded (related pairs only).
Prints and writes ``--out``; the threshold goes into ``judge.json`` by hand. End to end (the
store path) is measured by ``bench/classify_store.py``.
A judge per language, and a proxy judge: ``--language`` and ``--skip-choose``
(``_classify_tiers.add_split_arguments``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from _classify_common import DEFAULT_PAIRS
from _classify_data import HOLDOUTS, NOTES
from _classify_thresholds import THRESHOLDS, ThresholdRule
from _classify_tiers import add_split_arguments, read_twice, tuned_model, with_model
from classify import Prediction, build_classifier
from classify_confusions import trained_on
from classify_split import CHOOSE
from lib.cli import parser
from lib.reports import finish, fmt, md_table

C = "CONTRADICTORY"
GRID = THRESHOLDS  # the training rule's grid, 0.30 - 0.99
FLOOR = GRID[0]
TARGET = 0.95
MARGINS = (0, 1, 2, 3, 4)
MIN_CALLS = 10
RULE = ThresholdRule(pool="wilson", z=1.0, cliff_margin=0, min_calls=MIN_CALLS)
UNRELATED_READING = "rule said unrelated"

Row = tuple[Prediction, float | None, bool]  # verdict, judge C probability if it may close, related


def row(base: Prediction, floor: Prediction) -> Row:
    """A pair's verdict under the language thresholds, the judge's C probability when only a
    lower threshold would close it (else None), and whether the rules read it as related."""
    lower = base.label != C and floor.label == C and floor.reason.startswith("judge")
    return base, floor.confidence if lower else None, UNRELATED_READING not in floor.reason


def verdicts(rows: list[Row], t: float, guarded: bool) -> list[str]:
    return [
        C if conf is not None and conf >= t and (related or not guarded) else base.label
        for base, conf, related in rows
    ]


def tally(rows: list[Row], lang: str, t: float, guarded: bool = False) -> tuple[int, int, int]:
    """Right closes, closes and gold C pairs of ``lang`` at threshold ``t``."""
    mine = [r for r in rows if r[0].pair.lang == lang]
    said = verdicts(mine, t, guarded)
    right = sum(v == C and r[0].pair.label == C for v, r in zip(said, mine, strict=True))
    return right, sum(v == C for v in said), sum(r[0].pair.label == C for r in mine)


def curve(rows: list[Row]) -> list[dict[str, float]]:
    """One source's C precision and calls in each language at each threshold of ``GRID``."""
    out = []
    for t in GRID:
        point: dict[str, float] = {"threshold": t}
        for lang in ("en", "ja"):
            right, calls, _ = tally(rows, lang, t)
            point[f"{lang}_precision"] = right / calls if calls else 1.0
            point[f"{lang}_calls"] = float(calls)
        out.append(point)
    return out


def choose(by_source: dict[str, list[Row]], lang: str, margin: int, own: float) -> float:
    curves = {s: curve(rows) for s, rows in by_source.items()}
    return min(replace(RULE, margin=margin).choose(curves, TARGET)[lang], own)


def pooled(got: list[tuple[int, int, int]]) -> dict[str, object]:
    k, n, g = (sum(x) for x in zip(*got, strict=True))
    under = sum(c >= MIN_CALLS and r / c < TARGET for r, c, _ in got)
    return {
        "precision": k / n if n else 1.0,
        "recall": k / g if g else 0.0,
        "under": under,
        "closes": n,
    }


def nested(by_source: dict[str, list[Row]], lang: str, own: float) -> list[dict[str, object]]:
    """Per margin: the left-out sources' closes at the threshold read off the others, on every
    pair and guarded."""
    out = [
        {
            "margin": "none",
            "thresholds": [own],
            **pooled([tally(rows, lang, own) for rows in by_source.values()]),
        }
    ]
    for m in MARGINS:
        chosen, plain, guarded = [], [], []
        for left, rows in by_source.items():
            t = float(choose({s: r for s, r in by_source.items() if s != left}, lang, m, own))
            chosen.append(t)
            plain.append(tally(rows, lang, t))
            guarded.append(tally(rows, lang, t, guarded=True))
        out.append(
            {
                "margin": m,
                "thresholds": sorted(set(chosen)),
                **pooled(plain),
                "guarded": pooled(guarded),
            }
        )
    return out


def main() -> int:
    bench = parser(__doc__, out=None, data=DEFAULT_PAIRS)
    bench.add_argument("--cache", type=Path, default=None)
    add_split_arguments(bench)
    args = bench.parse_args()
    packaged, note = build_classifier("offline", "e5", args.cache)
    judge, made = packaged.model, type(packaged)
    model, languages = tuned_model(judge, args.language)
    own = {lang: dict(model.language_thresholds)[lang] for lang in languages}
    # the judge with its language thresholds alone, and with them at the floor
    classifier = made(
        with_model(judge, args.language, replace(model, related_thresholds=())), packaged.embedder
    )
    floor = made(
        with_model(
            judge,
            args.language,
            replace(
                model,
                related_thresholds=(),
                language_thresholds=tuple((lang, FLOOR) for lang, _ in model.language_thresholds),
            ),
        ),
        packaged.embedder,
    )
    held, fresh = read_twice(
        {"pairs": args.data, **HOLDOUTS, **NOTES},
        trained_on(),
        CHOOSE,
        (classifier, floor),
        row,
        CHOOSE if args.skip_choose else (),
    )
    report: dict[str, object] = {
        "classifier": note,
        "sources": sorted(held),
        "choose": sorted(fresh),
        "languages": {},
    }
    lines = [
        "# Related thresholds, nested leave-one-source-out",
        "",
        f"Classifier: {note}, language thresholds "
        f"{', '.join(f'{k} {v:.2f}' for k, v in own.items())}. Sources (not fitted on, not "
        f"choose): {', '.join(sorted(held))}.",
        "",
    ]
    for lang in languages:
        rows = nested(held, lang, own[lang])
        first = rows[0]
        margin = next(
            (
                r["margin"]
                for r in rows[1:]
                if r["guarded"]["precision"] >= first["precision"]
                and r["guarded"]["under"] <= first["under"]
            ),
            None,
        )
        final = own[lang] if margin is None else choose(held, lang, int(margin), own[lang])
        check = (
            {
                "before": pooled([tally(r, lang, own[lang]) for r in fresh.values()]),
                "every pair": pooled([tally(r, lang, final) for r in fresh.values()]),
                "guarded": pooled([tally(r, lang, final, guarded=True) for r in fresh.values()]),
            }
            if fresh
            else {}
        )
        report["languages"][lang] = {
            "nested": rows,
            "margin": margin,
            "threshold": final,
            "own": own[lang],
            "choose": check,
        }
        lines += [
            f"## {lang}: threshold {final:.2f} for related pairs (own {own[lang]:.2f}, margin "
            f"{margin})",
            "",
            md_table(
                [
                    "margin",
                    "thresholds",
                    "left-out C precision / recall",
                    "sources < 0.95",
                    "guarded: precision / recall",
                    "sources < 0.95",
                ],
                [
                    [
                        r["margin"],
                        " ".join(f"{t:.2f}" for t in r["thresholds"]),
                        f"{fmt(r['precision'])} / {fmt(r['recall'])}",
                        r["under"],
                        *(
                            [
                                f"{fmt(r['guarded']['precision'])} / {fmt(r['guarded']['recall'])}",
                                r["guarded"]["under"],
                            ]
                            if "guarded" in r
                            else ["", ""]
                        ),
                    ]
                    for r in rows
                ],
            ),
            "",
        ]
        if check:
            lines += [
                f"Choose sets ({', '.join(sorted(fresh))}), C precision / recall (closes): "
                + "; ".join(
                    f"{k} {fmt(v['precision'])} / {fmt(v['recall'])} ({v['closes']})"
                    for k, v in check.items()
                )
                + ".",
                "",
            ]
    return finish(lines, report, args.out)


if __name__ == "__main__":
    raise SystemExit(main())

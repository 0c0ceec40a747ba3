"""Dedup's operating point: caught vs wrongly dropped, LOSO and nested, for several rules.

Reads every source's pairs once per embedder (as ``bench/train_dedup.py`` does) and, for each
rule of ``--rules`` (``_train_dedup_choice.Rule``: ``fold:L`` drops at most L on every left-out
fold, ``pooled:L`` over all folds' pairs, ``pooled:L/C`` with a cap C on every fold), makes the
choices ``train_dedup.py`` would make under it: the floors whose nested LOSO holds the target,
the floor and thresholds of the most paraphrases caught (LOSO), and the nested LOSO in which
each fold's choices are made on the other sources only (the estimate for unseen data). A
source's LOSO scores do not depend on the rule, so they are computed once per floor and
reused. Each cell: mean caught over the folds / pooled drops / the worst fold's drops; then
the ``--show`` sources' own nested rows (caught / dropped) under each rule.

    PYTHONPATH=src OMP_NUM_THREADS=1 python bench/dedup_rule_curve.py --cache PATH
        [--rules fold:0.02,fold:0.025,...] [--embedder e5,use] [--show dedup_holdout14,...]
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np

import _train_dedup_choice as choice_mod
from _train_dedup_choice import Rule, choose, nested, rates, safe_margins
from _train_dedup_data import CACHE, SOURCES, load, read
from lib.cli import parser
from lib.reports import emit, md_table
from omoide.config import PersonaSettings

RULES = (
    "fold:0.02,fold:0.025,fold:0.03,pooled:0.01,pooled:0.0125,pooled:0.015,"
    "pooled:0.0175,pooled:0.02,pooled:0.015/0.03,pooled:0.02/0.03"
)
_LOSO: dict[tuple, np.ndarray] = {}
_plain_loso = choice_mod.loso


def _cached_loso(rows, sources, floor, l2):  # type: ignore[no-untyped-def]
    key = (id(rows), tuple(sources), round(float(floor), 9), l2)
    if key not in _LOSO:
        _LOSO[key] = _plain_loso(rows, sources, floor, l2)
    return _LOSO[key]


def _cells(rows, decided: np.ndarray) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    per_fold = [rates(decided, rows, rows.source == s) for s in SOURCES]
    _, pooled = rates(decided, rows, np.ones(len(rows.label), dtype=bool))
    return (
        float(np.mean([c for c, _ in per_fold])),
        pooled,
        float(np.max([d for _, d in per_fold])),
    )


def main(argv: list[str] | None = None) -> int:
    bench = parser(__doc__, out=None)
    bench.add_argument("--embedder", default="e5,use")
    bench.add_argument("--rules", default=RULES)
    bench.add_argument("--l2", type=float, default=10.0)
    bench.add_argument("--margins", default="0,0.01,0.02,0.03,0.04,0.05")
    bench.add_argument("--show", default="dedup_holdout25,dedup_holdout26,dedup_holdout27")
    bench.add_argument("--cache", type=Path, default=None)
    args = bench.parse_args(argv)
    if args.cache is not None and args.cache.is_file():
        CACHE.update(pickle.loads(args.cache.read_bytes()))
    choice_mod.loso = _cached_loso  # the same scores for every rule
    setting = PersonaSettings().dedup_threshold
    margins = [float(m) for m in args.margins.split(",")]
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    show = [s.strip() for s in args.show.split(",") if s.strip()]
    pairs = load(SOURCES)
    lines = [
        "# Dedup's rule curve",
        "",
        f"`python bench/dedup_rule_curve.py {' '.join(sys.argv[1:] if argv is None else argv)}` on "
        f"{len(pairs)} pairs "
        f"of {len(SOURCES)} sources. Each cell: mean caught over the folds / related "
        "pairs wrongly dropped pooled / worst fold.",
        "",
    ]
    payload: dict[str, dict] = {}
    for name in [n.strip() for n in args.embedder.split(",") if n.strip()]:
        rows, _, _, calibration = read(name, "use", pairs, plain=False)
        table, shown = [], []
        payload[name] = {}
        for text in rules:
            rule = Rule.parse(text)
            kept = safe_margins(rows, calibration, margins, args.l2, setting, rule)
            chosen, p = choose(rows, SOURCES, calibration, kept, args.l2, setting, rule)
            raw = calibration.to_raw(setting)
            loso_cells = _cells(rows, choice_mod.decide(rows, p, raw, chosen))
            decided, _ = nested(rows, calibration, kept, args.l2, setting, rule)
            nested_cells = _cells(rows, decided)
            table.append(
                [
                    text,
                    ", ".join(map(str, kept)),
                    f"{chosen.margin} / {chosen.threshold} / {chosen.floor_threshold}",
                    "{:.1%} / {:.1%} / {:.1%}".format(*loso_cells),
                    "{:.1%} / {:.1%} / {:.1%}".format(*nested_cells),
                ]
            )
            shown.append(
                [
                    text,
                    *(
                        "{:.1%} / {:.1%}".format(*rates(decided, rows, rows.source == s))
                        for s in show
                    ),
                ]
            )
            payload[name][text] = {
                "loso": loso_cells,
                "nested": nested_cells,
                "kept": kept,
                "choice": chosen.__dict__,
            }
            print(name, *table[-1], *shown[-1][1:], flush=True)
        lines += [
            f"## {name}",
            "",
            md_table(["rule", "floors kept", "floor / threshold / band", "LOSO", "nested"], table),
            "",
            md_table(["rule", *(f"{s} nested" for s in show)], shown),
            "",
        ]
    if args.cache is not None:
        args.cache.write_bytes(pickle.dumps(CACHE))
    if args.out is not None:
        emit(args, "\n".join(lines), payload)
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

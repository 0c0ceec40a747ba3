"""A replaced-value bar for one-sentence notes (``note_judge.NOTE_REPLACED_THRESHOLDS``), chosen
by nested leave-one-set-out on the notes sets the packaged judge was not fitted on, then scored
on the choose sets without refitting.

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/note_replaced.py \\
        --cache DIR --work DIR --out bench/results/classify_notes_replaced33   # → .md and .json

The statements' replaced-value tier (``JudgeModel.replaced_thresholds``, session 33,
``bench/results/classify_replaced.md``) leaves a note at the note bar (``NOTE_THRESHOLDS``).
This measures the same shape on the note path: the judge's likelier non-C reading EXTENDABLE,
the rules reading the undated pair as related with a value of the old memory replaced
(``note_judge.replaced_note``). Each set is read as notes once by the server's classifier with
the tier at the grid's floor; a pair's verdict at bar t is CONTRADICTORY when the tier closed it
with probability ≥ t, else EXTENDABLE (the verdict under the note bar) for those pairs, and the
run's verdict for every other pair. The rule, per language, is ``classify_replaced``'s: the bar
of ``GRID`` under the language's note bar with the highest mean per-set macro-F1 among those
where the Wilson lower bound (z = 1) of the sets' pooled C precision (every close of the
language) stays ≥ 0.95; never when none beats leaving it off. ``--work`` keeps each set's rows
(a pickle per set), so sets can be read by separate runs (``--sets``) and the report written
from the kept rows.
"""

from __future__ import annotations

import math
import pickle
from dataclasses import replace
from pathlib import Path

from _classify_common import load_pairs
from _classify_data import NOTES
from _classify_tiers import Row, choose, pooled, tally
from classify import build_classifier, predict
from classify_replaced import line, shown
from lib.cli import parser
from lib.reports import command_line, finish, md_table
from omoide.engine.classify import NOTE_REPLACED_THRESHOLDS, NOTE_THRESHOLDS

FLOOR = 0.50
GRID = tuple(round(FLOOR + 0.01 * i, 2) for i in range(49))  # 0.50 - 0.98
SOURCES = tuple(f"notes{n}" for n in range(22, 29))  # not fitted on (judge.json trained_on)
CHOOSE = ("notes29", "notes30")
MARK = "; a value replaced ("
TIER = f" ≥ {FLOOR:.2f})"


def rows_of(name: str, classifier: object, work: Path) -> list[Row]:
    kept = work / f"{name}.pkl"
    if kept.is_file():
        return pickle.loads(kept.read_bytes())
    rows: list[Row] = []
    for p in predict(load_pairs(NOTES[name]), classifier, notes=True):
        tier = p.label == "CONTRADICTORY" and MARK in p.reason and p.reason.endswith(TIER)
        rows.append((replace(p, label="EXTENDABLE"), p.confidence) if tier else (p, None))
    kept.write_bytes(pickle.dumps(rows))
    return rows


def added(rows: list[Row], lang: str, t: float) -> tuple[int, int]:
    """The tier's closes at ``t``: right, all."""
    mine = [(b, p) for b, p in rows if b.pair.lang == lang and p is not None and p >= t]
    return sum(b.pair.label == "CONTRADICTORY" for b, _ in mine), len(mine)


def main() -> int:
    bench = parser(__doc__, out=None)
    bench.add_argument("--cache", type=Path, default=None)
    bench.add_argument("--work", type=Path, required=True)
    bench.add_argument("--sets", nargs="*", default=None, help="only read these sets' rows")
    args = bench.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    NOTE_REPLACED_THRESHOLDS.update({lang: FLOOR for lang in NOTE_THRESHOLDS})
    classifier, note = build_classifier("offline", "e5", args.cache)
    if args.sets:
        for name in args.sets:
            print(f"  {name}: {len(rows_of(name, classifier, args.work))} pairs", flush=True)
        return 0
    held = {name: rows_of(name, classifier, args.work) for name in SOURCES}
    fresh = {name: rows_of(name, classifier, args.work) for name in CHOOSE}
    header = ["", "macro-F1", "C precision (right/closes)", "C recall", "sets < 0.95", "added"]
    report: dict[str, object] = {"command": command_line(), "classifier": note, "languages": {}}
    lines = [
        "# A replaced-value bar for one-sentence notes, nested leave-one-set-out",
        "",
        f"    {command_line()}",
        "",
        f"Classifier: {note}, new memories read as notes; note bars {NOTE_THRESHOLDS}. "
        f"Sets chosen on (not fitted on): {', '.join(SOURCES)}. Choose sets, scored only: "
        f"{', '.join(CHOOSE)}.",
        "",
    ]
    for lang in ("en", "ja"):
        own = NOTE_THRESHOLDS[lang]
        chosen, before, after, plus = {}, [], [], [0, 0]
        for left, rows in held.items():
            t = choose([r for s, r in held.items() if s != left], lang, own, GRID)
            chosen[left] = shown(t)
            before.append(tally(rows, lang, math.inf))
            after.append(tally(rows, lang, t))
            plus = [a + b for a, b in zip(plus, added(rows, lang, t), strict=True)]
        final = choose(list(held.values()), lang, own, GRID)
        table = [[*line("left-out sets (nested LOSO)", pooled(before), pooled(after)), plus]]
        for name, rows in fresh.items():
            b, a = pooled([tally(rows, lang, math.inf)]), pooled([tally(rows, lang, final)])
            table.append([*line(name, b, a), list(added(rows, lang, final))])
        report["languages"][lang] = {"bar": shown(final), "folds": chosen, "rows": table}
        lines += [
            f"## {lang}: bar {shown(final)} (note bar {own:.2f}; left-out sets chose "
            f"{', '.join(f'{k} {v}' for k, v in chosen.items())})",
            "",
            md_table(header, [[str(c) for c in r] for r in table]),
            "",
        ]
    return finish(lines, report, args.out)


if __name__ == "__main__":
    raise SystemExit(main())

"""Which confusions cost the 3-op classifier the most macro-F1, per language and group of sets.

    PYTHONPATH=src OMP_NUM_THREADS=1 .venv/bin/python bench/classify_confusions.py \\
        --cache DIR --out bench/results/classify_confusions   # → .md and .json

Every seen classify set (``_classify_data``: the pairs file, the writers' holdout sets, the
short sets and the notes sets, read as statements) is classified once by the server's
classifier (``classify.build_classifier``: the rules and the packaged judge on e5), the way
``bench/classify.py`` scores one file. The sets fall in three groups: ``fitted`` (the sources
the packaged judge was fitted on, ``judge.json``'s ``trained_on``: its scores there are its
fit), ``held-out`` (seen sources the packaged judge was not fitted on: the estimate for a new
writer) and ``choose`` (``classify_split.CHOOSE``, the freshest seen writers). Per group and
language: per-class F1 (the mean over the group's sets, as the issue's macro-F1 is a mean of
sets, and pooled), C precision / recall, the six confusion counts, and what each confusion
costs: the mean macro-F1 gained were that cell's pairs right, with the rule or the judge's
"rule said" reading that made them (``--top`` most common per cell). ``--sets`` names some
sets only. Prints and writes ``--out``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import replace
from importlib import resources
from pathlib import Path

from _classify_common import DEFAULT_PAIRS, LABELS, load_pairs
from _classify_data import HOLDOUTS, NOTES
from classify import Prediction, build_classifier, predict, score
from classify_split import CHOOSE
from lib.cli import parser
from lib.reports import fmt, md_table, write_results

GROUPS = ("fitted", "held-out", "choose")
_RULE = re.compile(r"rule said (\w+)|^rule: (.+)$")


def trained_on() -> set[str]:
    """The file names the packaged judge was fitted on."""
    text = resources.files("omoide.engine.classify").joinpath("judge.json").read_text()
    return set(json.loads(text).get("trained_on", ()))


def group_of(name: str, path: Path, fitted: set[str]) -> str:
    if name in CHOOSE:
        return "choose"
    return "fitted" if path.name in fitted else "held-out"


def mean_macro(predictions: list[Prediction]) -> float:
    """The mean over sets of each set's macro-F1 (``classify.score``)."""
    by_set: dict[str, list[Prediction]] = defaultdict(list)
    for p in predictions:
        by_set[p.pair.split].append(p)
    return sum(float(score(v)["macro_f1"]) for v in by_set.values()) / max(len(by_set), 1)


def reading(p: Prediction) -> str:
    """The rule behind a verdict: the deciding rule, or the one the judge was told of."""
    match = _RULE.search(p.reason)
    return (match.group(1) or match.group(2)).split(" (")[0] if match else p.reason[:30]


def summarise(predictions: list[Prediction], top: int) -> dict[str, object]:
    by_set: dict[str, list[Prediction]] = defaultdict(list)
    for p in predictions:
        by_set[p.pair.split].append(p)
    scores = [score(v) for v in by_set.values()]
    pooled = score(predictions)
    base = mean_macro(predictions)
    cells = {}
    for gold in LABELS:
        for said in LABELS:
            if gold == said:
                continue
            wrong = [p for p in predictions if p.pair.label == gold and p.label == said]
            fixed = [
                replace(p, label=gold) if p.pair.label == gold and p.label == said else p
                for p in predictions
            ]
            cells[f"{gold[0]}->{said[0]}"] = {
                "count": len(wrong),
                "cost": round(mean_macro(fixed) - base, 4),
                "readings": Counter(reading(p) for p in wrong).most_common(top),
            }
    return {
        "sets": len(by_set),
        "n": len(predictions),
        "mean_macro_f1": round(base, 4),
        "f1": {
            lb: round(sum(float(s["per_label"][lb]["f1"]) for s in scores) / len(scores), 4)
            for lb in LABELS
        },
        "pooled": pooled["per_label"],
        "confusions": cells,
    }


def render(report: dict[str, dict[str, dict]]) -> str:
    lines = ["# Where the 3-op classifier loses macro-F1", "", report.pop("_note"), ""]  # type: ignore[arg-type]
    rows = []
    for group, langs in report.items():
        for lang, r in langs.items():
            c = r["confusions"]
            rows.append(
                [
                    group,
                    lang,
                    r["sets"],
                    r["n"],
                    fmt(r["mean_macro_f1"]),
                    *(fmt(r["f1"][lb]) for lb in LABELS),
                    fmt(r["pooled"]["CONTRADICTORY"]["precision"]),
                    fmt(r["pooled"]["CONTRADICTORY"]["recall"]),
                    *(f"{c[k]['count']} (+{c[k]['cost']:.3f})" for k in sorted(c)),
                ]
            )
    cells = sorted(next(iter(next(iter(report.values())).values()))["confusions"])
    lines.append(
        md_table(
            [
                "group",
                "lang",
                "sets",
                "pairs",
                "mean macro-F1",
                *(f"F1 {lb[0]}" for lb in LABELS),
                "C precision",
                "C recall",
                *(f"{k} (cost)" for k in cells),
            ],
            rows,
        )
    )
    lines += ["", "## The readings behind each confusion", ""]
    for group, langs in report.items():
        for lang, r in langs.items():
            for cell, v in sorted(r["confusions"].items(), key=lambda kv: -kv[1]["cost"]):
                shown = ", ".join(f"{name} {n}" for name, n in v["readings"])
                lines.append(f"- {group} {lang} {cell} ({v['count']}, +{v['cost']:.3f}): {shown}")
    return "\n".join(lines) + "\n"


def main() -> int:
    bench = parser(__doc__, out=None, data=DEFAULT_PAIRS)
    bench.add_argument("--cache", type=Path, default=None)
    bench.add_argument("--sets", nargs="*", default=None)
    bench.add_argument("--top", type=int, default=4)
    args = bench.parse_args()
    classifier, note = build_classifier("offline", "e5", args.cache)
    sources = {"pairs": args.data, **HOLDOUTS, **NOTES}
    fitted = trained_on()
    grouped: dict[tuple[str, str], list[Prediction]] = defaultdict(list)
    for name, path in sources.items():
        if (args.sets and name not in args.sets) or not path.is_file():
            continue
        pairs = [replace(p, split=name) for p in load_pairs(path)]
        for pred in predict(pairs, classifier):
            grouped[(group_of(name, path, fitted), pred.pair.lang)].append(pred)
    report: dict[str, object] = {"_note": f"Classifier: {note}; notes sets read as statements."}
    for group in GROUPS:
        langs = {
            lang: summarise(preds, args.top)
            for (g, lang), preds in sorted(grouped.items())
            if g == group
        }
        if langs:
            report[group] = langs
    text = render(dict(report))  # type: ignore[arg-type]
    print(text)
    if args.out:
        write_results(args.out, text, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Paired comparison of search plans from ``bench/locomo.py --details`` files.

``locomo.py --reuse COPY --now ISO --plan default,A,B --details FILE`` scores every plan on the
same questions; this reads such files and prints, for each plan against the baseline plan
(``default`` unless ``--baseline`` says otherwise), evidence recall / containment per
conversation and overall, and the paired difference over the questions with a bootstrap 95%
interval (``locomo_budget.bootstrap``: 2,000 resamples of the questions), how many questions
moved up and down in recall, and the difference in recall per LoCoMo category. Questions are
paired by conversation, question text, category and evidence; a plan missing a question of the
baseline is an error.

A file given as ``FILE=NAME`` has its ``default`` plan renamed ``NAME``: two folders (e.g. notes
made by two consolidator variants, ``bench/locomo_reconsolidate.py``) scored with
``--plan default`` then pair as two plans.

Usage::

    .venv/bin/python bench/locomo_paired.py FILE[=NAME] [FILE[=NAME] ...] [--baseline default]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from locomo_budget import bootstrap

Key = tuple[str, str, int, tuple[str, ...]]


@dataclass(frozen=True)
class Comparison:
    plan: str
    recall: float  # mean over questions with evidence
    contained: float
    delta_recall: float
    recall_interval: tuple[float, float]
    delta_contained: float
    contained_interval: tuple[float, float]
    up: int
    down: int
    by_category: dict[int, float]  # mean recall difference per category


def by_plan(rows: Iterable[dict[str, Any]]) -> dict[str, dict[Key, dict[str, Any]]]:
    """Each ``plan:NAME`` system's rows keyed by question (other systems are left out)."""
    plans: dict[str, dict[Key, dict[str, Any]]] = defaultdict(dict)
    for row in rows:
        system = row["system"]
        if system.startswith("plan:"):
            key = (
                row["conversation"],
                row["question"],
                int(row["category"]),
                tuple(row["evidence"]),
            )
            plans[system.removeprefix("plan:")][key] = row
    return dict(plans)


def means(rows: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """(evidence recall over questions with evidence, containment over all)."""
    recalls = [r["recall"] for r in rows if r["evidence"]]
    return (
        sum(recalls) / len(recalls) if recalls else 0.0,
        sum(float(r["contained"]) for r in rows) / len(rows) if rows else 0.0,
    )


def compare(
    base: dict[Key, dict[str, Any]], other: dict[Key, dict[str, Any]], plan: str
) -> Comparison:
    missing = [k for k in base if k not in other]
    if missing:
        raise SystemExit(f"plan {plan!r} lacks {len(missing)} of the baseline's questions")
    keys = list(base)
    with_evidence = [k for k in keys if base[k]["evidence"]]
    dr = [other[k]["recall"] - base[k]["recall"] for k in with_evidence]
    dc = [float(other[k]["contained"]) - float(base[k]["contained"]) for k in keys]
    per: dict[int, list[float]] = defaultdict(list)
    for k, d in zip(with_evidence, dr, strict=True):
        per[k[2]].append(d)
    recall, contained = means([other[k] for k in keys])
    return Comparison(
        plan=plan,
        recall=recall,
        contained=contained,
        delta_recall=sum(dr) / len(dr) if dr else 0.0,
        recall_interval=bootstrap(dr) if dr else (0.0, 0.0),
        delta_contained=sum(dc) / len(dc) if dc else 0.0,
        contained_interval=bootstrap(dc) if dc else (0.0, 0.0),
        up=sum(1 for d in dr if d > 0),
        down=sum(1 for d in dr if d < 0),
        by_category={c: sum(v) / len(v) for c, v in sorted(per.items())},
    )


def report(plans: dict[str, dict[Key, dict[str, Any]]], baseline: str) -> list[str]:
    if baseline not in plans:
        raise SystemExit(f"no plan:{baseline} rows; plans found: {', '.join(sorted(plans))}")
    base = plans[baseline]
    convs = sorted({k[0] for k in base})

    def split(rows: dict[Key, dict[str, Any]]) -> str:
        parts = []
        for conv in [*convs, None]:
            recall, contained = means(
                [r for k, r in rows.items() if k in base and (conv is None or k[0] == conv)]
            )
            parts.append(f"{recall:.3f} / {contained:.3f}")
        return " | ".join(parts)

    lines = [f"plan ({' | '.join(convs)} | all)", f"{baseline}: {split(base)}"]
    for name in sorted(p for p in plans if p != baseline):
        c = compare(base, plans[name], name)
        cats = " ".join(f"{cat}: {d:+.3f}" for cat, d in c.by_category.items())
        lines.append(
            f"{name}: {split(plans[name])}; Δ recall {c.delta_recall:+.3f} "
            f"[{c.recall_interval[0]:+.3f}, {c.recall_interval[1]:+.3f}] (up {c.up}, down "
            f"{c.down}); Δ containment {c.delta_contained:+.3f} [{c.contained_interval[0]:+.3f}, "
            f"{c.contained_interval[1]:+.3f}]; Δ recall by category {cats}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="FILE or FILE=NAME")
    parser.add_argument("--baseline", default="default")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for item in args.files:
        path, _, name = item.partition("=")
        for row in json.loads(Path(path).read_text(encoding="utf-8")):
            if name and row["system"] == "plan:default":
                row["system"] = f"plan:{name}"
            rows.append(row)
    print("\n".join(report(by_plan(rows), args.baseline)))


if __name__ == "__main__":
    main()

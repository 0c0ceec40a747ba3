"""Probe: what each kind of result spends of the 1,000 tokens and what it brings, per category.

Reads a ``bench/locomo.py --details FILE`` (its rows list each question's ranked results with
their kind, cited turns and characters, and how many fitted the budget) and prints, for one
plan's row per LoCoMo category: results per question by kind (note / episode excerpt),
characters per turn each kind shows, evidence turns each kind brings per question and per 1,000
characters, the sessions the budget reaches, and of a question's evidence sessions how many the
budget reaches. No search is run, so it takes a second.

    python bench/locomo_budget_mix.py DETAILS [--plan default]
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lib.metrics import CATEGORIES

KINDS = ("note", "episode")


def session_of(dia_id: str) -> str:
    """A LoCoMo turn id's session ("D3:12" → "D3")."""
    return dia_id.split(":", 1)[0]


def mix(rows: Sequence[dict[str, Any]]) -> dict[int, dict[str, float]]:
    """Sums per category of what the budget held (see the module docstring)."""
    sums: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        top = row["top"] if isinstance(row["top"], list) else ast.literal_eval(row["top"])
        evidence = set(row["evidence"])
        cat = sums[int(row["category"])]
        cat["questions"] += 1
        reached: set[str] = set()
        for result in top[: row["included"]]:
            kind, turns = result["kind"], set(result["dia_ids"])
            cat[f"{kind}_results"] += 1
            cat[f"{kind}_chars"] += result["chars"]
            cat[f"{kind}_turns"] += len(turns)
            cat[f"{kind}_evidence"] += len(evidence & turns)
            reached |= {session_of(t) for t in turns}
        wanted = {session_of(t) for t in evidence}
        cat["sessions"] += len(reached)
        cat["evidence_sessions"] += len(wanted)
        cat["evidence_sessions_reached"] += len(wanted & reached)
    return sums


def report(sums: dict[int, dict[str, float]]) -> list[str]:
    head = ["category", "q"]
    for kind in KINDS:
        head += [
            f"{kind}s / q",
            f"{kind} chars / turn",
            f"{kind} evidence / q",
            f"{kind} evidence / 1k chars",
        ]
    head += ["sessions in budget", "evidence sessions / reached"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for category in sorted(sums):
        s, q = sums[category], sums[category]["questions"]
        cells = [CATEGORIES.get(category, str(category)), str(int(q))]
        for kind in KINDS:
            chars = s[f"{kind}_chars"]
            cells += [
                f"{s[f'{kind}_results'] / q:.1f}",
                f"{chars / max(1.0, s[f'{kind}_turns']):.0f}",
                f"{s[f'{kind}_evidence'] / q:.2f}",
                f"{1000 * s[f'{kind}_evidence'] / max(1.0, chars):.2f}",
            ]
        cells += [
            f"{s['sessions'] / q:.1f}",
            f"{s['evidence_sessions'] / q:.2f} / {s['evidence_sessions_reached'] / q:.2f}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("details", type=Path, help="A bench/locomo.py --details file.")
    parser.add_argument("--plan", default="default", help="The plan whose rows to read.")
    args = parser.parse_args(argv)
    rows = [
        r
        for r in json.loads(args.details.read_text(encoding="utf-8"))
        if r["system"] == f"plan:{args.plan}"
    ]
    if not rows:
        raise SystemExit(f"no rows of plan:{args.plan} in {args.details}")
    print("\n".join(report(mix(rows))))


if __name__ == "__main__":
    main()

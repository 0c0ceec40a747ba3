"""Probe: where the tuning / validation gap of LoCoMo comes from, from a ``--details`` file.

Reads a ``bench/locomo.py --details FILE`` and prints, for one system (``omoide``, the HTTP
server's row, or ``plan:NAME``), aggregate numbers only (no question text is printed, so the
validation split can be broken down without being read):

- per category, evidence recall / containment on each split side by side, with each split's
  question count;
- the gap split into its two parts: what the category mix explains (validation's total if every
  category scored as on tuning) and what the per-category scores explain;
- per conversation and category, evidence recall;
- within a category, recall by the number of evidence turns a question has (1, 2, 3+), with each
  split's counts, so a harder mix inside a category shows;
- where each split's evidence turns are: cited inside the budget, by a result below it among
  the first 15, or by none of those.

    python bench/locomo_split_gap.py DETAILS [--system omoide] [--tuning 26,30,41]
        [--validation 42,43]
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lib.metrics import CATEGORIES


@dataclass
class Cell:
    """Sums over a set of questions: recall over those with evidence, containment over all."""

    questions: int = 0
    with_evidence: int = 0
    recall_sum: float = 0.0
    contained: int = 0

    def add(self, row: dict[str, Any]) -> None:
        self.questions += 1
        self.contained += bool(row["contained"])
        if row["evidence"]:
            self.with_evidence += 1
            self.recall_sum += float(row["recall"])

    @property
    def recall(self) -> float:
        return self.recall_sum / self.with_evidence if self.with_evidence else 0.0

    @property
    def containment(self) -> float:
        return self.contained / self.questions if self.questions else 0.0


def _top(row: dict[str, Any]) -> list[dict[str, Any]]:
    top = row["top"]
    return top if isinstance(top, list) else ast.literal_eval(top)


def evidence_band(row: dict[str, Any]) -> str:
    """A question's number of evidence turns as a band: "1", "2" or "3+"."""
    n = len(set(row["evidence"]))
    return "3+" if n >= 3 else str(n)


def split_cells(rows: Sequence[dict[str, Any]], key) -> dict[Any, Cell]:
    cells: dict[Any, Cell] = defaultdict(Cell)
    for row in rows:
        cells[key(row)].add(row)
    return cells


def mix_adjusted(
    source: dict[Any, Cell], target: dict[Any, Cell], fallback: dict[Any, Cell] | None = None
) -> tuple[float, float]:
    """(recall, containment) of ``target``'s mix of cells scored at ``source``'s numbers per
    cell. A cell ``source`` lacks takes ``fallback``'s cell of the same category (its key's
    first part) when given."""

    def cell(key: Any) -> Cell:
        found = source.get(key)
        if (found is None or not found.questions) and fallback is not None:
            return fallback[key[0]]
        return found if found is not None else Cell()

    ev = sum(c.with_evidence for c in target.values())
    qs = sum(c.questions for c in target.values())
    recall = sum(c.with_evidence * cell(k).recall for k, c in target.items()) / ev
    contained = sum(c.questions * cell(k).containment for k, c in target.items()) / qs
    return recall, contained


def category_band(row: dict[str, Any]) -> tuple[int, str]:
    return int(row["category"]), evidence_band(row)


def where(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Share of evidence turns cited inside the budget, by a result below it among the first 15
    (the ``--details`` rows keep 15), or by none of those."""
    counts = {"in budget": 0, "below it in the first 15": 0, "beyond the 15th or in none": 0}
    for row in rows:
        top = _top(row)
        inside = {t for r in top[: row["included"]] for t in r["dia_ids"]}
        ranked = {t for r in top for t in r["dia_ids"]}
        for turn in set(row["evidence"]):
            place = (
                "in budget"
                if turn in inside
                else "below it in the first 15"
                if turn in ranked
                else "beyond the 15th or in none"
            )
            counts[place] += 1
    total = sum(counts.values()) or 1
    return {k: v / total for k, v in counts.items()}


def report(rows: Sequence[dict[str, Any]], tuning: set[str], validation: set[str]) -> list[str]:
    split_of = {**{c: "tuning" for c in tuning}, **{c: "validation" for c in validation}}
    rows = [r for r in rows if r["conversation"] in split_of]
    by_split = {
        s: [r for r in rows if split_of[r["conversation"]] == s] for s in ("tuning", "validation")
    }
    cat = {s: split_cells(by_split[s], lambda r: int(r["category"])) for s in by_split}
    total = {s: split_cells(by_split[s], lambda r: "all")["all"] for s in by_split}
    out = [
        "## Per category, both splits (evidence recall / containment)",
        "",
        "| category | tuning q | validation q | tuning | validation | Δ recall | Δ containment |",
        "|---|---|---|---|---|---|---|",
    ]
    for k in sorted(CATEGORIES):
        t, v = cat["tuning"][k], cat["validation"][k]
        out.append(
            f"| {CATEGORIES[k]} | {t.questions} | {v.questions} | "
            f"{t.recall:.3f} / {t.containment:.3f} | {v.recall:.3f} / {v.containment:.3f} "
            f"| {v.recall - t.recall:+.3f} | {v.containment - t.containment:+.3f} |"
        )
    t, v = total["tuning"], total["validation"]
    out.append(
        f"| all | {t.questions} | {v.questions} | {t.recall:.3f} / {t.containment:.3f} | "
        f"{v.recall:.3f} / {v.containment:.3f} | {v.recall - t.recall:+.3f} | "
        f"{v.containment - t.containment:+.3f} |"
    )
    adj_v = mix_adjusted(cat["tuning"], cat["validation"])
    adj_t = mix_adjusted(cat["validation"], cat["tuning"])
    bands = {s: split_cells(by_split[s], category_band) for s in by_split}
    adj_b = mix_adjusted(bands["tuning"], bands["validation"], fallback=cat["tuning"])
    out += [
        "",
        "## The gap: category mix or per-category scores",
        "",
        "| | recall | containment |",
        "|---|---|---|",
        f"| tuning | {t.recall:.3f} | {t.containment:.3f} |",
        f"| validation | {v.recall:.3f} | {v.containment:.3f} |",
        f"| validation's mix at tuning's per-category numbers | {adj_v[0]:.3f} | {adj_v[1]:.3f} |",
        f"| tuning's mix at validation's per-category numbers | {adj_t[0]:.3f} | {adj_t[1]:.3f} |",
        f"| validation's mix of category × evidence turns (1, 2, 3+) at tuning's numbers "
        f"| {adj_b[0]:.3f} | {adj_b[1]:.3f} |",
        f"| gap (validation − tuning) | {v.recall - t.recall:+.3f} | "
        f"{v.containment - t.containment:+.3f} |",
        f"| …of which the mix (adjusted − tuning) | {adj_v[0] - t.recall:+.3f} | "
        f"{adj_v[1] - t.containment:+.3f} |",
        f"| …of which the per-category scores (validation − adjusted) | "
        f"{v.recall - adj_v[0]:+.3f} | {v.containment - adj_v[1]:+.3f} |",
        f"| …of which the finer mix, category × evidence turns | {adj_b[0] - t.recall:+.3f} "
        f"| {adj_b[1] - t.containment:+.3f} |",
    ]
    convs = sorted(tuning) + sorted(validation)
    per = split_cells(rows, lambda r: (r["conversation"], int(r["category"])))
    conv_all = split_cells(rows, lambda r: r["conversation"])
    out += [
        "",
        "## Per conversation (evidence recall / containment; questions)",
        "",
        "| conversation | " + " | ".join(CATEGORIES[k] for k in sorted(CATEGORIES)) + " | all |",
        "|---" * (len(CATEGORIES) + 2) + "|",
    ]
    for conv in convs:
        cells = [
            f"{per[(conv, k)].recall:.3f} / {per[(conv, k)].containment:.3f} "
            f"({per[(conv, k)].questions})"
            for k in sorted(CATEGORIES)
        ]
        a = conv_all[conv]
        out.append(
            f"| {conv} ({split_of[conv]}) | "
            + " | ".join(cells)
            + f" | {a.recall:.3f} / {a.containment:.3f} ({a.questions}) |"
        )
    out += [
        "",
        "## Within a category, by evidence turns per question (recall; questions)",
        "",
        "| category | evidence turns | tuning | validation |",
        "|---|---|---|---|",
    ]
    for k in sorted(CATEGORIES):
        band = {
            s: split_cells(
                [r for r in by_split[s] if int(r["category"]) == k and r["evidence"]], evidence_band
            )
            for s in by_split
        }
        for b in ("1", "2", "3+"):
            t, v = band["tuning"].get(b, Cell()), band["validation"].get(b, Cell())
            out.append(
                f"| {CATEGORIES[k]} | {b} | {t.recall:.3f} ({t.with_evidence}) | "
                f"{v.recall:.3f} ({v.with_evidence}) |"
            )
    out += [
        "",
        "## Where the evidence turns are (share of evidence turns)",
        "",
        "| category | tuning: in budget / below it in the first 15 / beyond the 15th or "
        "in none | validation |",
        "|---|---|---|",
    ]
    for k in [*sorted(CATEGORIES), None]:
        cells = []
        for s in ("tuning", "validation"):
            subset = [r for r in by_split[s] if k is None or int(r["category"]) == k]
            w = where(subset)
            cells.append(" / ".join(f"{w[p]:.3f}" for p in w))
        out.append(f"| {CATEGORIES[k] if k else 'all'} | " + " | ".join(cells) + " |")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("details", type=Path, help="A bench/locomo.py --details file.")
    parser.add_argument(
        "--system", default="omoide", help="The rows to read: omoide (HTTP) or plan:NAME."
    )
    parser.add_argument("--tuning", default="26,30,41")
    parser.add_argument("--validation", default="42,43")
    args = parser.parse_args(argv)
    rows = [
        r
        for r in json.loads(args.details.read_text(encoding="utf-8"))
        if r["system"] == args.system
    ]
    if not rows:
        raise SystemExit(f"no rows of {args.system} in {args.details}")
    print("\n".join(report(rows, set(args.tuning.split(",")), set(args.validation.split(",")))))


if __name__ == "__main__":
    main()

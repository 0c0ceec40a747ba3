"""How the note-closing rules (``engine.classify.note_close``) do on labelled note pairs.

    .venv/bin/python bench/note_close.py bench/data/classify_notes1.jsonl ... [--show]
    .venv/bin/python bench/note_close.py --pairs-of-old-as-note ...   (not needed: old as is)

For each file and language: how many CONTRADICTORY pairs the rules close (caught), how many
other pairs they close (false closes), then pooled precision with its Wilson 95% lower bound
and the largest number of false closes in one file (the bar: pooled precision >= 0.95 and no
file with more than one false close). ``--show`` prints every pair closed, marked true or false,
with the rules' reason. Reads only the files named on the command line.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path

from omoide.engine.classify.note_close import note_closes


def wilson_lower(hits: int, n: int, z: float = 1.96) -> float:
    """The Wilson score interval's lower bound of ``hits`` out of ``n`` (0 when n is 0)."""
    if n == 0:
        return 0.0
    p = hits / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def score(path: Path, show: bool) -> Counter:
    counts: Counter = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        pair = json.loads(line)
        lang, label = pair["lang"], pair["label"]
        counts[(lang, "C" if label == "CONTRADICTORY" else "other")] += 1
        finding = note_closes(pair["old"], pair["new"], lang)
        if finding is None:
            continue
        right = label == "CONTRADICTORY"
        counts[(lang, "caught" if right else "false")] += 1
        if show:
            mark = "TRUE " if right else f"FALSE({label[:3]})"
            print(f"  {mark} {pair['id']} [{finding.reason}]\n      old: {pair['old']}\n"
                  f"      new: {pair['new']}")
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--show", action="store_true", help="print every pair closed")
    args = ap.parse_args()
    total: Counter = Counter()
    worst = 0
    print("| file | lang | C | caught | recall | other | false closes |")
    print("|---|---|---|---|---|---|---|")
    for path in args.files:
        if show := args.show:
            print(f"{path.name}:")
        counts = score(path, show)
        total.update(counts)
        worst = max(worst, counts[("en", "false")] + counts[("ja", "false")])
        for lang in ("en", "ja"):
            c, caught = counts[(lang, "C")], counts[(lang, "caught")]
            print(f"| {path.stem} | {lang} | {c} | {caught} | {caught / (c or 1):.3f} | "
                  f"{counts[(lang, 'other')]} | {counts[(lang, 'false')]} |")
    for lang in ("en", "ja", None):
        langs = ("en", "ja") if lang is None else (lang,)
        caught = sum(total[(x, "caught")] for x in langs)
        false = sum(total[(x, "false")] for x in langs)
        c = sum(total[(x, "C")] for x in langs)
        closed = caught + false
        print(f"pooled {lang or 'all'}: closed {closed}, true {caught}, false {false}, "
              f"precision {caught / (closed or 1):.3f} (Wilson 95% lower "
              f"{wilson_lower(caught, closed):.3f}), recall {caught}/{c} = {caught / (c or 1):.3f}")
    print(f"most false closes in one file: {worst}")


if __name__ == "__main__":
    main()

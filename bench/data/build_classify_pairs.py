"""Build ``classify_pairs.jsonl`` from the hand-written batches in ``classify_batches/``.

    .venv/bin/python bench/data/build_classify_pairs.py

Each batch line is ``label|difficulty|kind|old|new|why`` (label C / E / I). Pairs are deduplicated
on their normalised text, given ids, and split once, before any tuning: within each language,
label and kind, in the order written, positions 2, 5, 8, 11, 14, 17 and 19 of every 20 go to
``validation`` (35%), the rest to ``train``. The English and Japanese batches were written side by
side, kind by kind, so a pair and its counterpart in the other language usually sit at the same
position and land in the same split (a translated twin in train would flatter validation).

The ``*_extra.psv`` batches (a second round) and ``*_extra2.psv`` (a third) were written later, for
training only: every pair in them is ``train``, and each round is read after the earlier ones so
earlier ids never change.
Their English and Japanese files mirror each other line by line; ``twin`` (the same number in
both) lets cross-validation keep a pair and its translation in one fold.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BATCHES = HERE / "classify_batches"
OUT = HERE / "classify_pairs.jsonl"
LABELS = {"C": "CONTRADICTORY", "E": "EXTENDABLE", "I": "INDEPENDENT"}
VALIDATION_POSITIONS = frozenset({2, 5, 8, 11, 14, 17, 19})


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def _round(path: Path) -> int:
    """0 for the first batches, 1 for ``*_extra``, 2 for ``*_extra2`` (read in that order)."""
    _, _, tail = path.stem.partition("_extra")
    return 0 if "_extra" not in path.stem else int(tail or 1)


def build() -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for path in sorted(BATCHES.glob("*.psv"), key=lambda p: (_round(p), p.name)):
        lang, extra = path.stem.split("_")[0], _round(path) > 0
        position: Counter[tuple[str, str]] = Counter()
        line_no = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            line_no += 1
            label, difficulty, kind, old, new, why = (f.strip() for f in line.split("|"))
            key = (_norm(old), _norm(new))
            if key in seen or key[0] == key[1]:
                continue
            seen.add(key)
            slot = position[(label, kind)]
            position[(label, kind)] += 1
            split = "validation" if slot % 20 in VALIDATION_POSITIONS and not extra else "train"
            row = {
                "lang": lang,
                "old": old,
                "new": new,
                "label": LABELS[label],
                "difficulty": difficulty,
                "kind": kind,
                "why": why,
                "split": split,
            }
            if extra:
                row["twin"] = f"{'xyz'[_round(path) - 1]}{line_no:03d}"
            rows.append(row)
    for i, row in enumerate(rows, 1):
        row["id"] = f"cp-{i:04d}"
    return [{"id": r["id"], **{k: v for k, v in r.items() if k != "id"}} for r in rows]


def main() -> int:
    rows = build()
    with OUT.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = Counter((r["split"], r["lang"], r["label"]) for r in rows)
    print(f"{len(rows)} pairs → {OUT.name}")
    for key in sorted(counts):
        print(" ", *key, counts[key])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

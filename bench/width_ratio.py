"""How many characters an English statement takes for a Japanese one's content, to set how
``engine.width.text_columns`` counts a wide character (``evolution_min_chars``).

1. The English and Japanese pairs of ``classify_pairs.jsonl`` written side by side for one value
   (its ``twin`` field): the English text's length over the Japanese one's, and the weight of a
   wide character that makes the two equal (per text, and least squares).
2. Every seen set with memory texts in both languages (the unseen sets are skipped by name): the
   share of texts under 30, English by ``len``, Japanese by a wide character counting w, the
   older sets (to choose w) apart from the newest writers (to check it).

    .venv/bin/python bench/width_ratio.py
"""

from __future__ import annotations

import json
import statistics
import sys
import unicodedata
from pathlib import Path

from lib.datasets import DATA_ROOT

DATA = Path(__file__).resolve().parent / "data"
SHARED = DATA_ROOT / "retrieval_ja" / "dev.jsonl"
UNSEEN = {
    "classify_holdout48",
    "classify_holdout49",
    "classify_notes27",
    "dedup_holdout36",
    "dedup_holdout37",
    "retrieval_holdout_k",
}
NEWEST = {
    "retrieval_holdout_j",
    "dedup_holdout34",
    "dedup_holdout35",
    "classify_holdout46",
    "classify_holdout47",
    "classify_notes26",
}
WEIGHTS = (1.0, 1.5, 2.0, 2.5, 3.0)


def wide(text: str) -> int:
    return sum(unicodedata.east_asian_width(c) in "WF" for c in text)


def weighted(text: str, w: float) -> float:
    return len(text) + (w - 1) * wide(text)


def twins() -> list[tuple[str, str]]:
    groups: dict[str, dict[str, list[dict]]] = {}
    for line in (DATA / "classify_pairs.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        if row.get("twin"):
            groups.setdefault(row["twin"], {}).setdefault(row["lang"], []).append(row)
    pairs = []
    for by_lang in groups.values():
        if len(by_lang.get("en", [])) == 1 and len(by_lang.get("ja", [])) == 1:
            en, ja = by_lang["en"][0], by_lang["ja"][0]
            pairs += [(en["old"], ja["old"]), (en["new"], ja["new"])]
    return list(dict.fromkeys(pairs))


def texts(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"en": [], "ja": []}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        if row.get("lang") in out and row.get("type") != "query":
            out[row["lang"]] += [
                row[f] for f in ("content", "a", "b", "old", "new") if isinstance(row.get(f), str)
            ]
    return {lang: list(dict.fromkeys(t)) for lang, t in out.items()}


def main() -> int:
    pairs = twins()
    ratio = [len(e) / len(j) for e, j in pairs]
    per = [(len(e) - (len(j) - wide(j))) / wide(j) for e, j in pairs if wide(j)]
    least = sum(wide(j) * (len(e) - len(j) + wide(j)) for e, j in pairs) / sum(
        wide(j) ** 2 for _, j in pairs
    )
    print(
        f"twins: {len(pairs)} text pairs; EN/JA characters median {statistics.median(ratio):.2f}"
        f"; wide-character weight median {statistics.median(per):.2f}, least squares "
        f"{least:.2f}"
    )
    groups = {"older": {"en": [], "ja": []}, "newest": {"en": [], "ja": []}}
    for path in [*sorted(DATA.glob("*.jsonl")), SHARED]:
        name = path.stem if path.stem != "dev" else path.parent.name
        if name in UNSEEN or not path.is_file():
            continue
        found = texts(path)
        if found["en"] and found["ja"]:
            for lang, t in found.items():
                groups["newest" if name in NEWEST else "older"][lang] += t
    for group, by_lang in groups.items():
        en, ja = by_lang["en"], by_lang["ja"]
        shares = ", ".join(
            f"w={w:g} {sum(weighted(t, w) < 30 for t in ja) / len(ja):.1%}" for w in WEIGHTS
        )
        print(
            f"{group}: {len(en)} EN, {len(ja)} JA texts; under 30: EN "
            f"{sum(len(t) < 30 for t in en) / len(en):.1%}; JA {shares}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

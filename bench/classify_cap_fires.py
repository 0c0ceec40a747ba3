"""Where the judge caps and text vetoes fire on the seen sources, by gold label (text only).

A cap (``judge_signals.JUDGE_CAPS``) or a veto blocks a close, so what matters is how many true
CONTRADICTORY pairs it could block against how many false closes it could prevent. Reads the
one-statement pairs of every source ``bench/classify_veto_fires.py`` reads (the pairs, the
writers' holdout sets, the notes sets, ``_classify_data``) and the files named by ``--extra``
(seen sets not yet among the training sources), reads each pair once (``read_pair``) for all
the signals at once, so one run counts them all where ``classify_veto_fires.py`` reads every
pair and sentence per signal. Prints a line per signal (language x gold label, and the fires on
C listed); ``--out`` also writes the fired pairs as JSON lines (with a ``caps`` field) for
``bench/classify.py --pairs``.

    PYTHONPATH=src .venv/bin/python bench/classify_cap_fires.py \\
        --extra bench/data/classify_holdout36.jsonl bench/data/classify_holdout37.jsonl \\
        bench/data/classify_notes17.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from _classify_common import load_pairs
from _classify_data import HOLDOUTS, NOTES
from lib.reports import REPO
from omoide.engine.classify import JUDGE_CAPS, TEXT_FEATURES, VETO_ONLY, one_statement, read_pair

SIGNALS = {name: TEXT_FEATURES.index(name) for name in JUDGE_CAPS + VETO_ONLY}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", nargs="*", type=Path, default=[])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    sources = {"pairs": REPO / "bench" / "data" / "classify_pairs.jsonl", **HOLDOUTS, **NOTES}
    sources |= {p.stem.removeprefix("classify_"): p for p in args.extra}
    counts = {name: Counter() for name in SIGNALS}
    on_c: dict[str, list[str]] = {name: [] for name in SIGNALS}
    out = args.out.open("w", encoding="utf-8") if args.out else None
    for source, path in sources.items():
        for p in load_pairs(path):
            if not one_statement(p.new, p.lang):
                continue
            features = read_pair(p.old, p.new, lang=p.lang).features
            fired = [name for name, column in SIGNALS.items() if features[column]]
            for name in fired:
                counts[name][(p.lang, p.label)] += 1
                if p.label == "CONTRADICTORY":
                    on_c[name].append(f"{source} {p.id}")
            if fired and out is not None:
                out.write(
                    json.dumps(
                        {
                            "id": p.id,
                            "lang": p.lang,
                            "old": p.old,
                            "new": p.new,
                            "label": p.label,
                            "source": source,
                            "caps": fired,
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
    for name, c in counts.items():
        row = ", ".join(
            f"{lang} {label[0]} {c[(lang, label)]}"
            for lang in ("en", "ja")
            for label in ("CONTRADICTORY", "EXTENDABLE", "INDEPENDENT")
        )
        print(f"{name}: {row}" + (f"; on C: {', '.join(on_c[name])}" if on_c[name] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

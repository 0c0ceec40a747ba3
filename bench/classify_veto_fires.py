"""Where a veto-only or close-only signal fires on the seen training pairs, by gold label.

A veto blocks a close whatever the model says (``judge_signals.VETO_ONLY``; a ``JUDGE_CAPS`` signal
blocks only the model's close), so the count that
matters is how many true CONTRADICTORY pairs it would block against how many false closes it
could prevent. A close-only signal (``judge_signals.SURE_ONLY``) closes whatever the model says:
there, what matters is how many pairs of the other two labels it fires on. Every training
source is read (the project's pairs, the held-out writers' sets and the notes sets,
``_classify_data``), both the whole pairs and, for a new memory of several sentences, each
sentence read alone (as the server reads a note). Text only: no embedder is needed. Writes
``bench/results/classify_veto_<signal>.md`` (+ ``.json``).

    PYTHONPATH=src .venv/bin/python bench/classify_veto_fires.py --veto two_identified_things
    PYTHONPATH=src .venv/bin/python bench/classify_veto_fires.py --signal changed_from_old
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from _classify_common import load_pairs
from _classify_data import HOLDOUTS, NOTES
from _classify_sentences import sentence_pairs
from lib.reports import REPO, RESULTS, md_table, write_results
from omoide.engine.classify import (
    JUDGE_CAPS,
    SURE_ONLY,
    TEXT_FEATURES,
    VETO_ONLY,
    one_statement,
    read_pair,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--veto", "--signal", dest="veto", choices=VETO_ONLY + SURE_ONLY + JUDGE_CAPS, required=True
    )
    parser.add_argument("--show", action="store_true", help="print every pair it fires on")
    args = parser.parse_args(argv)
    column = TEXT_FEATURES.index(args.veto)
    sources = {"pairs": REPO / "bench" / "data" / "classify_pairs.jsonl", **HOLDOUTS, **NOTES}
    counts: dict[str, Counter[str]] = {}
    shown: list[tuple[str, str, str, str]] = []
    for name, path in sources.items():
        if not path.exists():
            continue
        pairs = load_pairs(path)
        several = [not one_statement(p.new, p.lang) for p in pairs]
        parts, parent = sentence_pairs(pairs, several)
        fired = {
            i for i, p in enumerate(pairs) if read_pair(p.old, p.new, lang=p.lang).features[column]
        }
        fired |= {
            int(parent[k])
            for k, p in enumerate(parts)
            if read_pair(p.old, p.new, lang=p.lang).features[column]
        }
        counts[name] = Counter(pairs[i].label for i in fired)
        shown += [(name, pairs[i].label, pairs[i].old, pairs[i].new) for i in sorted(fired)]
    total = sum(counts.values(), Counter())
    result = {
        "veto": args.veto,
        "total": dict(total),
        "by_source": {k: dict(v) for k, v in counts.items() if v},
        "pairs": [dict(zip(("source", "label", "old", "new"), row, strict=True)) for row in shown],
    }
    labels = ("CONTRADICTORY", "EXTENDABLE", "INDEPENDENT")
    rows = [(k, *(v.get(label, 0) for label in labels)) for k, v in counts.items() if v]
    rows.append(("**all**", *(total.get(label, 0) for label in labels)))
    command = " ".join(["bench/classify_veto_fires.py", *(sys.argv[1:] if argv is None else argv)])
    markdown = (
        f"# Where the signal `{args.veto}` fires on the seen training pairs\n\n"
        f"`{command}` — whole pairs "
        "and, for a new memory of several sentences, each sentence read alone "
        "(a pair counts once). By gold label:\n\n" + md_table(("source", *labels), rows) + "\n"
    )
    write_results(RESULTS / f"classify_veto_{args.veto}", markdown, result)
    if args.show:
        for row in shown:
            print("\t".join(row))
    print(json.dumps({k: result[k] for k in ("total", "by_source")}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

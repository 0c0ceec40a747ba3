"""Why a consolidated note misses a contradiction: gold CONTRADICTORY pairs by cause and kind.

    .venv/bin/python bench/note_causes.py --cache DIR --sets 22 23 24 25 --out bench/results/X

Each pair of the notes sets (``bench/data/classify_notes<N>.jsonl``) is classified twice by the
classifier a server on e5 runs (``classify.build_classifier``): as a saved statement and as a
consolidated note (``note=True``). A gold CONTRADICTORY the note reading misses gets one cause:

- ``statement missed too``: the statement reading misses it as well (the general judge, not
  the note path);
- ``note bar``: the statement reading closes it by the judge's probability, and the note's bar
  (``engine.classify.note_judge.NOTE_THRESHOLDS``, both readings) holds it back; split by which
  reading is under the bar (``written`` only: the undated reading alone would have closed it);
- ``several sentences``: the new note has several sentences (``learned.judge_note``);
- ``old several sentences``: the old memory has several (no undated reading is judged);
- ``rule``: the statement reading closes it by a sure rule and the note reading does not.

Also: C precision / recall of the note reading as it is and with the bar read on the undated
pair alone or on either reading (what-ifs from the same probabilities), per language.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import partial
from pathlib import Path

from _classify_common import load_pairs
from classify import build_classifier
from lib.cli import parser
from lib.reports import emit, md_table
from omoide.engine.classify import (
    NOTE_THRESHOLDS,
    Candidate,
    one_statement,
    read_pair,
    sentence_score,
    undated,
)
from omoide.service.classify_judge import measure

REPO = Path(__file__).resolve().parents[1]
C = "CONTRADICTORY"


def read(pair, clf) -> dict[str, object]:
    """One pair's two verdicts and the judge's probability in both readings."""
    cand = [Candidate(pair.id, pair.old, 0.0)]
    (st,) = clf.classify(pair.new, cand, lang=pair.lang, note=False)
    (nt,) = clf.classify(pair.new, cand, lang=pair.lang, note=True)
    embed = partial(clf.passage_vectors, {})
    probs = []
    for old, new in ((pair.old, pair.new), (undated(pair.old), undated(pair.new))):
        text = read_pair(old, new, lang=pair.lang)
        (sims,) = measure(embed, [(old, new, text)])
        probs.append(sentence_score(text, sims, clf.model))
    return {
        "id": pair.id,
        "lang": pair.lang,
        "label": pair.label,
        "kind": pair.kind,
        "statement": st.relation.value,
        "statement_reason": st.reason,
        "note": nt.relation.value,
        "note_reason": nt.reason,
        "p_written": round(probs[0], 4),
        "p_undated": round(probs[1], 4),
        "one_new": one_statement(pair.new, pair.lang),
        "one_old": one_statement(pair.old, pair.lang),
    }


def by_probability(r: dict) -> bool:
    """Whether the note's verdict is decided by the one-sentence bar (a statement close by the
    judge's probability, both memories of one sentence, no note rule deciding)."""
    return (
        r["one_new"]
        and r["one_old"]
        and r["statement"] == C
        and not r["statement_reason"].startswith("rule")
        and not r["note_reason"].startswith("rule")
    )


def cause(r: dict) -> str:
    if r["note"] == C:
        return "caught"
    if not r["one_new"]:
        return "several sentences"
    if r["statement"] != C:
        return "statement missed too"
    if r["statement_reason"].startswith("rule"):
        return "rule"
    if not r["one_old"]:
        return "old several sentences"
    bar = NOTE_THRESHOLDS[r["lang"]]
    if r["p_written"] < bar <= r["p_undated"]:
        return "note bar (written only)"
    if r["p_undated"] < bar <= r["p_written"]:
        return "note bar (undated only)"
    return "note bar (both)"


def closes(r: dict, how: str) -> bool:
    if not by_probability(r):
        return r["note"] == C
    p = {
        "now": min(r["p_written"], r["p_undated"]),
        "undated": r["p_undated"],
        "either": max(r["p_written"], r["p_undated"]),
    }[how]
    return p >= NOTE_THRESHOLDS[r["lang"]]


def report(rows: list[dict], sets: list[str]) -> str:
    causes = sorted({cause(r) for r in rows if r["label"] == C})
    lines = [f"Sets: classify_notes{', '.join(sets)}; gold CONTRADICTORY pairs by cause.", ""]
    table = []
    for lang in ("en", "ja"):
        count = Counter(cause(r) for r in rows if r["label"] == C and r["lang"] == lang)
        table.append([lang, *(str(count[c]) for c in causes)])
    lines += [md_table(["lang", *causes], table), ""]
    kinds: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        if r["label"] == C:
            kinds[r["kind"]][cause(r)] += 1
    table = [
        [k, str(sum(v.values())), *(str(v[c]) for c in causes)]
        for k, v in sorted(kinds.items(), key=lambda kv: -sum(kv[1].values()))
    ]
    lines += ["By kind (both languages):", "", md_table(["kind", "n", *causes], table), ""]
    table = []
    for lang in ("en", "ja"):
        group = [r for r in rows if r["lang"] == lang]
        gold = sum(r["label"] == C for r in group)
        for how in ("now", "undated", "either"):
            made = [r for r in group if closes(r, how)]
            true = sum(r["label"] == C for r in made)
            precision = f"{true / len(made):.3f}" if made else "-"
            table.append([lang, how, precision, f"{true / gold:.3f}", f"{true}/{len(made)}"])
    lines += [
        "Note reading, pair by pair: C precision / recall with the one-sentence bar read "
        "as now (both readings), on the undated pair alone, or on either:",
        "",
        md_table(["lang", "bar read on", "C precision", "C recall", "true/closes"], table),
    ]
    return "\n".join(lines)


def main() -> None:
    cli = parser(__doc__, out=None)
    cli.add_argument("--sets", nargs="+", required=True, help="notes set numbers, e.g. 22 23")
    cli.add_argument("--cache", type=Path, default=None, help="vector cache directory")
    args = cli.parse_args()
    clf, _ = build_classifier("offline", "e5", args.cache)
    rows = []
    for n in args.sets:
        for pair in load_pairs(REPO / "bench" / "data" / f"classify_notes{n}.jsonl"):
            rows.append({"set": n, **read(pair, clf)})
    if args.out is None:
        args.out = REPO / "bench" / "results" / f"note_causes_{'_'.join(args.sets)}"
    emit(args, report(rows, args.sets), rows)


if __name__ == "__main__":
    main()

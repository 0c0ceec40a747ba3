"""The note threshold of one-sentence consolidated notes, chosen leave-one-set-out.

    PYTHONPATH=src .venv/bin/python bench/note_path.py bench/data/classify_notes11.jsonl ... \
        [--cache DIR] [--precision 0.99] [--total]

A consolidated note of one sentence is judged as a statement, a close by the judge's
probability held to ``engine.classify.note_judge.NOTE_THRESHOLDS`` on the pair as written and
undated. This measures every pair once (the note rules' close, the judge's statement verdict,
its CONTRADICTORY probability in both readings) and then, for each file left out in turn,
chooses per language the lowest threshold from which the closes the judge adds to the note
rules keep precision >= ``--precision`` (0.99) all the way up on the other files, and scores
the left-out file under it: C precision, C recall, macro-F1 and closes (true/all) per language,
before (the note rules alone) and after. Last, the thresholds chosen on every file. ``--total``
holds every close of the path (the note rules' too) to ``--precision`` and prints the pooled
curve per language (session 31: ``bench/results/note_bar_s31.md``). As the server does, the
undated reading is taken only against an old memory of one statement (``LearnedClassifier``'s
``_undated``). The pairs are judged alone: a close of another memory of the store is
``classify_store.py --note-thresholds``'s to measure. Reads only the files named on the
command line; writes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from _classify_common import LABELS, CachedEmbedder, load_pairs
from omoide.embed import make_embedder
from omoide.engine.classify import (
    Candidate,
    Relation,
    judge,
    needs_undated,
    note_claims,
    note_verdict,
    one_statement,
    read_pair,
    sentence_score,
    undated,
)
from omoide.service.classify_judge import (
    LearnedClassifier,
    judge_embedder_name,
    load_judge_models,
    measure,
)

GRID = (
    0.80,
    0.85,
    0.90,
    0.92,
    0.94,
    0.95,
    0.96,
    0.97,
    0.98,
    0.985,
    0.99,
    0.995,
    0.998,
    float("inf"),
)


@dataclass(frozen=True)
class Row:
    source: str
    lang: str
    label: str
    rule_close: bool  # a sure note rule closes it (note_verdict)
    sure_close: bool  # the judge's sure rule closes it (a one-sentence note)
    score: float  # min of the two readings' probability when the judge closes by it, else -1
    other: str  # the verdict when nothing closes


def measure_rows(paths: Sequence[Path], cache: Path | None) -> list[Row]:
    name = judge_embedder_name() or "e5"
    made = make_embedder(name)
    embedder = CachedEmbedder(made, cache / f"{name}.npz") if cache is not None else made
    model = load_judge_models()[made.model_id]
    classifier = LearnedClassifier(model, embedder)

    def read(texts: list[str]):
        return classifier.passage_vectors({}, texts)

    rows = []
    for path in paths:
        for pair in load_pairs(path):
            candidate = Candidate(pair.id, pair.old, 0.0)
            rule = note_verdict(candidate, note_claims(pair.new, pair.lang), pair.lang)
            text = read_pair(pair.old, pair.new, lang=pair.lang)
            (sims,) = measure(read, [(pair.old, pair.new, text)])
            statement = judge(text, sims, model)
            other = judge(text, sims, model, may_contradict=False).relation.value
            one = one_statement(pair.new, pair.lang)
            sure = (
                one
                and statement.relation is Relation.CONTRADICTORY
                and not needs_undated(statement)
            )
            score = -1.0
            # as the server: the undated reading only against an old memory of one statement
            if one and needs_undated(statement) and one_statement(pair.old, pair.lang):
                old, new = undated(pair.old), undated(pair.new)
                plain = read_pair(old, new, lang=pair.lang)
                (plain_sims,) = measure(read, [(old, new, plain)])
                score = min(
                    sentence_score(text, sims, model), sentence_score(plain, plain_sims, model)
                )
            rows.append(Row(path.stem, pair.lang, pair.label, rule is not None, sure, score, other))
        print(f"measured {path.name}", file=sys.stderr)
    return rows


def predicted(row: Row, threshold: float | None) -> str:
    """The note path's verdict under ``threshold`` (None: the note rules alone)."""
    closes = row.rule_close or (
        threshold is not None and (row.sure_close or row.score >= threshold)
    )
    return Relation.CONTRADICTORY.value if closes else row.other


def choose(rows: list[Row], precision: float, *, total: bool = False) -> float:
    """The lowest threshold from which the closes added to the note rules (``total``: every
    close, the note rules' too) keep ``precision`` all the way up (inf: none)."""
    best = float("inf")
    for threshold in reversed(GRID):
        added = [
            r
            for r in rows
            if (total or not r.rule_close) and predicted(r, threshold) == "CONTRADICTORY"
        ]
        right = sum(r.label == "CONTRADICTORY" for r in added)
        if added and right / len(added) < precision:
            break
        best = threshold
    return best


def scores(rows: list[Row], threshold: float | None) -> dict[str, float]:
    pred = [predicted(r, threshold) for r in rows]
    f1s = []
    for label in LABELS:
        hit = sum(p == label == r.label for p, r in zip(pred, rows, strict=True))
        said, gold = pred.count(label), sum(r.label == label for r in rows)
        p, rc = (hit / said if said else 0.0), (hit / gold if gold else 0.0)
        f1s.append(2 * p * rc / (p + rc) if p + rc else 0.0)
    closes = pred.count("CONTRADICTORY")
    right = sum(p == "CONTRADICTORY" == r.label for p, r in zip(pred, rows, strict=True))
    gold = sum(r.label == "CONTRADICTORY" for r in rows)
    return {
        "precision": right / closes if closes else 1.0,
        "recall": right / gold,
        "macro_f1": sum(f1s) / len(f1s),
        "true": right,
        "closes": closes,
    }


def main(argv: list[str] | None = None) -> int:
    bench = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    bench.add_argument("files", nargs="+", type=Path)
    bench.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep passage vectors in DIR between runs (never in the repo)",
    )
    bench.add_argument("--precision", type=float, default=0.99)
    bench.add_argument(
        "--total",
        action="store_true",
        help="hold every close of the note path (the note rules' too) to "
        "--precision, not only the judge's added ones; and print the pooled curve",
    )
    args = bench.parse_args(argv)
    total = args.total
    rows = measure_rows(args.files, args.cache)
    sources = list(dict.fromkeys(r.source for r in rows))
    print("| held out | lang | threshold | before: C P / R / macro-F1 (true/closes) | after |")
    print("|---|---|---|---|---|")
    for held in sources:
        for lang in ("en", "ja", "all"):
            test = [r for r in rows if r.source == held and lang in ("all", r.lang)]
            if lang == "all":
                chosen = {
                    x: choose(
                        [r for r in rows if r.source != held and r.lang == x],
                        args.precision,
                        total=total,
                    )
                    for x in ("en", "ja")
                }
                pred_rows = test
                after = _scores_by_lang(pred_rows, chosen)
                shown = "—"
            else:
                chosen_lang = choose(
                    [r for r in rows if r.source != held and r.lang == lang],
                    args.precision,
                    total=total,
                )
                after, shown = scores(test, chosen_lang), f"{chosen_lang:g}"
            before = scores(test, None)
            print(f"| {held} | {lang} | {shown} | {_fmt(before)} | {_fmt(after)} |")
    final = {
        x: choose([r for r in rows if r.lang == x], args.precision, total=total)
        for x in ("en", "ja")
    }
    print("\nchosen on every file:", json.dumps(final))
    if total:
        print("\n| threshold | EN C P / R / macro-F1 (true/closes) | JA |\n|---|---|---|")
        for threshold in GRID:
            cells = [
                _fmt(scores([r for r in rows if r.lang == x], threshold)) for x in ("en", "ja")
            ]
            print(f"| {threshold:g} | {cells[0]} | {cells[1]} |")
    return 0


def _scores_by_lang(rows: list[Row], chosen: dict[str, float]) -> dict[str, float]:
    """Both languages together, each under its own threshold."""
    pred = [
        Row(
            r.source,
            r.lang,
            r.label,
            r.rule_close,
            r.sure_close,
            r.score if r.score >= chosen[r.lang] else -1.0,
            r.other,
        )
        for r in rows
    ]
    return scores(pred, min(chosen.values()))


def _fmt(s: dict[str, float]) -> str:
    return (
        f"{s['precision']:.3f} / {s['recall']:.3f} / {s['macro_f1']:.3f} "
        f"({s['true']}/{s['closes']})"
    )


if __name__ == "__main__":
    raise SystemExit(main())

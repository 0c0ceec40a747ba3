"""How the note-closing rules (``engine.classify.note_close``) do on labelled note pairs.

    .venv/bin/python bench/note_close.py bench/data/classify_notes1.jsonl ... [--show]
    .venv/bin/python bench/note_close.py --closed DATA_DIR     # what a kept data folder closed

For each file and language: how many CONTRADICTORY pairs the rules close (caught), how many
other pairs they close (false closes), then pooled precision with its Wilson 95% lower bound
and the largest number of false closes in one file (the bar: pooled precision >= 0.95 and no
file with more than one false close). ``--show`` prints every pair closed, marked true or false,
with the rules' reason. Reads only the files named on the command line.

``--closed DATA_DIR`` reads a kept server data folder (``bench/locomo.py --keep``) read-only and
prints how many memories and notes it holds and every closed memory (``superseded_by`` or
``valid_until`` set) next to the memory that closed it, for reading each by hand.
``--all-pairs DATA_DIR`` is the harder check: every note against every older note of the same
persona (not only the neighbours evolution compares), printing each pair the rules would close.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import Counter
from pathlib import Path

from lib.metrics import wilson_lower
from omoide.engine.classify import note_closes


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
            print(
                f"  {mark} {pair['id']} [{finding.reason}]\n      old: {pair['old']}\n"
                f"      new: {pair['new']}"
            )
    return counts


def show_closed(data_dir: Path) -> None:
    db = sqlite3.connect(f"file:{data_dir / 'omoide.db'}?mode=ro", uri=True)
    total, notes = db.execute(
        "SELECT count(*), sum(source = 'consolidation') FROM memories"
    ).fetchone()
    rows = db.execute(
        "SELECT m.key, m.source, m.content, m.valid_until, n.key, n.source, n.content "
        "FROM memories m LEFT JOIN memories n ON n.key = m.superseded_by "
        "AND n.persona_id = m.persona_id "
        "WHERE m.superseded_by IS NOT NULL OR m.valid_until IS NOT NULL "
        "ORDER BY m.persona_id, m.created_at"
    ).fetchall()
    print(f"{total} memories, {notes} notes (source consolidation), {len(rows)} closed")
    for key, source, content, until, new_key, new_source, new_content in rows:
        print(
            f"- {key} ({source}, valid until {until})\n    old: {content}\n"
            f"    by {new_key} ({new_source}): {new_content}"
        )


def all_pairs(data_dir: Path) -> None:
    db = sqlite3.connect(f"file:{data_dir / 'omoide.db'}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT persona_id, content FROM memories "
        "WHERE source = 'consolidation' ORDER BY persona_id, created_at"
    ).fetchall()
    by_persona: dict[object, list[str]] = {}
    for persona, content in rows:
        by_persona.setdefault(persona, []).append(content)
    pairs = closes = 0
    for notes in by_persona.values():
        for i, new in enumerate(notes):
            for old in notes[:i]:
                pairs += 1
                finding = note_closes(old, new)
                if finding is not None:
                    closes += 1
                    print(f"- [{finding.reason}]\n    old: {old}\n    new: {new}")
    print(f"{len(rows)} notes, {pairs} ordered pairs, {closes} the rules would close")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--show", action="store_true", help="print every pair closed")
    ap.add_argument("--closed", type=Path, help="list what a kept data folder closed")
    ap.add_argument("--all-pairs", type=Path, help="every note against every older one")
    args = ap.parse_args()
    if args.closed or args.all_pairs:
        if args.closed:
            show_closed(args.closed)
        if args.all_pairs:
            all_pairs(args.all_pairs)
        return
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
            print(
                f"| {path.stem} | {lang} | {c} | {caught} | {caught / (c or 1):.3f} | "
                f"{counts[(lang, 'other')]} | {counts[(lang, 'false')]} |"
            )
    for lang in ("en", "ja", None):
        langs = ("en", "ja") if lang is None else (lang,)
        caught = sum(total[(x, "caught")] for x in langs)
        false = sum(total[(x, "false")] for x in langs)
        c = sum(total[(x, "C")] for x in langs)
        closed = caught + false
        print(
            f"pooled {lang or 'all'}: closed {closed}, true {caught}, false {false}, "
            f"precision {caught / (closed or 1):.3f} (Wilson 95% lower "
            f"{wilson_lower(caught, closed, 1.96):.3f}), "
            f"recall {caught}/{c} = {caught / (c or 1):.3f}"
        )
    print(f"most false closes in one file: {worst}")


if __name__ == "__main__":
    main()

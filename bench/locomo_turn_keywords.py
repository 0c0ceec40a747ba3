"""Probe for issue 8: a turn's keyword row expanded with the turn before it, without a re-ingest.

Most evidence turns that no default search reaches are replies ("Luna and Oliver!" after "What
are their names?"; "Summer Sounds" after "What's the band?"): the words a question asks with are
in the turn before (``bench/locomo_miss_kinds.py``). Round 2 embedded turns with that context
(a tie: single-hop up, multi-hop and temporal down) and round 19 put it in the *notes'* keyword
rows (a tie, +0.005); the turns' own keyword rows were never expanded. This rewrites, in a
**copy** of a data folder kept by ``bench/locomo.py --keep``, each turn's row of the SQLite
keyword index (``session_events_fts``) to hold the previous turn's indexed words (same session)
before its own. The shown text, the vectors, the notes and the episodes are unchanged, so a
``bench/locomo.py --reuse COPY --now ... --plan default`` run afterwards isolates the lever.

Variants (``--context``): ``prev`` (every turn after the first of its session);
``prev_question`` (only when the previous turn asks something: it holds a "?").

    PYTHONPATH=src:bench python bench/locomo_turn_keywords.py COPY --context prev

Never point it at a folder you want to keep: it overwrites the keyword rows in place.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path


def expanded(rows: Sequence[tuple[int, int, str, str]], context: str) -> list[tuple[str, int]]:
    """(new body, event id) for each row of ``(id, session_pk, content, body)`` in seq order
    that gets context."""
    out = []
    for prev, row in pairwise(rows):
        if prev[1] != row[1]:
            continue
        if context == "prev_question" and "?" not in prev[2]:
            continue
        out.append((f"{prev[3]} {row[3]}", row[0]))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="A COPY of a kept data folder (rewritten).")
    parser.add_argument("--context", required=True, choices=("prev", "prev_question"))
    args = parser.parse_args(argv)
    conn = sqlite3.connect(args.folder / "omoide.db")
    with conn:
        rows = conn.execute(
            "SELECT e.id, e.session_pk, e.content, f.body FROM session_events e "
            "JOIN session_events_fts f ON f.rowid = e.id ORDER BY e.session_pk, e.seq"
        ).fetchall()
        total = conn.execute("SELECT count(*) FROM session_events").fetchone()[0]
        updates = expanded(rows, args.context)
        conn.executemany("UPDATE session_events_fts SET body = ? WHERE rowid = ?", updates)
    conn.close()
    print(
        f"{len(rows)} of {total} turns have a keyword row; {len(updates)} rewritten "
        f"({args.context})"
    )


if __name__ == "__main__":
    main()

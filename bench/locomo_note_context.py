"""Probe for issue 8: note vectors that stand for the note with the turn before it, no re-ingest.

A consolidated note restates one turn, and often loses what the turn answered: "They were so
excited to get their hands dirty" (after "How did the kids like it?"), "Improving education is
particularly interesting to John" (after "What are you interested in?"). This probe rewrites the
note vectors of a **copy** of a data folder kept by ``bench/locomo.py --keep`` so that each
stands for the note together with the turn said just before its first source turn in the same
session; then ``bench/locomo.py --reuse COPY --now ... --plan default`` scores the copy. Only
the notes' vectors change: their text, keyword index, the turns and the episodes stay those of
the kept ingest (the companion still reads the note's text). Notes without a source turn, or
whose first source turn opens its session, keep their vector.

Variants (``--context``):

- ``prev``: the previous turn's ``Speaker: text`` line, then the note's text, embedded together
  as one passage;
- ``blend:A``: no new embedding: normalise(note vector + A × the previous turn's stored vector);
- ``keyword``: the vector stays; the note's keyword-index row holds the previous turn's text
  (without its speaker's name) after the note's (document expansion: the shown text is the
  note's own); ``keyword_next``: the next turn's text instead; ``keyword_both``: both.

    .venv/bin/python bench/locomo_note_context.py COPY --context prev [--conversations 26,30,41]

Never point it at a folder you want to keep: it overwrites the note vectors in place.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from lib.harness import open_app
from lib.reports import log
from omoide.embed.base import normalise
from omoide.service.passages import turn_passage
from omoide.store.sqlite.indexes import MEMORY_FTS


def previous_turns(conn: sqlite3.Connection, persona_id: int) -> dict[int, int]:
    """Active note id -> id of the turn just before its first source turn, same session."""
    return neighbour_turns(conn, persona_id, before=True)


def next_turns(conn: sqlite3.Connection, persona_id: int) -> dict[int, int]:
    """Active note id -> id of the turn just after its last source turn, same session."""
    return neighbour_turns(conn, persona_id, before=False)


def neighbour_turns(conn: sqlite3.Connection, persona_id: int, *, before: bool) -> dict[int, int]:
    edge, cmp, order = ("MIN", "<", "DESC") if before else ("MAX", ">", "ASC")
    rows = conn.execute(
        f"SELECT ms.memory_id, {edge}(e.seq), e.session_pk FROM memory_sources ms "
        "JOIN memories m ON m.id = ms.memory_id JOIN session_events e ON e.id = ms.event_id "
        "WHERE m.persona_id = ? AND m.status = 'active' GROUP BY ms.memory_id",
        (persona_id,),
    ).fetchall()
    out = {}
    for memory_id, seq, session_pk in rows:
        found = conn.execute(
            f"SELECT id FROM session_events WHERE session_pk = ? AND seq {cmp} ? "
            f"ORDER BY seq {order} LIMIT 1",
            (session_pk, seq),
        ).fetchone()
        if found is not None:
            out[memory_id] = found[0]
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="A COPY of a kept data folder (rewritten).")
    parser.add_argument(
        "--context", required=True, help="prev, blend:A, keyword, keyword_next or keyword_both"
    )
    parser.add_argument("--conversations", default="", help="e.g. 26,30,41; default all")
    args = parser.parse_args(argv)
    wanted = [c for c in args.conversations.split(",") if c]
    if not (
        args.context in ("prev", "keyword", "keyword_next", "keyword_both")
        or args.context.startswith("blend:")
    ):
        parser.error(f"unknown --context {args.context!r}")
    app = open_app(args.folder)
    conn = sqlite3.connect(args.folder / "omoide.db")
    for persona_id, name in conn.execute("SELECT id, name FROM personas ORDER BY id").fetchall():
        if wanted and not any(name.startswith(f"locomo-{c}-") for c in wanted):
            continue
        prev = previous_turns(conn, persona_id)
        note_ids = sorted(prev)
        handle = app.store.sessions(name)
        if args.context.startswith("keyword"):
            after = next_turns(conn, persona_id)
            sides = {"keyword": (prev,), "keyword_next": (after,), "keyword_both": (prev, after)}[
                args.context
            ]
            ids = sorted(set().union(*sides))
            texts = dict(
                conn.execute(
                    f"SELECT id, content FROM memories WHERE id IN ({','.join('?' * len(ids))})",
                    ids,
                ).fetchall()
            )
            events = handle.events_by_ids(sorted({t for side in sides for t in side.values()}))
            MEMORY_FTS.index(
                conn,
                [
                    (
                        i,
                        "\n".join(
                            [texts[i], *(events[side[i]].text for side in sides if i in side)]
                        ),
                    )
                    for i in ids
                ],
                persona_id=persona_id,
            )
            conn.execute("UPDATE personas SET revision = revision + 1 WHERE id = ?", (persona_id,))
            conn.commit()
            log(f"{name}: {len(ids)} note keyword rows expanded ({args.context})")
            continue
        if args.context == "prev":
            texts = dict(
                conn.execute(
                    "SELECT id, content FROM memories WHERE id IN "
                    f"({','.join('?' * len(note_ids))})",
                    note_ids,
                ).fetchall()
            )
            events = handle.events_by_ids(sorted(set(prev.values())))
            vectors = app.embedder.embed_passages(
                [
                    turn_passage(events[prev[i]].speaker, events[prev[i]].text) + "\n" + texts[i]
                    for i in note_ids
                ]
            )
        else:
            weight = float(args.context.split(":", 1)[1])
            own = {
                i: np.frombuffer(blob, dtype=np.float32)
                for i, blob in conn.execute(
                    f"SELECT memory_id, vector FROM memory_vectors WHERE memory_id IN "
                    f"({','.join('?' * len(note_ids))})",
                    note_ids,
                ).fetchall()
            }
            turns = handle.event_vectors(sorted(set(prev.values())))
            vectors = normalise(
                np.stack([own[i].astype(np.float64) + weight * turns[prev[i]] for i in note_ids])
            )
        conn.executemany(
            "UPDATE memory_vectors SET vector = ? WHERE memory_id = ?",
            [
                (np.asarray(v, dtype=np.float32).tobytes(), i)
                for i, v in zip(note_ids, vectors, strict=True)
            ],
        )
        conn.execute("UPDATE personas SET revision = revision + 1 WHERE id = ?", (persona_id,))
        conn.commit()
        log(f"{name}: {len(note_ids)} note vectors rewritten ({args.context})")
    conn.close()


if __name__ == "__main__":
    main()

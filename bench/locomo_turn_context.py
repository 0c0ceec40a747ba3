"""Probe for issue 8: turn vectors embedded with their context, scored without a re-ingest.

Rewrites the turn vectors of a **copy** of a data folder kept by ``bench/locomo.py --keep``, so
that each stored turn vector stands for the turn together with its neighbours in the same
session; then ``bench/locomo.py --reuse COPY --now ... --plan default`` scores the copy. Only the
turn tier changes: the episodes and notes are the ones the kept ingest made, so this isolates
what contextual turn vectors do to retrieval (a real change would also feed them to
segmentation).

Variants (``--context``):

- ``prev``: the previous turn's ``Speaker: text`` line, then the turn's own, embedded together;
- ``prev_next``: previous, own and next turn's lines embedded together;
- ``blend:A``: no new embedding: normalise(own vector + A × previous turn's own vector), read
  from the folder (which must hold own-turn vectors, as ingestion stores them);
- ``caption:A``: only turns that share a photo: normalise(own vector + A × the vector of
  ``Speaker: [image: caption]`` alone), so a photo turn whose words are about something else is
  also found by its picture (round 25).

    .venv/bin/python bench/locomo_turn_context.py COPY --context prev [--conversations 26,30,41]

Never point it at a folder you want to keep: it overwrites the turn vectors in place.
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
from omoide.engine.attachments import image_caption
from omoide.model import Event
from omoide.service.passages import turn_passage


def line(event: Event) -> str:
    return turn_passage(event.speaker, event.text)


def passages(
    events: Sequence[Event],
    same_session: Sequence[bool],
    *,
    with_next: bool,
) -> list[str]:
    """``same_session[i]``: event i and event i-1 belong to the same session."""
    out = []
    for i, event in enumerate(events):
        parts = [line(events[i - 1])] if i > 0 and same_session[i] else []
        parts.append(line(event))
        if with_next and i + 1 < len(events) and same_session[i + 1]:
            parts.append(line(events[i + 1]))
        out.append("\n".join(parts))
    return out


def blended(own: np.ndarray, same_session: Sequence[bool], weight: float) -> np.ndarray:
    out = own.astype(np.float64)
    for i in range(1, len(own)):
        if same_session[i]:
            out[i] += weight * own[i - 1]
    return normalise(out)


def caption_passages(events: Sequence[Event]) -> list[tuple[Event, str]]:
    """The turns that share a photo, each with its caption as a passage of its own."""
    return [
        (e, turn_passage(e.speaker, f"[image: {caption}]"))
        for e in events
        if (caption := image_caption(e.metadata))
    ]


def captioned(
    app: object, handle: object, events: Sequence[Event], weight: float
) -> tuple[list[Event], np.ndarray]:
    """The photo turns and their vectors blended with their caption's own vector."""
    pairs = caption_passages(events)
    if not pairs:
        return [], np.zeros((0, 0), dtype=np.float32)
    photos = [e for e, _ in pairs]
    own = handle.event_vectors([e.id for e in photos])  # type: ignore[attr-defined]
    pictures = app.embedder.embed_passages([p for _, p in pairs])  # type: ignore[attr-defined]
    mixed = np.stack([own[e.id] for e in photos]).astype(np.float64) + weight * np.asarray(
        pictures, dtype=np.float64
    )
    return photos, normalise(mixed)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="A COPY of a kept data folder (rewritten).")
    parser.add_argument("--context", required=True, help="prev, prev_next, blend:A or caption:A")
    parser.add_argument("--conversations", default="", help="e.g. 26,30,41; default all")
    args = parser.parse_args(argv)
    wanted = [c for c in args.conversations.split(",") if c]
    app = open_app(args.folder)
    conn = sqlite3.connect(args.folder / "omoide.db")
    for persona_id, name in conn.execute("SELECT id, name FROM personas ORDER BY id").fetchall():
        if wanted and not any(name.startswith(f"locomo-{c}-") for c in wanted):
            continue
        rows = conn.execute(
            "SELECT id, session_pk FROM session_events WHERE persona_id = ? "
            "ORDER BY session_pk, seq",
            (persona_id,),
        ).fetchall()
        handle = app.store.sessions(name)
        by_id = handle.events_by_ids([r[0] for r in rows])
        events = [by_id[r[0]] for r in rows]
        same = [i > 0 and rows[i - 1][1] == rows[i][1] for i in range(len(rows))]
        if args.context.startswith("caption:"):
            events, vectors = captioned(app, handle, events, float(args.context.split(":", 1)[1]))
        elif args.context.startswith("blend:"):
            own = handle.event_vectors([e.id for e in events])
            vectors = blended(
                np.stack([own[e.id] for e in events]), same, float(args.context.split(":", 1)[1])
            )
        elif args.context in ("prev", "prev_next"):
            vectors = app.embedder.embed_passages(
                passages(events, same, with_next=args.context == "prev_next")
            )
        else:
            parser.error(f"unknown --context {args.context!r}")
        handle.save_event_vectors(events, vectors)
        log(f"{name}: {len(events)} turn vectors rewritten ({args.context})")
    conn.close()


if __name__ == "__main__":
    main()

"""Probe for issue 8: notes made again by a consolidator variant, scored without a re-ingest.

Rewrites the notes of a **copy** of a data folder kept by ``bench/locomo.py --keep``: every
active note of the chosen conversations is tombstoned (search skips tombstones), each episode is
marked unconsolidated, and the real ``SessionService.consolidate`` runs again over it with an
``OfflineConsolidator`` built from ``--param NAME=VALUE`` (its fields: ``notes_per_turn``,
``min_sentence_score``, ``min_companion_score``, ``max_sentences_per_note``). Notes go through
the normal write path (dedup, classification); ``--evolve`` also runs note evolution on each new
note, as the server's job queue would (slow: about a second a note). Then
``bench/locomo.py --reuse COPY --now ... --plan default`` scores the copy. Turns and episodes
are the kept ingest's, so the rows isolate what the notes change. Compare a variant with the
default consolidator run through this same probe (no ``--param``), not with the kept folder:
the kept folder's notes also went through evolution.

    .venv/bin/python bench/locomo_reconsolidate.py COPY [--param max_sentences_per_note=1] \
        [--conversations 26,30,41] [--evolve]

Never point it at a folder you want to keep: it rewrites the notes in place.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import fields
from datetime import datetime
from pathlib import Path

from lib.harness import open_app
from lib.reports import log
from omoide.engine.consolidate import OfflineConsolidator

NOW = "2026-12-01T17:00:00+00:00"


def consolidator(params: Sequence[str]) -> OfflineConsolidator:
    kinds = {f.name: f.type for f in fields(OfflineConsolidator)}
    values: dict[str, float | int] = {}
    for item in params:
        name, _, raw = item.partition("=")
        if name not in kinds:
            raise SystemExit(f"unknown consolidator field {name!r}; known: {', '.join(kinds)}")
        values[name] = int(raw) if kinds[name] in (int, "int") else float(raw)
    return OfflineConsolidator(**values)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="A COPY of a kept data folder (rewritten).")
    parser.add_argument("--param", action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--conversations", default="26,30,41", help="default 26,30,41")
    parser.add_argument("--evolve", action="store_true", help="run note evolution too")
    parser.add_argument("--now", default=NOW, help="the clock (ISO), as the scoring run's")
    args = parser.parse_args(argv)
    wanted = [c for c in args.conversations.split(",") if c]
    made = consolidator(args.param)
    app = open_app(args.folder, now=datetime.fromisoformat(args.now))
    app.sessions.consolidator_for = lambda cfg: made
    conn = sqlite3.connect(args.folder / "omoide.db")
    for persona_id, name in conn.execute("SELECT id, name FROM personas ORDER BY id").fetchall():
        if not any(name.startswith(f"locomo-{c}-") for c in wanted):
            continue
        start = time.perf_counter()
        keys = [
            r[0]
            for r in conn.execute(
                "SELECT key FROM memories WHERE persona_id = ? AND status = 'active'", (persona_id,)
            )
        ]
        for key in keys:
            app.memories.delete(name, key)
        with conn:
            conn.execute(
                "UPDATE episodes SET consolidated_at = NULL WHERE persona_id = ?", (persona_id,)
            )
        episodes = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM episodes WHERE persona_id = ? ORDER BY id", (persona_id,)
            )
        ]
        created = sum(app.sessions.consolidate(name, episode) for episode in episodes)
        if args.evolve:
            for (key,) in conn.execute(
                "SELECT key FROM memories WHERE persona_id = ? AND status = 'active' ORDER BY id",
                (persona_id,),
            ).fetchall():
                app.evolution.evolve(name, key)
        log(
            f"{name}: {len(keys)} notes tombstoned, {created} made from {len(episodes)} "
            f"episodes ({made}) in {time.perf_counter() - start:.0f} s"
        )
    conn.close()
    app.close()


if __name__ == "__main__":
    main()

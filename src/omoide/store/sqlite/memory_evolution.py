"""Evolution's effects for one persona (step 4 of the write path), in one transaction, at most
once: neighbours strengthened and linked, older memories extended or closed, the remainder of
a closed compound memory written anew."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np

from omoide.clock import iso
from omoide.engine.candidates import closable
from omoide.model import LinkType, NewMemory, VersionChange
from omoide.store.sqlite.memory_sql import UPSERT_LINK
from omoide.store.sqlite.memory_writes import MemoryWrites
from omoide.store.sqlite.rows import dt, dt_or_none
from omoide.store.vectors import language_of

__all__ = ["MemoryEvolution"]


class MemoryEvolution(MemoryWrites):
    """Evolution's writes of one persona's memories (mixed into ``MemoryStore``)."""

    # The link upsert of evolution (an adapter whose dialect names columns differently swaps
    # the statement, not the method).
    _upsert_link: str = UPSERT_LINK

    def apply_evolution(
        self,
        new_key: str,
        *,
        now: datetime,
        neighbour_ids: Sequence[int],
        link_increment: float,
        link_cap: float,
        extends: Sequence[tuple[int, tuple[str, ...], float]],
        supersedes: Sequence[tuple[int, datetime]],
        remainders: Sequence[tuple[NewMemory, np.ndarray, float]] = (),
        judged: Sequence[int] | None = None,
        ended_by: tuple[int, datetime] | None = None,
    ) -> bool:
        """Step 4 of the write path for ``new_key``, all in one transaction, at most once.

        ``extends``: (old id, merged tags, merged importance); ``supersedes``: (old id,
        valid_until); ``remainders``: (memory, vector, stability) written as new memories —
        the unchanged part of a superseded compound memory. Returns False when this memory was
        already evolved (a re-run after a crash), so the effect is exactly once.

        A memory another memory's evolution closed since this one's was judged (two new facts
        contradicting one old fact, evolved at once by two workers or processes) stays as
        that one closed it: closed once, its remainder written once.

        Which of ``judged`` is still open is read in this transaction: when another evolution
        closed the nearest meanwhile, the next still open is the nearest. ``ended_by`` closes
        the new memory at that change, ``superseded_by`` the successor (:meth:`_end_new`).
        """
        with self.db.write() as conn:
            row = self._one(conn, new_key)
            if row["evolved_at"] is not None:
                return False
            new_id = int(row["id"])
            conn.execute("UPDATE memories SET evolved_at = ? WHERE id = ?", (iso(now), new_id))
            if neighbour_ids:
                marks = ",".join("?" * len(neighbour_ids))
                conn.execute(
                    "UPDATE memories SET access_count = access_count + 1, last_accessed = ?, "
                    f"summary_ref = ? WHERE +persona_id = ? AND id IN ({marks})",
                    (iso(now), new_key, self.persona_id, *neighbour_ids),
                )
                for other in neighbour_ids:
                    for a, b in ((new_id, other), (other, new_id)):
                        conn.execute(
                            self._upsert_link,
                            (
                                a,
                                b,
                                LinkType.SEMANTIC,
                                link_increment,
                                iso(now),
                                link_cap,
                                link_increment,
                            ),
                        )
            for old_id, tags, importance in extends:
                self._versioned_update(
                    conn,
                    old_id,
                    {"tags": tags, "importance": importance},
                    now=now,
                    change=VersionChange.EXTEND,
                    changed_by="evolution",
                    cause=new_key,
                )
            # only what is still there and open: another evolution may have closed it since
            # this one was judged (it stays as that one closed it), or a purge erased it
            still_open = self._present(
                conn,
                "SELECT id FROM memories WHERE persona_id = ? AND superseded_by IS NULL AND id IN",
                list(dict.fromkeys([*(judged or ()), *(old_id for old_id, _ in supersedes)])),
            )
            allowed = (
                set(
                    closable(
                        [i for i in judged if i in still_open], {old_id for old_id, _ in supersedes}
                    )
                )
                if judged is not None
                else still_open
            )
            supersedes = [(old_id, until) for old_id, until in supersedes if old_id in allowed]
            closed = [
                self._versioned_update(
                    conn,
                    old_id,
                    {"valid_until": valid_until, "superseded_by": new_key},
                    now=now,
                    change=VersionChange.SUPERSEDE,
                    changed_by="evolution",
                    cause=new_key,
                )
                for old_id, valid_until in supersedes
            ]
            self._start_successor(
                conn,
                row,
                supersedes,
                closed_key=next((key for key in closed if key is not None), None),
                now=now,
            )
            if ended_by is not None:
                self._end_new(conn, new_id, new_key, ended_by, now=now)
            remainders = self._still_split(conn, remainders, closed)
            if remainders:
                added = [
                    self._insert_row(
                        conn,
                        new,
                        vector=vector,
                        stability=stability,
                        now=now,
                        changed_by="evolution",
                    )[0]
                    for new, vector, stability in remainders
                ]
                index, revision = self._bump(conn)
                index.add(
                    added,
                    np.stack([v for _, v, _ in remainders]),
                    [language_of(new.content) for new, _, _ in remainders],
                )
                index.revision = revision
        return True

    def _start_successor(
        self,
        conn: sqlite3.Connection,
        row: Any,
        supersedes: Sequence[tuple[int, datetime]],
        *,
        closed_key: str | None,
        now: datetime,
    ) -> None:
        """A successor without a start of its own is valid from the moment it closed its
        predecessors (the earliest ``valid_until`` it gave them, and no later than when it was
        said: a fact it closed before that fact began ends at its own start): left open, a
        search with ``valid_at`` before that moment found it next to the fact it replaced."""
        if not supersedes or row["valid_from"] is not None:
            return
        start = min(dt(row["created_at"]), *(until for _, until in supersedes))
        end = dt_or_none(row["valid_until"])
        if end is not None and end <= start:
            return  # never an empty or inverted window
        self._versioned_update(
            conn,
            int(row["id"]),
            {"valid_from": start},
            now=now,
            change=VersionChange.UPDATE,
            changed_by="evolution",
            cause=closed_key,
        )

    def _end_new(
        self,
        conn: sqlite3.Connection,
        new_id: int,
        new_key: str,
        ended_by: tuple[int, datetime],
        *,
        now: datetime,
    ) -> None:
        """Close the memory being evolved at ``ended_by``'s time, superseded by its successor,
        with a version row by evolution, as a closing is. Read in this transaction: nothing
        when the successor is gone (purged or deleted meanwhile), when the new memory was
        closed by another evolution meanwhile, or when the window would be empty."""
        successor_id, until = ended_by
        successor = conn.execute(
            "SELECT key FROM memories WHERE id = ? AND persona_id = ? AND status = 'active'",
            (successor_id, self.persona_id),
        ).fetchone()
        row = conn.execute(
            "SELECT superseded_by, valid_from, valid_until FROM memories WHERE id = ?", (new_id,)
        ).fetchone()
        start = dt_or_none(row["valid_from"])
        if (
            successor is None
            or row["superseded_by"] is not None
            or row["valid_until"] is not None
            or (start is not None and start >= until)
        ):
            return
        self._versioned_update(
            conn,
            new_id,
            {"valid_until": until, "superseded_by": successor["key"]},
            now=now,
            change=VersionChange.SUPERSEDE,
            changed_by="evolution",
            cause=new_key,
        )  # its own evolution

    def _still_split(
        self,
        conn: sqlite3.Connection,
        remainders: Sequence[tuple[NewMemory, np.ndarray, float]],
        closed: Sequence[str | None],
    ) -> list[tuple[NewMemory, np.ndarray, float]]:
        """The remainders of the memories this transaction ``closed`` (their ``source_ref``),
        each with the source turns that still exist. Evolution reads the closed memory before
        this transaction: a purge committed in between leaves the memory out of ``closed`` (it
        is no longer there to close), and a conversation's erasure its turns out of the
        sources, so no erased text (or source on an erased turn) is written back; a memory
        another evolution closed meanwhile is not in ``closed`` either (its remainder is that
        one's)."""
        kept = [r for r in remainders if r[0].source_ref in closed]
        turns = sorted({e for new, _, _ in kept for e in new.source_event_ids})
        said = self._present(
            conn, "SELECT id FROM session_events WHERE persona_id = ? AND id IN", turns
        )
        return [
            (
                replace(new, source_event_ids=tuple(e for e in new.source_event_ids if e in said)),
                vector,
                stability,
            )
            for new, vector, stability in kept
        ]

    def _present(self, conn: sqlite3.Connection, select: str, values: Sequence[Any]) -> set[Any]:
        """Which of ``values`` the persona's rows hold, by one ``select`` (its ``IN`` list
        last, filled here): none is asked for when there are none."""
        if not values:
            return set()
        marks = ",".join("?" * len(values))
        return {row[0] for row in conn.execute(f"{select} ({marks})", (self.persona_id, *values))}

"""Bi-temporal state of one persona: the user's facts and the persona's own state (SQL only).

Both tables are the spec's ``user_state_history`` shape (spec §Bi-temporal User State Tracking):
a change never overwrites; it closes the current row (``valid_until = now``) and inserts the new
value (``valid_from = now``) in the same transaction, so each key's history is one unbroken chain.
A unique partial index keeps at most one current row per (persona, key). Validation of keys and
values belongs to the service; this module only reads and writes rows of its own persona.

A row remembers the conversation it was learned from (``source_session``; NULL when set by hand)
so that deleting the conversation erases it. A value restated unchanged by another conversation
gets a row of its own (the current one is closed where it starts), so deleting either
conversation keeps the value the other taught; restated by hand, it becomes the hand's. Such
rows are one value to a reader: :meth:`StateStore.history` joins consecutive equal values.

A key is closed by setting it to ``None``: its current row ends now and no row follows, so the
key has no current value and its history is kept (a gap in the chain, up to the next value set).

"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from omoide.clock import iso
from omoide.model import StateEntry, StateKind
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt, dt_or_none

__all__ = ["StateEntry", "StateKind", "StateStore", "erase_session_state"]


# Table names come from this fixed map only, never from input.
_TABLE = {StateKind.USER: "user_state_history", StateKind.PERSONA: "persona_state_history"}

SELECT_CURRENT = "SELECT * FROM {table} WHERE persona = ? AND valid_until IS NULL ORDER BY key"
SELECT_CURRENT_KEY = "SELECT * FROM {table} WHERE persona = ? AND key = ? AND valid_until IS NULL"
SELECT_HISTORY = "SELECT * FROM {table} WHERE persona = ? AND key = ? ORDER BY valid_from, id"
SELECT_KEYS = "SELECT DISTINCT key FROM {table} WHERE persona = ?"
SELECT_VALID_AT = """
SELECT * FROM {table} WHERE persona = ? AND key = ? AND valid_from <= ?
    AND (valid_until IS NULL OR valid_until > ?)
ORDER BY valid_from DESC, id DESC LIMIT 1
"""
CLOSE_CURRENT = "UPDATE {table} SET valid_until = ? WHERE id = ? AND valid_until IS NULL"
INSERT_VALUE = """
INSERT INTO {table} (persona, key, value, valid_from, valid_until, created_at, source_session)
VALUES (?, ?, ?, ?, NULL, ?, ?)
"""


def _entry(row: sqlite3.Row) -> StateEntry:
    return StateEntry(
        key=row["key"],
        value=row["value"],
        valid_from=dt(row["valid_from"]),
        valid_until=dt_or_none(row["valid_until"]),
    )


class StateStore:
    """The user state and persona state of one persona (every query carries ``persona = ?``)."""

    def __init__(self, db: Database, persona: str) -> None:
        self.db = db
        self.persona = persona

    def current(self, kind: StateKind) -> dict[str, StateEntry]:
        rows = self.db.conn().execute(SELECT_CURRENT.format(table=_TABLE[kind]), (self.persona,))
        return {row["key"]: _entry(row) for row in rows}

    def keys(self, kind: StateKind) -> list[str]:
        """Every key that has held a value, current or closed, in key order."""
        rows = self.db.conn().execute(SELECT_KEYS.format(table=_TABLE[kind]), (self.persona,))
        return sorted(row[0] for row in rows)  # one order on both stores (collations differ)

    def history(self, kind: StateKind, key: str) -> list[StateEntry]:
        """Every value the key has had, oldest first (a value restated by another source,
        stored as a row of its own, is one entry)."""
        rows = self.db.conn().execute(
            SELECT_HISTORY.format(table=_TABLE[kind]), (self.persona, key)
        )
        out: list[StateEntry] = []
        for entry in map(_entry, rows):
            last = out[-1] if out else None
            if (
                last is not None
                and last.value == entry.value
                and last.valid_until == entry.valid_from
            ):
                out[-1] = StateEntry(
                    key=key,
                    value=last.value,
                    valid_from=last.valid_from,
                    valid_until=entry.valid_until,
                )
            else:
                out.append(entry)
        return out

    def valid_at(self, kind: StateKind, key: str, when: datetime) -> StateEntry | None:
        """The row with valid_from <= when < valid_until (or still current), if any."""
        stamp = iso(when)
        row = (
            self.db.conn()
            .execute(SELECT_VALID_AT.format(table=_TABLE[kind]), (self.persona, key, stamp, stamp))
            .fetchone()
        )
        return None if row is None else _entry(row)

    def apply(
        self,
        changes: Mapping[StateKind, Mapping[str, str | None]],
        *,
        now: datetime,
        source_session: str | None = None,
    ) -> dict[StateKind, list[str]]:
        """Write every changed value of every kind in ONE transaction; returns the changed keys.

        An unchanged value writes nothing, and when nothing changes no transaction is opened.
        ``None`` closes the key's current value (nothing for a key without one).
        ``source_session`` names the conversation the values were learned from (consolidation),
        so that deleting the conversation erases them (:func:`erase_session_state`).
        """
        changed: dict[StateKind, list[str]] = {kind: [] for kind in changes}
        if not any(
            self._differs(self.db.conn(), kind, values, source_session)
            for kind, values in changes.items()
        ):
            return changed
        with self.db.write() as conn:
            for kind, values in changes.items():
                for key, value in values.items():
                    if self._set(conn, kind, key, value, now, source_session):
                        changed[kind].append(key)
        return changed

    def _differs(
        self,
        conn: sqlite3.Connection,
        kind: StateKind,
        values: Mapping[str, str | None],
        source_session: str | None,
    ) -> bool:
        current = {
            row["key"]: row
            for row in conn.execute(SELECT_CURRENT.format(table=_TABLE[kind]), (self.persona,))
        }
        return any(
            _writes(current.get(key), value, source_session) for key, value in values.items()
        )

    def _set(
        self,
        conn: sqlite3.Connection,
        kind: StateKind,
        key: str,
        value: str | None,
        now: datetime,
        source_session: str | None,
    ) -> bool:
        table = _TABLE[kind]
        row = conn.execute(SELECT_CURRENT_KEY.format(table=table), (self.persona, key)).fetchone()
        if not _writes(row, value, source_session):
            return False
        start = iso(now)
        if value is None:  # close the key: the current value ends, no value follows
            assert row is not None
            conn.execute(
                CLOSE_CURRENT.format(table=table), (max(start, row["valid_from"]), row["id"])
            )
            return True
        if row is not None:
            # A writer may have read the clock before waiting for the lock (or the clock moved
            # back): never start the new value before the one it replaces, so the chain stays
            # unbroken and ordered (valid_until of each row == valid_from of the next).
            start = max(start, row["valid_from"])
            conn.execute(CLOSE_CURRENT.format(table=table), (start, row["id"]))
        conn.execute(
            INSERT_VALUE.format(table=table),
            (self.persona, key, value, start, iso(now), source_session),
        )
        return row is None or row["value"] != value  # a restatement changes no value


def _writes(row: Any, value: str | None, source_session: str | None) -> bool:
    """Whether setting ``value`` from ``source_session`` writes a row over the current ``row``:
    a new value does; the same value does only when it moves the value's provenance (restated
    by another conversation, or by hand over a conversation's); ``None`` (close) does when
    there is a current value."""
    if value is None:
        return row is not None
    if row is None or row["value"] != value:
        return True
    return row["source_session"] is not None and row["source_session"] != source_session


def _joined_ends(chain: list[Any], session_id: str) -> list[str | None]:
    """The ``valid_until`` of each row of a key's chain (``id, valid_from, valid_until,
    source_session``, in order) that ``session_id`` did not teach, once its rows are gone: the
    next remaining row's start (None for the last), or a close met before it (a row ending
    where no row starts: the key was set to None then)."""
    kept = [i for i, row in enumerate(chain) if row[3] != session_id]
    ends: list[str | None] = []
    for at, i in enumerate(kept):
        stop = kept[at + 1] if at + 1 < len(kept) else len(chain)
        end = chain[stop][1] if stop < len(chain) else None
        for k in range(i, stop):
            until, following = chain[k][2], chain[k + 1][1] if k + 1 < len(chain) else None
            if until is not None and until != following:
                end = until
                break
        ends.append(end)
    return ends


def erase_session_state(conn: Any, persona: str, session_id: str) -> int:
    """Inside an erasing transaction: delete every state value learned from ``session_id``
    (both kinds); returns how many rows went.

    The values of other sources stay, with their ``valid_from``; each touched key's chain is
    joined up again around the gap (a value's ``valid_until`` becomes the next remaining value's
    ``valid_from``, and the last remaining value is current again), so the key reads as if the
    conversation had never happened. A close (the key set to None) is not the conversation's
    and stays: a remaining value followed, before the next remaining one, by a closed value
    ends at that close. Standard SQL: the PostgreSQL adapter runs it too.
    """
    erased = 0
    for table in _TABLE.values():
        keys = [
            r[0]
            for r in conn.execute(
                f"SELECT DISTINCT key FROM {table} WHERE persona = ? AND source_session = ?",
                (persona, session_id),
            )
        ]
        if not keys:
            continue
        chains = {
            key: conn.execute(
                f"SELECT id, valid_from, valid_until, source_session FROM {table} WHERE persona = "
                "? "
                "AND key = ? ORDER BY valid_from, id",
                (persona, key),
            ).fetchall()
            for key in keys
        }
        erased += conn.execute(
            f"DELETE FROM {table} WHERE persona = ? AND source_session = ?", (persona, session_id)
        ).rowcount
        for key in keys:
            rows = [r for r in chains[key] if r[3] != session_id]
            if not rows:  # every value of the key came from this conversation
                continue
            ends = _joined_ends(chains[key], session_id)
            # The current row first, so at no moment two rows of the key are current.
            for row, end in sorted(zip(rows, ends, strict=True), key=lambda p: p[1] is None):
                if row[2] != end:
                    conn.execute(f"UPDATE {table} SET valid_until = ? WHERE id = ?", (end, row[0]))
    return erased

"""Bulk writes for import: restore exported records of one persona, row for row.

Each method is one transaction and skips what is already there (a memory key, a session id, a
block name, a state row), so an import interrupted between batches is finished by running it
again. Records come as :mod:`omoide.store.sqlite.transfer_dump` writes them; vectors come as
float32 arrays chosen by the caller (the file's, or freshly embedded ones). How one memory or
episode becomes its rows is ``transfer_rows.py``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from omoide.engine.attachments import turn_text
from omoide.engine.errors import named
from omoide.errors import InvalidInput
from omoide.model.transfer import ExistingRows
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import EVENT_FTS
from omoide.store.sqlite.rows import memory_revision
from omoide.store.sqlite.transfer_rows import (
    RestoreTarget,
    as_json,
    insert_episode,
    insert_memory,
    vector_bytes,
)
from omoide.store.sqlite.unit_of_work import SqliteUnitOfWork

__all__ = ["PersonaRestore"]


AfterWrite = Callable[[SqliteUnitOfWork, list[Any]], None]

_STATE_TABLE = {"user": "user_state_history", "persona": "persona_state_history"}


class PersonaRestore:
    """Restore into one persona (every statement carries its id or name)."""

    # What a session the file describes inconsistently raises (turned into InvalidInput);
    # the PostgreSQL adapter adds its driver's IntegrityError.
    _refused: tuple[type[Exception], ...] = (sqlite3.IntegrityError, ValueError)

    def __init__(
        self, db: Database, persona_id: int, persona: str, model_id: str, dim: int
    ) -> None:
        self.db = db
        self.persona_id = persona_id
        self.persona = persona
        self.model_id = model_id
        self.dim = dim

    @property
    def _target(self) -> RestoreTarget:
        return RestoreTarget(self.persona_id, self.model_id, self.dim)

    def existing(self) -> ExistingRows:
        conn = self.db.conn()
        state = frozenset(
            (kind, r[0], r[1], r[2])
            for kind, table in _STATE_TABLE.items()
            for r in conn.execute(
                f"SELECT key, value, valid_from FROM {table} WHERE persona = ?", (self.persona,)
            )
        )
        return ExistingRows(
            memory_keys=frozenset(
                r[0]
                for r in conn.execute(
                    "SELECT key FROM memories WHERE persona_id = ?", (self.persona_id,)
                )
            ),
            session_ids=frozenset(
                r[0]
                for r in conn.execute(
                    "SELECT session_id FROM sessions WHERE persona_id = ?", (self.persona_id,)
                )
            ),
            block_names=frozenset(
                r[0]
                for r in conn.execute(
                    "SELECT block_name FROM memory_blocks WHERE persona_id = ?", (self.persona_id,)
                )
            ),
            state_rows=state,
            pointers=self._pointers(conn),
        )

    def _pointers(self, conn: sqlite3.Connection) -> dict[str, dict[str, str]]:
        """The persona's memories' ``superseded_by`` and ``summary_ref`` that name a memory."""
        pointers: dict[str, dict[str, str]] = {"superseded_by": {}, "summary_ref": {}}
        for key, superseded_by, summary_ref in conn.execute(
            "SELECT key, superseded_by, summary_ref FROM memories WHERE persona_id = ? "
            "AND (superseded_by IS NOT NULL OR summary_ref IS NOT NULL)",
            (self.persona_id,),
        ):
            for name, value in (("superseded_by", superseded_by), ("summary_ref", summary_ref)):
                if value is not None:
                    pointers[name][key] = value
        return pointers

    def has_session(self, session_id: str) -> bool:
        return (
            self.db.conn()
            .execute(
                "SELECT 1 FROM sessions WHERE persona_id = ? AND session_id = ?",
                (self.persona_id, session_id),
            )
            .fetchone()
            is not None
        )

    def session_turns(
        self, session_id: str, first_seq: int, last_seq: int
    ) -> list[tuple[int, str, str, str, str | None]]:
        """The stored turns (seq, speaker, role, content, external_id) of a session between
        two seqs."""
        return [
            (int(r[0]), r[1], r[2], r[3], r[4])
            for r in self.db.conn().execute(
                "SELECT e.seq, e.speaker, e.role, e.content, e.external_id FROM session_events e "
                "JOIN sessions s ON s.id = e.session_pk WHERE s.persona_id = ? AND s.session_id = "
                "? "
                "AND e.seq BETWEEN ? AND ?",
                (self.persona_id, session_id, first_seq, last_seq),
            )
        ]

    def present_keys(self, keys: Sequence[str]) -> set[str]:
        """The keys among ``keys`` this persona holds."""
        return self._keys(keys, "persona_id = ?")

    def keys_elsewhere(self, keys: Sequence[str]) -> set[str]:
        """The keys among ``keys`` held by other personas (keys are unique per folder)."""
        return self._keys(keys, "persona_id != ?")

    def _keys(self, keys: Sequence[str], where: str) -> set[str]:
        found: set[str] = set()
        conn = self.db.conn()
        for start in range(0, len(keys), 500):
            chunk = list(keys[start : start + 500])
            marks = ",".join("?" * len(chunk))
            found |= {
                r[0]
                for r in conn.execute(
                    f"SELECT key FROM memories WHERE key IN ({marks}) AND {where}",
                    (*chunk, self.persona_id),
                )
            }
        return found

    # -- blocks and state ----------------------------------------------------------------

    def restore_blocks(self, records: Sequence[dict[str, Any]]) -> int:
        """Insert the blocks not present by name; a present one is kept. Returns inserted."""
        with self.db.write() as conn:
            return sum(
                conn.execute(
                    "INSERT OR IGNORE INTO memory_blocks (persona_id, block_name, content, "
                    "block_type, max_tokens, priority, metadata, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        self.persona_id,
                        b["block_name"],
                        b["content"],
                        b["block_type"],
                        b["max_tokens"],
                        b["priority"],
                        as_json(b["metadata"]),
                        b["created_at"],
                        b["updated_at"],
                    ),
                ).rowcount
                for b in records
            )

    def restore_state(self, records: Sequence[dict[str, Any]]) -> int:
        """Insert state rows not present. Where both sides hold a current value for a key, the
        later one stays current and the other is closed where it begins (bi-temporal chain)."""
        inserted = 0
        with self.db.write() as conn:
            for r in records:
                table = _STATE_TABLE[r["kind"]]
                if conn.execute(
                    f"SELECT 1 FROM {table} WHERE persona = ? AND key = ? AND "
                    "value = ? AND valid_from = ? AND source_session IS ?",
                    (self.persona, r["key"], r["value"], r["valid_from"], r.get("source_session")),
                ).fetchone():
                    continue
                valid_until = r["valid_until"]
                if valid_until is None:
                    current = conn.execute(
                        f"SELECT id, valid_from FROM {table} WHERE persona = ? AND key = ? "
                        "AND valid_until IS NULL",
                        (self.persona, r["key"]),
                    ).fetchone()
                    if current is not None and current[1] >= r["valid_from"]:
                        valid_until = current[1]
                    elif current is not None:
                        conn.execute(
                            f"UPDATE {table} SET valid_until = ? WHERE id = ?",
                            (r["valid_from"], current[0]),
                        )
                conn.execute(
                    f"INSERT INTO {table} (persona, key, value, valid_from, "
                    "valid_until, created_at, source_session) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        self.persona,
                        r["key"],
                        r["value"],
                        r["valid_from"],
                        valid_until,
                        r["created_at"],
                        r.get("source_session"),
                    ),
                )
                inserted += 1
        return inserted

    # -- sessions ------------------------------------------------------------------------

    def restore_session(
        self,
        session: dict[str, Any],
        events: Sequence[dict[str, Any]],
        episodes: Sequence[dict[str, Any]],
        event_vectors: Sequence[np.ndarray | None],
        episode_vectors: np.ndarray,
        *,
        after: AfterWrite | None = None,
    ) -> bool:
        """One session with its turns and episodes, one transaction; False if it exists.
        ``after(conn, episode_ids)`` runs inside it."""
        try:
            return self._restore_session(
                session, events, episodes, event_vectors, episode_vectors, after
            )
        except self._refused as exc:
            raise InvalidInput(f"session {named(session['session_id'])}: {exc}") from None

    def _restore_session(
        self,
        session: dict[str, Any],
        events: Sequence[dict[str, Any]],
        episodes: Sequence[dict[str, Any]],
        event_vectors: Sequence[np.ndarray | None],
        episode_vectors: np.ndarray,
        after: AfterWrite | None,
    ) -> bool:
        with self.db.write() as conn:
            if conn.execute(
                "SELECT 1 FROM sessions WHERE persona_id = ? AND session_id = ?",
                (self.persona_id, session["session_id"]),
            ).fetchone():
                return False
            pk = int(
                conn.execute(
                    "INSERT INTO sessions (persona_id, session_id, started_at, ended_at, metadata, "
                    "segmented_upto_seq, open_reason, open_surprise, last_event_at, ended_by) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        self.persona_id,
                        session["session_id"],
                        session["started_at"],
                        session["ended_at"],
                        as_json(session["metadata"]),
                        session["segmented_upto_seq"],
                        session["open_reason"],
                        session["open_surprise"],
                        session["last_event_at"],
                        session["ended_by"],
                    ),
                ).fetchone()[0]
            )
            event_ids: dict[int, int] = {}
            for e, vector in zip(events, event_vectors, strict=True):
                event_id = int(
                    conn.execute(
                        "INSERT INTO session_events (session_pk, persona_id, seq, speaker, role, "
                        "content, timestamp, external_id, metadata, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        (
                            pk,
                            self.persona_id,
                            e["seq"],
                            e["speaker"],
                            e["role"],
                            e["content"],
                            e["timestamp"],
                            e["external_id"],
                            as_json(e["metadata"]),
                            e["created_at"],
                        ),
                    ).fetchone()[0]
                )
                event_ids[e["seq"]] = event_id
                if vector is not None:
                    conn.execute(
                        "INSERT INTO event_vectors (event_id, model_id, dim, vector) "
                        "VALUES (?, ?, ?, ?)",
                        (event_id, self.model_id, self.dim, vector_bytes(vector)),
                    )
            EVENT_FTS.index(
                conn,
                [(event_ids[e["seq"]], turn_text(e["content"], e["metadata"])) for e in events],
            )
            episode_ids = [
                insert_episode(conn, self._target, pk, ep, vector, event_ids)
                for ep, vector in zip(episodes, episode_vectors, strict=True)
            ]
            conn.execute(
                "UPDATE personas SET event_revision = event_revision + 1 WHERE id = ?",
                (self.persona_id,),
            )
            if after is not None:
                after(SqliteUnitOfWork(conn), episode_ids)
        return True

    # -- memories ------------------------------------------------------------------------

    def restore_memories(
        self,
        records: Sequence[dict[str, Any]],
        vectors: np.ndarray,
        *,
        after: AfterWrite | None = None,
        if_revision: int | None = None,
    ) -> int | None:
        """Memories with strength, versions, tags, sources, vector and keyword rows; one
        transaction. A key already present is skipped. ``after(conn, inserted keys)`` runs
        inside it; ``if_revision`` is checked inside the write (as ``MemoryHandle.insert``'s)."""
        inserted: list[str] = []
        with self.db.write() as conn:
            if if_revision is not None and self._revision(conn) != if_revision:
                return None
            for m, vector in zip(records, vectors, strict=True):
                if conn.execute("SELECT 1 FROM memories WHERE key = ?", (m["key"],)).fetchone():
                    continue
                insert_memory(conn, self._target, m, vector)
                inserted.append(m["key"])
            if inserted:
                conn.execute(
                    "UPDATE personas SET revision = revision + 1 WHERE id = ?", (self.persona_id,)
                )
            if after is not None:
                after(SqliteUnitOfWork(conn), inserted)
        return len(inserted)

    def _revision(self, conn: sqlite3.Connection) -> int:
        return memory_revision(conn, self.persona_id, self.persona)

    def restore_links(self, records: Sequence[dict[str, Any]]) -> int:
        """Links between memories of this persona (both ends must exist); one transaction."""
        with self.db.write() as conn:
            return sum(
                conn.execute(
                    "INSERT OR IGNORE INTO memory_links (a, b, link_type, weight, "
                    "co_activation_count, last_activated) "
                    "SELECT ma.id, mb.id, ?, ?, ?, ? FROM memories ma, memories mb "
                    "WHERE ma.key = ? AND mb.key = ? AND ma.persona_id = ? AND mb.persona_id = ?",
                    (
                        r["link_type"],
                        r["weight"],
                        r["co_activation_count"],
                        r["last_activated"],
                        r["a"],
                        r["b"],
                        self.persona_id,
                        self.persona_id,
                    ),
                ).rowcount
                for r in records
            )

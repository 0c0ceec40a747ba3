"""Bulk reads for export: every row of one persona as plain records (no ids, no SQL types).

Rows are referred to by what survives a move to another folder: memories by key, sessions by
``session_id``, events by (session_id, seq), episodes by (session_id, first_seq). A dump reads
from its own connection inside one read transaction, so the file is one consistent snapshot
even while the server writes, and a streaming response may pull it from any thread.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from omoide.engine.transfer_format import RECORD_FIELDS
from omoide.store.sqlite.read_only import open_for_reading

__all__ = ["PersonaDump"]

_CHUNK = 500

# A memory record's fields in the file's order; versions and sources are read apart.
_MEMORY_COLUMNS = tuple(n for n in RECORD_FIELDS["memory"] if n not in ("versions", "sources"))


def _json(text: str | None) -> Any:
    return json.loads(text) if text else {}


class PersonaDump:
    """A read snapshot of one persona; use as a context manager."""

    def __init__(
        self, path: Path, persona_id: int, persona: str, *, read_only: bool | None = None
    ) -> None:
        self.path = path
        self.read_only = read_only  # what the database's open found (None: look at enter)
        self.persona_id = persona_id
        self.persona = persona
        self._conn: sqlite3.Connection | None = None

    def __enter__(self) -> PersonaDump:
        conn = open_for_reading(self.path, timeout=30.0, read_only=self.read_only)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("BEGIN")  # a snapshot for every section read below
        conn.execute("SELECT 1 FROM personas LIMIT 1").fetchone()
        self._conn = conn
        return self

    def __exit__(self, *exc: object) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("COMMIT")
            self._conn.close()
            self._conn = None

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("PersonaDump used outside its context")
        return self._conn

    # -- sections ------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        row = self.conn.execute(
            "SELECT settings FROM personas WHERE id = ?", (self.persona_id,)
        ).fetchone()
        return dict(_json(row[0])) if row else {}

    def blocks(self) -> Iterator[dict[str, Any]]:
        for r in self.conn.execute(
            "SELECT * FROM memory_blocks WHERE persona_id = ? ORDER BY id", (self.persona_id,)
        ):
            yield {
                "block_name": r["block_name"],
                "content": r["content"],
                "block_type": r["block_type"],
                "max_tokens": r["max_tokens"],
                "priority": r["priority"],
                "metadata": _json(r["metadata"]),
                "created_at": r["created_at"],
                "updated_at": r["updated_at"],
            }

    def state(self) -> Iterator[dict[str, Any]]:
        for kind, table in (("user", "user_state_history"), ("persona", "persona_state_history")):
            for r in self.conn.execute(
                f"SELECT * FROM {table} WHERE persona = ? ORDER BY id", (self.persona,)
            ):
                yield {
                    "kind": kind,
                    "key": r["key"],
                    "value": r["value"],
                    "valid_from": r["valid_from"],
                    "valid_until": r["valid_until"],
                    "created_at": r["created_at"],
                    "source_session": r["source_session"],
                }

    def sessions(self, *, with_vectors: bool) -> Iterator[tuple[str, dict[str, Any]]]:
        """("session" | "event" | "episode", record), each session followed by its rows."""
        sessions = self.conn.execute(
            "SELECT * FROM sessions WHERE persona_id = ? ORDER BY id", (self.persona_id,)
        ).fetchall()
        for s in sessions:
            yield (
                "session",
                {
                    "session_id": s["session_id"],
                    "started_at": s["started_at"],
                    "ended_at": s["ended_at"],
                    "metadata": _json(s["metadata"]),
                    "segmented_upto_seq": s["segmented_upto_seq"],
                    "open_reason": s["open_reason"],
                    "open_surprise": s["open_surprise"],
                    "last_event_at": s["last_event_at"],
                    "ended_by": s["ended_by"],
                },
            )
            events = self.conn.execute(
                "SELECT e.*, v.model_id, v.vector FROM session_events e "
                "LEFT JOIN event_vectors v ON v.event_id = e.id "
                "WHERE e.session_pk = ? ORDER BY e.seq",
                (s["id"],),
            )
            while chunk := events.fetchmany(_CHUNK):
                for e in chunk:
                    yield (
                        "event",
                        {
                            "session_id": s["session_id"],
                            "seq": e["seq"],
                            "speaker": e["speaker"],
                            "role": e["role"],
                            "content": e["content"],
                            "timestamp": e["timestamp"],
                            "external_id": e["external_id"],
                            "metadata": _json(e["metadata"]),
                            "created_at": e["created_at"],
                            **_vector(e, with_vectors),
                        },
                    )
            for ep in self.conn.execute(
                "SELECT ep.*, v.model_id, v.vector FROM episodes ep "
                "LEFT JOIN episode_vectors v ON v.episode_id = ep.id "
                "WHERE ep.session_pk = ? ORDER BY ep.first_seq, ep.id",
                (s["id"],),
            ):
                yield (
                    "episode",
                    {
                        "session_id": s["session_id"],
                        "first_seq": ep["first_seq"],
                        "last_seq": ep["last_seq"],
                        "content": ep["content"],
                        "topic": ep["topic"],
                        "surprise": ep["surprise"],
                        "boundary_reason": ep["boundary_reason"],
                        "started_at": ep["started_at"],
                        "ended_at": ep["ended_at"],
                        "created_at": ep["created_at"],
                        "consolidated_at": ep["consolidated_at"],
                        **_vector(ep, with_vectors),
                    },
                )

    def memories(self, *, with_vectors: bool) -> Iterator[dict[str, Any]]:
        """Every memory (tombstoned and closed too) with versions, sources and FSRS state."""
        episodes = {
            str(r[0]): (r[1], r[2])
            for r in self.conn.execute(
                "SELECT ep.id, s.session_id, ep.first_seq FROM episodes ep "
                "JOIN sessions s ON s.id = ep.session_pk WHERE ep.persona_id = ?",
                (self.persona_id,),
            )
        }
        rows = self.conn.execute(
            "SELECT m.*, s.strength, s.stability, s.last_decay_at, v.model_id, v.vector "
            "FROM memories m JOIN memory_strength s ON s.memory_id = m.id "
            "LEFT JOIN memory_vectors v ON v.memory_id = m.id "
            "WHERE m.persona_id = ? ORDER BY m.id",
            (self.persona_id,),
        )
        while chunk := rows.fetchmany(_CHUNK):
            ids = [r["id"] for r in chunk]
            versions = self._versions(ids)
            sources = self._sources(ids)
            for r in chunk:
                ref: Any = r["source_ref"]
                if r["source"] == "consolidation" and ref in episodes:
                    session_id, first_seq = episodes[ref]
                    ref = {"episode": {"session_id": session_id, "first_seq": first_seq}}
                record = {name: r[name] for name in _MEMORY_COLUMNS}
                record.update(
                    tags=json.loads(r["tags"]),
                    source_ref=ref,
                    metadata=_json(r["metadata"]),
                    versions=versions.get(r["id"], []),
                    sources=sources.get(r["id"], []),
                )
                yield {**record, **_vector(r, with_vectors)}

    def links(self) -> Iterator[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT ma.key AS a, mb.key AS b, l.link_type, l.weight, l.co_activation_count, "
            "l.last_activated FROM memory_links l JOIN memories ma ON ma.id = l.a "
            "JOIN memories mb ON mb.id = l.b WHERE ma.persona_id = ? "
            "ORDER BY l.a, l.b, l.link_type",
            (self.persona_id,),
        )
        for r in rows:
            yield {
                "a": r["a"],
                "b": r["b"],
                "link_type": r["link_type"],
                "weight": r["weight"],
                "co_activation_count": r["co_activation_count"],
                "last_activated": r["last_activated"],
            }

    def _versions(self, ids: list[int]) -> dict[int, list[dict[str, Any]]]:
        marks = ",".join("?" * len(ids))
        out: dict[int, list[dict[str, Any]]] = {}
        for r in self.conn.execute(
            f"SELECT * FROM memory_versions WHERE memory_id IN ({marks}) "
            "ORDER BY memory_id, version",
            ids,
        ):
            out.setdefault(r["memory_id"], []).append(
                {
                    "version": r["version"],
                    "change": r["change"],
                    "changed_by": r["changed_by"],
                    "changed_at": r["changed_at"],
                    "before": json.loads(r["before"]) if r["before"] else None,
                    "after": json.loads(r["after"]) if r["after"] else None,
                    "cause": r["cause"],
                }
            )
        return out

    def _sources(self, ids: list[int]) -> dict[int, list[dict[str, Any]]]:
        marks = ",".join("?" * len(ids))
        out: dict[int, list[dict[str, Any]]] = {}
        for r in self.conn.execute(
            "SELECT ms.memory_id, s.session_id, e.seq FROM memory_sources ms "
            "JOIN session_events e ON e.id = ms.event_id "
            "JOIN sessions s ON s.id = e.session_pk "
            f"WHERE ms.memory_id IN ({marks}) ORDER BY ms.memory_id, ms.event_id",
            ids,
        ):
            out.setdefault(r[0], []).append({"session_id": r[1], "seq": r[2]})
        return out


def _vector(row: sqlite3.Row, with_vectors: bool) -> dict[str, Any]:
    """The raw vector (bytes) and its model, when asked for and present."""
    if not with_vectors or row["vector"] is None:
        return {}
    return {"vector": bytes(row["vector"]), "vector_model": row["model_id"]}

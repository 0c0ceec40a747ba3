"""An exported memory or episode written as its rows, inside the caller's transaction
(``transfer_restore.PersonaRestore`` decides what to restore, skips what is there and owns the
transaction; the PostgreSQL adapter writes through the same functions)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import numpy as np

from omoide.engine.errors import named
from omoide.store.sqlite.indexes import EPISODE_FTS, MEMORY_FTS

__all__ = ["RestoreTarget", "as_json", "insert_episode", "insert_memory", "vector_bytes"]


@dataclass(frozen=True)
class RestoreTarget:
    """Where restored rows go: the persona, and the model its vectors are stored under."""

    persona_id: int
    model_id: str
    dim: int


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def vector_bytes(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def insert_episode(
    conn: sqlite3.Connection,
    target: RestoreTarget,
    pk: int,
    ep: dict[str, Any],
    vector: np.ndarray,
    event_ids: dict[int, int],
) -> int:
    """One exported episode of the session stored as ``pk``, with its vector and keyword row;
    ``event_ids`` maps the session's turn seqs to their new ids."""
    first, last = event_ids.get(ep["first_seq"]), event_ids.get(ep["last_seq"])
    if first is None or last is None:
        raise ValueError(
            f"episode of session {named(ep['session_id'])} names turns "
            f"{ep['first_seq']}-{ep['last_seq']} the file does not hold"
        )
    episode_id = int(
        conn.execute(
            "INSERT INTO episodes (session_pk, persona_id, first_event_id, last_event_id, "
            "first_seq, last_seq, content, topic, surprise, boundary_reason, started_at, "
            "ended_at, created_at, consolidated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, "
            "?, ?) RETURNING id",
            (
                pk,
                target.persona_id,
                first,
                last,
                ep["first_seq"],
                ep["last_seq"],
                ep["content"],
                ep["topic"],
                ep["surprise"],
                ep["boundary_reason"],
                ep["started_at"],
                ep["ended_at"],
                ep["created_at"],
                ep["consolidated_at"],
            ),
        ).fetchone()[0]
    )
    conn.execute(
        "UPDATE session_events SET episode_id = ? WHERE session_pk = ? AND seq BETWEEN ? AND ?",
        (episode_id, pk, ep["first_seq"], ep["last_seq"]),
    )
    conn.execute(
        "INSERT INTO episode_vectors (episode_id, model_id, dim, vector) VALUES (?, ?, ?, ?)",
        (episode_id, target.model_id, target.dim, vector_bytes(vector)),
    )
    EPISODE_FTS.index(conn, [(episode_id, ep["content"])])
    return episode_id


def insert_memory(
    conn: sqlite3.Connection, target: RestoreTarget, m: dict[str, Any], vector: np.ndarray
) -> int:
    """One exported memory with its strength, versions, tags, sources, vector and keyword row."""
    memory_id = int(
        conn.execute(
            "INSERT INTO memories (key, persona_id, content, kind, importance, tags, "
            "emotion_type, emotion_intensity, source, source_ref, created_at, updated_at, "
            "access_count, last_accessed, valid_from, valid_until, superseded_by, summary_ref, "
            "status, metadata, evolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, "
            "?, ?, ?, ?, ?, ?) RETURNING id",
            (
                m["key"],
                target.persona_id,
                m["content"],
                m["kind"],
                m["importance"],
                as_json(m["tags"]),
                m["emotion_type"],
                m["emotion_intensity"],
                m["source"],
                _source_ref(conn, target.persona_id, m["source_ref"]),
                m["created_at"],
                m["updated_at"],
                m["access_count"],
                m["last_accessed"],
                m["valid_from"],
                m["valid_until"],
                m["superseded_by"],
                m["summary_ref"],
                m["status"],
                as_json(m["metadata"]),
                m["evolved_at"],
            ),
        ).fetchone()[0]
    )
    conn.execute(
        "INSERT INTO memory_strength (memory_id, strength, stability, "
        "last_decay_at) VALUES (?, ?, ?, ?)",
        (memory_id, m["strength"], m["stability"], m["last_decay_at"]),
    )
    conn.executemany(
        "INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, "
        "before, after, cause) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                memory_id,
                v["version"],
                v["change"],
                v["changed_by"],
                v["changed_at"],
                None if v["before"] is None else as_json(v["before"]),
                None if v["after"] is None else as_json(v["after"]),
                v.get("cause"),
            )
            for v in m["versions"]
        ],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO memory_tags (memory_id, persona_id, tag) VALUES (?, ?, ?)",
        [(memory_id, target.persona_id, t) for t in m["tags"]],
    )
    for source in m["sources"]:
        conn.execute(
            "INSERT OR IGNORE INTO memory_sources (memory_id, event_id) "
            "SELECT ?, e.id FROM session_events e JOIN sessions s ON s.id = e.session_pk "
            "WHERE s.persona_id = ? AND s.session_id = ? AND e.seq = ?",
            (memory_id, target.persona_id, source["session_id"], source["seq"]),
        )
    conn.execute(
        "INSERT INTO memory_vectors (memory_id, model_id, dim, vector) VALUES (?, ?, ?, ?)",
        (memory_id, target.model_id, target.dim, vector_bytes(vector)),
    )
    if m["status"] == "active":
        MEMORY_FTS.index(conn, [(memory_id, m["content"])], persona_id=target.persona_id)
    return memory_id


def _source_ref(conn: sqlite3.Connection, persona_id: int, ref: Any) -> str | None:
    """An episode named by (session_id, first_seq) becomes this folder's episode id."""
    if not isinstance(ref, dict):
        return ref
    episode = ref["episode"]
    row = conn.execute(
        "SELECT ep.id FROM episodes ep JOIN sessions s ON s.id = ep.session_pk "
        "WHERE s.persona_id = ? AND s.session_id = ? AND ep.first_seq = ?",
        (persona_id, episode["session_id"], episode["first_seq"]),
    ).fetchone()
    return None if row is None else str(row[0])

"""Note-tier storage of one persona in PostgreSQL.

The queries are the SQLite adapter's (standard SQL through :class:`PgDatabase`); what differs
is here: keyword search, ids for bulk inserts drawn from the identity sequence (other personas
insert concurrently), and the counts of :meth:`stats` (no boolean sums).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from omoide.clock import iso
from omoide.model import KeywordHit, LinkType, Memory, MemoryStats, NewMemory, VersionChange
from omoide.store.postgres.fts import pg_index
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.memory_writes import (
    _INSERT_MEMORY_WITH_ID,
    INSERT_VERSION,
    SELECT_MEMORY,
    UPSERT_VECTOR,
    new_key,
)
from omoide.store.sqlite.rows import dt_or_none, memory_image
from omoide.store.vectors import language_of

__all__ = ["PG_MEMORY_FTS", "PgMemoryStore"]

PG_MEMORY_FTS = pg_index(MEMORY_FTS)

_PG_UPSERT_LINK = """
INSERT INTO memory_links (a, b, link_type, weight, co_activation_count, last_activated)
VALUES (?, ?, ?, ?, 1, ?)
ON CONFLICT (a, b, link_type) DO UPDATE SET
    co_activation_count = memory_links.co_activation_count + 1,
    weight = LEAST(?, memory_links.weight + ? * (1.0 - memory_links.weight)),
    last_activated = excluded.last_activated
"""


class PgMemoryStore(MemoryStore):
    """The memories of one persona (every query carries ``persona_id``)."""

    def keyword_search(self, query: str, *, limit: int) -> list[KeywordHit]:
        return PG_MEMORY_FTS.search(self.db.conn(), persona_id=self.persona_id, query=query,
                                    limit=limit)

    def stats(self) -> MemoryStats:
        conn = self.db.conn()
        row = conn.execute(
            "SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE status = 'active') AS active, "
            "COUNT(*) FILTER (WHERE status = 'tombstoned') AS tombstoned, "
            "COUNT(*) FILTER (WHERE status = 'active' AND superseded_by IS NOT NULL) "
            "AS superseded, MIN(created_at) AS oldest, MAX(created_at) AS newest, "
            "AVG(CASE WHEN status = 'active' THEN s.strength END) AS mean_strength "
            "FROM memories m JOIN memory_strength s ON s.memory_id = m.id "
            "WHERE m.persona_id = ?", (self.persona_id,)).fetchone()
        kinds = conn.execute(
            "SELECT kind, COUNT(*) FROM memories WHERE persona_id = ? AND status = 'active' "
            "GROUP BY kind ORDER BY kind", (self.persona_id,)).fetchall()
        links = conn.execute(
            "SELECT COUNT(*) FROM memory_links l JOIN memories m ON m.id = l.a "
            "WHERE m.persona_id = ? AND l.a < l.b", (self.persona_id,)).fetchone()[0]
        return MemoryStats(
            persona=self.persona, total=row["total"] or 0, active=row["active"] or 0,
            tombstoned=row["tombstoned"] or 0, superseded=row["superseded"] or 0,
            by_kind={k: n for k, n in kinds}, mean_strength=float(row["mean_strength"] or 0.0),
            links=links, oldest=dt_or_none(row["oldest"]), newest=dt_or_none(row["newest"]))

    def insert_many(self, news: Sequence[NewMemory], vectors: np.ndarray, *,
                    stabilities: Sequence[float], now: datetime,
                    changed_by: str = "user") -> list[Memory]:
        """Bulk insert as in SQLite, with ids taken from the identity sequence in one call."""
        if not len(news) == len(vectors) == len(stabilities):
            raise ValueError("news, vectors and stabilities must have the same length")
        if not news:
            return []
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(news), -1)
        with self.db.write() as conn:
            ids = [int(r[0]) for r in conn.execute(
                "SELECT nextval(pg_get_serial_sequence('memories', 'id')) "
                "FROM generate_series(1, ?)", (len(news),))]
            conn.executemany(_INSERT_MEMORY_WITH_ID, [
                (memory_id, new_key(), *self._memory_columns(new, now))
                for memory_id, new in zip(ids, news, strict=True)])
            conn.executemany("INSERT INTO memory_strength (memory_id, strength, stability, "
                             "last_decay_at) VALUES (?, ?, ?, ?)",
                             [(memory_id, new.importance, float(stability), iso(now))
                              for memory_id, new, stability in zip(ids, news, stabilities,
                                                                   strict=True)])
            conn.executemany("INSERT OR IGNORE INTO memory_sources (memory_id, event_id) "
                             "VALUES (?, ?)", [(memory_id, e) for memory_id, new in
                                               zip(ids, news, strict=True)
                                               for e in new.source_event_ids])
            conn.executemany(UPSERT_VECTOR, [(memory_id, self.model_id, matrix.shape[1],
                                              row.tobytes())
                                             for memory_id, row in zip(ids, matrix, strict=True)])
            MEMORY_FTS.index(conn, [(memory_id, new.content)
                                    for memory_id, new in zip(ids, news, strict=True)])
            conn.executemany("INSERT OR IGNORE INTO memory_tags (memory_id, persona_id, tag) "
                             "VALUES (?, ?, ?)", [(memory_id, self.persona_id, tag)
                                                  for memory_id, new in zip(ids, news, strict=True)
                                                  for tag in new.tags])
            rows = conn.execute(SELECT_MEMORY + " WHERE m.persona_id = ? AND m.id = ANY(?) "
                                "ORDER BY m.id", (self.persona_id, ids)).fetchall()
            memories = self._hydrate(rows, with_links=False)
            conn.executemany(INSERT_VERSION, [
                (memory_id, memory_id, VersionChange.CREATE, changed_by, iso(now), None,
                 json.dumps(memory_image(memory), ensure_ascii=False))
                for memory_id, memory in zip(ids, memories, strict=True)])
            index, revision = self._bump(conn)
            index.add(ids, matrix, [language_of(new.content) for new in news])
            index.revision = revision
        return memories

    def apply_evolution(self, new_key: str, *, now: datetime, neighbour_ids: Sequence[int],
                        link_increment: float, link_cap: float,
                        extends: Sequence[tuple[int, tuple[str, ...], float]],
                        supersedes: Sequence[tuple[int, datetime]],
                        remainders: Sequence[tuple[NewMemory, np.ndarray, float]] = ()
                        ) -> bool:
        """As in SQLite (step 4 of the write path, one transaction, at most once), with the link
        upsert naming the stored row's columns by table (PostgreSQL reads them as ambiguous).

        ``extends``: (old id, merged tags, merged importance); ``supersedes``: (old id,
        valid_until); ``remainders``: (memory, vector, stability) written as new memories —
        the unchanged part of a superseded compound memory. Returns False when this memory was
        already evolved (a re-run after a crash), so the effect is exactly once.
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
                    (iso(now), new_key, self.persona_id, *neighbour_ids))
                for other in neighbour_ids:
                    for a, b in ((new_id, other), (other, new_id)):
                        conn.execute(_PG_UPSERT_LINK, (a, b, LinkType.SEMANTIC, link_increment,
                                                   iso(now), link_cap, link_increment))
            for old_id, tags, importance in extends:
                self._versioned_update(conn, old_id, {"tags": tags, "importance": importance},
                                       now=now, change=VersionChange.EXTEND,
                                       changed_by="evolution")
            for old_id, valid_until in supersedes:
                self._versioned_update(conn, old_id, {"valid_until": valid_until,
                                                      "superseded_by": new_key},
                                       now=now, change=VersionChange.SUPERSEDE,
                                       changed_by="evolution")
            if remainders:
                added = [self._insert_row(conn, new, vector=vector, stability=stability,
                                          now=now, changed_by="evolution")[0]
                         for new, vector, stability in remainders]
                index, revision = self._bump(conn)
                index.add(added, np.stack([v for _, v, _ in remainders]),
                          [language_of(new.content) for new, _, _ in remainders])
                index.revision = revision
        return True

"""Note-tier storage of one persona in PostgreSQL.

The queries are the SQLite adapter's (standard SQL through :class:`PgDatabase`); what differs
is here: keyword search, ids for bulk inserts drawn from the identity sequence (other personas
insert concurrently), and evolution's link upsert (columns named by table).
"""

from __future__ import annotations

from typing import Any

from omoide.model import KeywordHit
from omoide.store.postgres.fts import pg_index
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.memory_writes import SELECT_MEMORY

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

    _upsert_link = _PG_UPSERT_LINK  # names the stored row's columns by table (else ambiguous)

    def keyword_search(self, query: str, *, limit: int) -> list[KeywordHit]:
        return PG_MEMORY_FTS.search(self.db.conn(), persona_id=self.persona_id, query=query,
                                    limit=limit)

    def _new_ids(self, conn: Any, n: int) -> list[int]:
        """Ids from the identity sequence, in one call (other processes take ids too)."""
        return [int(r[0]) for r in conn.execute(
            "SELECT nextval(pg_get_serial_sequence('memories', 'id')) "
            "FROM generate_series(1, ?)", (n,))]

    def _rows_with_ids(self, conn: Any, ids: list[int]) -> list[Any]:
        return conn.execute(SELECT_MEMORY + " WHERE m.persona_id = ? AND m.id = ANY(?) "
                            "ORDER BY m.id", (self.persona_id, ids)).fetchall()

"""Note-tier storage of one persona in PostgreSQL.

The queries are the SQLite adapter's (standard SQL through :class:`PgDatabase`); what differs
is here: keyword search, ids for bulk inserts drawn from the identity sequence (other personas
insert concurrently), evolution's link upsert (columns named by table), and where the vectors
are searched: in memory below ``ann_rows`` active memories, in SQL (HNSW) past it
(``vectors.py``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from omoide.clock import iso
from omoide.engine.lang import CJK_CLASS
from omoide.model import KeywordHit, Memory, MemoryStatus, RankFacts, Source
from omoide.store.postgres.fts import pg_index
from omoide.store.postgres.term_stats import TermStats
from omoide.store.postgres.vectors import PgVectorSearch
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.memory_sql import SELECT_MEMORY
from omoide.store.sqlite.rows import dt, dt_or_none, memory_from_row
from omoide.store.vectors import VectorIndex

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


_SEEN_FOR_S = 1.0

# Recall strengthening (MemoryStore.record_recalls' rule) in one statement: the rows due are
# read under the persona's lock (the write takes it first) and both tables updated.
_RECALL = (
    "WITH due AS (UPDATE memories SET access_count = access_count + 1, last_accessed = ? "
    "WHERE +persona_id = ? AND id = ANY(?) AND (last_accessed IS NULL OR last_accessed <= ?) "
    "RETURNING id) UPDATE memory_strength s SET stability = LEAST(?, s.stability * ?) "
    "FROM due WHERE s.memory_id = due.id RETURNING s.memory_id"
)

# A memory row with its sources (as ``_hydrate`` reads them: event id order), in one statement.
_SELECT_WITH_SOURCES = SELECT_MEMORY.replace(
    "\nFROM memories m",
    ", (SELECT json_agg(json_build_array(e.id, e.external_id) ORDER BY e.id) "
    "FROM memory_sources ms JOIN session_events e ON e.id = ms.event_id "
    "WHERE ms.memory_id = m.id) AS sources_of\nFROM memories m",
    1,
)

# rank_facts' columns; with them, the vector (and script group) of the rows named by the
# second id array, for the vector search's similarities (see PgMemoryStore.rank_facts)
_RANK_FACTS = (
    "SELECT m.id, m.key, m.status, m.importance, s.stability, m.created_at, m.last_accessed, "
    "m.superseded_by, m.valid_until, m.updated_at, v.vector, CASE WHEN v.memory_id IS NOT NULL "
    "THEN m.content ~ ? END FROM memories m JOIN memory_strength s ON s.memory_id = m.id "
    "LEFT JOIN memory_vectors v ON v.memory_id = m.id AND v.model_id = ? AND v.memory_id = ANY(?) "
    "WHERE +m.persona_id = ? AND m.id = ANY(?)"
)


class PgMemoryStore(MemoryStore):
    """The memories of one persona (every query carries ``persona_id``)."""

    _word_index = PG_MEMORY_FTS

    _upsert_link = _PG_UPSERT_LINK  # names the stored row's columns by table (else ambiguous)
    recount_s = 60.0  # how often a persona searched in SQL has its rows counted again

    def __init__(
        self,
        db: Any,
        persona_id: int,
        persona: str,
        load_vectors: Callable[[int], VectorIndex],
        model_id: str,
        *,
        dim: int,
        ann_rows: int,
        on_large: Callable[[], None] = lambda: None,
        term_stats: TermStats | None = None,
    ) -> None:
        super().__init__(db, persona_id, persona, load_vectors, model_id)
        self.term_stats = term_stats  # the database's, shared by every persona's handle
        self.dim = dim
        self.ann_rows = ann_rows
        self._on_large = on_large
        self._sql: PgVectorSearch | None = None
        self._counted_at = 0.0
        self._seen = threading.local()

    def saw_revision(self, revision: int) -> None:
        """The persona's revision as the store just read it (with the persona, at the start
        of the calling thread's operation): for the next second, on this thread, an index at
        least that new is current without asking again."""
        self._seen.value = (revision, time.monotonic())

    def revision(self) -> int:
        """As on SQLite, read from the database; this thread's next index lookup then takes no
        index older than it (the one-second shortcut of :meth:`_revision`)."""
        value = super().revision()
        self.saw_revision(value)
        return value

    def _revision(self, conn: Any) -> int:
        seen = getattr(self._seen, "value", None)
        index = self._vectors
        in_write = getattr(self.db.db._local, "tx", None) is not None
        if (
            seen is not None
            and index is not None
            and not in_write
            and time.monotonic() - seen[1] < _SEEN_FOR_S
            and index.revision >= seen[0]
        ):
            return index.revision
        return super()._revision(conn)

    @property
    def vectors(self) -> Any:
        """The in-memory index (revision-checked, as on SQLite) while the persona has fewer
        than ``ann_rows`` active memories; past it, :class:`PgVectorSearch` (no per-search
        check: it reads the database). The count is taken at first use (an index that grows
        past the threshold switches too) and again every ``recount_s`` while in SQL: below
        half the threshold the persona goes back to memory."""
        sql = self._sql
        if sql is not None and time.monotonic() - self._counted_at < self.recount_s:
            return sql
        with self._vectors_lock:
            if self._sql is not None or self._vectors is None:
                count = self._active_count()
                self._counted_at = time.monotonic()
                if self._sql is not None:
                    self._sql.count = count
                    if count < self.ann_rows // 2:
                        self._sql = None
                elif count >= self.ann_rows:
                    self._use_sql(count)
            if self._sql is not None:
                return self._sql
        index = super().vectors  # reloaded here if another process changed the persona
        if len(index) < self.ann_rows:
            return index
        with self._vectors_lock:
            if self._sql is None:
                self._use_sql(len(index))
            return self._sql

    def _use_sql(self, count: int) -> None:
        self._sql = PgVectorSearch(self.db, self.persona_id, self.model_id, self.dim, count)
        self._counted_at = time.monotonic()
        self._vectors = None
        self._on_large()

    def _active_count(self) -> int:
        return int(
            self.db.conn()
            .execute(
                "SELECT count(*) FROM memories WHERE persona_id = ? AND status = 'active'",
                (self.persona_id,),
            )
            .fetchone()[0]
        )

    def by_ids(self, ids: Sequence[int]) -> dict[int, Memory]:
        """As on SQLite, with each row's sources in the same statement (one round trip)."""
        if not ids:
            return {}
        rows = (
            self.db.conn()
            .execute(
                _SELECT_WITH_SOURCES + " WHERE +m.persona_id = ? AND m.id = ANY(?)",
                (self.persona_id, list(ids)),
            )
            .fetchall()
        )
        out = {}
        for row in rows:
            sources = tuple(Source(int(e), x) for e, x in row["sources_of"] or ())
            out[int(row["id"])] = memory_from_row(row, self.persona, sources=sources)
        return out

    def rank_facts(self, ids: Sequence[int]) -> dict[int, RankFacts]:
        """As on SQLite; when the persona is searched in SQL, the same statement also reads
        the vectors of the candidates the vector search did not fetch (the keyword side's),
        which the search's similarities then take from there instead of another round
        trip."""
        if not ids:
            return {}
        search = self._sql
        unseen = search.unseen(ids) if search is not None else []
        rows = (
            self.db.conn()
            .execute(_RANK_FACTS, (CJK_CLASS, self.model_id, unseen, self.persona_id, list(ids)))
            .fetchall()
        )
        out, fetched = {}, {}
        for (
            memory_id,
            key,
            status,
            importance,
            stability,
            created_at,
            last_accessed,
            superseded_by,
            valid_until,
            updated_at,
            vector,
            cjk,
        ) in rows:
            out[int(memory_id)] = RankFacts(
                key=key,
                status=MemoryStatus(status),
                importance=importance,
                stability=stability,
                created_at=dt(created_at),
                last_accessed=dt_or_none(last_accessed),
                superseded_by=superseded_by,
                valid_until=dt_or_none(valid_until),
                updated_at=dt(updated_at),
            )
            if vector is not None:
                fetched[int(memory_id)] = (vector, int(cjk))
        if search is not None and fetched:
            search.remember(fetched)
        return out

    def record_recalls(
        self,
        ids: Iterable[int],
        *,
        now: datetime,
        factor: float,
        cap: float,
        min_interval_hours: float,
    ) -> int:
        """As on SQLite (the same rule, the same read first so that a search whose recalls
        are not due takes no lock), with the write as one statement sent together with its
        BEGIN, lock and COMMIT: one round trip instead of six. The commit does not wait for
        the WAL flush (bookkeeping: a crash of the database server may lose the last moment's
        recalls, never half of one; see :meth:`PgDatabase.pipelined_write`)."""
        ids = list(ids)
        if not ids:
            return 0
        cutoff = iso(now - timedelta(hours=min_interval_hours))
        marks = ",".join("?" * len(ids))
        if (
            not self.db.conn()
            .execute(
                f"SELECT id FROM memories WHERE +persona_id = ? AND id IN ({marks}) "
                "AND (last_accessed IS NULL OR last_accessed <= ?)",
                (self.persona_id, *ids, cutoff),
            )
            .fetchone()
        ):
            return 0
        rows = self.db.pipelined_write(
            [(_RECALL, (iso(now), self.persona_id, ids, cutoff, cap, factor))], durable=False
        )[0]
        return len(rows)

    def keyword_search(self, query: str, *, limit: int) -> list[KeywordHit]:
        return PG_MEMORY_FTS.search(
            self.db.conn(),
            persona_id=self.persona_id,
            query=query,
            limit=limit,
            stats=self.term_stats,
        )

    def _new_ids(self, conn: Any, n: int) -> list[int]:
        """Ids from the identity sequence, in one call (other processes take ids too)."""
        return [
            int(r[0])
            for r in conn.execute(
                "SELECT nextval(pg_get_serial_sequence('memories', 'id')) "
                "FROM generate_series(1, ?)",
                (n,),
            )
        ]

    def _rows_with_ids(self, conn: Any, ids: list[int]) -> list[Any]:
        return conn.execute(
            SELECT_MEMORY + " WHERE m.persona_id = ? AND m.id = ANY(?) ORDER BY m.id",
            (self.persona_id, ids),
        ).fetchall()

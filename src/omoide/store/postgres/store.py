"""The PostgreSQL adapter's entry point: the surface of ``SqliteStore`` on a shared database.

Selected by ``OMOIDE_DATABASE_URL=postgresql://…`` (``wiring/storage.py``). Several ``omoide serve``
processes may share one database: every persona-scoped write takes that persona's advisory
lock (writes to one persona are serialised, as on one SQLite file; other personas proceed),
each process keeps the in-memory vector index of the personas it serves and reloads it when
another process changed them (``personas.revision``, as between SQLite processes), and jobs are
leased (``jobs.py``). Vectors are also kept in pgvector columns: a persona with
:data:`ANN_PERSONA_ROWS` active memories or more is searched in SQL through an HNSW index
(cosine) for the embedder's dimension instead of in memory (``vectors.py``), and
:meth:`PostgresStore.nearest` queries that index directly.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime
from typing import Any

import numpy as np
import psycopg
from psycopg import sql as pgsql

from omoide.clock import iso
from omoide.engine.errors import named
from omoide.engine.fsrs import recall_anchor, strengths
from omoide.engine.lang import CJK_CLASS
from omoide.errors import NotFound
from omoide.store.postgres import erase
from omoide.store.postgres.db import CrossPersonaDb, PersonaDb, PgDatabase
from omoide.store.postgres.memories import PgMemoryStore
from omoide.store.postgres.pool import POOL_WAIT_S
from omoide.store.postgres.rls import warn_if_unwalled
from omoide.store.postgres.sessions import PgSessionStore
from omoide.store.postgres.term_stats import TermStats
from omoide.store.postgres.transfer import PgPersonaDump, PgPersonaRestore
from omoide.store.postgres.vectors import ANN_PERSONA_ROWS
from omoide.store.sqlite.blocks import BlockStore
from omoide.store.sqlite.keys import KeyStore
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.sessions import SessionStore
from omoide.store.sqlite.sessions_meta import SessionMetaStore
from omoide.store.sqlite.state import StateStore
from omoide.store.sqlite.store import SqliteStore, check_persona_name
from omoide.store.vectors import VectorIndex

__all__ = ["ANN_PERSONA_ROWS", "PostgresStore", "is_postgres_url"]

_LOAD_CHUNK = 10_000
# The HNSW build's lock: apart from the persona write locks (0x6F6D, persona id) and the
# migrations' (0x6F6D, 0).
_ANN_LOCK = (0x6F6E, 0)
_DECAY_CHUNK = 50_000


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and str(url).startswith(("postgresql://", "postgres://"))


class PostgresStore(SqliteStore):
    """Every persona in one PostgreSQL database. Thread-safe; many processes may share it."""

    _name_taken = psycopg.errors.UniqueViolation
    # writers run concurrently: an update of the overrides locks the persona's row
    _settings_to_update = "SELECT settings FROM personas WHERE id = ? FOR UPDATE"
    _purge_memory = staticmethod(erase.purge_memory)  # type: ignore[assignment]
    _erase_session = staticmethod(erase.erase_session)  # type: ignore[assignment]
    _erase_persona = staticmethod(erase.erase_persona)  # type: ignore[assignment]

    def __init__(
        self,
        url: str,
        *,
        model_id: str,
        dim: int,
        pool_size: int = 16,
        pool_wait_s: float = POOL_WAIT_S,
        ann_rows: int = ANN_PERSONA_ROWS,
    ) -> None:
        self.url = url
        # the root's own work is across personas (listing, counts, persona delete, decay);
        # the per-persona handles see their persona only (rls.py)
        self.db = CrossPersonaDb(  # type: ignore[assignment]
            PgDatabase(url, max_size=pool_size, wait_s=pool_wait_s)
        )
        self.model_id = model_id
        self.dim = int(dim)
        self._handles: dict[str, MemoryStore] = {}
        self._sessions: dict[str, SessionStore] = {}
        self._handles_lock = threading.Lock()
        self._keys = KeyStore(self.db)  # type: ignore[arg-type]
        self.ann_rows = ann_rows
        self._term_stats = TermStats()  # keyword statistics reused between searches
        self._ann_thread: threading.Thread | None = None
        try:
            warn_if_unwalled(self.db.conn())
            largest = self._largest_persona()
        except BaseException:  # no store to close: its pool is closed here (before: left open)
            self.db.close()
            raise
        if largest >= ann_rows:
            self._want_ann_index()

    def ping(self) -> None:
        """The health check's query, waiting a short while for a connection (``PgDatabase.ping``),
        not a request's ``OMOIDE_PG_POOL_WAIT``."""
        self.db.ping()

    def _want_ann_index(self) -> None:
        """Build the HNSW index in the background, once per process (a no-op if it exists)."""
        with self._handles_lock:
            if self._ann_thread is not None:
                return
            self._ann_thread = threading.Thread(
                target=self.ensure_ann_index, daemon=True, name="omoide-hnsw"
            )
        self._ann_thread.start()

    def _largest_persona(self) -> int:
        """Active memories of the largest persona, counted exactly once the table is large
        enough for any persona to reach the threshold (the planner's estimate says)."""
        conn = self.db.conn()
        estimate = conn.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = 'memories'::regclass"
        ).fetchone()[0]
        if estimate is not None and 0 <= estimate < self.ann_rows:
            return int(estimate)
        row = conn.execute(
            "SELECT count(*) AS n FROM memories WHERE status = 'active' "
            "GROUP BY persona_id ORDER BY n DESC LIMIT 1"
        ).fetchone()
        return 0 if row is None else int(row[0])

    def ensure_ann_index(self, *, maintenance_work_mem: str | None = None) -> None:
        """The HNSW (cosine) index over the memory vectors of this embedder's dimension.

        Built once some persona holds ``ann_rows`` active memories (checked at open, and
        when a persona's handle crosses it), in the background and ``CONCURRENTLY``, so
        writes go on: below that, every persona is searched exactly in memory and each insert
        would pay for maintaining the graph (measured: ~12 ms per row on this machine under
        load, three quarters of a bulk insert's time).
        ``maintenance_work_mem`` (e.g. ``"2GB"``) lets a large build keep its graph in memory
        (far faster than spilling); pgvector builds with the server's parallel maintenance
        workers.
        """
        with self.db.raw() as raw:  # type: ignore[attr-defined]
            if maintenance_work_mem is not None:
                raw.execute(
                    pgsql.SQL("SET maintenance_work_mem = {}").format(
                        pgsql.Literal(maintenance_work_mem)
                    )
                )
            # Polled, not waited for: a session blocked on the lock would hold a snapshot
            # that the other process's CREATE INDEX CONCURRENTLY waits out (a deadlock).
            while not raw.execute("SELECT pg_try_advisory_lock(%s, %s)", _ANN_LOCK).fetchone()[0]:
                time.sleep(0.2)
            try:
                raw.execute(
                    f"CREATE INDEX CONCURRENTLY IF NOT EXISTS memory_vectors_hnsw_{self.dim} "
                    f"ON memory_vectors USING hnsw ((vector::vector({self.dim})) "
                    f"vector_cosine_ops) WHERE dim = {self.dim}"
                )
            finally:
                raw.execute("SELECT pg_advisory_unlock(%s, %s)", _ANN_LOCK)

    # -- personas ------------------------------------------------------------------------

    def persona_settings(self, name: str) -> dict[str, Any]:
        """The stored overrides, in one statement (a search reads them twice)."""
        check_persona_name(name)
        row = (
            self.db.conn()
            .execute("SELECT settings FROM personas WHERE name = ?", (name,))
            .fetchone()
        )
        if row is None:
            raise NotFound(f"unknown persona {named(name)}", persona=name)
        return dict(json.loads(row[0]))

    def _persona_write(self, persona_id: int) -> Any:
        """The persona's write lock held for the change."""
        return self.db.write(persona_id)

    # -- persona handles -----------------------------------------------------------------

    def _scoped(self, persona_id: int) -> Any:
        return PersonaDb(self.db, persona_id)  # type: ignore[arg-type]

    def memories(self, name: str) -> MemoryStore:
        """As on SQLite; the persona row read here also gives the handle the persona's
        revision, so the operation that asked need not read it again for the vector index."""
        check_persona_name(name)
        row = (
            self.db.conn()
            .execute("SELECT id, revision FROM personas WHERE name = ?", (name,))
            .fetchone()
        )
        if row is None:
            raise NotFound(f"unknown persona {named(name)}", persona=name)
        persona_id = int(row[0])
        with self._handles_lock:
            handle = self._handles.get(name)
            if handle is None or handle.persona_id != persona_id:
                handle = PgMemoryStore(
                    self._scoped(persona_id),
                    persona_id,
                    name,
                    self._load_vectors,
                    self.model_id,
                    dim=self.dim,
                    ann_rows=self.ann_rows,
                    on_large=self._want_ann_index,
                    term_stats=self._term_stats,
                )
                self._handles[name] = handle
        handle.saw_revision(int(row[1]))  # type: ignore[attr-defined]
        return handle

    def state(self, name: str) -> StateStore:
        persona = self.get_persona(name)
        return StateStore(self._scoped(persona.id), persona.name)

    def blocks(self, name: str) -> BlockStore:
        persona = self.get_persona(name)
        return BlockStore(self._scoped(persona.id), persona.id, name)

    def sessions(self, name: str) -> SessionStore:
        persona = self.get_persona(name)
        with self._handles_lock:
            handle = self._sessions.get(name)
            if handle is None or handle.persona_id != persona.id:
                handle = PgSessionStore(
                    self._scoped(persona.id), persona.id, name, self.model_id, self.dim
                )
                self._sessions[name] = handle
        return handle

    def sessions_meta(self, name: str) -> SessionMetaStore:
        persona = self.get_persona(name)
        return SessionMetaStore(self._scoped(persona.id), persona.id)

    def dump(self, name: str) -> PgPersonaDump:
        """A consistent read snapshot of every row of ``name`` (export); a context manager."""
        persona = self.get_persona(name)
        return PgPersonaDump(self.db, persona.id, persona.name)  # type: ignore[arg-type]

    def restore(self, name: str) -> PgPersonaRestore:
        """Bulk restore of exported rows into ``name`` (import), idempotent per record."""
        persona = self.get_persona(name)
        return PgPersonaRestore(
            self._scoped(persona.id), persona.id, persona.name, self.model_id, self.dim
        )

    def _load_vectors(self, persona_id: int) -> VectorIndex:
        """Fill a persona's index, streaming the rows in chunks (server-side cursor)."""
        index = VectorIndex(self.dim)
        with self.db.raw() as raw, raw.transaction():  # type: ignore[attr-defined]
            count = raw.execute(
                "SELECT COUNT(*) FROM memories WHERE persona_id = %s AND status = 'active'",
                (persona_id,),
            ).fetchone()[0]
            index.reserve(int(count))
            with raw.cursor(name="omoide_load_vectors", binary=True) as cur:
                # each text's script group (language_of) decided in SQL: in Python it cost
                # more than reading the rows
                cur.execute(
                    "SELECT v.memory_id, v.vector, m.content ~ %s FROM memory_vectors v "
                    "JOIN memories m ON m.id = v.memory_id WHERE m.persona_id = %s "
                    "AND m.status = 'active' AND v.model_id = %s",
                    (CJK_CLASS, persona_id, self.model_id),
                )
                while chunk := cur.fetchmany(_LOAD_CHUNK):
                    matrix = np.frombuffer(b"".join(r[1] for r in chunk), dtype=np.float32)
                    index.add(
                        [r[0] for r in chunk],
                        matrix.reshape(len(chunk), self.dim),
                        [int(r[2]) for r in chunk],
                    )
        return index

    def nearest(
        self, name: str, query: np.ndarray, *, limit: int, ef_search: int = 100
    ) -> list[tuple[int, float]]:
        """Approximate top ``limit`` (memory id, cosine) of a persona's active memories through
        the HNSW index; exact search stays the in-memory index's."""
        persona = self.get_persona(name)
        vec = np.asarray(query, dtype=np.float32).tobytes()
        with self.db.write() as conn:
            conn.execute(f"SET LOCAL hnsw.ef_search = {int(ef_search)}")
            rows = conn.execute(
                f"SELECT v.memory_id, 1 - (v.vector::vector({self.dim}) <=> "
                f"?::vector({self.dim})) AS score FROM memory_vectors v "
                "JOIN memories m ON m.id = v.memory_id "
                f"WHERE v.dim = {self.dim} AND v.model_id = ? AND m.persona_id = ? "
                f"AND m.status = 'active' ORDER BY v.vector::vector({self.dim}) <=> "
                f"?::vector({self.dim}) LIMIT ?",
                (vec, self.model_id, persona.id, vec, limit),
            ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    # -- decay ---------------------------------------------------------------------------

    def decay_all(self, *, now: datetime, persona: str | None = None) -> int:
        """Recompute ``strength`` and ``last_decay_at`` for every memory (of one persona), in
        one transaction: the rows' inputs are read in chunks, the engine's
        :func:`~omoide.engine.fsrs.strengths` computes the values, and each chunk is written
        back with one ``UPDATE … FROM unnest(…)``."""
        persona_clause, params = "", []
        if persona is not None:
            persona_clause, params = "AND m.persona_id = %s", [self.get_persona(persona).id]
        stamp = iso(now)
        now_s = now.timestamp()
        total = 0
        with self.db.raw() as raw, raw.transaction():  # type: ignore[attr-defined]
            with raw.cursor(name="omoide_decay") as cur:
                cur.execute(
                    "SELECT s.memory_id, m.importance, s.stability, "
                    "EXTRACT(EPOCH FROM m.last_accessed::timestamptz), "
                    "EXTRACT(EPOCH FROM m.created_at::timestamptz) "
                    "FROM memory_strength s JOIN memories m ON m.id = s.memory_id "
                    f"WHERE true {persona_clause}",
                    params,
                )
                chunks = []
                while chunk := cur.fetchmany(_DECAY_CHUNK):
                    chunks.append(chunk)
            for chunk in chunks:
                # hours since the engine's recall anchor (last recall, else creation)
                data = np.array(
                    [
                        (
                            r[1],
                            r[2],
                            (
                                now_s
                                - float(
                                    recall_anchor(
                                        None if r[3] is None else float(r[3]), float(r[4])
                                    )
                                )
                            )
                            / 3600.0,
                        )
                        for r in chunk
                    ],
                    dtype=np.float64,
                )
                values = strengths(data[:, 0], data[:, 1], data[:, 2])
                raw.execute(
                    "UPDATE memory_strength s SET strength = u.strength, "
                    "last_decay_at = %s FROM unnest(%s::bigint[], %s::float8[]) "
                    "AS u(id, strength) WHERE s.memory_id = u.id",
                    (stamp, [int(r[0]) for r in chunk], values.tolist()),
                )
                total += len(chunk)
        return total

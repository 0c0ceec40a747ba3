"""Vector search of one large persona answered by PostgreSQL (pgvector's HNSW index).

Below :data:`ANN_PERSONA_ROWS` active memories a persona's vectors live in the in-memory exact
:class:`~omoide.store.vectors.VectorIndex`, as on SQLite. Past it, loading them into every
server process costs memory (1.5 GB at 1M rows of 384 dimensions) and each search a full matrix
product, so :class:`PgVectorSearch` answers the same questions in SQL instead:

- ``search`` takes the top candidates from the HNSW (cosine) index: those nearest the query,
  and, for a centred search, also those of each script group nearest the query minus its
  language centroid (the direction the centred score favours within one group). The
  candidates' vectors come back with them and are scored exactly as the in-memory index
  scores (raw or language-centred cosine), so the result differs from the exact one only
  where a row was not among the candidates. Two graph scans (the centred direction's is
  split by group afterwards, see :meth:`PgVectorSearch._candidates`), one round trip
  (``hnsw.ef_search`` is set in the same pipeline).
- With ``allowed`` (filters) of up to :data:`_EXACT_ALLOWED` rows, the same candidates are
  taken by an exact scan of those rows (the ``ORDER BY`` expression does not match the index);
  with more, from the index with a larger ``ef_search``, filtered afterwards.
- The language centroids are estimated from a sample of the persona's rows, refreshed in the
  background once the snapshot is older than :data:`_CENTROID_TTL_S` and the persona's count
  of rows has changed since (a refresh reads 20,000 vectors: about a second of the server's
  time at 1M rows, which an unchanged persona need not pay every five minutes).
- ``similarities`` and ``language`` reuse the rows the thread's last search fetched for the same
  query (the hydration and script-gate calls that follow a search), else ask the database.

Nothing here is cached across requests except the centroids and the row count, which are
statistics: a write by any process is seen by the next search.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from omoide.engine.lang import CJK_CLASS  # has_cjk's characters: language 1, decided in SQL
from omoide.store.centring import LANGUAGES, centred_cosines, language_centroids, language_of
from omoide.store.postgres.pgvector_bytes import decode_wire, wire_vectors
from omoide.store.postgres.rls import NO_PERSONA, bind_session

__all__ = ["ANN_PERSONA_ROWS", "PgVectorSearch"]

ANN_PERSONA_ROWS = 100_000  # a persona with this many active vectors is searched in SQL
_EXACT_ALLOWED = 50_000  # filtered searches scan the allowed rows exactly up to this many
_CENTROID_SAMPLE = 20_000
_CENTROID_TTL_S = 300.0
_EF_MAX = 1000


class PgVectorSearch:
    """The :class:`~omoide.store.port.VectorSearch` of one persona, in SQL (see module doc).

    Writes through the handle call :meth:`add`/:meth:`remove` as they do on the in-memory
    index; here there is nothing to do (the rows are in the database). ``count``, the
    persona's active rows, is kept by the handle (counted again every ``recount_s``)."""

    def __init__(
        self,
        db: Any,
        persona_id: int,
        model_id: str,
        dim: int,
        count: int,
        *,
        ef_search: int = 100,
        candidates: int = 2,
    ) -> None:
        self.db = db
        self.persona_id = persona_id
        self.model_id = model_id
        self.dim = dim
        self.count = count
        self.ef_search = ef_search
        self.candidates = candidates  # candidates fetched per side, × the limit asked
        self.revision = -1
        self._local = threading.local()
        self._lock = threading.Lock()
        self._mu: np.ndarray | None = None
        self._mu_at = 0.0
        self._mu_count = -1  # the persona's count when they were computed
        self._refreshing = False

    def __len__(self) -> int:
        return self.count

    # -- writes (the handle's bookkeeping) -------------------------------------------------

    def add(
        self, ids: Iterable[int], vectors: np.ndarray, languages: Sequence[int] | None = None
    ) -> None:
        """Nothing: the write's rows are in ``memory_vectors``."""

    def remove(self, ids: Iterable[int]) -> None:
        """Nothing: the write's rows are gone from the database."""

    # -- reads -----------------------------------------------------------------------------

    def get(self, memory_id: int) -> np.ndarray | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT v.vector FROM memory_vectors v JOIN memories m ON m.id = v.memory_id "
                "WHERE v.memory_id = ? AND m.persona_id = ? AND v.model_id = ?",
                (memory_id, self.persona_id, self.model_id),
            )
            .fetchone()
        )
        return None if row is None else np.frombuffer(row[0], dtype=np.float32).copy()

    def search(
        self,
        query: np.ndarray,
        *,
        limit: int,
        allowed: np.ndarray | None = None,
        centred_for: str | None = None,
    ) -> list[tuple[int, float]]:
        if limit <= 0 or (allowed is not None and allowed.size == 0):
            return []
        query = np.asarray(query, dtype=np.float32)
        mu = self._centroids() if centred_for is not None else None
        directions: list[tuple[np.ndarray, bool]] = [(query, False)]
        if mu is not None and centred_for is not None:
            centred = query - mu[language_of(centred_for)]
            norm = float(np.linalg.norm(centred))
            if norm > 1e-6:  # within one script, q̂·p orders rows nearly as the centred score
                directions.append(((centred / norm).astype(np.float32), True))
        k = max(limit * self.candidates, limit)
        exact = allowed is not None and allowed.size <= _EXACT_ALLOWED
        ef = self.ef_search
        if allowed is not None and not exact:
            ef = int(ef * max(1.0, self.count / max(1, allowed.size)))
        rows = self._candidates(directions, k, min(_EF_MAX, max(ef, k)), allowed if exact else None)
        if allowed is not None and not exact:
            rows = [r for r in rows if _member(allowed, r[0])]
        if not rows:
            return []
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        mat = np.stack([r[1] for r in rows])
        langs = np.fromiter((r[2] for r in rows), dtype=np.int8, count=len(rows))
        self._local.seen = (query.tobytes(), {int(i): (v, int(g)) for i, v, g in rows})
        if mu is None or centred_for is None:
            scores = mat @ query
        else:
            scores = centred_cosines(
                mat @ query, mat @ mu.T, langs, query, language_of(centred_for), mu
            )
        order = np.lexsort((ids, -scores))[:limit]
        return [(int(ids[i]), float(scores[i])) for i in order]

    def language(self, memory_id: int) -> int | None:
        seen = getattr(self._local, "seen", None)
        if seen is not None and memory_id in seen[1]:
            return seen[1][memory_id][1]
        row = (
            self.db.conn()
            .execute(
                "SELECT m.content FROM memories m JOIN memory_vectors v ON v.memory_id = m.id "
                "WHERE m.id = ? AND m.persona_id = ? AND v.model_id = ?",
                (memory_id, self.persona_id, self.model_id),
            )
            .fetchone()
        )
        return None if row is None else language_of(row[0])

    def unseen(self, ids: Iterable[int]) -> list[int]:
        """Of ``ids``, those whose vector the thread's last search did not fetch."""
        seen = getattr(self._local, "seen", None)
        known = seen[1] if seen is not None else {}
        return [int(i) for i in ids if int(i) not in known]

    def remember(self, rows: dict[int, tuple[bytes, int]]) -> None:
        """Vectors (float32 bytes) and script groups the thread read for its last search's
        other candidates (``rank_facts``), for :meth:`similarities` and :meth:`language`."""
        seen = getattr(self._local, "seen", None)
        if seen is not None:
            seen[1].update(
                {i: (np.frombuffer(v, dtype=np.float32), g) for i, (v, g) in rows.items()}
            )

    def similarities(self, query: np.ndarray, ids: Iterable[int]) -> dict[int, float]:
        query = np.asarray(query, dtype=np.float32)
        wanted = list(dict.fromkeys(int(i) for i in ids))
        seen = getattr(self._local, "seen", None)
        known = seen[1] if seen is not None and seen[0] == query.tobytes() else {}
        out = {i: float(known[i][0] @ query) for i in wanted if i in known}
        missing = [i for i in wanted if i not in known]
        if missing:
            rows = (
                self.db.conn()
                .execute(
                    "SELECT v.memory_id, v.vector FROM memory_vectors v JOIN memories m "
                    "ON m.id = v.memory_id WHERE v.memory_id = ANY(?) AND m.persona_id = ? "
                    "AND v.model_id = ?",
                    (missing, self.persona_id, self.model_id),
                )
                .fetchall()
            )
            for memory_id, blob in rows:
                out[int(memory_id)] = float(np.frombuffer(blob, dtype=np.float32) @ query)
        return out

    # -- SQL -------------------------------------------------------------------------------

    def _candidates(
        self,
        directions: Sequence[tuple[np.ndarray, bool]],
        k: int,
        ef: int,
        allowed: np.ndarray | None,
    ) -> list[tuple[int, np.ndarray, int]]:
        """(id, vector, language) of the ``k`` rows nearest each direction (of each script
        group, for a direction marked per group), deduplicated, in one statement.

        Through the index, a direction per group is one scan, not one per group: pgvector
        (0.6, without iterative scans) takes the ``ef`` nearest entries from the graph and
        filters them afterwards, so a scan restricted to one group returns that group's share
        of the same ``ef`` entries; one scan kept whole (``LIMIT ef``) and split by group
        here, the first ``k`` of each, gives the same rows for half the graph walks. Over
        ``allowed`` rows the order is exact (no index), so each group is its own scan."""
        dim = self.dim
        # The index is on the expression below; without the cast the same order is exact.
        distance = (
            f"v.vector::vector({dim}) <=> %s::vector({dim})"
            if allowed is None
            else "v.vector <=> %s::vector"
        )
        where = f"v.dim = {dim} AND v.model_id = %s AND m.persona_id = %s AND m.status = 'active'"
        parts, params, wanted = [], [], []
        for number, (direction, per_group) in enumerate(directions):
            groups: list[int | None] = [None]
            if per_group:
                groups = [None] if allowed is None else list(range(LANGUAGES))
            for lang in groups:
                extra = "" if allowed is None else " AND v.memory_id = ANY(%s)"
                if lang is not None:
                    extra += f" AND {'' if lang else 'NOT '}m.content ~ %s"
                limit = ef if per_group and lang is None else k
                parts.append(
                    f"(SELECT {number}, v.memory_id, v.vector, m.content ~ %s, "
                    f"{distance} AS d FROM memory_vectors v JOIN memories m "
                    f"ON m.id = v.memory_id WHERE {where}{extra} ORDER BY d LIMIT %s)"
                )
                params += [CJK_CLASS, direction.tobytes(), self.model_id, self.persona_id]
                if allowed is not None:
                    params.append(allowed.tolist())
                if lang is not None:
                    params.append(CJK_CLASS)
                params.append(limit)
            wanted.append(k if per_group else None)
        sql = " UNION ALL ".join(parts).encode()
        database = getattr(self.db, "db", self.db)  # a PersonaDb's PgDatabase
        current = getattr(database._local, "tx", None)
        if current is not None:  # inside a write: its own rows are seen, its setting local
            current.raw.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(ef),))
            rows = wire_vectors(current.raw.cursor(binary=True)).execute(sql, params).fetchall()
        else:
            with database.pool.connection() as raw, raw.pipeline():
                # the persona's rows: a pooled session may still be bound to another persona
                bind_session(raw, getattr(self.db, "scope", NO_PERSONA))
                raw.execute("SELECT set_config('hnsw.ef_search', %s, false)", (str(ef),))
                cur = wire_vectors(raw.cursor(binary=True)).execute(sql, params)
            rows = cur.fetchall()
        if not rows:
            return []
        vectors = decode_wire([r[2] for r in rows])
        # the script group in SQL: language_of over every candidate's text in Python cost more
        # than the query itself
        out: dict[int, tuple[int, np.ndarray, int]] = {}
        taken: dict[tuple[int, int], int] = {}
        for at in sorted(range(len(rows)), key=lambda i: (rows[i][0], rows[i][4], rows[i][1])):
            number, memory_id, _, cjk, _ = rows[at]
            cap = wanted[number]
            if cap is not None:  # a direction per group: the first k of each group
                seen = taken.get((number, int(cjk)), 0)
                if seen >= cap:
                    continue
                taken[(number, int(cjk))] = seen + 1
            out.setdefault(int(memory_id), (int(memory_id), vectors[at], int(cjk)))
        return list(out.values())

    # -- centroids -------------------------------------------------------------------------

    def _centroids(self) -> np.ndarray | None:
        """The language centroids (shrunk as in the in-memory index); computed on first use,
        then refreshed in the background once stale and the persona has changed."""
        if self._mu is None:
            with self._lock:
                if self._mu is None:
                    self._refresh()
            return self._mu
        stale = time.monotonic() - self._mu_at > _CENTROID_TTL_S
        if stale and self.count != self._mu_count and not self._refreshing:
            self._refreshing = True
            threading.Thread(target=self._refresh, daemon=True, name="omoide-centroids").start()
        return self._mu

    def _refresh(self) -> None:
        counted = self.count
        try:
            total = (
                self.db.conn()
                .execute("SELECT reltuples::bigint FROM pg_class WHERE oid = 'memories'::regclass")
                .fetchone()[0]
            )
            share = max(self.count, 1) / max(float(total or 0), float(self.count), 1.0)
            percent = min(100.0, 100.0 * 2 * _CENTROID_SAMPLE / max(self.count, 1) / share)
            rows = (
                self.db.conn()
                .execute(
                    f"SELECT v.vector, m.content ~ ? FROM memories m TABLESAMPLE SYSTEM "
                    f"({percent:.6f}) REPEATABLE (7) JOIN memory_vectors v ON v.memory_id = m.id "
                    "WHERE m.persona_id = ? AND m.status = 'active' AND v.model_id = ? LIMIT ?",
                    (CJK_CLASS, self.persona_id, self.model_id, _CENTROID_SAMPLE),
                )
                .fetchall()
            )
            if len(rows) < min(self.count, 1000):  # a small share of a big table: scan it
                rows = (
                    self.db.conn()
                    .execute(
                        "SELECT v.vector, m.content ~ ? FROM memories m JOIN memory_vectors v "
                        "ON v.memory_id = m.id WHERE m.persona_id = ? AND m.status = 'active' "
                        "AND v.model_id = ? LIMIT ?",
                        (CJK_CLASS, self.persona_id, self.model_id, _CENTROID_SAMPLE),
                    )
                    .fetchall()
                )
            sums = np.zeros((LANGUAGES, self.dim), dtype=np.float64)
            counts = np.zeros(LANGUAGES, dtype=np.float64)
            for blob, cjk in rows:
                sums[int(cjk)] += np.frombuffer(blob, dtype=np.float32)
                counts[int(cjk)] += 1
            # the sample's means, shrunk by the persona's estimated count per language (the
            # sample's own counts when the handle's count is older than the rows)
            scale = max(1.0, self.count / max(len(rows), 1))
            full = counts * scale
            means = sums / np.maximum(counts, 1.0)[:, None]
            self._mu = language_centroids(means * full[:, None], full)
            self._mu_at = time.monotonic()
            self._mu_count = counted
        finally:
            self._refreshing = False


def _member(sorted_ids: np.ndarray, value: int) -> bool:
    pos = int(np.searchsorted(sorted_ids, value))
    return pos < sorted_ids.size and int(sorted_ids[pos]) == value

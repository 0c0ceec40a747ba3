"""In-memory exact vector index for one persona: a growable float32 matrix and a row map.

Exact cosine search by one matrix product (vectors are unit-norm). Appends amortise by doubling
capacity; removals clear a row's ``alive`` flag and compaction happens when a quarter of the
rows are dead. The store keeps it in sync with every committed write.

Two scores come out of one pass over the matrix: ``raw``, the embedder's cosine (every
threshold uses it), and ``centred``, the cosine after removing each text's language centroid
(``store.centring``: why, what it measured, and the arithmetic), a ranking signal only. The
centroids are a snapshot refreshed when a language's count drifts by 5%, with each row's dot
product against them cached, so a centred search costs one matrix-vector product like a raw one.

From ``quantize_from`` live rows on, a centred search first reads an int8 copy of the centred
rows (``store.quantized``: a quarter of the bytes) and scores exactly only the rows whose error
bound lets them into the top ``limit``; the answer is the same as scoring every row (measured at
100k × 384: 15–40 ms for the float32 product on the shared two-core machine, ~5 ms for the int8
pass). A search restricted to a small ``allowed`` set scores just those rows. Past
``MIN_CANDIDATES`` rows a sign-bit prefilter picks the rows the int8 pass reads (a share of
them, ``CANDIDATE_SHARE``): from there the answer is the exact top ``limit`` of those candidates,
measured to hold the exact answer's top 10 and top 50 for real embeddings
(``bench/prefilter_recall.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np
from threadpoolctl import ThreadpoolController

from omoide.store.centring import (
    LANGUAGES,
    centred_cosines,
    centred_norms,
    language_centroids,
    language_of,
)
from omoide.store.quantized import CANDIDATE_SHARE, MIN_CANDIDATES, QuantizedRows

__all__ = [
    "LANGUAGES",
    "QUANTIZE_FROM",
    "VectorIndex",
    "centred_cosines",
    "language_centroids",
    "language_of",
]

# Live rows from which centred searches take the int8 first pass (below it the float32 product
# is a few milliseconds and the int8 copy, a quarter of the matrix again, is not worth keeping).
QUANTIZE_FROM = 20_000
# Live rows under which the snapshot is refreshed after every write: a small store's centroids
# move with each note, and a search must not depend on when the searches before it ran (a
# refresh there is a product over a few thousand rows at most).
FOLLOW_BELOW = 4096
_SUBSET = 4  # an ``allowed`` set under 1/_SUBSET of the rows is scored row by row
_CHUNK = 2048  # rows centred at a time for the int8 copy (small temporaries)


_BLAS: list[ThreadpoolController] = []  # made on first use (it inspects the loaded libraries)


def _one_blas_thread() -> object:
    """A context running numpy's BLAS on one thread. A search's products are small or
    memory-bound; a second BLAS thread gains nothing on them and spins after each one: 4–6 ms
    of CPU per search at 100k on two shared cores (bench/results/scale_sqlite.md)."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


class VectorIndex:
    def __init__(
        self,
        dim: int,
        *,
        quantize_from: int = QUANTIZE_FROM,
        share: float = CANDIDATE_SHARE,
        floor: int | None = MIN_CANDIDATES,
    ) -> None:
        """``share``/``floor``: the sign prefilter's candidates (``store.quantized``;
        ``floor=None`` turns it off)."""
        self.dim = dim
        self.quantize_from = quantize_from
        self._share, self._floor = share, floor
        self._lock = threading.Lock()
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._ids = np.zeros(0, dtype=np.int64)
        self._lang = np.zeros(0, dtype=np.int8)
        self._alive = np.zeros(0, dtype=bool)
        self._n = 0
        self._row: dict[int, int] = {}
        self._sum = np.zeros((LANGUAGES, dim), dtype=np.float64)
        self._count = np.zeros(LANGUAGES, dtype=np.int64)
        # Centroid snapshot and each row's dot product with it (p·μ0, p·μ1), so a centred
        # search costs one matrix-vector product; refreshed when a language's count drifts.
        self._mu: np.ndarray | None = None
        self._mu_counts = np.zeros(LANGUAGES, dtype=np.int64)
        self._pmu = np.zeros((0, LANGUAGES), dtype=np.float32)
        self._written = False  # a write since the snapshot
        # The int8 copy of every row's centred vector for the current snapshot (None until a
        # centred search meets ``quantize_from`` live rows): codes, scale, error and kept norms.
        self._q: QuantizedRows | None = None
        self.revision = -1  # the persona revision this index reflects (see MemoryStore)

    def __len__(self) -> int:
        return len(self._row)

    def add(
        self, ids: Iterable[int], vectors: np.ndarray, languages: Sequence[int] | None = None
    ) -> None:
        """Insert or replace rows; ``languages`` from :func:`language_of` (default 0)."""
        ids = list(ids)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dim)
        langs = (
            np.zeros(len(ids), dtype=np.int8)
            if languages is None
            else np.asarray(languages, dtype=np.int8)
        )
        with self._lock:
            for memory_id in ids:
                self._drop(memory_id)
            need = self._n + len(ids)
            if need > len(self._mat):
                self._grow(need)
            rows = np.arange(self._n, need)
            self._mat[rows] = vectors
            self._ids[rows] = ids
            self._lang[rows] = langs
            self._alive[rows] = True
            for memory_id, row in zip(ids, rows, strict=True):
                self._row[memory_id] = int(row)
            if self._mu is not None:
                self._pmu[rows] = vectors @ self._mu.T
                if self._q is not None:
                    self._quantize_rows(self._n, need)
            for lang in np.unique(langs):  # per-language sums without a float64 copy of all
                chosen = langs == lang
                self._sum[lang] += vectors[chosen].sum(axis=0, dtype=np.float64)
                self._count[lang] += int(chosen.sum())
            self._n = need
            self._written = True

    def remove(self, ids: Iterable[int]) -> None:
        with self._lock:
            for memory_id in ids:
                self._drop(memory_id)
            self._written = True
            if self._n and len(self._row) < 0.75 * self._n:
                self._compact()

    def get(self, memory_id: int) -> np.ndarray | None:
        with self._lock:
            row = self._row.get(memory_id)
            return None if row is None else self._mat[row].copy()

    def search(
        self,
        query: np.ndarray,
        *,
        limit: int,
        allowed: np.ndarray | None = None,
        centred_for: str | None = None,
    ) -> list[tuple[int, float]]:
        """Top ``limit`` (id, score) pairs, best first; ``allowed`` is an id array.

        The score is the raw cosine, or with ``centred_for`` (the query text, whose script picks
        the query's centroid) the language-centred cosine described in the module docstring.
        """
        with self._lock, _one_blas_thread():
            if not self._row or limit <= 0:
                return []
            n = self._n
            mask = None if allowed is None and len(self._row) == n else self._alive[:n].copy()
            if allowed is not None:
                mask &= np.isin(self._ids[:n], allowed)
            count = n if mask is None else int(np.count_nonzero(mask))
            if count == 0:
                return []
            query = np.asarray(query, dtype=np.float32)
            few = count * _SUBSET < n
            if centred_for is not None and not few and len(self._row) >= self.quantize_from:
                candidates = self._survivors(query, language_of(centred_for), limit, mask)
                scores = self._centred(query, language_of(centred_for), candidates)
            else:
                candidates = np.arange(n) if mask is None else np.flatnonzero(mask)
                if centred_for is None:
                    scores = (
                        (self._mat[candidates] @ query)
                        if few
                        else (self._mat[:n] @ query)[candidates]
                    )
                elif few:
                    scores = self._centred(query, language_of(centred_for), candidates)
                else:
                    scores = self._centred(query, language_of(centred_for), slice(0, n))[candidates]
            ids = self._ids[candidates]
            if candidates.size > limit:
                part = np.argpartition(-scores, limit - 1)[:limit]
                ids, scores = ids[part], scores[part]
            order = np.lexsort((ids, -scores))
            return [(int(ids[i]), float(scores[i])) for i in order]

    def _centred(self, query: np.ndarray, query_lang: int, rows: slice | np.ndarray) -> np.ndarray:
        """cos(q − μ_q, p − μ_p) for the given rows: one matrix-vector product plus cached
        p·μ."""
        return centred_cosines(
            self._mat[rows] @ query,
            self._pmu[rows],
            self._lang[rows],
            query,
            query_lang,
            self._centroids(),
        )

    # -- the int8 copy of the centred rows -------------------------------------------------

    def _survivors(
        self, query: np.ndarray, query_lang: int, limit: int, mask: np.ndarray | None
    ) -> np.ndarray:
        """Rows that may be in the centred top ``limit`` (the int8 first pass; built here the
        first time, then kept in step with every write and centroid refresh)."""
        mu = self._centroids()
        if self._q is None:
            self._q = QuantizedRows(self.dim, len(self._mat), share=self._share, floor=self._floor)
            self._quantize_rows(0, self._n)
        q_c = query - mu[query_lang]
        unit = q_c / max(float(np.linalg.norm(q_c)), 1e-12)
        return self._q.survivors(unit, self._n, limit, mask)

    def _quantize_rows(self, start: int, stop: int) -> None:
        """Store the int8 form of rows ``start:stop``'s centred vectors, (p − μ_p) over the
        norm :meth:`_centred` divides by, so that its score is their dot product with the
        unit centred query."""
        assert self._q is not None and self._mu is not None
        mu = self._mu
        for begin in range(start, stop, _CHUNK):
            end = min(stop, begin + _CHUNK)
            lang = self._lang[begin:end]
            p_norm = centred_norms(self._pmu[begin:end], lang, mu)
            self._q.set(begin, (self._mat[begin:end] - mu[lang]) / p_norm[:, None])

    def _centroids(self) -> np.ndarray:
        """The centroid snapshot, recomputed (with every row's p·μ) once a language's count
        has moved by more than 5% since the last one, or after any write below
        ``FOLLOW_BELOW`` live rows."""
        drift = np.abs(self._count - self._mu_counts)
        if (
            self._mu is None
            or np.any(drift > np.maximum(8, 0.05 * self._mu_counts))
            or (self._written and len(self._row) < FOLLOW_BELOW)
        ):
            self._mu = language_centroids(self._sum, self._count)
            self._mu_counts = self._count.copy()
            self._written = False
            self._pmu[: self._n] = self._mat[: self._n] @ self._mu.T
            if self._q is not None:
                self._quantize_rows(0, self._n)
        return self._mu

    def reserve(self, rows: int) -> None:
        """Make room for ``rows`` rows at once (bulk loads grow once, not by doubling)."""
        with self._lock:
            if rows > len(self._mat):
                self._grow(rows, exact=True)

    def language(self, memory_id: int) -> int | None:
        """The script group a row was added with (None if absent)."""
        with self._lock:
            row = self._row.get(memory_id)
            return None if row is None else int(self._lang[row])

    def score_vectors(
        self,
        query: np.ndarray,
        vectors: np.ndarray,
        langs: Sequence[int],
        *,
        centred_for: str | None = None,
    ) -> list[float]:
        """The scores :meth:`search` would give ``vectors`` (unit rows not in the index, in the
        script groups ``langs``) were they in it: raw cosine, or with ``centred_for`` centred
        on this index's language centroids, so they rank beside its rows on one scale."""
        query = np.asarray(query, dtype=np.float32)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        with self._lock, _one_blas_thread():
            raw = vectors @ query
            if centred_for is None or not len(vectors):
                return [float(x) for x in raw]
            mu = self._centroids()
            scores = centred_cosines(
                raw,
                vectors @ mu.T,
                np.asarray(langs, dtype=np.int64),
                query,
                language_of(centred_for),
                mu,
            )
            return [float(x) for x in scores]

    def similarities(self, query: np.ndarray, ids: Iterable[int]) -> dict[int, float]:
        """Raw cosine of ``query`` with each given id present in the index."""
        with self._lock, _one_blas_thread():
            rows = [(i, self._row[i]) for i in ids if i in self._row]
            if not rows:
                return {}
            mat = self._mat[[r for _, r in rows]]
            sims = mat @ np.asarray(query, dtype=np.float32)
            return {i: float(s) for (i, _), s in zip(rows, sims, strict=True)}

    def _drop(self, memory_id: int) -> None:
        row = self._row.pop(memory_id, None)
        if row is not None:
            self._alive[row] = False
            lang = int(self._lang[row])
            self._sum[lang] -= self._mat[row]
            self._count[lang] -= 1

    def _grow(self, need: int, *, exact: bool = False) -> None:
        capacity = need if exact else max(need, 2 * len(self._mat), 64)
        mat = np.zeros((capacity, self.dim), dtype=np.float32)
        ids = np.zeros(capacity, dtype=np.int64)
        lang = np.zeros(capacity, dtype=np.int8)
        alive = np.zeros(capacity, dtype=bool)
        pmu = np.zeros((capacity, LANGUAGES), dtype=np.float32)
        n = self._n
        mat[:n], ids[:n], lang[:n], alive[:n], pmu[:n] = (
            self._mat[:n],
            self._ids[:n],
            self._lang[:n],
            self._alive[:n],
            self._pmu[:n],
        )
        self._mat, self._ids, self._lang, self._alive, self._pmu = mat, ids, lang, alive, pmu
        if self._q is not None:
            self._q.grow(capacity, n)

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: self._n])
        size = int(keep.size)
        self._mat[:size] = self._mat[keep]
        self._ids[:size] = self._ids[keep]
        self._lang[:size] = self._lang[keep]
        self._pmu[:size] = self._pmu[keep]
        if self._q is not None:
            self._q.compact(keep)
        self._alive[:size] = True
        self._alive[size:] = False
        self._n = size
        self._row = {int(i): r for r, i in enumerate(self._ids[:size])}

"""In-memory exact vector index for one persona: a growable float32 matrix and a row map.

Exact cosine search by one matrix-vector product (vectors are unit-norm). Appends amortise by
doubling capacity; removals clear a row's ``alive`` flag and compaction happens when a quarter
of the rows are dead. The store keeps it in sync with every committed write.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

__all__ = ["VectorIndex"]


class VectorIndex:
    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._lock = threading.Lock()
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._ids = np.zeros(0, dtype=np.int64)
        self._alive = np.zeros(0, dtype=bool)
        self._n = 0
        self._row: dict[int, int] = {}
        self.revision = -1  # the persona revision this index reflects (see MemoryStore)

    def __len__(self) -> int:
        return len(self._row)

    def add(self, ids: Iterable[int], vectors: np.ndarray) -> None:
        """Insert or replace rows."""
        ids = list(ids)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dim)
        with self._lock:
            for memory_id in ids:
                self._drop(memory_id)
            need = self._n + len(ids)
            if need > len(self._mat):
                self._grow(need)
            rows = np.arange(self._n, need)
            self._mat[rows] = vectors
            self._ids[rows] = ids
            self._alive[rows] = True
            for memory_id, row in zip(ids, rows, strict=True):
                self._row[memory_id] = int(row)
            self._n = need

    def remove(self, ids: Iterable[int]) -> None:
        with self._lock:
            for memory_id in ids:
                self._drop(memory_id)
            if self._n and len(self._row) < 0.75 * self._n:
                self._compact()

    def get(self, memory_id: int) -> np.ndarray | None:
        with self._lock:
            row = self._row.get(memory_id)
            return None if row is None else self._mat[row].copy()

    def search(
        self, query: np.ndarray, *, limit: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Top ``limit`` (id, cosine) pairs, best first; ``allowed`` is a sorted id array."""
        with self._lock:
            if not self._row or limit <= 0:
                return []
            mat, ids, alive = self._mat[: self._n], self._ids[: self._n], self._alive[: self._n]
            sims = mat @ np.asarray(query, dtype=np.float32)
            mask = alive.copy()
            if allowed is not None:
                mask &= np.isin(ids, allowed, assume_unique=False)
            candidates = np.flatnonzero(mask)
            if candidates.size == 0:
                return []
            scores = sims[candidates]
            if candidates.size > limit:
                part = np.argpartition(-scores, limit - 1)[:limit]
                candidates, scores = candidates[part], scores[part]
            order = np.lexsort((ids[candidates], -scores))
            return [(int(ids[candidates[i]]), float(scores[i])) for i in order]

    def similarities(self, query: np.ndarray, ids: Iterable[int]) -> dict[int, float]:
        """Cosine of ``query`` with each given id present in the index."""
        with self._lock:
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

    def _grow(self, need: int) -> None:
        capacity = max(need, 2 * len(self._mat), 64)
        mat = np.zeros((capacity, self.dim), dtype=np.float32)
        ids = np.zeros(capacity, dtype=np.int64)
        alive = np.zeros(capacity, dtype=bool)
        mat[: self._n], ids[: self._n], alive[: self._n] = (
            self._mat[: self._n], self._ids[: self._n], self._alive[: self._n])
        self._mat, self._ids, self._alive = mat, ids, alive

    def _compact(self) -> None:
        keep = np.flatnonzero(self._alive[: self._n])
        self._mat[: keep.size] = self._mat[keep]
        self._ids[: keep.size] = self._ids[keep]
        self._alive[: keep.size] = True
        self._alive[keep.size :] = False
        self._n = int(keep.size)
        self._row = {int(i): r for r, i in enumerate(self._ids[: self._n])}

"""The sign prefilter on vectors read back from a real SQLite file: with at least as many
candidates as rows, the prefiltered centred top-k is the exact top-k (ids in order, scores)."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.model import NewMemory
from omoide.store.sqlite.store import SqliteStore
from omoide.store.vectors import VectorIndex

DIM = 16
NOW = datetime(2026, 3, 1, tzinfo=UTC)
TEXTS = ("Rin moved to Kobe", "らうらうは猫を飼っている", "a note about tea", "京都の旅行")


def prefiltered(dim: int) -> VectorIndex:
    """Every search through the int8 pass and the sign prefilter, candidates = all rows."""
    return VectorIndex(dim, quantize_from=0, share=1.0, floor=0)


def exact(dim: int) -> VectorIndex:
    return VectorIndex(dim, quantize_from=10**9)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(1, 150),
    limit=st.integers(1, 40),
    removed=st.integers(0, 40),
)
def test_prefiltered_top_k_read_from_a_file_is_the_exact_top_k(
    seed: int, n: int, limit: int, removed: int
) -> None:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "omoide.db"
        writer = SqliteStore(path, model_id="hash", dim=DIM)
        writer.create_persona("rin", now=NOW)
        notes = writer.memories("rin")
        written = notes.insert_many(
            [NewMemory(content=TEXTS[int(i)]) for i in rng.integers(0, len(TEXTS), n)],
            vectors,
            stabilities=[1.0] * n,
            now=NOW,
        )
        for memory in written[: min(removed, n - 1)]:  # not read back into the index
            notes.tombstone(memory.key, now=NOW)
        writer.close()
        stores = [
            SqliteStore(path, model_id="hash", dim=DIM, vector_index=make)
            for make in (prefiltered, exact)
        ]
        try:
            indexes = [store.memories("rin").vectors for store in stores]
            assert len(indexes[0]) == len(indexes[1]) == n - min(removed, n - 1)
            for query_text in ("a query", "日本語の質問"):
                query = rng.standard_normal(DIM).astype(np.float32)
                query /= np.linalg.norm(query)
                got, want = (
                    index.search(query, limit=limit, centred_for=query_text) for index in indexes
                )
                assert [i for i, _ in got] == [i for i, _ in want]
                assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)
        finally:
            for store in stores:
                store.close()

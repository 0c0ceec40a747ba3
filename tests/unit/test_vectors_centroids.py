"""The language centroids of a vector index: how they are shrunk, and that a small index
recomputes them after every write."""

from __future__ import annotations

import numpy as np
import pytest

from omoide.store.vectors import VectorIndex, language_centroids


def _unit(rng: np.random.Generator, n: int, dim: int = 16) -> np.ndarray:
    rows = rng.normal(size=(n, dim)) + 2.0  # a shared component, as embedders have
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_a_small_index_scores_as_if_built_at_once_after_searches_in_between() -> None:
    rng = np.random.default_rng(3)
    rows, query = _unit(rng, 6), _unit(rng, 1)[0]
    languages = [0, 0, 0, 0, 0, 1]
    grown = VectorIndex(16)
    for i in range(6):  # a search after each write, as a chat's recall does
        grown.add([i], rows[i : i + 1], languages[i : i + 1])
        grown.search(query, limit=6, centred_for="q")
    built = VectorIndex(16)
    built.add(range(6), rows, languages)
    got = grown.search(query, limit=6, centred_for="q")
    want = built.search(query, limit=6, centred_for="q")
    assert [i for i, _ in got] == [i for i, _ in want]
    np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=1e-5)


def test_removing_a_row_moves_a_small_index_centroids() -> None:
    rng = np.random.default_rng(4)
    rows, query = _unit(rng, 5), _unit(rng, 1)[0]
    index = VectorIndex(16)
    index.add(range(5), rows)
    index.search(query, limit=5, centred_for="q")
    index.remove([0])
    built = VectorIndex(16)
    built.add(range(1, 5), rows[1:])
    np.testing.assert_allclose(
        [s for _, s in index.search(query, limit=4, centred_for="q")],
        [s for _, s in built.search(query, limit=4, centred_for="q")],
        rtol=1e-5,
    )


def test_centroids_are_the_language_means_shrunk_towards_zero() -> None:
    sums = np.array([[4.0, 0.0], [0.0, 1.0]])
    counts = np.array([4, 1])
    centroids = language_centroids(sums, counts)
    np.testing.assert_allclose(centroids, sums / (counts[:, None] + 10.0), rtol=1e-6)
    assert centroids[1][0] == 0  # a lone language is hardly centred, and only by itself


def test_a_vector_not_in_the_index_is_scored_as_it_would_be_inside_it() -> None:
    """A turn embedded at query time (not stored yet) ranks on the index's own scale: its
    centred score is the one the index gives the same vector as a row, centroids aside."""
    rng = np.random.default_rng(5)
    rows, query = _unit(rng, 40), _unit(rng, 1)[0]
    index = VectorIndex(16)
    index.add(range(40), rows)
    outside = rows[7:8]
    scored = index.score_vectors(query, outside, [0], centred_for="q")
    inside = dict(index.search(query, limit=40, centred_for="q"))[7]
    assert scored == pytest.approx([inside], rel=1e-5)
    assert index.score_vectors(query, outside, [0]) == pytest.approx([float(outside[0] @ query)])

"""The int8 first pass of a centred search returns what scoring every row in float32 returns:
the same ids in the same order, through adds, removals, compaction and centroid refreshes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from omoide.store.quantized import QuantizedRows
from omoide.store.vectors import VectorIndex

DIM = 24
QUERIES = ("a query", "日本語の質問")


def unit_rows(rng: np.random.Generator, n: int, *, shift: float = 0.0) -> np.ndarray:
    rows = rng.standard_normal((n, DIM)).astype(np.float32) + np.float32(shift)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def pair(rng: np.random.Generator, n: int) -> tuple[VectorIndex, VectorIndex]:
    """The same rows in an index that always takes the int8 pass and one that never does."""
    quick, exact = VectorIndex(DIM, quantize_from=0), VectorIndex(DIM, quantize_from=10**9)
    add(rng, (quick, exact), range(n))
    return quick, exact


def add(
    rng: np.random.Generator, indexes: tuple[VectorIndex, ...], ids: range, shift: float = 0.0
) -> None:
    vectors = unit_rows(rng, len(ids), shift=shift)
    languages = rng.integers(0, 2, len(ids)).tolist()
    for index in indexes:
        index.add(list(ids), vectors, languages)


def assert_same(
    quick: VectorIndex,
    exact: VectorIndex,
    query: np.ndarray,
    limit: int,
    allowed: np.ndarray | None = None,
) -> None:
    for text in QUERIES:
        got = quick.search(query, limit=limit, allowed=allowed, centred_for=text)
        want = exact.search(query, limit=limit, allowed=allowed, centred_for=text)
        assert [i for i, _ in got] == [i for i, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(1, 400), limit=st.integers(1, 60))
def test_centred_search_matches_scoring_every_row(seed: int, n: int, limit: int) -> None:
    rng = np.random.default_rng(seed)
    quick, exact = pair(rng, n)
    assert_same(quick, exact, unit_rows(rng, 1)[0], limit)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), share=st.floats(0.3, 1.0))
def test_filtered_search_matches(seed: int, share: float) -> None:
    rng = np.random.default_rng(seed)
    quick, exact = pair(rng, 300)
    allowed = np.sort(rng.choice(300, size=int(300 * share), replace=False)).astype(np.int64)
    assert_same(quick, exact, unit_rows(rng, 1)[0], 20, allowed)


def test_writes_after_the_first_search_are_searched() -> None:
    rng = np.random.default_rng(7)
    quick, exact = pair(rng, 500)
    query = unit_rows(rng, 1)[0]
    assert_same(quick, exact, query, 10)  # builds the int8 copy
    add(rng, (quick, exact), range(500, 800), shift=0.5)  # the centroid moves: a refresh
    for index in (quick, exact):
        index.add([900], query[None, :], [0])  # the query itself: the best row
    assert quick.search(query, limit=1, centred_for=QUERIES[0])[0][0] == 900
    assert_same(quick, exact, query, 10)
    for index in (quick, exact):
        index.remove([900, *range(0, 400)])  # past a quarter dead: compacted
    assert 900 not in {i for i, _ in quick.search(query, limit=50, centred_for=QUERIES[0])}
    assert_same(quick, exact, query, 10)
    assert_same(quick, exact, unit_rows(rng, 1)[0], 50)


def test_replaced_rows_are_scored_by_their_new_vector() -> None:
    rng = np.random.default_rng(11)
    quick, exact = pair(rng, 300)
    query = unit_rows(rng, 1)[0]
    assert_same(quick, exact, query, 5)  # both take their centroid snapshot here
    for index in (quick, exact):
        index.add([3], query[None, :], [0])
    assert quick.search(query, limit=1, centred_for=QUERIES[0])[0][0] == 3
    assert_same(quick, exact, query, 5)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(2, 300),
    limit=st.integers(1, 30),
    duplicates=st.booleans(),
)
def test_survivors_hold_the_exact_top(seed: int, n: int, limit: int, duplicates: bool) -> None:
    rng = np.random.default_rng(seed)
    rows = unit_rows(rng, n)
    if duplicates:  # ties and near-ties at the cut
        rows[n // 2 :] = rows[: n - n // 2] + np.float32(1e-6)
    quantized = QuantizedRows(DIM, n)
    quantized.set(0, rows)
    query = unit_rows(rng, 1)[0]
    kept = set(quantized.survivors(query, n, limit).tolist())
    in_parts = QuantizedRows(DIM, n, pass_rows=7)  # the integer pass in many calls
    in_parts.set(0, rows)
    assert set(in_parts.survivors(query, n, limit).tolist()) == kept
    scores = rows.astype(np.float64) @ query.astype(np.float64)
    cut = np.sort(scores)[::-1][min(limit, n) - 1]
    assert {int(i) for i in np.flatnonzero(scores > cut + 1e-6)} <= kept
    assert len(kept) >= min(limit, n)


def test_searches_leave_none_its_references() -> None:
    """simsimd 6.5.16's cdist(out=...) returns None without a reference; the pass gives it
    back, or a long-running process would abort once None's count reached zero."""
    import sys

    rng = np.random.default_rng(5)
    rows = unit_rows(rng, 500)
    quantized = QuantizedRows(DIM, 500, pass_rows=10)
    quantized.set(0, rows)
    before = sys.getrefcount(None)
    for _ in range(100):
        quantized.survivors(rows[0], 500, 5)
    assert sys.getrefcount(None) >= before - 10  # 5,000 calls; a leak would show as -5,000


# -- the sign prefilter ---------------------------------------------------------------------


def signs_reference(rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Weighted sign distance between each row's int8 codes and the query's, counted dimension
    by dimension (no packing): 1 for a differing sign, 2 where the query's |code| is above its
    median."""
    quantized = QuantizedRows(rows.shape[1], len(rows), floor=None)
    quantized.set(0, rows)
    q = QuantizedRows(rows.shape[1], 1, floor=None)
    q.set(0, query[None, :])
    size = np.abs(q.codes[0].astype(np.int16))
    weight = 1 + (size > np.median(size))
    return ((quantized.codes > 0) != (q.codes[0] > 0)).astype(int) @ weight


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(1, 300),
    want=st.integers(1, 320),
    dim=st.sampled_from([8, 24, 64, 70, 384]),
    filtered=st.booleans(),
)
def test_near_keeps_the_rows_whose_signs_differ_least(
    seed: int, n: int, want: int, dim: int, filtered: bool
) -> None:
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    query = rng.standard_normal(dim).astype(np.float32)
    allowed = rng.random(n) < 0.6 if filtered else None
    quantized = QuantizedRows(dim, n)
    quantized.set(0, rows)
    q = QuantizedRows(dim, 1)
    q.set(0, query[None, :])
    got = quantized.near(q.codes[:1], n, want, allowed)
    distance = signs_reference(rows, query)
    ok = np.ones(n, dtype=bool) if allowed is None else allowed
    candidates = np.flatnonzero(ok)
    if len(candidates) <= want:
        assert got.tolist() == candidates.tolist()
        return
    cut = np.sort(distance[candidates])[want - 1]  # the want-th smallest allowed distance
    assert got.tolist() == [int(i) for i in candidates if distance[i] <= cut]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    n=st.integers(1, 400),
    limit=st.integers(1, 60),
    filtered=st.booleans(),
)
def test_prefiltered_search_is_exact_when_every_row_is_a_candidate(
    seed: int, n: int, limit: int, filtered: bool
) -> None:
    rng = np.random.default_rng(seed)
    prefiltered = VectorIndex(DIM, quantize_from=0, share=1.0, floor=0)
    exact = VectorIndex(DIM, quantize_from=10**9)
    add(rng, (prefiltered, exact), range(n))
    allowed = np.flatnonzero(rng.random(n) < 0.8).astype(np.int64) if filtered else None
    assert_same(prefiltered, exact, unit_rows(rng, 1)[0], limit, allowed)


def test_a_small_share_still_finds_near_rows() -> None:
    """Rows close to the query differ from it in few signs: a 5% prefilter returns them."""
    rng = np.random.default_rng(13)
    prefiltered = VectorIndex(DIM, quantize_from=0, share=0.05, floor=0)
    exact = VectorIndex(DIM, quantize_from=10**9)
    add(rng, (prefiltered, exact), range(2_000))
    query = unit_rows(rng, 1)[0]
    near = query + 0.05 * unit_rows(rng, 5)
    for index in (prefiltered, exact):
        index.add(range(5_000, 5_005), near / np.linalg.norm(near, axis=1, keepdims=True))
    for text in QUERIES:
        got = prefiltered.search(query, limit=5, centred_for=text)
        assert {i for i, _ in got} == set(range(5_000, 5_005))
        want = exact.search(query, limit=5, centred_for=text)
        assert [i for i, _ in got] == [i for i, _ in want]
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-5)

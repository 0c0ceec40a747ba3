"""PostgreSQL's vector side at scale: a persona past the threshold is searched in SQL (HNSW)
and answers as the exact in-memory index does; the switch follows writes made by another
store (process) on the same database; keyword statistics past the estimate threshold; and a
search's round trips stay few."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest
from pg_testing import PgServer

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.engine.lang import CJK_CLASS
from omoide.model import NewMemory
from omoide.store.postgres.fts import PgFtsIndex, pg_index
from omoide.store.postgres.store import PostgresStore
from omoide.store.postgres.vectors import PgVectorSearch
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.vectors import VectorIndex, language_of
from omoide.wiring import build

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DIM = 32
EN = (
    "Aiko moved to Osaka and works as a nurse",
    "User loves ramen near the station",
    "Ben practises guitar every weekend",
    "User lost a camera on a trip to Kyoto",
)
JA = (
    "らうらうは大阪に住んでいて寿司が大好きだ",
    "ユーザーは京都へ旅行して花火大会に行った",
    "ハルの趣味は将棋で毎週練習している",
)


@pytest.fixture
def database(pg_server: PgServer) -> Iterator[str]:
    with pg_server.database() as url:
        yield url


def _store(url: str, ann_rows: int) -> PostgresStore:
    return PostgresStore(url, model_id="test-model", dim=DIM, pool_size=4, ann_rows=ann_rows)


def _close(*stores: PostgresStore) -> None:
    for store in stores:
        if store._ann_thread is not None:  # the background HNSW build, if one started
            store._ann_thread.join(60)
        store.close()


def _corpus(n: int, seed: int) -> tuple[list[NewMemory], np.ndarray]:
    """Texts in two scripts and clustered unit vectors, each script with its own offset (the
    shared component that centring removes)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((8, DIM))
    offset = rng.standard_normal((2, DIM)) * 1.5
    news, rows = [], []
    for i in range(n):
        japanese = i % 3 == 0
        text = (JA[(i // 3) % len(JA)] if japanese else EN[i % len(EN)]) + f" {i}"
        news.append(NewMemory(content=text, importance=0.5))
        rows.append(centres[i % 8] + offset[int(japanese)] + 0.8 * rng.standard_normal(DIM))
    vectors = np.asarray(rows, dtype=np.float32)
    return news, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _fill(store: PostgresStore, name: str, n: int, seed: int) -> list[int]:
    news, vectors = _corpus(n, seed)
    handle = store.memories(name)
    handle.insert_many(news, vectors, stabilities=[1.0] * n, now=NOW)
    return [
        int(r[0])
        for r in store.db.conn().execute(
            "SELECT id FROM memories WHERE persona_id = ? ORDER BY id", (handle.persona_id,)
        )
    ]


def _ids(hits: list[tuple[int, float]]) -> set[int]:
    return {i for i, _ in hits}


def test_a_persona_past_the_threshold_answers_from_sql_as_the_exact_index(database: str) -> None:
    sql_store, exact_store = _store(database, ann_rows=100), _store(database, ann_rows=10**9)
    try:
        sql_store.create_persona("rin", now=NOW)
        ids = _fill(sql_store, "rin", 240, seed=1)
        sql_store.ensure_ann_index()
        vectors = sql_store.memories("rin").vectors
        exact = exact_store.memories("rin").vectors
        assert isinstance(vectors, PgVectorSearch) and len(vectors) == 240
        assert isinstance(exact, VectorIndex)
        queries, _ = _corpus(12, seed=9)
        _, query_vectors = _corpus(12, seed=9)
        overlap = []
        for new, query in zip(queries, query_vectors, strict=True):
            assert _ids(vectors.search(query, limit=10)) == _ids(exact.search(query, limit=10))
            got = vectors.search(query, limit=10, centred_for=new.content)
            want = exact.search(query, limit=10, centred_for=new.content)
            overlap.append(len(_ids(got) & _ids(want)) / 10)
            sims = vectors.similarities(query, [i for i, _ in got] + ids[:3])
            for memory_id, value in exact.similarities(query, sims).items():
                assert sims[memory_id] == pytest.approx(value, abs=1e-5)
            assert vectors.language(got[0][0]) == exact.language(got[0][0])
            allowed = np.asarray(ids[::3], dtype=np.int64)
            got = vectors.search(query, limit=5, allowed=allowed)
            want = exact.search(query, limit=5, allowed=allowed)
            assert [i for i, _ in got] == [i for i, _ in want]
            assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-5)
        assert np.mean(overlap) >= 0.9  # the centroids are a sample's estimate
        assert np.allclose(vectors.get(ids[5]), exact.get(ids[5]))
        for content, cjk in sql_store.db.conn().execute(  # the script group, decided in SQL
            "SELECT content, content ~ ? FROM memories", (CJK_CLASS,)
        ):
            assert bool(cjk) == bool(language_of(content))
    finally:
        _close(sql_store, exact_store)


def test_one_scan_split_by_group_returns_what_one_scan_per_group_returns(database: str) -> None:
    """The index answers a centred direction with one scan, split by script group afterwards:
    pgvector filters the ``ef`` entries a scan takes from the graph, so a scan restricted to a
    group returns that group's share of the same entries (checked here against such scans)."""
    store = _store(database, ann_rows=100)
    try:
        store.create_persona("rin", now=NOW)
        _fill(store, "rin", 400, seed=3)
        store.ensure_ann_index()
        search = store.memories("rin").vectors
        assert isinstance(search, PgVectorSearch)
        _, directions = _corpus(6, seed=11)
        for direction in directions:
            for k, ef in ((20, 40), (40, 40)):
                want = []
                with store.db.write() as conn:  # the index, not a sort of 400 rows
                    raw = conn.raw
                    raw.execute("SET LOCAL enable_seqscan = off")
                    raw.execute("SET LOCAL enable_sort = off")
                    got = search._candidates([(direction, True)], k, ef, None)
                    for negate in ("NOT ", ""):
                        want += [
                            int(r[0])
                            for r in raw.execute(
                                f"SELECT v.memory_id FROM memory_vectors v JOIN memories m "
                                f"ON m.id = v.memory_id WHERE v.dim = {DIM} AND "
                                f"{negate}m.content ~ %s ORDER BY v.vector::vector({DIM}) <=> "
                                f"%s::vector({DIM}) LIMIT %s",
                                (CJK_CLASS, direction.tobytes(), k),
                            )
                        ]
                assert sorted(r[0] for r in got) == sorted(want)
    finally:
        _close(store)


def test_centring_in_sql_does_not_depend_on_a_stale_row_count(database: str) -> None:
    """Switched to SQL at its first row, the handle's count stays 1 until counted again: the
    centroids must still be those of every row (not shrunk to nothing)."""
    sql_store, exact_store = _store(database, ann_rows=1), _store(database, ann_rows=10**9)
    try:
        sql_store.create_persona("rin", now=NOW)
        _fill(sql_store, "rin", 1, seed=6)
        assert isinstance(sql_store.memories("rin").vectors, PgVectorSearch)
        _fill(sql_store, "rin", 150, seed=7)
        vectors = sql_store.memories("rin").vectors
        assert len(vectors) == 1  # not counted again yet
        exact = exact_store.memories("rin").vectors
        queries, query_vectors = _corpus(12, seed=8)
        overlap = [
            len(
                _ids(vectors.search(q, limit=10, centred_for=new.content))
                & _ids(exact.search(q, limit=10, centred_for=new.content))
            )
            / 10
            for new, q in zip(queries, query_vectors, strict=True)
        ]
        assert np.mean(overlap) >= 0.9
    finally:
        _close(sql_store, exact_store)


def test_the_switch_and_the_results_follow_writes_from_another_store(database: str) -> None:
    first, second = _store(database, ann_rows=60), _store(database, ann_rows=60)
    try:
        first.create_persona("rin", now=NOW)
        _fill(first, "rin", 40, seed=2)
        assert isinstance(first.memories("rin").vectors, VectorIndex)
        assert len(second.memories("rin").vectors) == 40

        _fill(first, "rin", 30, seed=3)  # through the other process: 70 rows
        assert isinstance(first.memories("rin").vectors, PgVectorSearch)
        seen = second.memories("rin").vectors
        assert isinstance(seen, PgVectorSearch) and len(seen) == 70
        first.ensure_ann_index()

        _, vectors = _corpus(1, seed=4)
        probe = -vectors[0]  # far from everything else
        created = first.memories("rin").insert(
            NewMemory(content="a memory nobody else resembles"),
            vector=probe,
            stability=1.0,
            now=NOW,
        )
        new_id = first.memories("rin").id_of(created.key)
        assert second.memories("rin").vectors.search(probe, limit=1)[0][0] == new_id
        first.memories("rin").tombstone(created.key, now=NOW)
        assert new_id not in _ids(second.memories("rin").vectors.search(probe, limit=5))

        handle = second.memories("rin")
        for memory in first.memories("rin").list_recent(limit=50):
            first.memories("rin").tombstone(memory.key, now=NOW)
        handle.recount_s = 0.0  # count again now rather than in a minute
        back = handle.vectors
        assert isinstance(back, VectorIndex) and len(back) == 20
    finally:
        _close(first, second)


def test_keyword_statistics_past_the_estimate_threshold_rank_alike(database: str) -> None:
    store = _store(database, ann_rows=10**9)
    try:
        store.create_persona("rin", now=NOW)
        _fill(store, "rin", 120, seed=5)
        with store.db.raw() as raw:
            raw.execute("ANALYZE memories_fts")
            raw.execute("ANALYZE memories_fts_tri")
        handle = store.memories("rin")
        estimated = PgFtsIndex(**{**pg_index(MEMORY_FTS).__dict__, "estimate_above": -1})
        conn = store.db.conn()
        for query in ("ramen station", "guitar weekend", "大阪 寿司", "京都へ旅行", "将棋"):
            exact = handle.keyword_search(query, limit=10)
            approx = estimated.search(conn, persona_id=handle.persona_id, query=query, limit=10)
            assert exact and {h.rowid for h in approx} == {h.rowid for h in exact}, query
    finally:
        _close(store)


def test_a_hybrid_search_takes_few_statements(database: str, tmp_path: object) -> None:
    app = build(
        Settings.from_env({"OMOIDE_DATABASE_URL": database}, data_dir=tmp_path),
        embedder=HashEmbedder(),
        clock=FixedClock(NOW),
        llm=None,
    )
    try:
        app.auth.create_persona("rin")
        for text in EN + JA:
            app.memories.create("rin", app.memories.build_new(content=text))
        app.runner.run_until_idle()
        request = app.search.build_request("rin", query="ramen near the station", top_k=5)
        app.search.search("rin", request)  # recalls what it returns: nothing is due next
        with app.store.db.trace() as seen:
            request = app.search.build_request("rin", query="ramen near the station", top_k=5)
            assert app.search.search("rin", request).results
        assert len(seen) <= 10, "\n".join(s[:70] for s in seen)  # 21, then 13 before
    finally:
        app.close()

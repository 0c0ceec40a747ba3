"""What a PostgreSQL search reuses between its statements and between searches gives the
results of reading everything afresh: keyword statistics kept until the table is analysed
again, and the keyword candidates' vectors read with their rank facts."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pg_testing import PgServer

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.model import NewMemory
from omoide.store.postgres.fts import PgFtsIndex, pg_index
from omoide.store.postgres.store import PostgresStore
from omoide.store.postgres.term_stats import TermStats
from omoide.store.postgres.vectors import PgVectorSearch
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.wiring import Omoide, build

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
TEXTS = (
    "Aiko moved to Osaka and works as a nurse",
    "User loves ramen near the station",
    "Ben practises guitar every weekend",
    "User lost a camera on a trip to Kyoto",
    "らうらうは大阪に住んでいて寿司が大好きだ",
    "ユーザーは京都へ旅行して花火大会に行った",
    "ハルの趣味は将棋で毎週練習している",
)
QUERIES = ("ramen station", "guitar weekend", "大阪 寿司", "京都へ旅行", "将棋", "camera trip")


@pytest.fixture
def database(pg_server: PgServer) -> Iterator[str]:
    with pg_server.database() as url:
        yield url


def _fill(
    store: PostgresStore,
    n: int,
    start: int = 0,
    analyse: tuple[str, ...] = ("memories_fts", "memories_fts_tri"),
    texts: tuple[str, ...] = TEXTS,
) -> None:
    news = [
        NewMemory(content=f"{texts[i % len(texts)]} {i}", importance=0.5)
        for i in range(start, start + n)
    ]
    vectors = HashEmbedder().embed_passages([m.content for m in news])
    store.memories("rin").insert_many(news, vectors, stabilities=[1.0] * n, now=NOW)
    with store.db.raw() as raw:
        for table in analyse:
            raw.execute(f"ANALYZE {table}")


def _estimated() -> PgFtsIndex:
    """The memories' index with its statistics always taken from the planner's."""
    return PgFtsIndex(**{**pg_index(MEMORY_FTS).__dict__, "estimate_above": -1})


@contextmanager
def _store_of_140(database: str) -> Iterator[tuple[PostgresStore, PgFtsIndex, TermStats, int, Any]]:
    """A store with persona rin and 140 memories; the estimated index, empty kept statistics,
    rin's persona id and a connection."""
    store = PostgresStore(database, model_id="hash", dim=HashEmbedder().dim, pool_size=4)
    try:
        store.create_persona("rin", now=NOW)
        _fill(store, 140)
        yield (store, _estimated(), TermStats(), store.memories("rin").persona_id, store.db.conn())
    finally:
        store.close()


def test_kept_keyword_statistics_rank_as_fresh_ones_with_one_statement(database: str) -> None:
    with _store_of_140(database) as (store, index, stats, persona_id, conn):
        kept_any = False
        for query in QUERIES:
            fresh = index.search(conn, persona_id=persona_id, query=query, limit=10)
            first = index.search(conn, persona_id=persona_id, query=query, limit=10, stats=stats)
            with store.db.trace() as seen:
                again = index.search(
                    conn, persona_id=persona_id, query=query, limit=10, stats=stats
                )
            assert fresh and first == fresh and again == fresh, query
            kept_any |= len(seen) == 1  # every term was common: no statistics statement
        assert kept_any


@pytest.mark.parametrize("analysed", [("memories_fts", "memories_fts_tri"), ("memories_fts",)])
def test_kept_statistics_are_read_again_once_a_table_is_analysed(
    database: str, analysed: tuple[str, ...]
) -> None:
    with _store_of_140(database) as (store, index, stats, persona_id, conn):
        for query in QUERIES:
            index.search(conn, persona_id=persona_id, query=query, limit=10, stats=stats)
        # more rows, most of them about ramen and guitars: other frequencies
        _fill(
            store,
            300,
            start=140,
            analyse=analysed,
            texts=(*TEXTS, *TEXTS[1:3] * 4, "ramen and guitar at the station"),
        )
        for query in QUERIES:
            fresh = index.search(conn, persona_id=persona_id, query=query, limit=10)
            assert (
                index.search(conn, persona_id=persona_id, query=query, limit=10, stats=stats)
                == fresh
            ), query


def _app(database: str, tmp_path: Path, ann_rows: int) -> Omoide:
    env = {"OMOIDE_DATABASE_URL": database, "OMOIDE_PG_ANN_ROWS": str(ann_rows)}
    return build(
        Settings.from_env(env, data_dir=tmp_path / str(ann_rows)),
        embedder=HashEmbedder(),
        clock=FixedClock(NOW),
        llm=None,
    )


def test_a_search_answered_in_sql_matches_the_one_answered_in_memory(
    database: str, tmp_path: Path
) -> None:
    in_memory, in_sql = _app(database, tmp_path, 10**6), _app(database, tmp_path, 1)
    try:
        in_memory.auth.create_persona("rin")
        for i in range(42):  # more candidates than top_k + 10: ranked before being read
            in_memory.memories.create(
                "rin", in_memory.memories.build_new(content=f"{TEXTS[i % len(TEXTS)]} ({i})")
            )
        in_memory.runner.run_until_idle()
        assert isinstance(in_sql.store.memories("rin").vectors, PgVectorSearch)
        for query in QUERIES:
            got = [
                in_sql.search.search(
                    "rin", in_sql.search.build_request("rin", query=query, top_k=5), recall=False
                ).results
                for _ in range(2)
            ]
            want = in_memory.search.search(
                "rin", in_memory.search.build_request("rin", query=query, top_k=5), recall=False
            ).results
            for hits in got:
                assert [h.id for h in hits] == [h.id for h in want], query
                for hit, expected in zip(hits, want, strict=True):
                    assert hit.score == pytest.approx(expected.score, abs=1e-6)
                    assert hit.similarity == pytest.approx(expected.similarity, abs=1e-6)
    finally:
        in_sql.close()
        in_memory.close()


def _numbered_memories(app: Omoide, count: int) -> PgVectorSearch:
    """Persona rin with ``count`` memories (the sample texts, numbered); its vector search."""
    app.auth.create_persona("rin")
    for i in range(count):
        app.memories.create("rin", app.memories.build_new(content=f"{TEXTS[i % len(TEXTS)]} ({i})"))
    search = app.store.memories("rin").vectors
    assert isinstance(search, PgVectorSearch)
    return search


def test_rank_facts_bring_the_vectors_the_vector_search_did_not_fetch(
    database: str, tmp_path: Path
) -> None:
    app = _app(database, tmp_path, 1)
    try:
        _numbered_memories(app, 30)
        app.runner.run_until_idle()
        handle = app.store.memories("rin")
        search = handle.vectors
        assert isinstance(search, PgVectorSearch)
        ids = [
            int(r[0])
            for r in app.store.db.conn().execute(
                "SELECT id FROM memories WHERE persona_id = ?", (handle.persona_id,)
            )
        ]
        query = HashEmbedder().embed_query("ramen near the station")
        assert len(search.search(query, limit=3)) == 3
        unseen = search.unseen(ids)
        assert len(unseen) >= len(ids) - 6  # a few candidates fetched, the rest not
        facts = handle.rank_facts(ids)
        assert set(facts) == set(ids)
        with app.store.db.trace() as seen:
            sims = search.similarities(query, ids)
        assert seen == []  # every vector came with the rank facts or the search
        for memory_id in ids:
            vector = search.get(memory_id)
            assert vector is not None
            assert sims[memory_id] == pytest.approx(float(vector @ query), abs=1e-6)
    finally:
        app.close()


def test_recalls_are_written_in_one_transaction_once_per_interval(
    database: str, tmp_path: Path
) -> None:
    app = _app(database, tmp_path, 10**6)
    try:
        app.auth.create_persona("rin")
        created = [
            app.memories.create("rin", app.memories.build_new(content=text)).memory
            for text in TEXTS[:3]
        ]
        keys = [memory.key for memory in created if memory is not None]
        handle = app.store.memories("rin")
        ids = [handle.id_of(key) for key in keys]
        with app.store.db.trace() as seen:
            assert (
                handle.record_recalls(
                    ids[:2], now=NOW, factor=1.5, cap=365.0, min_interval_hours=1.0
                )
                == 2
            )
        assert [s.split()[0] for s in seen] == ["SELECT", "BEGIN", "WITH", "COMMIT"]
        with app.store.db.write():  # inside another write it joins that one
            assert (
                handle.record_recalls(ids, now=NOW, factor=1.5, cap=365.0, min_interval_hours=1.0)
                == 1
            )
        assert (
            handle.record_recalls(ids, now=NOW, factor=1.5, cap=365.0, min_interval_hours=1.0) == 0
        )
        rows = {m.key: m for m in (handle.get(key) for key in keys)}
        assert [(rows[k].access_count, rows[k].stability) for k in keys] == [(1, 1.5)] * 3
        assert all(rows[k].last_accessed == NOW for k in keys)
    finally:
        app.close()


def test_centroids_are_refreshed_once_stale_only_when_the_persona_changed(
    database: str, tmp_path: Path
) -> None:
    app = _app(database, tmp_path, 1)
    try:
        search = _numbered_memories(app, 20)
        query = HashEmbedder().embed_query("ramen near the station")
        search.search(query, limit=3, centred_for="ramen")
        first = search._mu
        search._mu_at -= 10**6  # long ago
        search.search(query, limit=3, centred_for="ramen")
        assert search._mu is first and not search._refreshing  # unchanged: kept
        search.count += 1  # as the handle's next count after a write
        search.search(query, limit=3, centred_for="ramen")
        deadline = time.monotonic() + 30
        while search._mu is first and time.monotonic() < deadline:
            time.sleep(0.05)
        assert search._mu is not first
    finally:
        app.close()

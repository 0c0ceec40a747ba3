"""PostgreSQL's keyword index rows carry their persona (migration 17): rows written before the
migration get it from their base rows, rows written after it from the insert trigger, and a
persona's keyword search reads its own rows only, without the base table."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import psycopg
from pg_testing import SEE_ALL, PgServer

from omoide.clock import iso
from omoide.model import NewMemory
from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import apply_migrations
from omoide.store.postgres.rls import CROSS_PERSONA, bind_session
from omoide.store.postgres.store import PostgresStore
from omoide.store.sqlite.fts_terms import words_body

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
_TABLES = (
    "memories_fts",
    "memories_fts_tri",
    "episodes_fts",
    "episodes_fts_tri",
    "session_events_fts",
    "session_events_fts_tri",
)


def _personas_of_index_rows(url: str) -> dict[str, list[tuple[int, int | None]]]:
    with psycopg.connect(url, options=SEE_ALL) as conn:
        return {
            t: [tuple(r) for r in conn.execute(f"SELECT rowid, persona_id FROM {t} ORDER BY rowid")]
            for t in _TABLES
        }


def test_migration_17_gives_rows_indexed_before_it_their_persona(pg_server: PgServer) -> None:
    with pg_server.unmigrated("m17") as url:
        with psycopg.connect(url, autocommit=True) as raw:
            bind_session(raw, CROSS_PERSONA)
            apply_migrations(raw, upto=16)
            ids = {}
            for persona, text in (
                ("rin", "rin walks her dog by the river"),
                ("kai", "kai walks to the station every morning"),
            ):
                pid = raw.execute(
                    "INSERT INTO personas (name, created_at) VALUES (%s, %s) RETURNING id",
                    (persona, iso(NOW)),
                ).fetchone()[0]
                mid = raw.execute(
                    "INSERT INTO memories (key, persona_id, content, importance, created_at, "
                    "updated_at) VALUES (%s, %s, %s, 0.5, %s, %s) RETURNING id",
                    (f"k-{persona}", pid, text, iso(NOW), iso(NOW)),
                ).fetchone()[0]
                raw.execute(
                    "INSERT INTO memories_fts (rowid, body) VALUES (%s, %s)",
                    (mid, words_body(text)),
                )
                raw.execute(
                    "INSERT INTO memories_fts_tri (rowid, body) VALUES (%s, %s)", (mid, text)
                )
                ids[persona] = (pid, mid)
        PgDatabase(url, max_size=1).close()  # opening migrates: 17 backfills
        rows = _personas_of_index_rows(url)
        expected = sorted((mid, pid) for pid, mid in ids.values())
        assert rows["memories_fts"] == expected
        assert rows["memories_fts_tri"] == expected
        store = PostgresStore(url, model_id="hash", dim=8)
        try:
            hits = store.memories("rin").keyword_search("walks", limit=10)
            assert [h.rowid for h in hits] == [ids["rin"][1]]
        finally:
            store.close()


def test_migration_19_folds_the_accents_of_words_indexed_before_it(pg_server: PgServer) -> None:
    """Rows indexed before Latin letters were folded kept "café" in their words body, which
    PostgreSQL's parser does not fold: after migration 19 "cafe" finds them, as on SQLite."""
    text = "Zoë met Ken at the café in Málaga"
    with pg_server.unmigrated("m19") as url:
        with psycopg.connect(url, autocommit=True) as raw:
            bind_session(raw, CROSS_PERSONA)
            apply_migrations(raw, upto=18)
            pid = raw.execute(
                "INSERT INTO personas (name, created_at) VALUES ('rin', %s) RETURNING id",
                (iso(NOW),),
            ).fetchone()[0]
            mid = raw.execute(
                "INSERT INTO memories (key, persona_id, content, importance, created_at, "
                "updated_at) VALUES ('k1', %s, %s, 0.5, %s, %s) RETURNING id",
                (pid, text, iso(NOW), iso(NOW)),
            ).fetchone()[0]
            raw.execute("INSERT INTO memories_fts (rowid, body) VALUES (%s, %s)", (mid, text))
            raw.execute("INSERT INTO memories_fts_tri (rowid, body) VALUES (%s, %s)", (mid, text))
        PgDatabase(url, max_size=1).close()  # opening migrates: 19 folds
        with psycopg.connect(url, options=SEE_ALL) as conn:
            body = conn.execute("SELECT body FROM memories_fts").fetchone()[0]
        assert body == words_body(text) == "Zoe met Ken at the cafe in Malaga"
        store = PostgresStore(url, model_id="hash", dim=8)
        try:
            for query in ("cafe", "café", "malaga", "ZOË"):
                assert [h.rowid for h in store.memories("rin").keyword_search(query, limit=5)] == [
                    mid
                ], query
        finally:
            store.close()


def test_index_rows_written_now_carry_their_persona_and_search_stays_in_it(
    pg_server: PgServer,
) -> None:
    with pg_server.database() as url:
        store = PostgresStore(url, model_id="hash", dim=4)
        try:
            for persona in ("rin", "kai"):
                store.create_persona(persona, now=NOW)
                store.memories(persona).insert_many(
                    [
                        NewMemory(
                            content=f"{persona} loves ramen near the station", importance=0.5
                        ),
                        NewMemory(
                            content=f"{persona} had ramen at the station again", importance=0.5
                        ),
                        NewMemory(content=f"{persona}は大阪でたこ焼きを食べた", importance=0.5),
                        NewMemory(content=f"{persona}は大阪のたこ焼きが好き", importance=0.5),
                    ],
                    np.eye(4, dtype=np.float32),
                    stabilities=[1.0] * 4,
                    now=NOW,
                )
            rin = store.memories("rin")
            for memory in rin.list_recent(limit=10):
                if memory.content.endswith(("again", "好き")):
                    rin.tombstone(memory.key, now=NOW)
            rows = _personas_of_index_rows(url)
            assert all(pid is not None for t in _TABLES for _, pid in rows[t])
            assert {pid for _, pid in rows["memories_fts"]} == {
                store.get_persona(p).id for p in ("rin", "kai")
            }
            kept = {
                int(r[0])
                for r in store.db.conn().execute(
                    "SELECT id FROM memories WHERE persona_id = ? AND status = 'active'",
                    (rin.persona_id,),
                )
            }
            assert len(kept) == 2
            for query in ("ramen station", "大阪のたこ焼き"):
                found = {h.rowid for h in rin.keyword_search(query, limit=10)}
                assert found and found <= kept, query
        finally:
            store.close()

"""Migration 18 replaces PostgreSQL's trigram function (quadratic in the text's length) by a
linear one giving the same arrays: rows indexed before it keep arrays equal to what it computes,
so they stay searchable without a rebuild, and any text gets the arrays the old one gave."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

import psycopg
from pg_testing import PgServer

from omoide.clock import iso
from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import applied_migrations, apply_migrations
from omoide.store.postgres.rls import CROSS_PERSONA, bind_session
from omoide.store.postgres.store import PostgresStore
from omoide.store.sqlite.fts_terms import words_body

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
ALPHABET = "aBc xyZ猫犬の日本語ÄÖİß\t\n'\\ 🙂e\u0301"  # case pairs, CJK, quotes, combining marks
EDGES = [
    "",
    "a",
    "ab",
    "abc",
    "abcd",
    "aaaa",
    "İstanbul",
    "ÀÉ 猫が好き",
    "ユーザーは大阪に住んでいる",
]


def samples() -> list[str]:
    rng = random.Random(18)
    return EDGES + [
        "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 40))) for _ in range(200)
    ]


def trigrams(conn: psycopg.Connection, texts: list[str]) -> list[list[str]]:
    return [conn.execute("SELECT omoide_trigrams(%s)", (t,)).fetchone()[0] for t in texts]


def test_migration_18_keeps_the_arrays_and_the_rows_searchable(pg_server: PgServer) -> None:
    with pg_server.unmigrated("m18") as url:
        texts = samples()
        with psycopg.connect(url, autocommit=True) as raw:
            bind_session(raw, CROSS_PERSONA)
            apply_migrations(raw, upto=17)
            before = trigrams(raw, texts)
            pid = raw.execute(
                "INSERT INTO personas (name, created_at) VALUES ('rin', %s) RETURNING id",
                (iso(NOW),),
            ).fetchone()[0]
            ids = []
            for key, text in (
                ("osaka", "ユーザーは大阪に住んでいる"),
                ("cat", "ユーザーは猫が好き"),
            ):
                ids.append(
                    raw.execute(
                        "INSERT INTO memories (key, persona_id, content, importance, created_at, "
                        "updated_at) VALUES (%s, %s, %s, 0.5, %s, %s) RETURNING id",
                        (key, pid, text, iso(NOW), iso(NOW)),
                    ).fetchone()[0]
                )
                raw.execute(
                    "INSERT INTO memories_fts_tri (rowid, body) VALUES (%s, %s)", (ids[-1], text)
                )
                raw.execute(
                    "INSERT INTO memories_fts (rowid, body) VALUES (%s, %s)",
                    (ids[-1], words_body(text)),
                )
        PgDatabase(url, max_size=1).close()  # opening migrates: 18 replaces the function
        with psycopg.connect(url, autocommit=True) as raw:
            bind_session(raw, CROSS_PERSONA)
            assert 18 in applied_migrations(raw)
            assert trigrams(raw, texts) == before
            assert (
                raw.execute(
                    "SELECT bool_and(grams = omoide_trigrams(body)) FROM memories_fts_tri"
                ).fetchone()[0]
                is True
            )
            # linear now: a text near the 50,000-character limit takes well under a second
            # (the old function took ~30 s); 10 s is the bound of a loaded machine. A
            # 15-character period: one trigram per position in it
            started = time.perf_counter()
            size = raw.execute(
                "SELECT cardinality(omoide_trigrams(%s))",
                ("日本語の長い文章を書きました。" * 3_200,),
            ).fetchone()[0]
            assert time.perf_counter() - started < 10 and size == 15
        store = PostgresStore(url, model_id="hash", dim=8)
        try:
            assert [
                h.rowid for h in store.memories("rin").keyword_search("住んでいる", limit=5)
            ] == ids[:1]
        finally:
            store.close()

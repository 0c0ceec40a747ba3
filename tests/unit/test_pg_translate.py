"""The PostgreSQL spelling of the shared SQL (``store/postgres/connection.py``): placeholders,
the few SQLite-only forms, and nothing inside quoted literals."""

from __future__ import annotations

import pytest

from omoide.store.postgres.connection import translate


@pytest.mark.parametrize(
    ("shared", "postgres"),
    [
        (
            "SELECT * FROM memories WHERE id = ? AND key = ?",
            "SELECT * FROM memories WHERE id = %s AND key = %s",
        ),
        (
            "SELECT 1 FROM jobs WHERE persona_id IS ? LIMIT 1",
            "SELECT 1 FROM jobs WHERE persona_id IS NOT DISTINCT FROM %s LIMIT 1",
        ),
        (
            "UPDATE s SET stability = MIN(?, stability * ?) WHERE id IN (?)",
            "UPDATE s SET stability = LEAST(%s, stability * %s) WHERE id IN (%s)",
        ),
        (
            "UPDATE s SET a = MAX(COALESCE(a, ''), ?) WHERE id = ?",
            "UPDATE s SET a = GREATEST(COALESCE(a, ''), %s) WHERE id = %s",
        ),
        (
            "SELECT MAX(id), MIN(created_at) FROM memories",
            "SELECT MAX(id), MIN(created_at) FROM memories",
        ),
        (
            "SELECT '?', 'it''s 100%' FROM t WHERE x = ?",
            "SELECT '?', 'it''s 100%%' FROM t WHERE x = %s",
        ),
    ],
)
def test_statements_keep_their_meaning(shared: str, postgres: str) -> None:
    assert translate(shared) == (postgres, False)


def test_insert_or_ignore_and_inserted_ids() -> None:
    assert translate("INSERT OR IGNORE INTO memory_tags (memory_id, tag) VALUES (?, ?)") == (
        "INSERT INTO memory_tags (memory_id, tag) VALUES (%s, %s) ON CONFLICT DO NOTHING",
        False,
    )
    assert translate("INSERT OR IGNORE INTO session_events (seq) VALUES (?)") == (
        "INSERT INTO session_events (seq) VALUES (%s) ON CONFLICT DO NOTHING RETURNING id",
        True,
    )
    assert translate("INSERT INTO jobs (kind) VALUES (?)") == (
        "INSERT INTO jobs (kind) VALUES (%s) RETURNING id",
        True,
    )
    assert (
        translate("UPDATE personas SET revision = revision + 1 WHERE id = ? RETURNING revision")[1]
        is False
    )

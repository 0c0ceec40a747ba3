"""The persona wall's SQL helpers (store/postgres/rls.py): which statements need the session
bound, and that the migration walls every listed table."""

from __future__ import annotations

import pytest

from omoide.store.postgres.rls import PERSONA_WALLS, WALLED_TABLES, touches_walled


@pytest.mark.parametrize(
    ("statement", "walled"),
    [
        ("SELECT revision FROM personas WHERE id = ?", False),
        ("SELECT settings FROM personas WHERE name = ?", False),
        ("SELECT count(*) FROM memories_fts_tri", False),  # keyword index: not walled
        ("SELECT f.rowid FROM memories_fts f JOIN memories AS b ON b.id = f.rowid", True),
        ("select * from MEMORIES where key = ?", True),
        ("INSERT INTO jobs (kind) VALUES (?)", True),
        ("UPDATE user_state_history SET valid_until = ? WHERE id = ?", True),
        ("SELECT 1", False),
    ],
)
def test_a_read_binds_the_session_only_for_walled_tables(statement: str, walled: bool) -> None:
    assert touches_walled(statement) is walled


def test_every_walled_table_is_forced_with_one_policy() -> None:
    for table in WALLED_TABLES:
        assert f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY" in PERSONA_WALLS
        assert PERSONA_WALLS.count(f"CREATE POLICY persona_wall ON {table} ") == 1

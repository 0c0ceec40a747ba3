"""The operation a PostgreSQL privilege refusal (42501) names (``store/postgres/refusals.py``):
the statement's SELECT, INSERT, UPDATE or DELETE, which the grant to give names too. A
statement beginning ``WITH`` was said as "refused WITH to the role …" (the recall's
``WITH due AS (UPDATE memories …)``), naming no privilege a grant gives."""

from __future__ import annotations

import pytest

from omoide.store.postgres.refusals import operation


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        pytest.param("INSERT INTO memories (key) VALUES (?)", "INSERT", id="insert"),
        pytest.param("  select id FROM memories", "SELECT", id="lower-case"),
        pytest.param(
            "WITH due AS (UPDATE memories SET access_count = 1 RETURNING id) SELECT id FROM due",
            "UPDATE",
            id="with-update",
        ),
        pytest.param("INSERT INTO t SELECT * FROM u", "INSERT", id="insert-select"),
        pytest.param("CREATE INDEX i ON memories (key)", "CREATE", id="no-grant-word"),
        pytest.param("", "", id="empty"),
        pytest.param(None, "", id="none"),
    ],
)
def test_a_refusal_names_the_statements_operation(statement: str | None, named: str) -> None:
    assert operation(statement) == named

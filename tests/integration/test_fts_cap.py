"""The keyword side scores at most ``scored_cap`` rows of a persona per read: the newest rows
holding any kept term, plus (several terms) the newest rows holding all of them among the older
rows. Checked against the uncapped search's scores on a real SQLite file, on the persona-keyed
index and through the join."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from omoide.model import KeywordHit
from omoide.store.sqlite.fts_search import Fts5Index

WORDS = ("apple", "river", "piano", "garden", "lantern", "meadow", "violin", "harbor")
QUERIES = ("apple", "river piano", "garden lantern meadow", "violin harbor apple", "piano")
LIMIT = 3


def make_index(*, keyed: bool, cap: int) -> Fts5Index:
    index = Fts5Index(
        name="memories" if keyed else "plain",
        base_table="memories",
        content_col="content",
        persona_col="persona_id",
        filter_sql="b.status = 'active'",
        persona_keyed=keyed,
    )
    # no pruning (every present term is kept) and a pool of LIMIT rows, so the cap shows
    return replace(
        index, tuning=replace(index.tuning, scored_cap=cap, max_df=1.0, pool=1, min_pool=1)
    )


@pytest.fixture(scope="module", params=[3, 11])
def rows(request: pytest.FixtureRequest) -> list[tuple[int, int, str]]:
    rng = np.random.default_rng(request.param)
    out = []
    for row_id in range(1, 161):
        persona = 1 if row_id % 5 else 2
        words = rng.choice(
            WORDS,
            size=int(rng.integers(1, 5)),
            replace=False,
            p=np.array([4, 3, 3, 2, 2, 2, 1, 1]) / 18,
        )
        filler = " ".join(["note"] * int(rng.integers(0, 6)))  # lengths differ: scores differ
        out.append((row_id, persona, " ".join([*words, filler]).strip()))
    return out


@pytest.fixture(scope="module")
def conn(
    rows: list[tuple[int, int, str]], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(tmp_path_factory.mktemp("cap") / "omoide.db")
    db.execute(
        "CREATE TABLE memories (id INTEGER PRIMARY KEY, persona_id INTEGER NOT NULL, "
        "content TEXT NOT NULL, status TEXT NOT NULL)"
    )
    db.executemany("INSERT INTO memories VALUES (?, ?, ?, 'active')", rows)
    for keyed in (True, False):
        index = make_index(keyed=keyed, cap=1)
        for statement in index.ddl():
            db.execute(statement)
        for persona in (1, 2):
            mine = [(i, text) for i, p, text in rows if p == persona]
            index.index(db, mine, persona_id=persona if keyed else None)
    db.commit()
    yield db
    db.close()


def expected(
    conn: sqlite3.Connection,
    rows: list[tuple[int, int, str]],
    query: str,
    persona: int,
    cap: int,
    keyed: bool,
) -> list[KeywordHit]:
    """The uncapped search's scores, over the rows the capped reads may score."""
    full = make_index(keyed=keyed, cap=10**6)
    scores = {
        h.rowid: h.score for h in full.search(conn, persona_id=persona, query=query, limit=10**6)
    }
    present = [w for w in query.split() if any(w in text.split() for _, _, text in rows)]
    mine = sorted((i for i, p, _ in rows if p == persona), reverse=True)
    words = {i: set(text.split()) for i, _, text in rows}
    cap = max(cap, LIMIT)
    any_rows = [i for i in mine if words[i] & set(present)][:cap]
    older = min(any_rows, default=0)  # rows holding every term, older than those
    all_rows = (
        [i for i in mine if set(present) <= words[i] and i < older][:cap]
        if len(present) > 1
        else []
    )
    assert set(any_rows) | set(all_rows) <= set(scores)
    chosen = sorted(set(any_rows) | set(all_rows), key=lambda i: (-scores[i], i))[:LIMIT]
    return [KeywordHit(i, scores[i]) for i in chosen]


@pytest.mark.parametrize("keyed", [True, False], ids=["keyed", "join"])
@pytest.mark.parametrize("cap", [4, 10, 40, 1000])
@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("persona", [1, 2])
def test_capped_search_returns_the_best_of_the_rows_it_reads(
    conn: sqlite3.Connection,
    rows: list[tuple[int, int, str]],
    query: str,
    persona: int,
    cap: int,
    keyed: bool,
) -> None:
    got = make_index(keyed=keyed, cap=cap).search(
        conn, persona_id=persona, query=query, limit=LIMIT
    )
    want = expected(conn, rows, query, persona, cap, keyed)
    assert [h.rowid for h in got] == [h.rowid for h in want]
    assert np.allclose([h.score for h in got], [h.score for h in want], rtol=1e-9)


@pytest.mark.parametrize("keyed", [True, False], ids=["keyed", "join"])
def test_a_cap_above_the_matching_rows_changes_nothing(
    conn: sqlite3.Connection, keyed: bool
) -> None:
    for query in QUERIES:
        for persona in (1, 2):
            hits = [
                make_index(keyed=keyed, cap=cap).search(
                    conn, persona_id=persona, query=query, limit=10
                )
                for cap in (160, 10**6)
            ]
            assert hits[0] == hits[1]


def test_rows_holding_every_term_are_found_past_the_cap(
    conn: sqlite3.Connection, rows: list[tuple[int, int, str]]
) -> None:
    """The oldest row holding both words is still returned when far more rows hold one."""
    both = [i for i, p, text in rows if p == 1 and {"violin", "harbor"} <= set(text.split())]
    either = [i for i, p, text in rows if p == 1 and {"violin", "harbor"} & set(text.split())]
    assert both and len(either) > len(both) + 4
    hits = make_index(keyed=True, cap=4).search(
        conn, persona_id=1, query="violin harbor", limit=len(both)
    )
    assert {h.rowid for h in hits} == set(both)

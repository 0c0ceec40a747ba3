import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omoide.model import KeywordHit
from omoide.store.sqlite.fts_search import Fts5Index
from omoide.store.sqlite.fts_terms import quote_fts

ROWS = [
    # (id, persona, content, status)
    (1, 1, "らうらうの親友の美咲は大阪に住んでいて、年に2回は会いに行っている", "active"),
    (2, 1, "らうらうは三毛猫のミケを飼っている", "active"),
    (3, 1, "らうらうは北海道の美術大学でグラフィックデザインを学んだ", "active"),
    (4, 1, "Rau runs along the river every Sunday morning.", "active"),
    (5, 1, "Rau is studying AIの勉強 at night.", "active"),
    (6, 1, "大阪城のお花見は中止になった", "tombstoned"),
    (7, 2, "大阪の猫カフェでグラフィックデザインの打ち合わせ", "active"),
    (8, 2, "Persona two runs a bakery on Sunday.", "active"),
    (9, 1, "ＴＯＥＩＣの点数は８５０点", "active"),
]

SHORT_PATHS = [pytest.param("bigram", id="bigram-tokens"), pytest.param("instr", id="instr-scan")]


def make_index(**tuning: object) -> Fts5Index:
    index = Fts5Index(
        name="memories",
        base_table="memories",
        content_col="content",
        persona_col="persona_id",
        filter_sql="b.status = 'active'",
    )
    return replace(index, tuning=replace(index.tuning, **tuning)) if tuning else index


def open_db(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE memories (id INTEGER PRIMARY KEY, persona_id INTEGER NOT NULL, "
        "content TEXT NOT NULL, status TEXT NOT NULL)"
    )
    for statement in make_index().ddl():
        conn.execute(statement)
    conn.executemany("INSERT INTO memories VALUES (?, ?, ?, ?)", ROWS)
    make_index().index(conn, [(row[0], row[2]) for row in ROWS])
    conn.commit()
    return conn


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    db = open_db(tmp_path / "omoide.db")
    yield db
    db.close()


@pytest.fixture(scope="module")
def shared_conn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    db = open_db(tmp_path_factory.mktemp("fts") / "omoide.db")
    yield db
    db.close()


def ids(hits: list[KeywordHit]) -> list[int]:
    return [hit.rowid for hit in hits]


def search(conn: sqlite3.Connection, query: str, persona: int = 1, **tuning: object) -> list[int]:
    return ids(make_index(**tuning).search(conn, persona_id=persona, query=query, limit=10))


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        pytest.param("cat", '"cat"', id="plain"),
        pytest.param('say "hi"', '"say ""hi"""', id="double-quotes"),
        pytest.param("a OR b", '"a OR b"', id="operator"),
        pytest.param("body:x*", '"body:x*"', id="column-filter-and-prefix"),
        pytest.param("ＡＢＣ", '"ABC"', id="full-width"),
        pytest.param("a\x00b", '"ab"', id="nul"),
    ],
)
def test_quote_fts_makes_one_literal_string(term: str, expected: str) -> None:
    assert quote_fts(term) == expected


@pytest.mark.parametrize(
    "query",
    [
        'Rau" OR "x',
        "NEAR(rau river, 2)",
        "rau AND NOT river",
        "body:rau",
        "^rau*",
        "(((",
        '"',
        "- + * ^ : ( ) { }",
        "大阪 OR 猫",
        "\ud800大阪\x00",
    ],
)
def test_search_treats_fts_syntax_as_text(conn: sqlite3.Connection, query: str) -> None:
    for hit in make_index().search(conn, persona_id=1, query=query, limit=5):
        assert hit.rowid in {1, 2, 3, 4, 5, 9}


# Arbitrary text, and text built from FTS5's syntax characters, operators and CJK.
FTS_PIECES = [*'"*^:()-+{},. ', "AND", "OR", "NOT", "NEAR", "body", "大阪", "猫", "らうらう", "rau"]
HOSTILE = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(FTS_PIECES), max_size=12).map("".join),
    st.lists(st.sampled_from(FTS_PIECES), max_size=12).map(" ".join),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE)
def test_search_never_raises_and_stays_in_the_persona(
    shared_conn: sqlite3.Connection, query: str
) -> None:
    hits = make_index().search(shared_conn, persona_id=1, query=query, limit=5)
    assert set(ids(hits)) <= {1, 2, 3, 4, 5, 9}


@pytest.mark.parametrize("short_path", SHORT_PATHS)
def test_search_finds_two_character_japanese_term(
    conn: sqlite3.Connection, short_path: str
) -> None:
    assert search(conn, "大阪", short_path=short_path) == [1]


@pytest.mark.parametrize("short_path", SHORT_PATHS)
def test_search_finds_one_character_japanese_term(
    conn: sqlite3.Connection, short_path: str
) -> None:
    assert search(conn, "猫", short_path=short_path) == [2]


@pytest.mark.parametrize("short_path", SHORT_PATHS)
def test_search_finds_short_term_at_the_end_of_a_run(
    conn: sqlite3.Connection, short_path: str
) -> None:
    assert search(conn, "大学", short_path=short_path) == [3]


def test_search_without_short_path_cannot_find_two_character_terms(
    conn: sqlite3.Connection,
) -> None:
    assert search(conn, "大阪", short_path="none") == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("グラフィックデザイン", [3], id="katakana"),
        pytest.param("北海道", [3], id="kanji"),
        pytest.param("美術大学で学んだこと", [3], id="question"),
    ],
)
def test_search_finds_japanese_terms_of_three_or_more_characters(
    conn: sqlite3.Connection, query: str, expected: list[int]
) -> None:
    assert search(conn, query) == expected


def test_search_never_returns_another_personas_rows(conn: sqlite3.Connection) -> None:
    query = "大阪 猫 グラフィックデザイン bakery Sunday"
    assert sorted(search(conn, query, persona=1)) == [1, 2, 3, 4]
    assert sorted(search(conn, query, persona=2)) == [7, 8]


def test_search_returns_nothing_for_english_stopwords(conn: sqlite3.Connection) -> None:
    assert search(conn, "what is the and of it") == []


def test_search_returns_nothing_for_an_empty_query(conn: sqlite3.Connection) -> None:
    assert search(conn, "  ？！ ") == []


@pytest.mark.parametrize("short_path", SHORT_PATHS)
@pytest.mark.parametrize("condition", ["b.status = 'active'", "status = 'active'"])
def test_search_honours_the_filter(
    conn: sqlite3.Connection, condition: str, short_path: str
) -> None:
    index = replace(make_index(short_path=short_path), filter_sql=condition)
    assert ids(index.search(conn, persona_id=1, query="大阪城", limit=5)) == []
    assert ids(index.search(conn, persona_id=1, query="大阪", limit=5)) == [1]


def test_search_without_a_filter_returns_every_status(conn: sqlite3.Connection) -> None:
    assert 6 in ids(
        Fts5Index("memories", "memories", "content", "persona_id").search(
            conn, persona_id=1, query="大阪城", limit=5
        )
    )


def test_search_stems_english_words(conn: sqlite3.Connection) -> None:
    assert search(conn, "running rivers") == [4]


def test_search_finds_latin_word_written_inside_japanese(conn: sqlite3.Connection) -> None:
    assert search(conn, "AI") == [5]


def test_search_matches_full_width_text_with_half_width_query(conn: sqlite3.Connection) -> None:
    assert search(conn, "TOEIC") == [9]


def test_search_scores_full_coverage_above_partial(conn: sqlite3.Connection) -> None:
    hits = make_index().search(conn, persona_id=1, query="大阪 猫", limit=5)
    assert sorted(ids(hits)) == [1, 2]
    full = make_index().search(conn, persona_id=2, query="大阪 猫", limit=5)
    assert full[0].score > max(hit.score for hit in hits)


def test_search_respects_the_limit(conn: sqlite3.Connection) -> None:
    assert len(search(conn, "らうらう")) == 3
    assert len(make_index().search(conn, persona_id=1, query="らうらう", limit=2)) == 2


def test_unindex_removes_rows_from_search(conn: sqlite3.Connection) -> None:
    make_index().unindex(conn, [1, 2])
    assert search(conn, "大阪") == []
    assert search(conn, "猫") == []
    assert search(conn, "北海道") == [3]


def test_index_replaces_the_text_of_an_existing_row(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE memories SET content = ? WHERE id = 2", ("らうらうは柴犬を飼っている",))
    make_index().index(conn, [(2, "らうらうは柴犬を飼っている")])
    assert search(conn, "猫") == []
    assert search(conn, "柴犬") == [2]


def test_index_rejects_identifiers_that_are_not_plain_names() -> None:
    with pytest.raises(ValueError, match="identifier"):
        Fts5Index("memories; DROP TABLE x", "memories", "content", "persona_id")


def test_search_on_an_empty_index_returns_nothing(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "empty.db")
    conn.execute("CREATE TABLE memories (id INTEGER PRIMARY KEY, persona_id, content, status)")
    for statement in make_index().ddl():
        conn.execute(statement)
    assert make_index().search(conn, persona_id=1, query="大阪 cat", limit=5) == []
    conn.close()


@pytest.mark.parametrize("short_path", SHORT_PATHS)
def test_search_works_with_a_row_factory(conn: sqlite3.Connection, short_path: str) -> None:
    conn.row_factory = sqlite3.Row
    assert sorted(search(conn, "大阪 river", short_path=short_path)) == [1, 4]


# -- persona-keyed index (the notes' index: FTS rowid = persona_id << 32 | base rowid) -------

KEYED_QUERIES = [
    "大阪",
    "猫",
    "らうらう",
    "グラフィックデザイン",
    "Sunday runs",
    "大阪 猫",
    "AI",
    "TOEIC",
    "river bakery",
    "三毛猫 大阪城",
]


@pytest.fixture
def keyed_conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """The same rows under a keyed index (active rows only, as its writers keep it), plus an
    unkeyed index over the same active rows in tables of another name, to compare with."""
    conn = sqlite3.connect(tmp_path / "keyed.db")
    conn.execute(
        "CREATE TABLE memories (id INTEGER PRIMARY KEY, persona_id INTEGER NOT NULL, "
        "content TEXT NOT NULL, status TEXT NOT NULL)"
    )
    conn.executemany("INSERT INTO memories VALUES (?, ?, ?, ?)", ROWS)
    keyed, plain = keyed_index(), replace(make_index(), name="plain")
    for index in (keyed, plain):
        for statement in index.ddl():
            conn.execute(statement)
    for persona in (1, 2):
        active = [(r[0], r[2]) for r in ROWS if r[1] == persona and r[3] == "active"]
        keyed.index(conn, active, persona_id=persona)
        plain.index(conn, active)
    conn.commit()
    yield conn
    conn.close()


def keyed_index() -> Fts5Index:
    return replace(make_index(), persona_keyed=True)


@pytest.mark.parametrize("query", KEYED_QUERIES)
@pytest.mark.parametrize("persona", [1, 2])
def test_keyed_search_equals_the_join_search(
    keyed_conn: sqlite3.Connection, query: str, persona: int
) -> None:
    """Same rows, same scores, same order: the key only replaces the join (the statistics
    are the whole table's either way)."""
    plain = replace(make_index(), name="plain")
    keyed_hits = keyed_index().search(keyed_conn, persona_id=persona, query=query, limit=10)
    plain_hits = plain.search(keyed_conn, persona_id=persona, query=query, limit=10)
    assert keyed_hits == plain_hits


def test_keyed_search_sees_only_its_persona(keyed_conn: sqlite3.Connection) -> None:
    index = keyed_index()
    assert ids(index.search(keyed_conn, persona_id=1, query="大阪", limit=10)) == [1]
    assert ids(index.search(keyed_conn, persona_id=2, query="大阪", limit=10)) == [7]
    assert index.search(keyed_conn, persona_id=3, query="大阪", limit=10) == []


def test_keyed_rows_are_stored_under_their_persona_key(keyed_conn: sqlite3.Connection) -> None:
    stored = {r[0] for r in keyed_conn.execute("SELECT rowid FROM memories_fts")}
    assert stored == {(p << 32) | i for i, p, _, status in ROWS if status == "active"}


def test_keyed_unindex_and_reindex_need_the_persona(keyed_conn: sqlite3.Connection) -> None:
    index = keyed_index()
    with pytest.raises(ValueError, match="persona id"):
        index.unindex(keyed_conn, [7])
    with pytest.raises(ValueError, match="persona key"):
        index.index(keyed_conn, [(1 << 32, "x")], persona_id=1)
    with pytest.raises(ValueError, match="persona key"):
        index.index(keyed_conn, [(1, "x")], persona_id=1 << 31)
    index.unindex(keyed_conn, [7], persona_id=1)  # persona 1 has no row 7: nothing happens
    assert ids(index.search(keyed_conn, persona_id=2, query="大阪", limit=10)) == [7]
    index.unindex(keyed_conn, [7], persona_id=2)
    assert index.search(keyed_conn, persona_id=2, query="大阪", limit=10) == []
    index.index(keyed_conn, [(8, "大阪のパン屋")], persona_id=2)
    assert ids(index.search(keyed_conn, persona_id=2, query="大阪", limit=10)) == [8]
    assert ids(index.search(keyed_conn, persona_id=2, query="bakery", limit=10)) == []


def test_key_by_persona_rewrites_an_unkeyed_index(conn: sqlite3.Connection) -> None:
    """Migration 14's rewrite: every row moves to its persona key; rows failing the filter
    (the tombstoned row 6) are left out; searches then equal the join's over active rows."""
    conn.execute(
        "INSERT INTO memories_fts_tri(rowid, body) VALUES (?, ?)",
        (99, "大阪 of a memory that is gone"),
    )  # an orphan row: left out too
    conn.execute("INSERT INTO memories_fts(rowid, body) VALUES (?, ?)", (99, "gone"))
    plain = replace(make_index(), name="plain")
    for statement in plain.ddl():
        conn.execute(statement)
    plain.index(conn, [(r[0], r[2]) for r in ROWS if r[3] == "active"])
    before = {
        (q, p): plain.search(conn, persona_id=p, query=q, limit=10)
        for q in KEYED_QUERIES
        for p in (1, 2)
    }
    unfiltered = replace(make_index(), filter_sql="")
    assert 6 in ids(unfiltered.search(conn, persona_id=1, query="大阪城", limit=10))
    keyed_index().key_by_persona(conn)
    stored = {r[0] for r in conn.execute("SELECT rowid FROM memories_fts_tri")}
    assert stored == {(p << 32) | i for i, p, _, status in ROWS if status == "active"}
    assert (
        conn.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE '%keyed%'").fetchone()[0]
        == 0
    )
    for (query, persona), hits in before.items():
        assert keyed_index().search(conn, persona_id=persona, query=query, limit=10) == hits

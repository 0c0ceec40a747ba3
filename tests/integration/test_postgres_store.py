"""What only the PostgreSQL adapter has to show: erasing a persona reaches every table keyed by
it (found in the catalogue), and two stores on one database (two processes) writing the same
persona's turns at once never collide (the persona's advisory write lock)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest
from pg_testing import SEE_ALL, PgServer, rows_holding

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import Omoide, build

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
PIN = "ZQXJV-4827"


@pytest.fixture
def database(pg_server: PgServer) -> Iterator[str]:
    with pg_server.database() as url:
        yield url


def _app(url: str, tmp: object) -> Omoide:
    return build(
        Settings.from_env({"OMOIDE_DATABASE_URL": url}, data_dir=tmp),
        embedder=HashEmbedder(),
        clock=FixedClock(START),
        llm=None,
    )


def test_deleting_a_persona_leaves_no_row_keyed_by_it(database: str, tmp_path: object) -> None:
    app = _app(database, tmp_path)
    try:
        app.auth.create_persona("rin")
        app.auth.create_persona("haru")
        make = app.memories.build_new
        app.memories.create("rin", make(content=f"My door code is {PIN}", tags=["secret"]))
        app.memories.create("haru", make(content="Haru plays the cello"))
        app.sessions.open("rin", session_id="s1")
        app.sessions.record("rin", "s1", [{"speaker": "Rau", "content": f"It is {PIN}"}])
        app.sessions.end("rin", "s1")
        app.state.update("rin", user={"name": PIN})
        app.blocks.write_block("rin", block_name="user_model", content=PIN)
        app.runner.run_until_idle()
        persona_id = app.store.get_persona("rin").id
        assert rows_holding(database, PIN)

        app.forget.delete_persona("rin")

        assert rows_holding(database, PIN) == []
        with psycopg.connect(database, options=SEE_ALL) as conn:
            keyed = conn.execute(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() "
                "AND column_name IN ('persona_id', 'persona')"
            ).fetchall()
            assert len(keyed) >= 10
            for table, column in keyed:
                value = persona_id if column == "persona_id" else "rin"
                left = conn.execute(
                    f"SELECT COUNT(*) FROM {table} WHERE {column} = %s", (value,)
                ).fetchone()[0]
                assert left == 0, table
        assert [m.content for m in app.memories.list_recent("haru", limit=5)] == [
            "Haru plays the cello"
        ]
    finally:
        app.close()


def test_two_stores_append_turns_to_one_session_without_collisions(
    database: str, tmp_path: object
) -> None:
    first, second = _app(database, tmp_path), _app(database, tmp_path)
    try:
        first.auth.create_persona("rin")
        first.sessions.open("rin", session_id="s1")
        errors: list[BaseException] = []

        def post(app: Omoide, who: str) -> None:
            try:
                for i in range(15):
                    app.sessions.record(
                        "rin", "s1", [{"speaker": who, "content": f"{who} says {i}"}]
                    )
            except BaseException as exc:  # collected: the assertion below names it
                errors.append(exc)

        threads = [
            threading.Thread(target=post, args=(app, who))
            for app, who in ((first, "Ken"), (second, "Rau"))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == []
        with psycopg.connect(database, options=SEE_ALL) as conn:
            seqs = [r[0] for r in conn.execute("SELECT seq FROM session_events ORDER BY seq")]
        assert seqs == list(range(1, 31))
    finally:
        first.close()
        second.close()


def test_nul_in_text_is_refused_clearly(database: str, tmp_path: object) -> None:
    from omoide.errors import InvalidInput

    app = _app(database, tmp_path)
    try:
        app.auth.create_persona("rin")
        with pytest.raises(InvalidInput, match="NUL"):
            app.memories.create("rin", app.memories.build_new(content="a\x00b"))
        assert app.memories.stats("rin").total == 0
    finally:
        app.close()

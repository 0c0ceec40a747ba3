"""Lossless export/import through the service, on both stores and from one to the other."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from interop_seed import seed
from pg_testing import PgServer

from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.errors import Conflict, InvalidInput
from omoide.wiring import Omoide, build


@pytest.fixture
def other_store(
    tmp_path: Path, clock: FixedClock, embedder: HashEmbedder, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Omoide]]:
    """A second, empty store: a data folder, or a new PostgreSQL database (of the test's store
    kind unless ``kind`` says which)."""
    built: list[Omoide] = []
    databases: list[str] = []

    def make(name: str, kind: str | None = None) -> Omoide:
        kind = kind or request.getfixturevalue("store_kind")
        environ = {}
        if kind == "postgres":
            server: PgServer = request.getfixturevalue("pg_server")
            databases.append(server.new_database())
            environ = {"OMOIDE_DATABASE_URL": server.url(databases[-1])}
        app = build(
            Settings.from_env(environ, data_dir=tmp_path / name),
            embedder=embedder,
            clock=clock,
            llm=None,
            chat_upstream=None,
        )
        built.append(app)
        return app

    yield make
    for app in built:
        app.close()
    for database in databases:
        request.getfixturevalue("pg_server").drop_database(database)


def body(lines: list[str]) -> list[str]:
    """The file without its header's export time."""
    head = json.loads(lines[0])
    head.pop("exported_at")
    return [json.dumps(head), *lines[1:]]


@pytest.mark.parametrize("with_vectors", [False, True])
def test_round_trip_gives_the_same_file(
    app: Omoide,
    persona: str,
    clock: FixedClock,
    other_store: Callable[..., Omoide],
    with_vectors: bool,
) -> None:
    seed(app, persona, clock)
    first = list(app.transfer.export(persona, with_vectors=with_vectors))
    kinds = {json.loads(line)["type"] for line in first}
    assert kinds == {
        "header",
        "settings",
        "block",
        "state",
        "session",
        "event",
        "episode",
        "memory",
        "link",
        "end",
    }
    assert json.loads(first[-1]) == {"type": "end", "records": len(first) - 2}
    fresh = other_store("fresh")
    fresh.auth.create_persona(persona)
    report = fresh.transfer.import_lines(persona, lambda: first)
    assert report.embedded == (
        0 if with_vectors else report.events + report.episodes + report.memories
    )
    second = list(fresh.transfer.export(persona, with_vectors=with_vectors))
    assert body(second) == body(first)
    # the restored persona works: search finds by keyword and meaning, history is there
    hits = fresh.search.search(persona, fresh.search.build_request(persona, query="Osaka"))
    assert any("Osaka" in h.content for h in hits.results)
    key = next(
        r["key"]
        for r in map(json.loads, first)
        if r["type"] == "memory" and "coffee" in r["content"]
    )
    assert [v.change for v in fresh.memories.history(persona, key)] == ["create", "update"]


def test_import_is_idempotent_and_refuses_foreign_data(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    seed(app, persona, clock)
    lines = list(app.transfer.export(persona))
    app.auth.create_persona("copy")
    first = app.transfer.import_lines("copy", lambda: lines)
    assert first.memories > 0 and first.moved_keys  # keys are unique per folder
    again = app.transfer.import_lines("copy", lambda: lines)
    assert (again.memories, again.sessions, again.embedded) == (0, 0, 0)
    # a persona with data of its own refuses, unless merging
    with pytest.raises(Conflict):
        app.transfer.import_lines(persona, lambda: _renamed(lines))


def _renamed(lines: list[str]) -> list[str]:
    """The file with every memory key and session id changed (another persona's data)."""
    out = []
    for line in lines:
        record = json.loads(line)
        for name in ("key", "a", "b"):
            if isinstance(record.get(name), str):
                record[name] = record[name] + "x"
        if isinstance(record.get("session_id"), str):
            record["session_id"] += "x"
        out.append(json.dumps(record, ensure_ascii=False))
    return out


def test_merge_skips_duplicates_as_a_write_would(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    seed(app, persona, clock)
    lines = _renamed(list(app.transfer.export(persona)))
    before = app.memories.stats(persona).active
    report = app.transfer.import_lines(persona, lambda: lines, merge=True)
    assert report.duplicates >= 4  # the current memories are already there
    assert report.sessions == 2
    assert app.memories.stats(persona).active == before + report.memories - sum(
        1 for line in lines if '"status": "tombstoned"' in line
    )


def test_bad_files_are_refused_with_the_line(app: Omoide, persona: str) -> None:
    with pytest.raises(InvalidInput, match="header"):
        app.transfer.import_lines(persona, lambda: ['{"type": "settings", "overrides": {}}'])
    head, *_ = list(app.transfer.export(persona))
    with pytest.raises(InvalidInput, match="line 2"):
        app.transfer.import_lines(persona, lambda: [head, "{not json"])
    with pytest.raises(InvalidInput, match="line 2: memory record lacks"):
        app.transfer.import_lines(persona, lambda: [head, '{"type": "memory", "key": "k"}'])


def test_an_interrupted_import_is_finished_by_running_it_again(
    app: Omoide, persona: str, clock: FixedClock, other_store: Callable[..., Omoide]
) -> None:
    seed(app, persona, clock)
    lines = list(app.transfer.export(persona))
    fresh = other_store("fresh")
    fresh.auth.create_persona(persona)
    fresh.transfer.batch = 2  # several transactions
    passes = []
    cut = next(i for i, line in enumerate(lines) if '"type": "memory"' in line) + 3

    def failing() -> Iterator[str]:
        passes.append(1)
        for i, line in enumerate(lines):
            if len(passes) == 2 and i == cut:  # the process dies during the restore pass
                raise KeyboardInterrupt
            yield line

    with pytest.raises(KeyboardInterrupt):
        fresh.transfer.import_lines(persona, failing)
    assert 0 < fresh.memories.stats(persona).total < sum('"type": "memory"' in x for x in lines)
    report = fresh.transfer.import_lines(persona, lambda: lines)  # no --merge needed
    assert report.skipped > 0
    assert body(list(fresh.transfer.export(persona))) == body(lines)


@pytest.mark.sqlite_only  # the source is a SQLite folder; the target is PostgreSQL
@pytest.mark.parametrize("with_vectors", [False, True])
def test_sqlite_export_imports_into_postgresql_unchanged(
    app: Omoide,
    persona: str,
    clock: FixedClock,
    other_store: Callable[..., Omoide],
    with_vectors: bool,
) -> None:
    """SQLite → export → import into PostgreSQL → export: the same file but the export time."""
    seed(app, persona, clock)
    first = list(app.transfer.export(persona, with_vectors=with_vectors))
    target = other_store("pg", kind="postgres")
    target.auth.create_persona(persona)
    report = target.transfer.import_lines(persona, lambda: first)
    assert report.memories == sum('"type": "memory"' in line for line in first)
    second = list(target.transfer.export(persona, with_vectors=with_vectors))
    assert body(second) == body(first)
    hits = target.search.search(persona, target.search.build_request(persona, query="Osaka"))
    assert any("Osaka" in h.content for h in hits.results)
    # and back: the PostgreSQL export restores into a new SQLite folder unchanged
    back = other_store("back", kind="sqlite")
    back.auth.create_persona(persona)
    back.transfer.import_lines(persona, lambda: second)
    assert body(list(back.transfer.export(persona, with_vectors=with_vectors))) == body(first)


def test_forgetting_provenance_survives_a_move(
    app: Omoide, persona: str, clock: FixedClock, other_store: Callable[..., Omoide]
) -> None:
    """What a conversation taught (state) and what a memory's evolution wrote (versions) keep
    their source across export and import, so forgetting works the same in the new store."""
    made = seed(app, persona, clock)
    lines = list(app.transfer.export(persona, with_vectors=False))
    records = [json.loads(line) for line in lines]
    assert "hobby" in {
        r["key"] for r in records if r["type"] == "state" and r["source_session"] == "s1"
    }
    tokyo = next(r for r in records if r["type"] == "memory" and r["key"] == made["tokyo"])
    causes = {v["cause"] for v in tokyo["versions"]} - {None}
    assert len(causes) == 1 and causes == {tokyo["superseded_by"]}
    fresh = other_store("fresh")
    fresh.auth.create_persona(persona)
    fresh.transfer.import_lines(persona, lambda: lines)
    assert fresh.state.get_current_user_state(persona)["hobby"] == "gardening"
    for store in (app, fresh):
        store.forget.delete_session(persona, "s1")
    after = fresh.state.get_current_user_state(persona)
    assert "hobby" not in after and after == app.state.get_current_user_state(persona)
    assert after["mood"] == "excited"  # set by hand, not learned from s1: kept


def test_a_closed_state_key_survives_the_round_trip(
    app: Omoide, persona: str, clock: FixedClock, other_store: Callable[..., Omoide]
) -> None:
    """A key the user closed (set to null) is exported and restored closed, history kept."""
    app.state.update_user_state(persona, {"name": "Rau", "nickname": "Ra"})
    clock.advance(seconds=5)
    app.state.update_user_state(persona, {"nickname": None})
    lines = list(app.transfer.export(persona))
    fresh = other_store("fresh")
    fresh.auth.create_persona(persona)
    fresh.transfer.import_lines(persona, lambda: lines)
    assert fresh.state.get_current_user_state(persona) == {"name": "Rau"}
    history = fresh.state.get_user_state_history(persona, "nickname")
    assert [(e.value, e.valid_until) for e in history] == [("Ra", clock.now())]

"""``omoide migrate --to postgresql://…``: a SQLite folder copied into PostgreSQL answers the same
(memories, their history, search, sessions and episodes, state, blocks, keys), keeps working
(new rows get new ids), and a non-empty target is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner
from pg_testing import PgServer

from omoide.cli import main
from omoide.clock import FixedClock
from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import Omoide, build


def _build(data: Path, clock: FixedClock, environ: dict[str, str] | None = None) -> Omoide:
    return build(
        Settings.from_env(environ or {}, data_dir=data),
        embedder=HashEmbedder(),
        clock=clock,
        llm=None,
    )


def _fill(app: Omoide, clock: FixedClock) -> str:
    _, key = app.auth.create_persona("rin")
    app.auth.create_persona("haru")
    make = app.memories.build_new
    first = app.memories.create("rin", make(content="User lives in Tokyo", tags=["home"]))
    app.memories.create("rin", make(content="大阪府の実家で猫を飼っている"))
    app.memories.create("haru", make(content="Haru plays the cello"))
    clock.advance(hours=1)
    app.memories.update("rin", first.memory.key, tags=["home", "city"])
    app.state.update("rin", user={"name": "Rau"}, persona_state={"emotion": "joy"})
    app.blocks.write_block("rin", block_name="user_model", content="Likes cats.")
    app.sessions.open("rin", session_id="s1")
    app.sessions.record(
        "rin",
        "s1",
        [
            {"speaker": "Rau", "content": "We went hiking in the Alps last summer"},
            {"speaker": "Rin", "content": "That sounds wonderful"},
        ],
    )
    app.sessions.end("rin", "s1")
    app.runner.run_until_idle()
    return key


def _snapshot(app: Omoide) -> dict[str, Any]:
    rin = app.memories.list_recent("rin", limit=50)
    search = {
        q: [
            h.id
            for h in app.search.search(
                "rin", app.search.build_request("rin", query=q, mode=mode), recall=False
            ).results
        ]
        for q, mode in (
            ("Tokyo", "keyword"),
            ("猫", "keyword"),
            ("where does the user live", "semantic"),
        )
    }
    return {
        "memories": [(m.key, m.content, m.tags, m.importance, m.created_at) for m in rin],
        "history": [[v.change for v in app.memories.history("rin", m.key)] for m in rin],
        "search": search,
        "user": app.state.get_current_user_state("rin"),
        "persona_state": app.state.get_current_persona_state("rin"),
        "blocks": [(b.block_name, b.content) for b in app.blocks.list_blocks("rin")],
        "episodes": [(e.content, notes) for e, notes in app.sessions.episodes("rin", "s1")],
        "haru": [m.content for m in app.memories.list_recent("haru", limit=5)],
    }


def test_migrate_copies_a_folder_into_postgresql(
    pg_server: PgServer, tmp_path: Path, clock: FixedClock
) -> None:
    data = tmp_path / "data"
    source = _build(data, clock)
    key = _fill(source, clock)
    before = _snapshot(source)
    source.close()
    assert before["episodes"] and before["search"]["Tokyo"] and before["search"]["猫"]

    with pg_server.database() as url:
        done = CliRunner().invoke(
            main, ["migrate", "--to", url, "--data", str(data)], env={"OMOIDE_EMBEDDER": "hash"}
        )
        assert done.exit_code == 0, done.output
        total = len(before["memories"]) + len(before["haru"])
        assert f"  memories: {total}\n" in done.stdout

        moved = _build(data, clock, {"OMOIDE_DATABASE_URL": url})
        try:
            assert _snapshot(moved) == before
            assert moved.auth.authenticate(f"Bearer {key}").persona == "rin"
            added = moved.memories.create(
                "rin", moved.memories.build_new(content="User started learning the violin")
            )
            assert added.status == "created"
            assert added.memory.key in [m.key for m in moved.memories.list_recent("rin", limit=50)]
        finally:
            moved.close()

        again = CliRunner().invoke(
            main, ["migrate", "--to", url, "--data", str(data)], env={"OMOIDE_EMBEDDER": "hash"}
        )
        assert again.exit_code == 1
        assert "already holds personas" in again.output
        assert "Traceback" not in again.output
    reopened = _build(data, clock)  # the folder is left as it was
    try:
        assert _snapshot(reopened)["memories"] == before["memories"]
    finally:
        reopened.close()


def test_ids_erased_in_the_folder_are_not_given_again_after_migrating(
    pg_server: PgServer, tmp_path: Path, clock: FixedClock
) -> None:
    data = tmp_path / "data"
    source = _build(data, clock)
    _fill(source, clock)
    source.sessions.open("rin", session_id="s2")
    source.sessions.record("rin", "s2", [{"speaker": "Rau", "content": "My PIN is 4711"}])
    erased = max(e.last_event_id for e, _ in source.sessions.episodes("rin", "s1"))
    source.runner.run_until_idle()
    source.forget.delete_session("rin", "s2")
    source.close()

    with pg_server.database() as url:
        done = CliRunner().invoke(
            main, ["migrate", "--to", url, "--data", str(data)], env={"OMOIDE_EMBEDDER": "hash"}
        )
        assert done.exit_code == 0, done.output
        moved = _build(data, clock, {"OMOIDE_DATABASE_URL": url})
        try:
            moved.sessions.open("rin", session_id="s3")
            moved.sessions.record("rin", "s3", [{"speaker": "Rau", "content": "I like tea"}])
            moved.sessions.end("rin", "s3")
            moved.runner.run_until_idle()
            first = min(e.first_event_id for e, _ in moved.sessions.episodes("rin", "s3"))
        finally:
            moved.close()
    assert first > erased + 1  # s2's turn had erased + 1: never given again


def test_migrate_refuses_a_url_that_is_not_postgresql(tmp_path: Path) -> None:
    done = CliRunner().invoke(
        main,
        ["migrate", "--to", "mysql://x", "--data", str(tmp_path)],
        env={"OMOIDE_EMBEDDER": "hash"},
    )
    assert done.exit_code == 1
    assert "postgresql://" in done.output


def test_migrate_is_refused_while_a_server_uses_the_folder(
    pg_server: PgServer, tmp_path: Path, clock: FixedClock
) -> None:
    """qa39b: `omoide migrate` copied a folder a running `omoide serve` was still writing to
    (docs/deploy.md says to stop it first; nothing checked): what the server wrote after the
    copy was missing from PostgreSQL. Now refused as `omoide reindex` is, nothing copied, also
    with OMOIDE_DATABASE_URL already set in the environment."""
    from omoide.store.sqlite.folder_lock import hold_shared

    data = tmp_path / "data"
    source = _build(data, clock)
    _fill(source, clock)
    source.close()
    server = hold_shared(data, "serve")  # as a running `omoide serve` holds it
    with pg_server.database() as url:
        try:
            for env in ({}, {"OMOIDE_DATABASE_URL": url}):
                done = CliRunner().invoke(
                    main,
                    ["migrate", "--to", url, "--data", str(data)],
                    env={"OMOIDE_EMBEDDER": "hash", **env},
                )
                assert done.exit_code == 1, done.output
                assert done.output.startswith("Error: another Omoide process is using")
                assert "stop it before `omoide migrate`" in done.output
                assert "Traceback" not in done.output
        finally:
            assert server is not None
            server.close()
        done = CliRunner().invoke(
            main, ["migrate", "--to", url, "--data", str(data)], env={"OMOIDE_EMBEDDER": "hash"}
        )
        assert done.exit_code == 0, done.output

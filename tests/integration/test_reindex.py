"""Embedder safety against a real folder: the folder records its model, another model is refused
until ``reindex``, and reindex re-embeds memories, turns and episodes exactly as ingestion does."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from psycopg.conninfo import conninfo_to_dict

from omoide.embed.hashing import HashEmbedder
from omoide.errors import EmbedderMismatch, InvalidInput
from omoide.wiring import Omoide

TABLES = ("memory_vectors", "event_vectors", "episode_vectors")


def fill(app: Omoide, persona: str = "rin") -> None:
    """A persona with memories, a segmented conversation and its notes."""
    app.auth.create_persona(persona)
    for text in ("The user lives in Kyoto", "The user plays the saxophone on Sundays"):
        app.memories.create(persona, app.memories.build_new(content=text))
    app.sessions.open(persona, session_id="s1")
    app.sessions.record(
        persona,
        "s1",
        [
            {"speaker": "Ken", "content": "My sister Mei moved to Osaka last spring."},
            {"speaker": "Omoide", "role": "assistant", "content": "Does she like it there?"},
            {"speaker": "Ken", "content": "Yes, she loves the food in Osaka."},
        ],
    )
    app.sessions.end(persona, "s1")
    app.runner.run_until_idle()


def vectors(app: Omoide) -> dict[str, dict[int, tuple[str, int, bytes]]]:
    conn = app.store.db.conn()
    return {
        table: {r[0]: (r[1], r[2], r[3]) for r in conn.execute(f"SELECT * FROM {table} ORDER BY 1")}
        for table in TABLES
    }


def recorded(app: Omoide) -> tuple[str, int]:
    return tuple(app.store.db.conn().execute("SELECT model_id, dim FROM embedder").fetchone())


def test_a_fresh_folder_records_the_embedder_in_use(app: Omoide) -> None:
    assert recorded(app) == ("hash-ngram-256", 256)


def test_another_embedder_is_refused_with_both_names(
    make_app: Callable[..., Omoide], app: Omoide
) -> None:
    fill(app)
    with pytest.raises(EmbedderMismatch) as refused:
        make_app(embedder=HashEmbedder(dim=64))
    message = refused.value.message
    assert "hash-ngram-256 (256 dimensions)" in message and "hash-ngram-64" in message
    assert "omoide reindex" in message
    assert refused.value.status == 409


def test_the_refusal_names_what_holds_the_vectors(
    make_app: Callable[..., Omoide], app: Omoide, store_environ: dict[str, str], data_dir: Path
) -> None:
    """Before: "this data folder's vectors were made by …" on PostgreSQL too, whose vectors are
    in the database (the data folder holds none), and "configure the embedder the folder was
    made with"."""
    fill(app)
    with pytest.raises(EmbedderMismatch) as refused:
        make_app(embedder=HashEmbedder(dim=64))
    message = refused.value.message
    url = store_environ.get("OMOIDE_DATABASE_URL")
    if url is None:
        assert message.startswith("the vectors in this data folder were made by hash-ngram-256")
        assert "the embedder the folder was made with" in message
        return
    database = conninfo_to_dict(url)["dbname"]
    assert message.startswith(f"the vectors in the PostgreSQL database '{database}' were made by")
    assert "the embedder the database was made with" in message
    assert "folder" not in message


def test_a_folder_holding_no_vector_says_so_and_that_reindex_only_records(
    make_app: Callable[..., Omoide], app: Omoide
) -> None:
    """Session 33: one command run with another OMOIDE_EMBEDDER on a fresh folder recorded it;
    the next was told its "vectors were made by" that model and to "re-embed every persona",
    of a folder holding none."""
    app.auth.create_persona("rin")  # a persona, no memory: no vector
    with pytest.raises(EmbedderMismatch) as refused:
        make_app(embedder=HashEmbedder(dim=64))
    message = refused.value.message
    assert "holds no vectors yet" in message and "vectors were made by" not in message
    assert "hash-ngram-256 (256 dimensions)" in message and "hash-ngram-64" in message
    assert "omoide reindex" in message and "it only records it" in message


@pytest.mark.sqlite_only
def test_a_folder_without_a_record_is_recorded_only_if_every_vector_matches(
    make_app: Callable[..., Omoide], app: Omoide, data_dir: Path
) -> None:
    fill(app)
    app.close()
    db = data_dir / "omoide.db"
    with sqlite3.connect(db) as conn:  # as a folder made before the record existed
        conn.execute("DELETE FROM embedder")
    assert recorded(make_app()) == ("hash-ngram-256", 256)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM embedder")
        conn.execute("UPDATE event_vectors SET model_id = 'old-model' WHERE event_id = 1")
    with pytest.raises(EmbedderMismatch, match="old-model"):
        make_app()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM embedder").fetchone()[0] == 0


def test_reindex_moves_the_folder_to_another_embedder(
    make_app: Callable[..., Omoide], app: Omoide
) -> None:
    fill(app)
    fill(app, "haru")
    before = vectors(app)
    new = HashEmbedder(dim=64)
    moving = make_app(embedder=new, check_embedder_record=False)

    plan = moving.reindex.plan()
    assert (plan.count("memories"), plan.count("events"), plan.count("episodes")) == (
        len(before["memory_vectors"]),
        len(before["event_vectors"]),
        len(before["episode_vectors"]),
    )
    steps: list[int] = []
    report = moving.reindex.run(plan, batch=2, on_progress=steps.append)

    assert report.recorded and report.reembedded == plan.total == sum(steps)
    after = vectors(moving)
    for table in TABLES:
        assert after[table].keys() == before[table].keys()
        assert {(m, d) for m, d, _ in after[table].values()} == {("hash-ngram-64", 64)}
    assert recorded(moving) == ("hash-ngram-64", 64)
    reopened = make_app(embedder=new)
    request = reopened.search.build_request(
        "rin", query="saxophone Sundays", mode="semantic", include_episodes=False
    )
    assert "saxophone" in reopened.search.search("rin", request).results[0].content
    hits = reopened.sessions.store.sessions("rin").event_index.search(
        new.embed_query("sister Osaka"), limit=3
    )
    assert hits
    with pytest.raises(EmbedderMismatch):
        make_app()


def test_reindex_embeds_the_same_text_as_ingestion(
    make_app: Callable[..., Omoide], app: Omoide
) -> None:
    fill(app)
    before = vectors(app)
    conn = app.store.db.conn()
    for table in TABLES:
        conn.execute(f"UPDATE {table} SET model_id = 'old-model'")
    report = app.reindex.run(app.reindex.plan("rin"))
    assert report.recorded
    assert vectors(app) == before


def test_reindex_of_one_persona_is_refused_when_the_embedder_changes(
    make_app: Callable[..., Omoide], app: Omoide
) -> None:
    """One persona re-embedded with a new model left the others' vectors of the old one: a
    folder neither embedder could open. Refused before anything is written; every persona at
    once re-embeds and records the new model."""
    fill(app)
    fill(app, "haru")
    before = vectors(app)
    moving = make_app(embedder=HashEmbedder(dim=64), check_embedder_record=False)
    with pytest.raises(EmbedderMismatch) as refused:
        moving.reindex.plan("rin")
    assert "run `omoide reindex` without -p" in refused.value.message
    assert refused.value.fields["recorded"] == ["hash-ngram-256 (256 dimensions)"]
    assert vectors(moving) == before and recorded(moving) == ("hash-ngram-256", 256)
    assert moving.reindex.run(moving.reindex.plan()).recorded
    assert recorded(moving) == ("hash-ngram-64", 64)


@pytest.mark.parametrize("batch", [0, -5])
def test_reindex_refuses_a_batch_below_one_before_anything(
    make_app: Callable[..., Omoide], app: Omoide, batch: int
) -> None:
    """A batch of 0 was a traceback (``range()`` step 0); a negative one re-embedded nothing,
    reported every row done and left the folder on the old model."""
    fill(app)
    before = vectors(app)
    moving = make_app(embedder=HashEmbedder(dim=64), check_embedder_record=False)
    with pytest.raises(InvalidInput) as refused:
        moving.reindex.run(moving.reindex.plan(), batch=batch)
    assert refused.value.message == f"batch must be at least 1, got {batch}"
    assert vectors(moving) == before and recorded(moving) == ("hash-ngram-256", 256)


def test_reindex_of_the_only_persona_with_vectors_is_not_refused(
    make_app: Callable[..., Omoide], app: Omoide
) -> None:
    """``-p`` of the one persona whose vectors there are (a folder of one persona, or whose
    others hold none) leaves no vector of the old model: it re-embeds and records the new
    embedder, as it did before the refusal above, which would say of other personas' vectors
    that do not exist."""
    fill(app)
    app.auth.create_persona("haru")  # a persona with nothing embedded
    moving = make_app(embedder=HashEmbedder(dim=64), check_embedder_record=False)
    assert moving.reindex.run(moving.reindex.plan("rin")).recorded
    assert recorded(moving) == ("hash-ngram-64", 64)


def test_reindex_of_one_persona_re_embeds_another_models_vectors_under_the_record(
    app: Omoide,
) -> None:
    """With the recorded embedder configured, one persona's stray vectors of another model
    are re-embedded by ``plan(persona)`` alone; the record stays."""
    fill(app)
    fill(app, "haru")
    before = vectors(app)
    conn = app.store.db.conn()
    moved = conn.execute(
        "UPDATE memory_vectors SET model_id = 'old-model' WHERE memory_id IN "
        "(SELECT id FROM memories WHERE persona_id = "
        "(SELECT id FROM personas WHERE name = 'rin'))"
    )
    report = app.reindex.run(app.reindex.plan("rin"))
    assert report.recorded and report.reembedded == moved.rowcount > 0
    assert vectors(app) == before

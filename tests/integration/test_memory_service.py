"""Memory use cases against a real SQLite file: write path, dedup, validation, recall, history."""

from __future__ import annotations

from typing import Any

import pytest

from omoide.clock import FixedClock
from omoide.engine.classify import Candidate, Relation, Verdict
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.wiring import Omoide


def create(app: Omoide, persona: str, content: str, **fields: Any) -> Any:
    return app.memories.create(persona, app.memories.build_new(content=content, **fields))


def test_create_writes_memory_strength_version_fts_and_vector(app: Omoide, persona: str) -> None:
    outcome = create(app, persona, "User lives in Tokyo with a cat named Miso", tags=["home"])
    assert outcome.status == "created"
    memory = outcome.memory
    conn = app.store.db.conn()
    memory_id = conn.execute("SELECT id FROM memories WHERE key = ?", (memory.key,)).fetchone()[0]
    for table, column in [
        ("memory_strength", "memory_id"),
        ("memory_vectors", "memory_id"),
        ("memory_versions", "memory_id"),
    ]:
        assert (
            conn.execute(
                f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (memory_id,)
            ).fetchone()[0]
            == 1
        )
    [fts_rowid] = MEMORY_FTS.fts_rowids(conn, [memory_id], app.store.get_persona(persona).id)
    assert (
        conn.execute("SELECT COUNT(*) FROM memories_fts WHERE rowid = ?", (fts_rowid,)).fetchone()[
            0
        ]
        == 1
    )
    vector_row = conn.execute("SELECT model_id, dim FROM memory_vectors").fetchone()
    assert tuple(vector_row) == (app.embedder.model_id, app.embedder.dim)
    assert memory.tags == ("home",)
    assert memory.importance == 0.5


def test_create_reports_duplicate_above_dedup_threshold(app: Omoide, persona: str) -> None:
    first = create(app, persona, "User lives in Tokyo with a cat named Miso").memory
    again = create(app, persona, "User lives in Tokyo with a cat named Miso.")
    assert again.status == "duplicate"
    assert again.duplicate_of.key == first.key
    assert again.similarity > 0.85
    assert app.memories.stats(persona).active == 1


def test_create_saves_a_near_copy_whose_number_changed(app: Omoide, persona: str) -> None:
    create(app, persona, "User has 2 cats named Miso and Kuro and a dog named Pochi")
    again = create(app, persona, "User has 3 cats named Miso and Kuro and a dog named Pochi")
    assert again.status == "created"
    assert app.memories.stats(persona).active == 2


def test_create_reports_duplicate_when_only_the_number_format_differs(
    app: Omoide, persona: str
) -> None:
    first = create(app, persona, "User has two cats named Miso and Kuro and a dog named Pochi")
    again = create(app, persona, "User has 2 cats named Miso and Kuro and a dog named Pochi")
    assert again.status == "duplicate"
    assert again.duplicate_of.key == first.memory.key


def test_create_saves_a_different_memory(app: Omoide, persona: str) -> None:
    create(app, persona, "User lives in Tokyo with a cat named Miso")
    assert create(app, persona, "Haru prefers green tea in the morning").status == "created"


def test_restating_a_closed_fact_is_not_a_duplicate(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    old = create(app, persona, "User lives in Tokyo with a cat named Miso").memory
    app.store.memories(persona).apply_evolution(
        old.key,
        now=clock.now(),
        neighbour_ids=[],
        link_increment=0.2,
        link_cap=1.0,
        extends=[],
        supersedes=[(app.store.memories(persona).id_of(old.key), clock.now())],
    )
    clock.advance(days=1)
    assert create(app, persona, "User lives in Tokyo with a cat named Miso").status == "created"


@pytest.mark.parametrize("successor_gone", [False, True])
def test_evolution_ends_a_restatement_dated_before_its_successor_once(
    app: Omoide, persona: str, clock: FixedClock, successor_gone: bool
) -> None:
    memories = app.store.memories(persona)
    successor = create(app, persona, "User moved from Nara to Kobe").memory
    dated = create(app, persona, "User lives in Nara", valid_from="2020-01-01T00:00:00Z").memory
    if successor_gone:  # deleted before the job's transaction: nothing to be closed by
        memories.tombstone(successor.key, now=clock.now())
    ended_by = (memories.id_of(successor.key), successor.created_at)

    def evolve() -> bool:
        return memories.apply_evolution(
            dated.key,
            now=clock.now(),
            neighbour_ids=[],
            link_increment=0.2,
            link_cap=1.0,
            extends=[],
            supersedes=[],
            ended_by=ended_by,
        )

    assert evolve()
    assert not evolve()  # a re-run after a crash: exactly once
    ended = memories.get(dated.key)
    closes = (
        app.store.db.conn()
        .execute(
            "SELECT COUNT(*) FROM memory_versions WHERE memory_id = ? AND change = 'supersede' "
            "AND changed_by = 'evolution'",
            (memories.id_of(dated.key),),
        )
        .fetchone()[0]
    )
    if successor_gone:
        assert (ended.superseded_by, ended.valid_until, closes) == (None, None, 0)
    else:
        assert (ended.superseded_by, ended.valid_until, closes) == (
            successor.key,
            successor.created_at,
            1,
        )


@pytest.mark.parametrize(
    ("intensity", "stability"),
    [
        pytest.param(0.9, 10.0, id="vivid"),
        pytest.param(0.6, 5.0, id="charged"),
        pytest.param(0.5, 1.0, id="boundary-0.5"),
        pytest.param(0.0, 1.0, id="neutral"),
    ],
)
def test_initial_stability_follows_emotion_intensity(
    app: Omoide, persona: str, intensity: float, stability: float
) -> None:
    memory = create(
        app, persona, f"A memory with intensity {intensity}", emotion_intensity=intensity
    ).memory
    assert memory.stability == stability


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"content": ""}, "must not be empty", id="empty"),
        pytest.param({"content": "   \n"}, "must not be empty", id="whitespace"),
        pytest.param({"content": "x" * 50_001}, "50,000", id="too-long"),
        pytest.param(
            {"content": "ok", "tags": [f"t{i}" for i in range(21)]},
            "must have at most 20 items, got 21",
            id="too-many-tags",
        ),
        pytest.param(
            {"content": "ok", "tags": ["x" * 65]}, "at most 64 characters, got 65", id="long-tag"
        ),
        pytest.param({"content": "ok", "tags": "home"}, "list of strings", id="tags-not-list"),
        pytest.param({"content": "ok", "importance": 1.5}, "between 0 and 1", id="importance-high"),
        pytest.param({"content": "ok", "importance": -0.1}, "between 0 and 1", id="importance-low"),
        pytest.param({"content": "ok", "importance": "high"}, "number", id="importance-text"),
        pytest.param(
            {"content": "ok", "emotion_intensity": 2}, "between 0 and 1", id="intensity-high"
        ),
        pytest.param({"content": "ok", "valid_from": "yesterday-ish"}, "ISO-8601", id="bad-date"),
        pytest.param(
            {"content": "ok", "valid_from": "2026-03-02", "valid_until": "2026-03-01"},
            "after valid_from",
            id="inverted-window",
        ),
        pytest.param({"content": "ok", "kind": "gossip"}, "unknown kind", id="bad-kind"),
    ],
)
def test_create_rejects_bad_input(app: Omoide, fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        app.memories.build_new(**fields)


def test_importance_is_immutable(app: Omoide, persona: str) -> None:
    memory = create(app, persona, "User lives in Tokyo", importance=0.4).memory
    with pytest.raises(Conflict, match="immutable"):
        app.memories.update(persona, memory.key, importance=0.9)
    same = app.memories.update(persona, memory.key, importance=0.4, tags=["home"])
    assert same.importance == 0.4
    assert same.tags == ("home",)


def test_update_window_against_the_stored_end_is_a_conflict(app: Omoide, persona: str) -> None:
    memory = create(app, persona, "User lives in Tokyo", valid_from="2026-01-01").memory
    with pytest.raises(Conflict, match="valid_until must be after valid_from"):
        app.memories.update(persona, memory.key, valid_until="2025-01-01")
    with pytest.raises(InvalidInput, match="valid_until must be after valid_from"):
        app.memories.update(persona, memory.key, valid_from="2026-02-01", valid_until="2026-01-15")
    assert app.memories.get(persona, memory.key, recall=False).valid_until is None


def test_update_writes_version_with_before_and_after(app: Omoide, persona: str) -> None:
    memory = create(app, persona, "User lives in Tokyo").memory
    app.memories.update(persona, memory.key, content="User lives in Kyoto")
    versions = app.memories.history(persona, memory.key)
    assert [v.change for v in versions] == ["create", "update"]
    assert versions[1].before["content"] == "User lives in Tokyo"
    assert versions[1].after["content"] == "User lives in Kyoto"
    hits = app.search.search(
        persona, app.search.build_request(persona, query="Kyoto", mode="keyword")
    ).results
    assert [h.id for h in hits] == [memory.key]


def test_update_can_clear_a_validity_bound_with_none(app: Omoide, persona: str) -> None:
    memory = create(app, persona, "User works at Acme", valid_until="2030-01-01").memory
    assert memory.valid_until is not None
    cleared = app.memories.update(persona, memory.key, valid_until=None)
    assert cleared.valid_until is None


def test_delete_is_a_tombstone_that_keeps_history(app: Omoide, persona: str) -> None:
    memory = create(app, persona, "User lives in Tokyo").memory
    deleted = app.memories.delete(persona, memory.key)
    assert deleted.status == "tombstoned"
    assert [v.change for v in app.memories.history(persona, memory.key)] == ["create", "delete"]
    assert app.memories.list_recent(persona) == []
    for mode in ("keyword", "semantic", "hybrid"):
        request = app.search.build_request(persona, query="Tokyo", mode=mode)
        assert app.search.search(persona, request).results == []
    with pytest.raises(Conflict, match="already deleted"):  # it exists: not a NotFound
        app.memories.delete(persona, memory.key)


def test_read_by_key_is_a_recall_at_most_once_per_hour(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    memory = create(app, persona, "User lives in Tokyo").memory
    first = app.memories.get(persona, memory.key)
    assert (first.access_count, first.stability) == (1, 1.5)
    clock.advance(minutes=30)
    again = app.memories.get(persona, memory.key)
    assert (again.access_count, again.stability) == (1, 1.5)
    clock.advance(minutes=31)
    later = app.memories.get(persona, memory.key)
    assert (later.access_count, later.stability) == (2, 2.25)
    assert later.last_accessed == clock.now()


def test_recall_caps_stability_at_365_days(app: Omoide, persona: str, clock: FixedClock) -> None:
    memory = create(app, persona, "A vivid memory", emotion_intensity=0.9).memory
    for _ in range(20):
        clock.advance(hours=2)
        memory = app.memories.get(persona, memory.key)
    assert memory.stability == 365.0


def test_strength_decays_with_time_since_access(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    memory = create(app, persona, "User lives in Tokyo", importance=0.8).memory
    assert memory.strength == pytest.approx(0.8)
    clock.advance(days=1)
    later = app.memories.get(persona, memory.key, recall=False)
    assert later.strength == pytest.approx(0.8 * 20**-0.5)


def test_decay_job_recomputes_stored_strength(app: Omoide, persona: str, clock: FixedClock) -> None:
    memory = create(app, persona, "User lives in Tokyo", importance=0.8).memory
    clock.advance(days=1)
    assert app.store.decay_all(now=clock.now()) == 1
    row = (
        app.store.db.conn()
        .execute(
            "SELECT s.strength, s.last_decay_at FROM memory_strength s JOIN memories m "
            "ON m.id = s.memory_id WHERE m.key = ?",
            (memory.key,),
        )
        .fetchone()
    )
    assert row[0] == pytest.approx(0.8 * 20**-0.5)
    assert row[1].startswith(clock.now().isoformat()[:19])


def test_unknown_persona_and_key_are_not_found(app: Omoide, persona: str) -> None:
    with pytest.raises(NotFound, match="unknown persona 'ghost'"):
        app.memories.list_recent("ghost")
    with pytest.raises(NotFound, match="no memory 'mem_x'"):
        app.memories.get(persona, "mem_x")


def test_persona_handles_cannot_read_each_other(app: Omoide, persona: str) -> None:
    app.auth.create_persona("kai")
    memory = create(app, persona, "Rin's secret: the cake is in the fridge").memory
    with pytest.raises(NotFound):
        app.memories.get("kai", memory.key)
    request = app.search.build_request("kai", query="cake fridge secret")
    assert app.search.search("kai", request).results == []
    assert create(app, "kai", "Rin's secret: the cake is in the fridge").status == "created"


def test_memory_added_by_another_process_is_searchable(
    app: Omoide, persona: str, make_app: Any
) -> None:
    assert app.search.search(persona, app.search.build_request(persona, query="x")).results == []
    other = make_app()  # a second process on the same file (e.g. the CLI next to the server)
    create(other, persona, "Haru prefers green tea in the morning")
    request = app.search.build_request(persona, query="green tea", mode="semantic")
    assert [h.content for h in app.search.search(persona, request).results] == [
        "Haru prefers green tea in the morning"
    ]


class _MovesContradictPlaces:
    """The 3-op judge's verdicts, scripted: a move contradicts every place the user lives."""

    def classify(self, new: str, candidates: list[Candidate], **_: Any) -> list[Verdict]:
        return [
            Verdict(
                c.key,
                Relation.CONTRADICTORY if "lives in" in c.content else Relation.INDEPENDENT,
                0.9,
                "a move",
            )
            for c in candidates
        ]


def test_evolution_splits_only_the_memory_it_closes(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """Session 30: the unchanged part was computed (its parts embedded) for every candidate
    judged CONTRADICTORY, though only the nearest closes. Now for that one alone; the other
    compound memory is not offered the store (closing it would need its part), so it stays."""
    app.settings_service.update(persona, {"classify_band_low": 0})
    olds = [
        create(app, persona, text).memory
        for text in (
            "The user lives in Osaka and works as a nurse.",
            "The user lives in Osaka and keeps two cats.",
        )
    ]
    app.queue.run_ready(persona)
    app.evolution.classifier_for = lambda cfg: _MovesContradictPlaces()  # type: ignore[method-assign]
    asked: list[list[str]] = []
    split = app.evolution._remainders

    def spied(memory: Any, vector: Any, closed: list[Any], cfg: Any) -> Any:
        asked.append([m.key for m in closed])
        return split(memory, vector, closed, cfg)

    app.evolution._remainders = spied  # type: ignore[method-assign]
    clock.advance(seconds=1)
    new = create(app, persona, "The user moved to Kobe.").memory
    app.queue.run_ready(persona)
    after = {m.key: app.memories.get(persona, m.key, recall=False) for m in olds}
    closed = [k for k, m in after.items() if m.superseded_by == new.key]
    assert len(closed) == 1 and asked == [closed], (asked, closed)
    remainders = [
        m for m in app.memories.list_recent(persona, limit=20) if m.metadata.get("remainder_of")
    ]
    assert [m.metadata["remainder_of"] for m in remainders] == closed
    assert sum(m.superseded_by is None for m in after.values()) == 1  # the other stays


class _Scripted:
    """One scripted verdict for every candidate; the candidates asked about are kept."""

    def __init__(self, relation: Relation, confidence: float) -> None:
        self.relation, self.confidence = relation, confidence
        self.asked: list[str] = []

    def classify(self, new: str, candidates: list[Candidate], **_: Any) -> list[Verdict]:
        self.asked += [c.key for c in candidates]
        return [Verdict(c.key, self.relation, self.confidence, "scripted") for c in candidates]


@pytest.mark.parametrize(
    ("relation", "confidence", "sure", "closed", "extended"),
    [
        (Relation.CONTRADICTORY, 0.99, None, True, False),
        (Relation.CONTRADICTORY, 0.9, None, False, False),  # under the band the judge must be surer
        (Relation.EXTENDABLE, 0.99, None, False, False),  # and nothing is extended from there
        (Relation.CONTRADICTORY, 0.9, 0.85, True, False),  # the persona's own bar (session 32)
        (Relation.CONTRADICTORY, 0.99, 1.0, False, False),
    ],
)
def test_the_nearest_memory_under_the_band_closes_only_on_a_sure_verdict(
    app: Omoide,
    persona: str,
    clock: FixedClock,
    relation: Relation,
    confidence: float,
    sure: float | None,
    closed: bool,
    extended: bool,
) -> None:
    """Session 31: when no memory reaches the band, the nearest from classify_nearest_low up
    is judged, and closed only on a CONTRADICTORY of classify_nearest_confidence (0.97 by
    default; a setting since session 32)."""
    app.settings_service.update(
        persona,
        {
            "classify_band_low": 1,
            "classify_nearest_low": 0,
            **({} if sure is None else {"classify_nearest_confidence": sure}),
        },
    )
    old = create(app, persona, "Mia avoids nuts because of an allergy.", tags=["food"]).memory
    create(app, persona, "Mia's brother keeps bees in Kent.")
    app.queue.run_ready(persona)
    scripted = _Scripted(relation, confidence)
    app.evolution.classifier_for = lambda cfg: scripted  # type: ignore[method-assign]
    clock.advance(seconds=1)
    new = create(
        app,
        persona,
        "Mia's allergy test came back clear and she bakes with almonds.",
        tags=["health"],
    ).memory
    app.queue.run_ready(persona)
    assert len(scripted.asked) == 1  # the nearest alone
    nearest = app.memories.get(persona, scripted.asked[0], recall=False)
    assert (nearest.superseded_by == new.key) is closed
    assert ("health" in nearest.tags) is extended
    if scripted.asked[0] == old.key:
        assert nearest.tags[:1] == ("food",)


def test_a_memory_in_the_band_keeps_the_nearest_under_it_from_being_judged(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    app.settings_service.update(persona, {"classify_band_low": 0, "classify_nearest_low": 0})
    create(app, persona, "Mia avoids nuts because of an allergy.")
    app.queue.run_ready(persona)
    scripted = _Scripted(Relation.CONTRADICTORY, 0.9)
    app.evolution.classifier_for = lambda cfg: scripted  # type: ignore[method-assign]
    clock.advance(seconds=1)
    new = create(app, persona, "Mia eats nuts again.").memory
    app.queue.run_ready(persona)
    (asked,) = scripted.asked
    # in the band the judge's own verdict closes, whatever its confidence
    assert app.memories.get(persona, asked, recall=False).superseded_by == new.key


@pytest.mark.parametrize(("judged", "closes"), [(None, 2), ([], 0), ("nearest", 1)])
def test_apply_evolution_reads_judged_one_way(
    app: Omoide, persona: str, clock: FixedClock, judged: Any, closes: int
) -> None:
    """Session 30: ``judged=()`` meant both "nothing was judged" and "close all of these".
    None (a direct caller) closes every memory of ``supersedes`` still open; a sequence is the
    judge's order, of which only the nearest still open closes (none when it is empty)."""
    olds = [
        create(app, persona, text).memory
        for text in ("The user lives in Osaka.", "The user lives in Nara.")
    ]
    new = create(app, persona, "The user moved to Kobe.").memory
    memories = app.store.memories(persona)
    ids = [memories.id_of(m.key) for m in olds]
    order = ids if judged == "nearest" else judged
    assert memories.apply_evolution(
        new.key,
        now=clock.now(),
        neighbour_ids=[],
        link_increment=0.2,
        link_cap=1.0,
        extends=[],
        supersedes=[(i, clock.now()) for i in ids],
        judged=order,
    )
    closed = [
        m.key
        for m in olds
        if app.memories.get(persona, m.key, recall=False).superseded_by == new.key
    ]
    assert closed == [m.key for m in olds][:closes]

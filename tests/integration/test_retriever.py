"""The hybrid retriever and search plans against a real store (hash embedder): one skeleton for
notes and turns, and each plan knob changing what the search service returns."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.engine.search_plan import DEFAULT_PLAN, EpisodeRule, preset
from omoide.errors import InvalidInput
from omoide.model import SearchMode
from omoide.service.retrieval import HybridRetriever, NoteTier, TurnTier
from omoide.wiring import Omoide

GARDEN = [
    ("Rau", "I planted tomatoes and basil in my garden this weekend."),
    ("Haru", "Lovely! Which tomato variety did you pick?"),
    ("Rau", "I chose San Marzano tomatoes because I want to make pasta sauce."),
    ("Haru", "Great choice, they are perfect for sauce."),
    ("Rau", "My neighbour gave me compost from her chickens."),
    ("Haru", "Chicken compost is rich, use it sparingly."),
]


def add(app: Omoide, persona: str, content: str) -> str:
    outcome = app.memories.create(persona, app.memories.build_new(content=content))
    return outcome.memory.key


def record(app: Omoide, persona: str, clock: FixedClock, consolidate: bool = False) -> None:
    app.settings_service.update(persona, {"episode_consolidation_enabled": consolidate})
    session, _ = app.sessions.open(persona, session_id="s1")
    app.sessions.record(
        persona,
        session.session_id,
        [
            {
                "speaker": who,
                "role": "user",
                "content": text,
                "external_id": f"D{i}",
                "timestamp": (clock.now() + timedelta(minutes=i)).isoformat(),
            }
            for i, (who, text) in enumerate(GARDEN, start=1)
        ],
    )
    app.sessions.end(persona, session.session_id)
    app.runner.run_until_idle()


def search(app: Omoide, persona: str, query: str, plan: Any = None, **params: Any) -> list[Any]:
    request = app.search.build_request(persona, query=query, **params)
    return app.search.search(persona, request, recall=False, plan=plan).results


@pytest.fixture
def notes(app: Omoide, persona: str) -> dict[str, str]:
    texts = {
        "tokyo": "User lives in Tokyo near the river",
        "tea": "Haru prefers green tea in the morning",
        "river": "The river walk in spring is the user's favourite",
        "osaka": "ユーザーは大阪に住んでいる",
    }
    return {name: add(app, persona, text) for name, text in texts.items()}


def test_one_retriever_serves_notes_and_turns(
    app: Omoide, persona: str, clock: FixedClock, notes: dict[str, str]
) -> None:
    record(app, persona, clock)
    retriever = HybridRetriever(app.embedder)
    memories = app.store.memories(persona)
    found = retriever.retrieve(
        NoteTier(memories),
        "Tokyo river",
        plan=DEFAULT_PLAN,
        pool=50,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    assert found.ranked[0].id == memories.id_of(notes["tokyo"])
    assert found.query_vector.shape == (app.embedder.dim,)
    vector = app.embedder.embed_query("San Marzano tomatoes")
    turns = retriever.retrieve(
        TurnTier(app.store.sessions(persona)),
        "San Marzano tomatoes",
        plan=DEFAULT_PLAN,
        pool=60,
        keyword_weight=0.4,
        semantic_weight=0.6,
        query_vector=vector,
    )
    events = app.store.sessions(persona).events_by_ids([s.id for s in turns.ranked])
    assert events[turns.ranked[0].id].external_id == "D3"
    assert turns.query_vector is vector  # a given vector is not embedded again


def test_modes_filters_and_pool_bound_the_candidates(
    app: Omoide, persona: str, notes: dict[str, str]
) -> None:
    retriever = HybridRetriever(app.embedder)
    memories = app.store.memories(persona)
    tier = NoteTier(memories)
    keyword = retriever.retrieve(
        tier,
        "river",
        plan=DEFAULT_PLAN,
        pool=50,
        mode=SearchMode.KEYWORD,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    assert {s.id for s in keyword.ranked} == {memories.id_of(notes[n]) for n in ("tokyo", "river")}
    only = np.array([memories.id_of(notes["river"])], dtype=np.int64)
    allowed = retriever.retrieve(
        tier,
        "river",
        plan=DEFAULT_PLAN,
        pool=50,
        allowed=only,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    assert [s.id for s in allowed.ranked] == [int(only[0])]
    one = retriever.retrieve(
        tier,
        "river",
        plan=DEFAULT_PLAN,
        pool=1,
        mode=SearchMode.SEMANTIC,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    assert len(one.ranked) == 1


def test_zero_weights_are_a_user_error_unless_the_plan_sets_weights(
    app: Omoide, persona: str, notes: dict[str, str]
) -> None:
    retriever = HybridRetriever(app.embedder)
    tier = NoteTier(app.store.memories(persona))
    with pytest.raises(InvalidInput, match="cannot both be 0"):
        retriever.retrieve(
            tier, "river", plan=DEFAULT_PLAN, pool=50, keyword_weight=0, semantic_weight=0
        )
    plan = replace(DEFAULT_PLAN, keyword_weight=1.0, semantic_weight=0.0)
    found = retriever.retrieve(
        tier, "river", plan=plan, pool=50, keyword_weight=0, semantic_weight=0
    )
    assert found.ranked


def test_the_default_plan_is_what_a_search_without_a_plan_runs(
    app: Omoide, persona: str, clock: FixedClock, notes: dict[str, str]
) -> None:
    record(app, persona, clock)
    for query in ("Tokyo river", "tomatoes sauce", "大阪"):
        assert search(app, persona, query) == search(app, persona, query, plan=DEFAULT_PLAN)


def test_the_episode_rule_decides_when_excerpts_join_the_notes(
    app: Omoide, persona: str, clock: FixedClock, notes: dict[str, str]
) -> None:
    record(app, persona, clock)
    kinds = lambda plan, **p: {h.type for h in search(app, persona, "tomatoes", plan, **p)}  # noqa: E731
    assert "episode" in kinds(None)
    assert kinds(preset("notes_only")) == {"note"}
    assert "episode" in kinds(preset("notes_only"), include_episodes=True)  # the request wins
    app.settings_service.update(persona, {"episode_search_enabled": False})
    assert "episode" not in kinds(None)
    assert "episode" in kinds(preset("episodes_always"))
    assert "episode" not in kinds(preset("episodes_always"), include_episodes=False)


def test_the_fallback_rule_adds_excerpts_only_when_relevant_notes_are_few(
    app: Omoide, persona: str, clock: FixedClock, notes: dict[str, str]
) -> None:
    record(app, persona, clock)
    few = replace(
        DEFAULT_PLAN, episodes=EpisodeRule.FALLBACK, fallback_notes=1, fallback_similarity=1.0
    )  # no note is ever that similar
    assert "episode" in {h.type for h in search(app, persona, "tomatoes", few)}
    enough = replace(few, fallback_similarity=0.0)  # every note counts
    assert {h.type for h in search(app, persona, "tomatoes", enough)} == {"note"}


def test_the_excerpt_window_follows_the_plan(app: Omoide, persona: str, clock: FixedClock) -> None:
    record(app, persona, clock)
    default = search(app, persona, "San Marzano tomatoes", top_k=1)[0]
    assert [s.external_id for s in default.sources] == ["D2", "D3", "D4"]
    single = search(app, persona, "San Marzano tomatoes", preset("single_turns"), top_k=1)[0]
    assert [s.external_id for s in single.sources] == ["D3"]
    assert len(single.content.split("\n")) == 2  # the date header and the one turn


def test_the_episode_tool_runs_the_plan_too(app: Omoide, persona: str, clock: FixedClock) -> None:
    record(app, persona, clock)
    request = app.search.build_request(persona, query="San Marzano tomatoes", top_k=1)
    hit = app.search.search_episodes(persona, request, plan=preset("single_turns")).results[0]
    assert [s.external_id for s in hit.sources] == ["D3"]


def test_a_turn_without_a_vector_yet_is_ranked_by_meaning_too(
    app: Omoide, persona: str, clock: FixedClock
) -> None:
    """A keyword hit among turns the job has not embedded yet is embedded by the search, so
    its fused score has a semantic side like every other turn's."""
    record(app, persona, clock)
    session, _ = app.sessions.open(persona, session_id="s2")
    app.sessions.record(
        persona,
        session.session_id,
        [
            {
                "speaker": "Rau",
                "role": "user",
                "content": "The tomatoes need more compost.",
                "external_id": "fresh",
            }
        ],
    )  # no job run: not embedded
    sessions = app.store.sessions(persona)
    fresh = sessions.events_between("s2", 0, 5)[0]
    assert sessions.event_vectors([fresh.id]) == {}
    tier = TurnTier(sessions)
    retriever = HybridRetriever(app.embedder)
    found = retriever.retrieve(
        tier,
        "tomatoes compost",
        plan=DEFAULT_PLAN,
        pool=10,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    assert fresh.id in {s.id for s in found.semantic}
    assert fresh.id == found.ranked[0].id
    keyword_only = retriever.retrieve(
        tier,
        "tomatoes compost",
        plan=DEFAULT_PLAN,
        pool=10,
        keyword_weight=0.4,
        semantic_weight=0.6,
        mode=SearchMode.KEYWORD,
    )
    assert fresh.id in {s.id for s in keyword_only.ranked}
    assert sessions.event_vectors([fresh.id]) == {}  # the search stores nothing


def test_the_shared_scale_plan_puts_notes_and_turns_on_one_semantic_scale(
    app: Omoide, persona: str, clock: FixedClock, notes: dict[str, str]
) -> None:
    record(app, persona, clock)
    plan = preset("shared_scale")
    query = "What does Haru drink?"
    request = app.search.build_request(persona, query=query)
    found = app.search.retriever.retrieve(
        NoteTier(app.store.memories(persona)),
        query,
        plan=plan,
        pool=50,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    turns = app.search.episodes.semantic_scores(
        persona, query, found.query_vector, filters=request.filters, plan=plan
    )
    assert turns and found.semantic
    default = search(app, persona, query)
    shared = search(app, persona, query, plan)
    assert {h.id for h in shared} == {h.id for h in default}  # the same hits, other scores
    best = max([*turns, *(s.score for s in found.semantic)])
    tier_best = {"note": max(s.score for s in found.semantic), "episode": max(turns)}
    for kind in ("note", "episode"):  # only the tier holding the overall best reaches 0.6
        top = max(h.score for h in default if h.type == kind)
        assert top >= 0.6 * 0.9 - 1e-9  # each tier's best on its own scale (strength aside)
        if tier_best[kind] < best:
            assert max(h.score for h in shared if h.type == kind) < top


class _Recording:
    """The app's embedder, recording the texts it embeds as queries."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.queries: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self.inner.embed_query(text)


def named_notes(app: Omoide, persona: str) -> list[str]:
    """Twelve notes naming the user (Mika), eight that do not (a share of 0.6)."""
    named = [
        f"Mika {what}"
        for what in (
            "walks to the bakery",
            "keeps bees",
            "plays the cello",
            "reads before bed",
            "rides an old bicycle",
            "grows mint on the balcony",
            "collects maps",
            "swims on Sundays",
            "paints in the evening",
            "writes letters by hand",
            "bakes rye bread",
            "repairs radios",
        )
    ]
    others = [
        "The sister lives in Lisbon",
        "The cat is called Pip",
        "Rent went up in March",
        "The car needs new tyres",
        "The neighbour plays drums",
        "Tea tastes of smoke",
        "The office moved upstairs",
        "The garden has three roses",
    ]
    return [add(app, persona, text) for text in named + others]


ANY_MODEL = preset("common_words_any_model")  # the default's rule for the hash embedder too


def test_the_note_search_embeds_the_query_without_the_users_name(app: Omoide, persona: str) -> None:
    keys = named_notes(app, persona)
    recording = _Recording(app.embedder)
    retriever = HybridRetriever(recording)  # type: ignore[arg-type]
    memories = app.store.memories(persona)
    found = retriever.retrieve(
        NoteTier(memories),
        "Where does Mika's sister live?",
        plan=ANY_MODEL,
        pool=50,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    # the whole query's vector is kept (similarities shown, the conversation tier); the
    # note tier's vector search reads the query without the word most notes hold
    assert recording.queries == ["Where does Mika's sister live?", "Where does sister live?"]
    assert np.allclose(
        found.query_vector, app.embedder.embed_query("Where does Mika's sister live?")
    )
    assert found.ranked[0].id == memories.id_of(keys[12])  # "The sister lives in Lisbon"
    recording.queries.clear()
    for plan in (preset("whole_query_vector"), DEFAULT_PLAN):  # off; not for this embedder
        recording.queries.clear()
        retriever.retrieve(
            NoteTier(memories),
            "Where does Mika's sister live?",
            plan=plan,
            pool=50,
            keyword_weight=0.4,
            semantic_weight=0.6,
        )
        assert recording.queries == ["Where does Mika's sister live?"]


@pytest.mark.parametrize("query", ["Mika", "Mika's?", "ミカの妹はどこ？", "Where is Lisbon?"])
def test_a_query_keeps_its_words_when_nothing_else_would_be_left_or_none_is_common(
    app: Omoide, persona: str, query: str
) -> None:
    named_notes(app, persona)
    recording = _Recording(app.embedder)
    HybridRetriever(recording).retrieve(  # type: ignore[arg-type]
        NoteTier(app.store.memories(persona)),
        query,
        plan=ANY_MODEL,
        pool=50,
        keyword_weight=0.4,
        semantic_weight=0.6,
    )
    assert recording.queries == [query]


def test_common_words_are_counted_in_the_persona_among_its_active_notes(
    app: Omoide, persona: str
) -> None:
    keys = named_notes(app, persona)
    memories = app.store.memories(persona)
    assert memories.common_words(["mika", "sister"], share=0.2, least=10) == {"mika"}
    assert memories.common_words(["mika"], share=0.7, least=10) == frozenset()  # 12 of 20
    assert memories.common_words(["mika"], share=0.6, least=1) == {"mika"}  # 12 ≥ 12
    assert memories.common_words(["mika"], share=0.61, least=1) == frozenset()  # 12 < 12.2
    assert memories.common_words(["mika"], share=0.2, least=13) == frozenset()  # too few
    assert memories.common_words(["mika"], share=0.0, least=1) == frozenset()  # off
    app.auth.create_persona("other")  # another persona's notes count for nothing
    for i in range(30):
        add(app, "other", f"Sister number {i} writes poems")
    assert memories.common_words(["sister"], share=0.2, least=1) == frozenset()
    for key in keys[:3]:  # a deleted note no longer holds its words: 9 of 17
        app.memories.delete(persona, key)
    assert memories.common_words(["mika"], share=0.2, least=10) == frozenset()
    assert memories.common_words(["mika"], share=0.5, least=9) == {"mika"}


def _mika_is_common(app: Omoide, persona: str) -> bool:
    """Whether "mika" is common at a share of 0.6 (12 of the 20 named notes: just), asked as a
    search asks, through the persona's handle."""
    return app.store.memories(persona).common_words(["mika"], share=0.6, least=1) == {"mika"}


def _held_by_statements(seen: list[str]) -> int:
    return sum("WITH bar AS" in statement for statement in seen)


def test_common_words_ask_the_database_once_per_word_until_the_notes_change(
    app: Omoide, persona: str
) -> None:
    named_notes(app, persona)
    memories = app.store.memories(persona)
    with app.store.db.trace() as seen:
        assert memories.common_words(["mika", "sister"], share=0.2, least=10) == {"mika"}
        assert memories.common_words(["sister", "mika"], share=0.2, least=10) == {"mika"}
        assert memories.common_words(["mika", "bees"], share=0.2, least=10) == {"mika"}
    assert _held_by_statements(seen) == 2  # the second call asks nothing; the third, "bees"
    with app.store.db.trace() as seen:  # another bar is another question
        assert memories.common_words(["mika"], share=0.7, least=10) == frozenset()
    assert _held_by_statements(seen) == 1
    add(app, persona, "The sister lives in Lisbon now")
    with app.store.db.trace() as seen:
        assert memories.common_words(["mika"], share=0.2, least=10) == {"mika"}
    assert _held_by_statements(seen) == 1
    with app.store.db.trace() as seen:  # emptied on purpose (a benchmark's uncached cost)
        memories.forget_common_words()
        assert memories.common_words(["mika"], share=0.2, least=10) == {"mika"}
        assert memories.common_words(["mika"], share=0.2, least=10) == {"mika"}
    assert _held_by_statements(seen) == 1


@pytest.mark.parametrize("write", ["add", "update", "words-only", "delete", "purge", "import"])
def test_common_words_follow_every_write_to_the_persona_notes(
    app: Omoide, persona: str, write: str
) -> None:
    keys = named_notes(app, persona)
    assert _mika_is_common(app, persona)
    if write == "add":  # 12 of 21 < 0.6
        add(app, persona, "The car was washed on Friday")
    elif write == "update":  # 11 of 20
        app.memories.update(persona, keys[0], content="A baker walks to the bakery")
    elif write == "words-only":  # the store's own update, new words with no new vector
        app.store.memories(persona).update(
            keys[0],
            {"content": "A baker walks to the bakery"},
            now=app.clock.now(),
            changed_by="user",
        )
    elif write == "delete":  # 11 of 19
        app.memories.delete(persona, keys[0])
    elif write == "purge":
        app.memories.purge(persona, keys[0])
    else:  # another persona's notes, exported and imported here: 12 of 22
        app.auth.create_persona("other")
        add(app, "other", "The cat sleeps on the piano")
        add(app, "other", "The kettle whistles at dawn")
        lines = list(app.transfer.export("other"))
        app.forget.delete_persona("other")
        app.transfer.import_lines(persona, lambda: iter(lines), merge=True)
    assert not _mika_is_common(app, persona)


def test_common_words_see_a_note_another_process_wrote(
    make_app: Any, app: Omoide, persona: str
) -> None:
    named_notes(app, persona)
    assert _mika_is_common(app, persona)
    add(make_app(), persona, "The car was washed on Friday")  # a second app: the CLI, say
    assert not _mika_is_common(app, persona)


def test_the_searched_vector_mixes_the_shortened_query_with_the_whole_one(
    app: Omoide, persona: str
) -> None:
    named_notes(app, persona)
    retriever = HybridRetriever(app.embedder)
    tier = NoteTier(app.store.memories(persona))
    whole = app.embedder.embed_query("Where does Mika's sister live?")
    short = app.embedder.embed_query("Where does sister live?")
    for mix in (1.0, 0.7, 0.0):
        plan = replace(ANY_MODEL, common_word_mix=mix)
        searched = retriever._semantic_vector(  # the vector itself is the point
            tier, "Where does Mika's sister live?", whole, plan
        )
        expected = mix * short + (1 - mix) * whole
        assert np.allclose(searched, expected / np.linalg.norm(expected), atol=1e-6)


def test_the_best_note_in_the_other_script_is_shown_second(app: Omoide, persona: str) -> None:
    english = [
        "Green tea in the morning",
        "Black tea with milk after lunch",
        "Tea from Shizuoka is the favourite",
        "The tea shop opens at nine",
        "Tea leaves go in the compost",
        "A tea cup was a gift",
    ]
    keys = [add(app, persona, text) for text in english]
    # two notes in the other script: the persona writes in both
    japanese = {add(app, persona, "ユーザーは毎朝お茶を飲む"), add(app, persona, "猫の名前はタマ")}
    everyone = replace(
        preset("other_script_slot_any_model"), other_script_floor=0.0, other_script_within=50
    )  # the hash embedder, any distance
    off = [h.id for h in search(app, persona, "tea", plan=preset("no_other_script_slot"))]
    best = next(key for key in off if key in japanese)
    assert off.index(best) >= 2  # the English keyword matches rank above it
    on = [h.id for h in search(app, persona, "tea", plan=everyone)]
    assert on[0] == off[0] and on[1] == best
    assert [k for k in on if k != best] == [k for k in off if k != best]
    # the default gives the slot on e5 only; keyword and semantic modes never move a note
    assert [h.id for h in search(app, persona, "tea")] == off
    for mode in (SearchMode.KEYWORD, SearchMode.SEMANTIC):
        assert [h.id for h in search(app, persona, "tea", plan=everyone, mode=mode)] == [
            h.id
            for h in search(app, persona, "tea", plan=preset("no_other_script_slot"), mode=mode)
        ]
    assert set(keys) <= set(on)


def test_a_note_alone_in_its_script_is_not_lifted(app: Omoide, persona: str) -> None:
    for text in (
        "Green tea in the morning",
        "Black tea with milk after lunch",
        "Tea from Shizuoka is the favourite",
        "The tea shop opens at nine",
        "Tea leaves go in the compost",
        "A tea cup was a gift",
    ):
        add(app, persona, text)
    japanese = add(app, persona, "ユーザーは毎朝お茶を飲む")
    everyone = replace(
        preset("other_script_slot_any_model"), other_script_floor=0.0, other_script_within=50
    )
    off = [h.id for h in search(app, persona, "tea", plan=preset("no_other_script_slot"))]
    assert off.index(japanese) >= 2
    assert [h.id for h in search(app, persona, "tea", plan=everyone)] == off  # one: alone
    lone = replace(everyone, other_script_least=1)
    assert [h.id for h in search(app, persona, "tea", plan=lone)][1] == japanese


class _Opinion:
    """A companion that leaves the fused order alone and gives fixed cosines by text."""

    def __init__(self) -> None:
        self.by_text: dict[str, float] = {}

    def rescore(
        self, query: str, ranked: list[Any], texts: Any, *, weight: float, pool: int
    ) -> list[Any]:
        return ranked

    def cosines(self, query: str, texts: dict[int, str]) -> dict[int, float]:
        return {row_id: self.by_text.get(text, 0.0) for row_id, text in texts.items()}


def test_the_companion_can_veto_the_move(app: Omoide, persona: str) -> None:
    english = [
        "Green tea in the morning",
        "Black tea with milk after lunch",
        "Tea from Shizuoka is the favourite",
        "The tea shop opens at nine",
        "Tea leaves go in the compost",
        "A tea cup was a gift",
    ]
    for text in english:
        add(app, persona, text)
    japanese = {add(app, persona, "ユーザーは毎朝お茶を飲む"), add(app, persona, "猫の名前はタマ")}
    opinion = _Opinion()
    app.search.companion = opinion  # type: ignore[assignment]
    everyone = replace(
        preset("other_script_slot_any_model"), other_script_floor=0.0, other_script_within=50
    )
    off = search(app, persona, "tea", plan=preset("no_other_script_slot"))
    best = next(hit for hit in off if hit.id in japanese)
    displaced = off[1]
    opinion.by_text = {displaced.content: 0.6, best.content: 0.45}  # 0.15 below: vetoed
    assert [h.id for h in search(app, persona, "tea", plan=everyone)] == [h.id for h in off]
    opinion.by_text = {displaced.content: 0.6, best.content: 0.55}  # within 0.1: moved
    assert search(app, persona, "tea", plan=everyone)[1].id == best.id
    opinion.by_text = {displaced.content: 0.6, best.content: 0.45}
    unvetoed = replace(everyone, other_script_margin=None)
    assert search(app, persona, "tea", plan=unvetoed)[1].id == best.id

"""Search against a real store: modes, filters before the top-k cut, supersession, strength."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from omoide.clock import FixedClock
from omoide.embed.hashing import HashEmbedder
from omoide.engine.errors import DateRangeError
from omoide.errors import InvalidInput
from omoide.service.validate import NON_BLANK_RULE
from omoide.wiring import Omoide


def add(app: Omoide, persona: str, content: str, **fields: Any) -> str:
    outcome = app.memories.create(persona, app.memories.build_new(content=content, **fields))
    assert outcome.status == "created", content
    return outcome.memory.key


def keys(app: Omoide, persona: str, query: str, **params: Any) -> list[str]:
    request = app.search.build_request(persona, query=query, **params)
    return [h.id for h in app.search.search(persona, request, recall=False).results]


@pytest.mark.parametrize("mode", ["hybrid", "semantic", "keyword"])
def test_search_finds_the_matching_memory_in_every_mode(
    app: Omoide, persona: str, mode: str
) -> None:
    tokyo = add(app, persona, "User lives in Tokyo near the river")
    add(app, persona, "Haru prefers green tea in the morning")
    assert keys(app, persona, "Tokyo river", mode=mode)[0] == tokyo


def test_japanese_short_terms_match_through_instr(app: Omoide, persona: str) -> None:
    osaka = add(app, persona, "ユーザーは大阪に住んでいる")
    add(app, persona, "ユーザーは猫が好き")
    assert keys(app, persona, "大阪", mode="keyword") == [osaka]


def test_search_applies_tags_before_top_k(app: Omoide, persona: str) -> None:
    origins = [
        "Kenya",
        "Brazil",
        "Ethiopia",
        "Colombia",
        "Sumatra",
        "Guatemala",
        "Yemen",
        "Panama",
        "Rwanda",
        "Peru",
        "Honduras",
        "Jamaica",
    ]
    for origin in origins:
        add(app, persona, f"Espresso beans from {origin} taste of coffee and {origin.lower()}")
    tagged = add(app, persona, "Coffee is brewed with a pour-over at home", tags=["home", "a"])
    add(app, persona, "Coffee at the office is terrible", tags=["home"])
    assert keys(app, persona, "coffee espresso beans", top_k=1, tags=["home", "a"]) == [tagged]


def test_every_tag_must_match(app: Omoide, persona: str) -> None:
    both = add(app, persona, "Trip to Kyoto in spring", tags=["travel", "family"])
    add(app, persona, "Trip to Osaka in summer", tags=["travel"])
    assert keys(app, persona, "trip", tags=["travel", "family"]) == [both]


def test_date_range_filters_on_creation_time(app: Omoide, persona: str, clock: FixedClock) -> None:
    old = add(app, persona, "User visited Kyoto for the autumn leaves")
    clock.advance(days=10)
    new = add(app, persona, "User visited Kyoto again for a tea ceremony")
    assert keys(app, persona, "Kyoto", date_range="today") == [new]
    assert keys(app, persona, "Kyoto", date_range="10日前") == [old]
    assert set(keys(app, persona, "Kyoto", date_range="last 30 days")) == {old, new}


def test_unrecognised_date_range_is_rejected_with_the_accepted_forms(
    app: Omoide, persona: str
) -> None:
    with pytest.raises(InvalidInput, match="accepted forms: today") as caught:
        app.search.build_request(persona, query="x", date_range="sometime soon")
    assert caught.value.fields == {"field": "date_range"}
    assert isinstance(caught.value.__cause__, DateRangeError)  # the engine's own, mapped here


def test_min_importance_and_kind_filters(app: Omoide, persona: str) -> None:
    low = add(app, persona, "User likes jazz a little", importance=0.2, kind="preference")
    high = add(app, persona, "User loves jazz piano trios", importance=0.9, kind="preference")
    fact = add(app, persona, "User went to a jazz bar on Friday", importance=0.9, kind="event")
    assert keys(app, persona, "jazz", min_importance=0.5, kind="preference") == [high]
    assert low not in keys(app, persona, "jazz", min_importance=0.5)
    assert fact in keys(app, persona, "jazz", kind="event")


def test_valid_at_uses_spec_semantics(app: Omoide, persona: str, clock: FixedClock) -> None:
    t0 = clock.now()
    past = add(
        app,
        persona,
        "User worked at Acme",
        valid_from=t0 - timedelta(days=400),
        valid_until=t0 - timedelta(days=30),
    )
    current = add(app, persona, "User works at Globex", valid_from=t0 - timedelta(days=30))
    open_ended = add(app, persona, "User works remotely from home")
    assert set(keys(app, persona, "works", valid_at="now")) == {current, open_ended}
    at_past = (t0 - timedelta(days=100)).isoformat()
    assert set(keys(app, persona, "works", valid_at=at_past)) == {past, open_ended}
    boundary = (t0 - timedelta(days=30)).isoformat()  # valid_until is exclusive
    assert past not in keys(app, persona, "works", valid_at=boundary)
    assert set(keys(app, persona, "works")) == {past, current, open_ended}


def test_importance_weight_ranks_strong_memories_higher(app: Omoide, persona: str) -> None:
    for filler in (
        "Haru drinks green tea",
        "User jogs on Sundays",
        "User's cat is named Miso",
        "User colours her hair sometimes",
        "The favourite cafe closed",
    ):
        add(app, persona, filler, importance=0.5)
    weak = add(app, persona, "Favourite colour: navy", importance=0.1)
    strong = add(app, persona, "Favourite colour: teal", importance=1.0)
    assert keys(app, persona, "favourite colour", importance_weight=0.0)[:2] in (
        [weak, strong],
        [strong, weak],
    )
    assert keys(app, persona, "favourite colour", importance_weight=1.0)[0] == strong
    assert weak in keys(app, persona, "favourite colour", importance_weight=1.0)


def test_results_carry_raw_cosine_similarity_and_score(app: Omoide, persona: str) -> None:
    add(app, persona, "User lives in Tokyo")
    request = app.search.build_request(persona, query="User lives in Tokyo")
    hit = app.search.search(persona, request).results[0]
    assert hit.similarity == pytest.approx(1.0, abs=1e-5)
    assert hit.score > 0


def test_search_is_a_recall(app: Omoide, persona: str) -> None:
    key = add(app, persona, "User lives in Tokyo")
    app.search.search(persona, app.search.build_request(persona, query="Tokyo"))
    memory = app.memories.get(persona, key, recall=False)
    assert (memory.access_count, memory.stability) == (1, 1.5)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        pytest.param({"query": ""}, f"query {NON_BLANK_RULE}", id="empty-query"),
        pytest.param(
            {"query": "x" * 2001}, "q must be at most 2,000 characters, got 2,001", id="long-query"
        ),
        pytest.param({"query": "x", "top_k": 0}, "top_k", id="top-k-zero"),
        pytest.param({"query": "x", "top_k": 101}, "top_k", id="top-k-large"),
        pytest.param({"query": "x", "mode": "fuzzy"}, "mode must be", id="bad-mode"),
        pytest.param({"query": "x", "min_importance": 2}, "between 0 and 1", id="bad-min"),
        pytest.param({"query": "x", "valid_at": "soon"}, "ISO-8601", id="bad-valid-at"),
        pytest.param({"query": "x", "kind": "gossip"}, "unknown kind", id="bad-kind"),
    ],
)
def test_search_rejects_bad_parameters(
    app: Omoide, persona: str, params: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        app.search.build_request(persona, **params)


class _CountingQueries(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return super().embed_query(text)


def test_a_query_searched_again_is_not_embedded_again(make_app: Any) -> None:
    """The server's vector cache keeps each query's vector: the same query searched again
    (notes, the episode tier alone) embeds nothing and ranks exactly as the first time; a
    cache of size 0 embeds every time, with the same results."""

    def run(cache: str) -> tuple[list[list[tuple[str, float]]], list[str]]:  # (text, score)
        model = _CountingQueries()
        app = make_app({"OMOIDE_VECTOR_CACHE": cache}, embedder=model)
        app.auth.create_persona(f"p{cache}")
        for text in (
            "User lives in Tokyo near the river",
            "Haru prefers green tea",
            "ユーザーは大阪に住んでいる",
        ):
            add(app, f"p{cache}", text)
        model.queries.clear()
        out = []
        for query in ("where does the user live", "tea", "where does the user live", "大阪"):
            request = app.search.build_request(f"p{cache}", query=query)
            hits = app.search.search(f"p{cache}", request, recall=False).results
            out.append([(h.content, h.score) for h in hits])
        app.search.search_episodes(f"p{cache}", app.search.build_request(f"p{cache}", query="tea"))
        return out, model.queries

    cached, embedded = run("100")
    uncached, every = run("0")
    assert embedded == ["where does the user live", "tea", "大阪"]
    assert every == ["where does the user live", "tea", "where does the user live", "大阪", "tea"]
    assert cached == uncached and cached[0] == cached[2] and cached[0]


def test_excerpts_show_ranked_turns_as_windows_of_their_episode(app: Omoide, persona: str) -> None:
    from omoide.engine.fusion import Scored
    from omoide.engine.search_plan import DEFAULT_PLAN

    app.sessions.open(persona, session_id="s1")
    app.sessions.record(
        persona, "s1", [{"speaker": "Ken", "content": f"turn {i}"} for i in range(8)]
    )
    events = {e.id: e for e in app.store.sessions(persona).events_between("s1", 0, 100)}
    by_text = {e.text: e.id for e in events.values()}
    ranked = [Scored(by_text["turn 6"], 0.9), Scored(by_text["turn 1"], 0.5)]

    def shown(limit: int = 10, keep: Any = lambda event, score: True) -> list[Any]:
        return app.search.episodes.excerpts(
            persona,
            ranked,
            events,
            {by_text["turn 6"]: 0.4},
            plan=DEFAULT_PLAN,
            limit=limit,
            zone=app.settings_service.get(persona).zone,
            keep=keep,
        )

    hits = shown()
    assert [h.score for h in hits] == [0.9, 0.5]  # best first, one window per turn
    assert hits[0].content.split("\n")[1:] == ["Ken: turn 5", "Ken: turn 6", "Ken: turn 7"]
    assert [s.event_id for s in hits[0].sources] == [by_text[f"turn {i}"] for i in (5, 6, 7)]
    assert (hits[0].similarity, hits[1].similarity) == (0.4, 0.0)
    assert [h.score for h in shown(limit=1)] == [0.9]
    skipped = shown(keep=lambda event, score: event.text != "turn 6")
    assert [h.score for h in skipped] == [0.5] and "Ken: turn 1" in skipped[0].content

"""The default search path over HTTP, as a client calls it (only ``q`` and ``top_k``): notes and
conversation excerpts ranked together, current facts before the facts they closed, and the turns
of a session that was never ended findable within seconds."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from bundled_models import bundled
from omoide_testing import LiveServer, chat_notes, live_server, wait_for_jobs

from omoide.api.mcp.text import search_text
from omoide.clock import FixedClock


@pytest.fixture(scope="module", params=["use", "e5"])
def real_embedder(request: pytest.FixtureRequest):
    """USE alone, and e5 with its search companion (USE): current facts stay first either way."""
    return bundled(request.param)


@pytest.fixture
def live(tmp_path: Path, real_embedder) -> Iterator[LiveServer]:
    with live_server(tmp_path, real_embedder, "omo_admin_default-search") as server:
        yield server


@pytest.fixture
def rin(live: LiveServer) -> Iterator[httpx.Client]:
    with live.client(live.create_persona("rin")) as client:
        yield client


def add(client: httpx.Client, content: str) -> dict:
    reply = client.post("/api/memories/rin", json={"content": content})
    assert reply.status_code == 201, reply.text
    return reply.json()["memory"]


def close(live: LiveServer, old: dict, new: dict) -> None:
    """Make sure ``new`` superseded ``old`` (evolution may already have done it; otherwise the
    same columns are written, with a version row, through the store)."""
    wait_for_jobs(live.omoide, "rin")
    memories = live.omoide.store.memories("rin")
    if memories.get(old["key"]).superseded_by == new["key"]:
        return
    memories.update(
        old["key"],
        {"valid_until": memories.get(new["key"]).created_at, "superseded_by": new["key"]},
        now=live.omoide.clock.now(),
        changed_by="test",
    )


def search(client: httpx.Client, q: str, **params: object) -> list[dict]:
    reply = client.get("/api/search/rin", params={"q": q, **params})
    assert reply.status_code == 200, reply.text
    return reply.json()["results"]


@pytest.mark.parametrize(
    ("old_text", "new_text", "question"),
    [
        (
            "The user lives in Osaka.",
            "The user moved from Osaka to Kyoto last week.",
            "Where does the user live?",
        ),
        (
            "The user works as a nurse at the city hospital.",
            "The user quit nursing and now teaches yoga.",
            "What is the user's job?",
        ),
        (
            "The user's favourite band is Radiohead.",
            "These days the user's favourite band is Muse.",
            "Which band does the user like best?",
        ),
    ],
)
def test_a_closed_fact_never_outranks_its_successor(
    rin: httpx.Client, live: LiveServer, old_text: str, new_text: str, question: str
) -> None:
    old = add(rin, old_text)
    wait_for_jobs(live.omoide, "rin")
    new = add(rin, new_text)
    close(live, old, new)
    keys = [r.get("key") for r in search(rin, question, top_k=5)]
    assert new["key"] in keys and old["key"] in keys  # the past stays findable
    assert keys.index(new["key"]) < keys.index(old["key"])
    assert [r["key"] for r in search(rin, question, valid_at="now")] == [new["key"]]


@pytest.fixture
def still(tmp_path: Path, real_embedder) -> Iterator[LiveServer]:
    """A live server whose clock does not move. A note's score blends in its live strength,
    which fades with every second since the note was written (FSRS), and scores are shown to
    6 decimals: on the system clock, two searches a second apart (a loaded machine embedding
    the question twice) score the same note differently."""
    with live_server(
        tmp_path,
        real_embedder,
        "omo_admin_still-search",
        clock=FixedClock(datetime(2026, 11, 30, 9, 0, tzinfo=UTC)),
    ) as server:
        yield server


@pytest.fixture
def still_rin(still: LiveServer) -> Iterator[httpx.Client]:
    with still.client(still.create_persona("rin")) as client:
        yield client


def test_valid_at_now_keeps_the_rank_the_closed_fact_lent_its_successor(
    still_rin: httpx.Client, still: LiveServer
) -> None:
    """``valid_at`` chooses which facts are shown, not which ones rank: the closed fact still
    lifts the fact that superseded it, so the present answer ranks, and scores, as it does
    unfiltered at the same instant, above notes that only share the question's words."""
    rin, live = still_rin, still
    old = add(rin, "The user lives in Kyoto.")
    wait_for_jobs(live.omoide, "rin")
    new = add(rin, "The user moved from Kyoto to Nagoya.")
    close(live, old, new)
    for text in (
        "The user's sister lives in Osaka.",
        "The user likes hiking on weekends.",
        "ユーザーのあだ名はみっちゃん。",
        "The user's best friend lives next door.",
    ):
        add(rin, text)
    wait_for_jobs(live.omoide, "rin")
    question = "Where does the user live?"
    shown = search(rin, question, valid_at="now")
    assert old["key"] not in [r.get("key") for r in shown]
    assert shown[0]["key"] == new["key"]
    unfiltered = {r.get("key"): r["score"] for r in search(rin, question)}
    assert shown[0]["score"] == unfiltered[new["key"]]


def test_a_fact_changed_twice_ranks_its_versions_newest_first(
    rin: httpx.Client, live: LiveServer
) -> None:
    """Outside re-measure (bench/results/outside9.md): when a closed fact's successor is itself
    closed, neither closed fact outranks the fact that superseded it, even when the query
    matches the oldest one best."""
    first = add(rin, "The user's bicycle is a red Peugeot racing bike.")
    wait_for_jobs(live.omoide, "rin")
    second = add(rin, "The user sold it and bought a second-hand touring frame.")
    close(live, first, second)
    third = add(rin, "These days the user rides a folding Brompton to work.")
    close(live, second, third)
    for question in (
        "Is the user's bicycle a red Peugeot racing bike?",
        "What bike does the user ride?",
    ):
        keys = [r.get("key") for r in search(rin, question, top_k=5)]
        assert [k for k in keys if k in (first["key"], second["key"], third["key"])] == [
            third["key"],
            second["key"],
            first["key"],
        ], (question, keys)


def test_a_successor_the_query_misses_is_brought_in_and_the_past_is_marked(
    rin: httpx.Client, live: LiveServer
) -> None:
    old = add(rin, "Mochi the cat sleeps on the green sofa every afternoon")
    new = add(rin, "Since spring the user's pet has been sleeping in a basket")
    close(live, old, new)
    results = search(rin, "green sofa", mode="keyword", top_k=3)
    keys = [r["key"] for r in results]
    assert keys[:2] == [new["key"], old["key"]]
    by_key = {r["key"]: r for r in results}
    assert by_key[new["key"]]["current"] is True
    past = by_key[old["key"]]
    assert past["current"] is False and past["superseded_by"] == new["key"]
    assert past["valid_until"] is not None
    text = search_text({"query": "green sofa", "mode": "keyword", "results": results})
    assert (
        f"[past: valid until {past['valid_until'][:16].replace('T', ' ')}, superseded by "
        f"{new['key']}]" in text
    )


def test_a_filter_keeps_a_successor_that_does_not_pass_it_out(
    rin: httpx.Client, live: LiveServer
) -> None:
    reply = rin.post(
        "/api/memories/rin", json={"content": "The user lives in Osaka.", "tags": ["home"]}
    )
    old = reply.json()["memory"]
    new = add(rin, "The user moved to Kyoto.")
    close(live, old, new)
    assert [r["key"] for r in search(rin, "Osaka", tags="home")] == [old["key"]]


def test_an_open_session_is_searchable_by_default(rin: httpx.Client, live: LiveServer) -> None:
    sid = rin.post("/api/sessions/rin", json={}).json()["session_id"]
    turns = [
        ("Aki", "I finally booked the flight to Reykjavik for the aurora trip."),
        ("Haru", "How exciting! When do you leave?"),
        ("Aki", "On the ninth of February, and I'm staying for six nights."),
        ("Haru", "Bring warm gloves."),
    ] * 3
    events = [
        {"speaker": s, "content": c, "external_id": f"t{i}"} for i, (s, c) in enumerate(turns)
    ]
    assert (
        rin.post(f"/api/sessions/rin/{sid}/events", json={"events": events}).json()["accepted"]
        == 12
    )
    # Keyword side: at once, no job needed.
    hits = search(rin, "Reykjavik aurora", mode="keyword")
    assert hits and hits[0]["type"] == "episode" and hits[0]["open"] is True
    assert "Reykjavik" in hits[0]["content"]
    assert {s["external_id"] for s in hits[0]["sources"]} & {"t0", "t4", "t8"}
    # Semantic side: once the background job has embedded the new turns.
    wait_for_jobs(live.omoide, "rin")
    hits = search(rin, "When is the trip to Iceland?", mode="semantic")
    assert hits and hits[0]["type"] == "episode" and hits[0]["session_id"] == sid
    # Default search (no parameters) shows the conversation; include_episodes=false does not.
    assert any(h["type"] == "episode" for h in search(rin, "aurora trip flight"))
    assert search(rin, "aurora trip flight", include_episodes="false") == []


def test_a_turn_just_posted_is_found_by_keyword_and_ranked_like_any_other(
    rin: httpx.Client, live: LiveServer
) -> None:
    """A turn the background job has not embedded yet ranks by the same fused score as an
    embedded one (the search embeds it itself): an exact keyword match comes first, above
    excerpts and notes the query does not match, instead of trailing on its keyword side."""
    add(rin, "The user's dog is called Mochi.")
    add(rin, "The user drinks green tea every morning.")
    chat_notes(
        rin,
        live.omoide,
        "rin",
        "walks",
        [
            ("Aki", "user", text)
            for text in [
                "Mochi pulled me all the way to the river this morning.",
                "The vet says he should lose a little weight.",
                "We walk twice a day now, before work and after dinner.",
            ]
        ],
    )
    live.omoide.runner.stop()  # nothing embeds the next turn
    sid = rin.post("/api/sessions/rin", json={}).json()["session_id"]
    posted = rin.post(
        f"/api/sessions/rin/{sid}/events",
        json={
            "events": [
                {
                    "speaker": "Aki",
                    "role": "user",
                    "content": "Our ferry to Zanzibar leaves at noon.",
                    "external_id": "fresh",
                }
            ]
        },
    )
    assert posted.json()["accepted"] == 1
    sessions = live.omoide.store.sessions("rin")
    fresh = sessions.events_between(sid, 0, 10)
    assert len(fresh) == 1 and sessions.event_vectors([fresh[0].id]) == {}
    for query in ("Zanzibar", "When does the ferry to Zanzibar leave?"):
        results = search(rin, query, top_k=5)
        assert results[0]["type"] == "episode", (query, results)
        assert results[0]["open"] is True
        assert [s["external_id"] for s in results[0]["sources"]] == ["fresh"]


def test_default_search_ranks_notes_and_excerpts_together(
    rin: httpx.Client, live: LiveServer
) -> None:
    add(rin, "The user's sister is called Emi.")
    add(rin, "The user is allergic to peanuts.")
    chat_notes(
        rin,
        live.omoide,
        "rin",
        "violin",
        [
            ("Aki", "user", text)
            for text in [
                "My violin lesson moved to Thursday evenings.",
                "The teacher says my vibrato is getting better.",
                "I practise scales for twenty minutes every morning.",
            ]
        ],
    )
    results = search(rin, "When is the violin lesson?", top_k=5)
    assert results[0]["type"] == "episode"
    assert "Thursday" in results[0]["content"]
    settings = rin.put("/api/settings/rin", json={"episode_search_enabled": False})
    assert settings.status_code == 200, settings.text
    assert all(r["type"] == "note" for r in search(rin, "When is the violin lesson?"))
    assert any(
        r["type"] == "episode"
        for r in search(rin, "When is the violin lesson?", include_episodes="true")
    )


def test_a_turn_is_shown_once_in_the_words_of_its_note(rin: httpx.Client, live: LiveServer) -> None:
    """A note consolidated from a turn that a higher excerpt shows is written in that turn's
    line (with the note's date) and not listed again; notes-only search is unchanged."""
    chat_notes(
        rin,
        live.omoide,
        "rin",
        "violin",
        [
            ("Aki", "user", text)
            for text in [
                "My violin lesson moved to Thursday evenings.",
                "The teacher says my vibrato is getting better.",
                "I practise scales for twenty minutes every morning.",
                "Next month I play a duet with my teacher at the spring recital.",
            ]
        ],
    )
    results = search(rin, "When is the violin lesson?", top_k=10)
    assert results[0]["type"] == "episode"
    folded = results[0]["folded_notes"]
    assert folded
    store = live.omoide.store.memories("rin")
    assert all(store.get(key).access_count == 1 for key in folded)  # shown, so recalled
    lines = results[0]["content"].split("\n")[1:]
    assert len(lines) == len(results[0]["sources"])
    for key in folded:
        memory = rin.get(f"/api/memories/rin/{key}").json()
        assert memory["content"] in lines
        assert all(r.get("key") != key for r in results)
    text = search_text({"query": "violin", "mode": "hybrid", "results": results})
    assert f"[notes shown in its lines: {', '.join(folded)}]" in text.split("\n")[1]
    notes_only = search(rin, "When is the violin lesson?", top_k=10, include_episodes="false")
    assert set(folded) <= {r["key"] for r in notes_only}
    assert all(r["type"] == "note" and "folded_notes" not in r for r in notes_only)

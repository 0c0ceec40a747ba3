"""Write-path step 4 end to end over HTTP with a real embedder (USE, fast): contradiction closes
the old memory, extension merges metadata, evolution links neighbours, nothing waits for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from bundled_models import bundled
from omoide_testing import LiveServer, files_holding, live_server, wait_for_jobs


@pytest.fixture(scope="module")
def use_embedder():
    return bundled("use")


@pytest.fixture
def live(tmp_path: Path, use_embedder) -> Iterator[LiveServer]:
    with live_server(tmp_path, use_embedder, "omo_admin_evolution") as server:
        yield server


@pytest.fixture
def rin(live: LiveServer) -> Iterator[httpx.Client]:
    with live.client(live.create_persona("rin")) as client:
        yield client


def add(client: httpx.Client, content: str, **fields: object) -> dict:
    reply = client.post("/api/memories/rin", json={"content": content, **fields})
    assert reply.status_code == 201, reply.text
    return reply.json()["memory"]


def test_contradiction_closes_the_old_memory(rin: httpx.Client, live: LiveServer) -> None:
    old = add(rin, "User lives in Tokyo")
    wait_for_jobs(live.omoide, "rin")
    new = add(rin, "User moved to Osaka last month")
    wait_for_jobs(live.omoide, "rin")
    closed = rin.get(f"/api/memories/rin/{old['key']}").json()
    assert closed["superseded_by"] == new["key"]
    assert closed["valid_until"] == new["created_at"]
    assert closed["status"] == "active"  # closed, never deleted or tombstoned
    now = rin.get(
        "/api/search/rin", params={"q": "where does the user live", "valid_at": "now"}
    ).json()["results"]
    assert [r["key"] for r in now] == [new["key"]]
    everything = rin.get("/api/search/rin", params={"q": "where does the user live"}).json()[
        "results"
    ]
    marked = {r["key"]: r["superseded_by"] for r in everything}
    assert marked == {old["key"]: new["key"], new["key"]: None}
    history = rin.get(f"/api/memories/rin/{old['key']}/history").json()["versions"]
    assert [(v["change"], v["changed_by"]) for v in history] == [
        ("create", "user"),
        ("supersede", "evolution"),
    ]


def test_extension_merges_tags_and_importance(rin: httpx.Client, live: LiveServer) -> None:
    old = add(rin, "User likes music", tags=["hobby"], importance=0.4)
    wait_for_jobs(live.omoide, "rin")
    add(rin, "Lately the user is especially into bossa nova music", tags=["music"], importance=0.7)
    wait_for_jobs(live.omoide, "rin")
    merged = rin.get(f"/api/memories/rin/{old['key']}").json()
    assert merged["tags"] == ["hobby", "music"]
    assert merged["importance"] == 0.7
    assert merged["superseded_by"] is None and merged["valid_until"] is None
    history = rin.get(f"/api/memories/rin/{old['key']}/history").json()["versions"]
    assert [v["change"] for v in history] == ["create", "extend"]


def test_independent_memories_stay_untouched(rin: httpx.Client, live: LiveServer) -> None:
    old = add(rin, "User's brother lives in Sapporo")
    wait_for_jobs(live.omoide, "rin")
    add(rin, "User's cousin lives in Fukuoka")
    wait_for_jobs(live.omoide, "rin")
    same = rin.get(f"/api/memories/rin/{old['key']}").json()
    assert (same["superseded_by"], same["valid_until"]) == (None, None)
    assert len(rin.get(f"/api/memories/rin/{old['key']}/history").json()["versions"]) == 1


def test_near_copy_with_a_changed_number_is_saved_not_deduplicated(
    rin: httpx.Client, live: LiveServer
) -> None:
    old = add(rin, "私は犬を2匹飼っています")
    reply = rin.post("/api/memories/rin", json={"content": "私は犬を3匹飼っています"})
    assert reply.json()["status"] == "created"
    wait_for_jobs(live.omoide, "rin")
    closed = rin.get(f"/api/memories/rin/{old['key']}").json()
    assert closed["superseded_by"] == reply.json()["memory"]["key"]


def test_evolution_links_neighbours_symmetrically(live: LiveServer) -> None:
    app = live.omoide
    app.auth.create_persona("kai")
    first = app.memories.create(
        "kai", app.memories.build_new(content="User goes hiking in the Japanese Alps every summer")
    ).memory
    app.runner.run_until_idle()
    second = app.memories.create(
        "kai",
        app.memories.build_new(
            content="Every summer the user hikes in the Northern Alps with friends"
        ),
    ).memory
    wait_for_jobs(app, "kai")
    cos = float(
        app.embedder.embed_passages([first.content])[0]
        @ app.embedder.embed_passages([second.content])[0]
    )
    to_raw = app.embedder.calibration.to_raw
    if not to_raw(0.8) <= cos <= to_raw(0.85):
        pytest.skip(f"pair not in the evolution band on this model (cos {cos:.3f})")
    forward = app.memories.links("kai", second.key)
    backward = app.memories.links("kai", first.key)
    assert [(link.other_key, link.link_type) for link in forward] == [(first.key, "SEMANTIC")]
    assert [(link.other_key, link.weight) for link in backward] == [(second.key, forward[0].weight)]
    touched = app.memories.get("kai", first.key, recall=False)
    assert (touched.access_count, touched.summary_ref) == (1, second.key)


def test_contradiction_keeps_the_unchanged_part_of_a_compound_memory(
    rin: httpx.Client, live: LiveServer
) -> None:
    old = add(rin, "The user lives in Tokyo with her two cats.", tags=["home"], importance=0.6)
    wait_for_jobs(live.omoide, "rin")
    new = add(rin, "The user moved from Tokyo to Osaka last month.")
    wait_for_jobs(live.omoide, "rin")
    closed = rin.get(f"/api/memories/rin/{old['key']}").json()
    assert closed["superseded_by"] == new["key"]
    assert closed["valid_until"] == new["created_at"]
    current = rin.get("/api/memories/rin", params={"limit": 10}).json()["memories"]
    kept = [m for m in current if m["source_ref"] == old["key"]]
    assert [m["content"] for m in kept] == ["The user lives with her two cats."]
    remainder = kept[0]
    assert remainder["source"] == "evolution"
    assert remainder["metadata"] == {"remainder_of": old["key"], "superseded_by": new["key"]}
    assert remainder["tags"] == ["home"] and remainder["importance"] == 0.6
    assert remainder["superseded_by"] is None and remainder["valid_until"] is None
    found = rin.get("/api/search/rin", params={"q": "cats", "valid_at": "now"}).json()["results"]
    assert remainder["key"] in [r["key"] for r in found]
    history = rin.get(f"/api/memories/rin/{remainder['key']}/history").json()["versions"]
    assert [(v["change"], v["changed_by"]) for v in history] == [("create", "evolution")]


def test_contradiction_of_a_single_fact_leaves_no_remainder(
    rin: httpx.Client, live: LiveServer
) -> None:
    old = add(rin, "User lives in Tokyo")
    wait_for_jobs(live.omoide, "rin")
    add(rin, "User moved to Osaka last month")
    wait_for_jobs(live.omoide, "rin")
    current = rin.get("/api/memories/rin", params={"limit": 10}).json()["memories"]
    assert [m for m in current if m["source_ref"] == old["key"]] == []


def test_a_remainder_keeps_the_provenance_of_the_note_it_came_from(
    rin: httpx.Client, live: LiveServer
) -> None:
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    rin.post(
        "/api/sessions/rin/s1/events",
        json={"events": [{"speaker": "Ken", "content": "I live in Tokyo with my two cats."}]},
    )
    rin.post("/api/sessions/rin/s1/end")
    wait_for_jobs(live.omoide, "rin")
    notes = [
        k for ep in rin.get("/api/sessions/rin/s1/episodes").json()["episodes"] for k in ep["notes"]
    ]
    assert len(notes) == 1
    note = rin.get(f"/api/memories/rin/{notes[0]}").json()
    add(rin, "Ken moved from Tokyo to Osaka last month.")
    wait_for_jobs(live.omoide, "rin")
    assert rin.get(f"/api/memories/rin/{notes[0]}").json()["superseded_by"] is not None
    current = rin.get("/api/memories/rin", params={"limit": 10}).json()["memories"]
    kept = [m for m in current if m["metadata"].get("remainder_of") == notes[0]]
    assert len(kept) == 1 and "two cats" in kept[0]["content"], (note["content"], current)
    assert kept[0]["sources"] == note["sources"]

    erased = rin.delete("/api/sessions/rin/s1", params={"with_notes": "true"}).json()

    assert sorted(erased["notes"]) == sorted([notes[0], kept[0]["key"]])
    assert rin.get(f"/api/memories/rin/{kept[0]['key']}").status_code == 404


def _session(
    client: httpx.Client, live: LiveServer, session: str, speaker: str, *turns: str
) -> list[str]:
    """Post one ended conversation of ``turns`` by ``speaker``; the keys of the notes it made."""
    assert client.post("/api/sessions/rin", json={"session_id": session}).status_code == 201
    client.post(
        f"/api/sessions/rin/{session}/events",
        json={"events": [{"speaker": speaker, "content": turn} for turn in turns]},
    )
    client.post(f"/api/sessions/rin/{session}/end")
    wait_for_jobs(live.omoide, "rin")
    return [
        k
        for ep in client.get(f"/api/sessions/rin/{session}/episodes").json()["episodes"]
        for k in ep["notes"]
    ]


def test_a_note_from_a_conversation_closes_the_saved_memory_nearest_it_when_the_judge_is_sure(
    rin: httpx.Client, live: LiveServer
) -> None:
    # A one-sentence English note needs the notes' own bar to close by the judge's probability,
    # except against the candidate nearest it when that one leads the next by
    # NOTE_NEAREST_LEAD (here the only one): there the bar is NOTE_NEAREST_THRESHOLDS (session
    # 36, bench/results/classify_en36.md). A home said with a copula is no sure shape of
    # engine.classify.note_close, so before that bar the saved memory stayed current.
    old = add(rin, "Ken lives in Tokyo.")
    wait_for_jobs(live.omoide, "rin")
    notes = _session(rin, live, "s2", "Ken", "My home is in Osaka now.")
    assert len(notes) == 1
    assert rin.get(f"/api/memories/rin/{old['key']}").json()["superseded_by"] == notes[0]


@pytest.mark.parametrize(
    ("speaker", "first", "between", "changed"),
    [
        (
            "Ken",
            "I work at a bakery in Leeds.",
            "I went hiking in the Dales on Saturday.",
            "I quit the bakery. I work at the city library now.",
        ),
        (
            "健太",
            "私はパン屋で働いています。",
            "土曜日に山に登りました。",
            "パン屋を辞めて、今は図書館で働いています。",
        ),
    ],
)
def test_a_job_changed_across_three_conversations_closes_the_old_job_note(
    rin: httpx.Client, live: LiveServer, speaker: str, first: str, between: str, changed: str
) -> None:
    # The outside scenario (bench/results/outside9.md): three chats, the job changed in the
    # third; the old job's note is closed, the new note its successor, the rest stays current.
    (job,) = _session(rin, live, "s1", speaker, first)
    others = _session(rin, live, "s2", speaker, between)
    (now,) = _session(rin, live, "s3", speaker, changed)
    closed = rin.get(f"/api/memories/rin/{job}").json()
    assert closed["superseded_by"] == now, closed["content"]
    assert rin.get(f"/api/memories/rin/{now}").json()["superseded_by"] is None
    for key in others:
        assert rin.get(f"/api/memories/rin/{key}").json()["superseded_by"] is None


def test_purging_a_closed_compound_memory_erases_its_remainder(
    rin: httpx.Client, live: LiveServer, tmp_path: Path
) -> None:
    old = add(rin, "The user lives in Tokyo with her two cats.")
    wait_for_jobs(live.omoide, "rin")
    new = add(rin, "The user moved from Tokyo to Osaka last month.")
    wait_for_jobs(live.omoide, "rin")
    current = rin.get("/api/memories/rin", params={"limit": 10}).json()["memories"]
    remainders = [m["key"] for m in current if m["metadata"].get("remainder_of") == old["key"]]
    assert len(remainders) == 1 and files_holding(tmp_path, "two cats")

    reply = rin.delete(f"/api/memories/rin/{old['key']}", params={"purge": "true"})

    assert reply.status_code == 200
    assert reply.json()["also_purged"] == remainders
    assert files_holding(tmp_path, "two cats") == []
    assert rin.get(f"/api/memories/rin/{remainders[0]}").status_code == 404
    assert rin.get(f"/api/memories/rin/{new['key']}").json()["content"] == new["content"]

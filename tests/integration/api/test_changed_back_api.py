"""A fact saved again after it was superseded, end to end over real HTTP (issue 8, "current
facts first"): the newest statement is the current truth, so the successor is closed by the
restatement (the fact changed back) and never stays current beside it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from bundled_models import bundled
from mcp_checks import http_client, ok
from omoide_testing import LiveServer, live_server, wait_for_jobs


@pytest.fixture(scope="module")
def use_embedder():
    return bundled("use")


@pytest.fixture
def live(tmp_path: Path, use_embedder) -> Iterator[LiveServer]:
    with live_server(tmp_path, use_embedder, "omo_admin_changed_back") as server:
        yield server


@pytest.fixture
def kai(live: LiveServer) -> Iterator[httpx.Client]:
    with live.client(live.create_persona("kai")) as client:
        yield client


def save(client: httpx.Client, live: LiveServer, content: str) -> dict:
    reply = client.post("/api/memories/kai", json={"content": content})
    assert reply.status_code == 201, reply.text
    assert reply.json()["status"] == "created", reply.text
    wait_for_jobs(live.omoide, "kai")
    return reply.json()["memory"]


def read(client: httpx.Client, key: str) -> dict:
    return client.get(f"/api/memories/kai/{key}").json()


def current_keys(client: httpx.Client, query: str) -> list[str]:
    found = client.get("/api/search/kai", params={"q": query, "valid_at": "now"}).json()
    return [r["key"] for r in found["results"]]


@pytest.mark.parametrize(("first", "change", "query"), [
    ("The user lives in Osaka.", "The user moved from Osaka to Kyoto last week.",
     "Where does the user live?"),
    ("The user works at a bakery.", "The user quit the bakery and now works at a bank.",
     "Where does the user work?"),
    ("ユーザーは大阪に住んでいる。", "ユーザーは先週大阪から京都に引っ越した。",
     "ユーザーはどこに住んでいる？"),
])
def test_a_closed_fact_saved_again_closes_its_successor(
        kai: httpx.Client, live: LiveServer, first: str, change: str, query: str) -> None:
    old = save(kai, live, first)
    successor = save(kai, live, change)
    assert read(kai, old["key"])["superseded_by"] == successor["key"]  # the change closed it

    again = save(kai, live, first)  # the user says it again: the fact changed back

    closed = read(kai, successor["key"])
    assert closed["superseded_by"] == again["key"]
    assert closed["valid_until"] == again["created_at"]
    assert read(kai, again["key"])["superseded_by"] is None
    assert current_keys(kai, query) == [again["key"]]  # one current fact, the newest
    ranked = kai.get("/api/search/kai", params={"q": query}).json()["results"]
    assert ranked[0]["key"] == again["key"]
    history = kai.get(f"/api/memories/kai/{successor['key']}/history").json()["versions"]
    assert [(v["change"], v["changed_by"]) for v in history][-1] == ("supersede", "evolution")


def test_a_past_statement_of_a_closed_fact_leaves_its_successor_current(
        kai: httpx.Client, live: LiveServer) -> None:
    old = save(kai, live, "The user lives in Osaka.")
    successor = save(kai, live, "The user moved from Osaka to Kyoto last week.")
    assert read(kai, old["key"])["superseded_by"] == successor["key"]
    save(kai, live, "The user used to live in Osaka.")  # about the past: nothing changes back
    assert read(kai, successor["key"])["superseded_by"] is None


def test_a_restatement_dated_before_the_change_leaves_its_successor_current(
        kai: httpx.Client, live: LiveServer) -> None:
    old = save(kai, live, "The user lives in Osaka.")
    successor = save(kai, live, "The user moved from Osaka to Kyoto last week.")
    assert read(kai, old["key"])["superseded_by"] == successor["key"]
    reply = kai.post("/api/memories/kai", json={"content": "The user lives in Osaka.",
                                                "valid_from": "2020-04-01T00:00:00Z"})
    assert reply.status_code == 201, reply.text
    wait_for_jobs(live.omoide, "kai")
    assert read(kai, successor["key"])["superseded_by"] is None  # an older time changes nothing


def test_a_closed_fact_saved_again_through_mcp_closes_its_successor(live: LiveServer) -> None:
    key = live.create_persona("mio")

    async def scenario() -> tuple[str, str, str]:
        async with http_client(live.url, key) as client:
            made = []
            for text in ("The user's favourite band is Radiohead.",
                         "The user's favourite band is no longer Radiohead; it is Blur now.",
                         "The user's favourite band is Radiohead."):
                created = await ok(client, "memory_create", content=text)
                made.append(created.structured_content["memory"]["key"])
                wait_for_jobs(live.omoide, "mio")
            return made[0], made[1], made[2]

    old, successor, again = anyio.run(scenario)
    with live.client(key) as client:
        assert client.get(f"/api/memories/mio/{old}").json()["superseded_by"] == successor
        assert client.get(f"/api/memories/mio/{successor}").json()["superseded_by"] == again
        assert client.get(f"/api/memories/mio/{again}").json()["superseded_by"] is None

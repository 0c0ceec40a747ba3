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
from mcp_checks import http_client, ok, text_of
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


@pytest.mark.parametrize(
    ("first", "change", "query"),
    [
        (
            "The user lives in Osaka.",
            "The user moved from Osaka to Kyoto last week.",
            "Where does the user live?",
        ),
        (
            "The user works at a bakery.",
            "The user quit the bakery and now works at a bank.",
            "Where does the user work?",
        ),
        (
            "ユーザーは大阪に住んでいる。",
            "ユーザーは先週大阪から京都に引っ越した。",
            "ユーザーはどこに住んでいる？",
        ),
    ],
)
def test_a_closed_fact_saved_again_closes_its_successor(
    kai: httpx.Client, live: LiveServer, first: str, change: str, query: str
) -> None:
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
    kai: httpx.Client, live: LiveServer
) -> None:
    old = save(kai, live, "The user lives in Osaka.")
    successor = save(kai, live, "The user moved from Osaka to Kyoto last week.")
    assert read(kai, old["key"])["superseded_by"] == successor["key"]
    save(kai, live, "The user used to live in Osaka.")  # about the past: nothing changes back
    assert read(kai, successor["key"])["superseded_by"] is None


@pytest.mark.parametrize(
    ("first", "change", "query"),
    [
        (
            "The user lives in Osaka.",
            "The user moved from Osaka to Kyoto last week.",
            "Where does the user live?",
        ),
        (
            "ユーザーは大阪に住んでいる。",
            "ユーザーは先週大阪から京都に引っ越した。",
            "ユーザーはどこに住んでいる？",
        ),
    ],
)
def test_a_restatement_dated_before_the_change_ends_where_its_successor_began(
    kai: httpx.Client, live: LiveServer, first: str, change: str, query: str
) -> None:
    old = save(kai, live, first)
    successor = save(kai, live, change)
    assert read(kai, old["key"])["superseded_by"] == successor["key"]
    began = read(kai, successor["key"])["valid_from"]  # from the moment it closed the old fact
    reply = kai.post(
        "/api/memories/kai", json={"content": first, "valid_from": "2020-04-01T00:00:00Z"}
    )
    assert reply.status_code == 201, reply.text
    dated = reply.json()["memory"]
    wait_for_jobs(live.omoide, "kai")

    assert read(kai, successor["key"])["superseded_by"] is None  # an older time changes nothing
    ended = read(kai, dated["key"])  # true only until the change that replaced it
    assert (ended["superseded_by"], ended["valid_until"]) == (successor["key"], began)
    history = kai.get(f"/api/memories/kai/{dated['key']}/history").json()["versions"]
    assert [(v["change"], v["changed_by"]) for v in history][-1] == ("supersede", "evolution")
    assert dated["key"] not in current_keys(kai, query)
    assert successor["key"] in current_keys(kai, query)
    then = kai.get("/api/search/kai", params={"q": query, "valid_at": "2021-06-01T00:00:00Z"})
    assert dated["key"] in [r["key"] for r in then.json()["results"]]
    ranked = kai.get("/api/search/kai", params={"q": query}).json()["results"]
    keys = [r["key"] for r in ranked]
    assert keys.index(successor["key"]) < keys.index(dated["key"])
    shown = ranked[keys.index(dated["key"])]  # marked past, and by what
    assert (shown["current"], shown["superseded_by"]) == (False, successor["key"])


def test_an_undated_restatement_before_a_later_change_closes_nothing(
    kai: httpx.Client, live: LiveServer
) -> None:
    old = save(kai, live, "The user lives in Osaka.")
    reply = kai.post(
        "/api/memories/kai",
        json={
            "content": "The user moved from Osaka to Kyoto last week.",
            "valid_from": "2099-04-01T00:00:00Z",
        },
    )  # a change that begins after now
    assert reply.status_code == 201, reply.text
    successor = reply.json()["memory"]
    wait_for_jobs(live.omoide, "kai")
    assert read(kai, old["key"])["superseded_by"] == successor["key"]
    again = save(kai, live, "The user lives in Osaka.")  # no date: a statement of now
    assert read(kai, again["key"])["superseded_by"] is None
    assert read(kai, again["key"])["valid_until"] is None
    assert read(kai, successor["key"])["superseded_by"] is None


def test_a_closed_fact_saved_again_through_mcp_closes_its_successor(live: LiveServer) -> None:
    key = live.create_persona("mio")

    async def scenario() -> tuple[str, str, str]:
        async with http_client(live.url, key) as client:
            made = []
            for text in (
                "The user's favourite band is Radiohead.",
                "The user's favourite band is no longer Radiohead; it is Blur now.",
                "The user's favourite band is Radiohead.",
            ):
                created = await ok(client, "memory_create", content=text)
                made.append(created.structured_content["memory"]["key"])
                wait_for_jobs(live.omoide, "mio")
            return made[0], made[1], made[2]

    old, successor, again = anyio.run(scenario)
    with live.client(key) as client:
        assert client.get(f"/api/memories/mio/{old}").json()["superseded_by"] == successor
        assert client.get(f"/api/memories/mio/{successor}").json()["superseded_by"] == again
        assert client.get(f"/api/memories/mio/{again}").json()["superseded_by"] is None


def test_a_dated_restatement_through_mcp_ends_at_its_successor(live: LiveServer) -> None:
    key = live.create_persona("ren")

    async def scenario() -> tuple[list[str], list[str], list[str], str]:
        async with http_client(live.url, key) as client:
            made = []
            for text, since in (
                ("The user lives in Osaka.", None),
                ("The user moved from Osaka to Kyoto last week.", None),
                ("The user lives in Osaka.", "2020-04-01T00:00:00Z"),
            ):
                created = await ok(
                    client,
                    "memory_create",
                    content=text,
                    **({"valid_from": since} if since else {}),
                )
                made.append(created.structured_content["memory"]["key"])
                wait_for_jobs(live.omoide, "ren")
            now = await ok(
                client, "memory_search", query="Where does the user live?", valid_at="now"
            )
            found = await ok(client, "memory_search", query="Where does the user live?")
            return (
                made,
                [r["key"] for r in now.structured_content["results"]],
                [r["key"] for r in found.structured_content["results"]],
                text_of(found),
            )

    (old, successor, dated), current, ranked, text = anyio.run(scenario)
    with live.client(key) as client:
        assert client.get(f"/api/memories/ren/{old}").json()["superseded_by"] == successor
        ended = client.get(f"/api/memories/ren/{dated}").json()
        assert client.get(f"/api/memories/ren/{successor}").json()["superseded_by"] is None
    assert ended["superseded_by"] == successor and ended["valid_until"] is not None
    assert dated not in current and successor in current
    assert ranked.index(successor) < ranked.index(dated)
    assert f"superseded by {successor}" in text

"""A new persona's search over real HTTP with the bundled e5 (and its USE companion): when
notes arrive one at a time with a search after each (as a chat's recall searches every turn),
the ranking and scores are those a freshly started server gives for the same notes. The
language centroids of a small store follow every write (``store.vectors.FOLLOW_BELOW``)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from bundled_models import bundled
from omoide_testing import live_server, wait_for_jobs

pytestmark = pytest.mark.slow

ADMIN = "omo_admin_small-store"
NOTES = [
    "The user works as a nurse at a hospital in Kyoto.",
    "The user lives in Osaka with two cats.",
    "The user's sister lives in Sapporo.",
    "ユーザーのあだ名はみっちゃん。",
    "The user enjoys hiking on weekends.",
    "ユーザーは毎朝コーヒーを飲む。",
]
QUESTIONS = ["What is the user's job?", "Where does the user live?", "ユーザーの仕事は？"]


def _ranking(client: httpx.Client, question: str) -> list[tuple[str, float]]:
    reply = client.get("/api/search/mio", params={"q": question, "top_k": 10})
    assert reply.status_code == 200, reply.text
    return [(hit["content"], round(hit["score"], 3)) for hit in reply.json()["results"]]


def test_searches_between_writes_rank_as_a_fresh_server_does(tmp_path: Path) -> None:
    e5 = bundled("e5")
    with live_server(tmp_path, e5, ADMIN) as live:
        key = live.create_persona("mio")
        with live.client(key) as client:
            for note in NOTES:
                reply = client.post("/api/memories/mio", json={"content": note})
                assert reply.status_code == 201, reply.text
                wait_for_jobs(live.omoide, "mio")
                for question in QUESTIONS:
                    _ranking(client, question)
            grown = {q: _ranking(client, q) for q in QUESTIONS}
    with live_server(tmp_path, e5, ADMIN) as live, live.client(key) as client:
        fresh = {q: _ranking(client, q) for q in QUESTIONS}
    assert grown == fresh
    assert all(len(ranking) == len(NOTES) for ranking in fresh.values())

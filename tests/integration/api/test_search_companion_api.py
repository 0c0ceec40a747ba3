"""The search companion over HTTP on the real bundled embedders: an e5 server consults USE
(``OMOIDE_SEARCH_COMPANION=auto``), which reorders the head of a default search, and ``off``
gives back the order of the primary embedder alone (the ``no_companion`` plan)."""

from __future__ import annotations

from pathlib import Path

import httpx
from bundled_models import bundled
from omoide_testing import live_server, wait_for_jobs

from omoide.engine.search_plan import preset

MEMORIES = [
    "User plays the cello in a community orchestra on Thursdays",
    "ユーザーは毎朝ジョギングをしている",
    "User is allergic to shellfish",
    "ユーザーの猫の名前はミルク",
    "User grew tomatoes and basil on the balcony last summer",
    "ユーザーは来月京都へ旅行する予定",
    "User prefers oolong tea to coffee",
    "ユーザーは辛い料理が苦手",
    "User's favourite novelist writes detective stories set in Edinburgh",
    "User fixes old radios as a hobby",
    "ユーザーは週末にパン屋でアルバイトしている",
]
QUESTION = "what kind of books does the user read"


def _search(client: httpx.Client) -> list[str]:
    reply = client.get("/api/search/rin", params={"q": QUESTION, "top_k": 5})
    assert reply.status_code == 200, reply.text
    return [hit["content"] for hit in reply.json()["results"]]


def test_the_companion_reorders_and_off_restores_the_old_order(tmp_path: Path) -> None:
    e5 = bundled("e5")
    with live_server(tmp_path, e5, "omo_admin_companion") as live:
        assert live.omoide.search.companion is not None
        assert live.omoide.search.companion.name == "use"
        key = live.create_persona("rin")
        with live.client(key) as client:
            for content in MEMORIES:
                reply = client.post("/api/memories/rin", json={"content": content})
                assert reply.status_code == 201, reply.text
            wait_for_jobs(live.omoide, "rin")
            with_companion = _search(client)
        request = live.omoide.search.build_request("rin", query=QUESTION, top_k=5)
        alone = [
            hit.content
            for hit in live.omoide.search.search(
                "rin", request, recall=False, plan=preset("no_companion")
            ).results
        ]
    assert with_companion != alone
    assert with_companion[0].startswith("User's favourite novelist")
    with live_server(
        tmp_path, e5, "omo_admin_companion", {"OMOIDE_SEARCH_COMPANION": "off"}
    ) as live:
        assert live.omoide.search.companion is None
        with live.client(key) as client:
            assert _search(client) == alone

"""A fact that closes another starts being valid when the other stops. Evolution closed the old
fact at T (``valid_until``) but left its successor's ``valid_from`` empty, so a search with
``valid_at`` before T found both: the old fact (valid then) and the new one (open start) side
by side, as if the user lived in two cities at once. Both stores, over HTTP, with a real
embedder (USE) so that the contradiction is the one a user meets."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import httpx
from bundled_models import bundled
from omoide_testing import served, wait_for_jobs

from omoide.clock import FixedClock
from omoide.wiring import Omoide


def _add(client: httpx.Client, content: str, **fields: object) -> dict:
    reply = client.post("/api/memories/rin", json={"content": content, **fields})
    assert reply.status_code == 201, reply.text
    return reply.json()["memory"]


def _keys_valid_at(client: httpx.Client, when: str) -> set[str]:
    reply = client.get(
        "/api/search/rin", params={"q": "where does the user live", "valid_at": when}
    )
    assert reply.status_code == 200, reply.text
    return {r["key"] for r in reply.json()["results"]}


def test_a_successor_is_valid_from_the_moment_it_closes_its_predecessor(
    make_app: Callable[..., Omoide], data_dir: Path, clock: FixedClock
) -> None:
    app = make_app(embedder=bundled("use"))
    with served(app, data_dir, "omo_admin_successor") as server:
        key = server.create_persona("rin")
        with server.client(key) as rin:
            old = _add(rin, "User lives in Tokyo")
            wait_for_jobs(app, "rin")
            clock.advance(days=30)
            new = _add(rin, "User moved to Osaka last month")
            wait_for_jobs(app, "rin")
            closed = rin.get(f"/api/memories/rin/{old['key']}").json()
            assert closed["superseded_by"] == new["key"]
            change = closed["valid_until"]
            successor = rin.get(f"/api/memories/rin/{new['key']}").json()
            assert successor["valid_from"] == change
            assert successor["valid_until"] is None
            before = (clock.now() - timedelta(days=1)).isoformat()
            after = (clock.now() + timedelta(days=1)).isoformat()
            assert _keys_valid_at(rin, before) == {old["key"]}
            assert _keys_valid_at(rin, after) == {new["key"]}
            assert _keys_valid_at(rin, change) == {new["key"]}  # [valid_from, valid_until)
            history = rin.get(f"/api/memories/rin/{new['key']}/history").json()["versions"]
            assert [(v["change"], v["changed_by"]) for v in history] == [
                ("create", "user"),
                ("update", "evolution"),
            ]


def test_a_successor_with_its_own_start_keeps_it(
    make_app: Callable[..., Omoide], data_dir: Path, clock: FixedClock
) -> None:
    app = make_app(embedder=bundled("use"))
    with served(app, data_dir, "omo_admin_successor") as server:
        key = server.create_persona("rin")
        with server.client(key) as rin:
            old = _add(rin, "User lives in Tokyo")
            wait_for_jobs(app, "rin")
            clock.advance(days=30)
            start = (clock.now() - timedelta(days=10)).isoformat()
            new = _add(rin, "User moved to Osaka last month", valid_from=start)
            wait_for_jobs(app, "rin")
            closed = rin.get(f"/api/memories/rin/{old['key']}").json()
            assert closed["superseded_by"] == new["key"]
            assert closed["valid_until"] == start
            assert rin.get(f"/api/memories/rin/{new['key']}").json()["valid_from"] == start

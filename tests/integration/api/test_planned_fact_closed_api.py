"""A planned fact contradicted before it started never held. Evolution closed it at its
successor's ``created_at``, before its own ``valid_from`` (``valid_until < valid_from``, a
window the API refuses on input); it is now closed where it would have begun (an empty window,
``valid_until = valid_from``), kept in its history and shown closed, and its successor is
valid from when it was said. An export of it imports again; a record with an inverted window
is refused. Both stores, over HTTP, with a real embedder (USE) so that the contradiction is
the one a user meets."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import httpx
from bundled_models import bundled
from omoide_testing import served, wait_for_jobs

from omoide.clock import FixedClock
from omoide.wiring import Omoide

NDJSON = {"content-type": "application/x-ndjson"}


def _write(app: Omoide, content: str, **fields: object) -> str:
    memory = app.memories.build_new(content=content, **fields)
    return str(app.memories.create("rin", memory).memory.key)


def _keys_valid_at(client: httpx.Client, when: str) -> set[str]:
    reply = client.get(
        "/api/search/rin", params={"q": "where does the user live", "valid_at": when}
    )
    assert reply.status_code == 200, reply.text
    return {r["key"] for r in reply.json()["results"]}


def test_a_fact_contradicted_before_it_started_is_closed_where_it_would_have_begun(
    make_app: Callable[..., Omoide], data_dir: Path, clock: FixedClock
) -> None:
    app = make_app(embedder=bundled("use"))
    app.auth.create_persona("rin")
    said_at = clock.now().isoformat()
    planned_start = (clock.now() + timedelta(hours=1)).isoformat()
    planned = _write(app, "User lives in Tokyo", valid_from=planned_start)
    new = _write(app, "User moved to Osaka last month")
    app.evolution.evolve("rin", planned)
    clock.advance(hours=2)  # the job of the new fact runs late: the plan's start has come
    app.evolution.evolve("rin", new)
    with served(app, data_dir, "omo_admin_planned") as server, server.admin() as admin:
        wait_for_jobs(app, "rin")
        closed = admin.get(f"/api/memories/rin/{planned}").json()
        assert closed["superseded_by"] == new
        assert closed["valid_from"] == planned_start
        assert closed["valid_until"] == planned_start  # before: said_at, an inverted window
        successor = admin.get(f"/api/memories/rin/{new}").json()
        assert successor["valid_from"] == said_at  # when it was said, not the plan's start
        history = admin.get(f"/api/memories/rin/{planned}/history").json()["versions"]
        assert [(v["change"], v["changed_by"]) for v in history] == [
            ("create", "user"),
            ("supersede", "evolution"),
        ]
        ended = datetime.fromisoformat(history[-1]["after"]["valid_until"])
        assert ended == datetime.fromisoformat(planned_start)
        between = (clock.now() - timedelta(minutes=90)).isoformat()
        assert _keys_valid_at(admin, between) == {new}
        assert _keys_valid_at(admin, planned_start) == {new}  # the plan never held
        hits = admin.get("/api/search/rin", params={"q": "where does the user live"}).json()
        shown = {r["key"]: r for r in hits["results"]}
        assert shown[new]["current"] is True
        assert shown[planned]["current"] is False  # closed, still found
        export = admin.get("/api/export/rin")
        assert export.status_code == 200, export.text
        admin.post("/api/personas", json={"name": "copy"}).raise_for_status()
        reply = admin.post("/api/import/copy", content=export.content, headers=NDJSON)
        assert reply.status_code == 200, reply.text  # an export of a real folder imports
        inverted = [
            {**r, "valid_until": said_at} if r.get("key") == planned else r
            for r in (json.loads(line) for line in export.content.decode().splitlines())
        ]
        body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in inverted).encode()
        admin.post("/api/personas", json={"name": "other"}).raise_for_status()
        reply = admin.post("/api/import/other", content=body, headers=NDJSON)
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == "valid_until" and error["record"] == "memory", error
        assert error["message"].startswith(f"line {error['line']}: memory record"), error
        assert "before valid_from" in error["message"], error
        assert admin.get("/api/memories/other").json()["memories"] == []

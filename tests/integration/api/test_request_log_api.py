"""The request log (one structured line per request, never keys or content) and the route
labels of /metrics, through real HTTP."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import time
from typing import Any

import httpx
import pytest
from mcp_checks import INITIALIZE
from omoide_testing import LiveServer

from omoide.logs import JsonFormatter

SECRET_TEXT = "my locker code is 4471-zebra"

# The log lines and metric labels are written by the HTTP layer, whatever the store.
pytestmark = pytest.mark.sqlite_only


def test_each_request_is_logged_with_its_route_template_and_persona(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    key = server.create_persona("rin")
    caplog.set_level(logging.INFO)
    with server.client(key) as rin:
        assert rin.post("/api/memories/rin", json={"content": SECRET_TEXT}).status_code == 201
        assert rin.get("/api/search/rin", params={"q": SECRET_TEXT}).status_code in (200, 404)
        assert rin.get("/api/memories/kai").status_code == 403
    reply = httpx.post(
        f"{server.url}/mcp",
        json=INITIALIZE,
        headers={"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {key}"},
    )
    assert reply.status_code == 200
    deadline = time.monotonic() + 10  # the line is written once the response has ended
    while time.monotonic() < deadline and not any(
        getattr(r, "route", None) == "/mcp" for r in caplog.records
    ):
        time.sleep(0.05)
    access = [r for r in caplog.records if r.name == "omoide.access"]
    lines = [json.loads(JsonFormatter().format(r)) for r in access]
    fields = [{k: line[k] for k in ("method", "route", "status", "persona")} for line in lines]
    assert {
        "method": "POST",
        "route": "/api/memories/{persona}",
        "status": 201,
        "persona": "rin",
    } in fields
    assert {
        "method": "GET",
        "route": "/api/memories/{persona}",
        "status": 403,
        "persona": "kai",
    } in fields
    assert {"method": "POST", "route": "/mcp", "status": 200, "persona": "rin"} in fields
    assert all(isinstance(line["duration_ms"], float) for line in lines)
    server_side = [r for r in caplog.records if not r.name.startswith("httpx")]  # not the client
    everything = "\n".join(JsonFormatter().format(r) for r in server_side)
    assert key not in everything and server.admin_key not in everything
    assert SECRET_TEXT not in everything and "4471" not in everything


def test_mcp_is_labelled_in_metrics(server: LiveServer) -> None:
    key = server.create_persona("rin")
    httpx.post(
        f"{server.url}/mcp",
        json=INITIALIZE,
        headers={"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {key}"},
    )
    httpx.post(f"{server.url}/mcp", json=INITIALIZE)  # refused: 401
    with server.admin() as admin:
        text = admin.get("/metrics").text
    assert 'omoide_http_requests_total{method="POST",route="/mcp",status="200"} 1' in text
    assert 'omoide_http_requests_total{method="POST",route="/mcp",status="401"} 1' in text
    assert 'route="unmatched"' not in text
    assert "omoide_mcp_sessions 1" in text


def test_a_query_rewritten_on_the_way_in_keeps_its_route_and_persona_in_the_log(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The guard (a raw non-ASCII query, a body it refuses, normalises or strips of a BOM) and
    the full-width number reading (``top_k=１０``) hand the app a changed copy of the scope; the
    access log outside them still names the route the router matched and the persona (before:
    "unmatched", no persona)."""
    key = server.create_persona("rin")
    caplog.set_level(logging.INFO)
    with server.client(key) as rin:
        assert rin.get("/api/search/rin", params={"q": "東京", "top_k": "１０"}).status_code == 200
        json_type = {"content-type": "application/json"}
        assert (
            rin.post("/api/memories/rin", content=b"not json", headers=json_type).status_code == 422
        )
        assert (
            rin.post("/api/memories/rin", json={"content": "Cafe\u0301 at noon"}).status_code == 201
        )
        assert (
            rin.post(
                "/api/memories/rin",
                content='\ufeff{"content": "a BOM first"}'.encode(),
                headers=json_type,
            ).status_code
            == 201
        )
    raw = (
        f"GET /api/search/rin?q=京都&top_k=3 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}"
        "\r\nConnection: close\r\n\r\n"
    )
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(raw.encode())
        reply = sock.recv(65536)
    assert reply.startswith(b"HTTP/1.1 200"), reply[:200]
    deadline = time.monotonic() + 10
    while (
        time.monotonic() < deadline
        and sum(getattr(r, "route", None) == "/api/search/{persona}" for r in caplog.records) < 2
    ):
        time.sleep(0.05)
    fields = [
        {k: getattr(r, k, None) for k in ("route", "status", "persona")}
        for r in caplog.records
        if r.name == "omoide.access"
    ]
    searches = [f for f in fields if f["route"] == "/api/search/{persona}"]
    assert searches == [{"route": "/api/search/{persona}", "status": 200, "persona": "rin"}] * 2, (
        fields
    )
    writes = [f for f in fields if f["route"] == "/api/memories/{persona}"]
    assert [w["status"] for w in writes] == [422, 201, 201], fields
    assert all(w["persona"] == "rin" for w in writes), fields


def test_an_unexpected_error_is_counted_in_metrics_as_its_500(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A route that raises is answered 500 by Starlette's outermost layer, outside the metrics
    middleware: the access log said it, /metrics never counted it (a 5xx alert missed it)."""

    def broken() -> Any:
        raise RuntimeError("injected: a route failed unexpectedly")

    monkeypatch.setattr(server.omoide.maintenance, "personas", broken)
    with server.admin() as admin, contextlib.suppress(httpx.TransportError):
        assert admin.get("/api/personas").status_code == 500
    monkeypatch.undo()
    with server.admin() as admin:
        text = admin.get("/metrics").text
    assert 'omoide_http_requests_total{method="GET",route="/api/personas",status="500"} 1' in text

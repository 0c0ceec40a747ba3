"""What a hostile client found through a real server (session 30), each kept as a regression:
a body that is not JSON refused in Python's words ("not valid JSON: Expecting value at line 1
column 6", "Extra data") on every route and the import; a dashboard URL refused before its
page's route (a NUL or bytes that are not UTF-8 in the path or query string, a 404, a 405)
answered with the API's JSON; a 404 or 405 echoing a 5,000-character path whole, and ``/p/%0A``
said to take no method at all ("it takes ").
"""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest
from omoide_testing import LiveServer, refused

LONG = "x" * 5000
MAX_MESSAGE = 400
PYTHONS = re.compile("Expecting|Extra data|Unterminated|Invalid control|delimiter")


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("POST", "/api/memories/rin", {}),
        ("PUT", "/api/user-state/rin", {}),
        ("POST", "/v1/chat/completions", {"X-Omoide-Persona": "rin"}),
        ("POST", "/api/import/rin", {}),
        ("POST", "/api/import/rin", {"content-type": "application/x-ndjson"}),
    ],
)
@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"content":', "the text ends before the JSON value is complete (line 1, column 12)"),
        (
            b'{"content": "tea"}{}',
            "more text follows the end of the JSON value (line 1, column 19)",
        ),
        (
            b"{'content': 'tea'}",
            "a key in single quotes; JSON writes keys and strings in double "
            "quotes (line 1, column 2)",
        ),
    ],
)
def test_a_body_that_is_not_json_is_refused_in_the_readers_words(
    server: LiveServer, method: str, path: str, headers: dict[str, str], body: bytes, words: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        sent = {"content-type": "application/json", **headers}
        error = refused(rin.request(method, path, content=body, headers=sent), 422)
    assert f"not valid JSON: {words}" in error["message"], error
    assert not PYTHONS.search(error["message"]), error


def _page(reply: httpx.Response, status: int) -> str:
    """The dashboard's error page's message (HTML with its security headers, not JSON)."""
    assert reply.status_code == status, (reply.status_code, reply.text[:300])
    assert reply.headers["content-type"].startswith("text/html"), reply.headers
    assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', reply.text, re.S)
    assert found, reply.text[:300]
    return html.unescape(found.group(1))


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("method", "url", "status", "says"),
    [
        ("GET", "/p/rin%00", 422, "the path holds a NUL character (%00); remove it"),
        ("GET", "/p/rin/memories/mem_%00/edit", 422, "the path holds a NUL character"),
        ("GET", "/login%00", 422, "the path holds a NUL character"),
        ("GET", "/p/rin%FF", 422, "the path is not UTF-8 text once percent-decoded"),
        ("GET", "/p/rin/memories?q=%FF", 422, "query parameter 'q' is not UTF-8 text"),
        ("GET", "/p/rin/memories?q=tea%00", 422, "query parameter 'q' holds a NUL character"),
        ("GET", "/p/rin/nothing", 404, "no page /p/rin/nothing: the dashboard starts at /"),
        ("GET", "/p/a%2Fb", 404, "no page /p/a/b: the dashboard starts at /"),
        ("POST", "/p/rin", 405, "POST is not allowed on /p/rin; it takes GET, HEAD"),
        ("POST", "/p/%0A", 405, "POST is not allowed on /p/\\n; it takes GET, HEAD"),
        ("DELETE", "/", 405, "DELETE is not allowed on /; it takes GET, HEAD"),
    ],
)
def test_a_refused_dashboard_url_gets_the_dashboards_error_page(
    server: LiveServer, method: str, url: str, status: int, says: str
) -> None:
    """Session 30: refusals made before a page's route (the guard's NUL and UTF-8 checks, the
    app's 404 and 405) were the API's JSON, which a browser shows as raw text."""
    server.create_persona("rin")
    with httpx.Client(base_url=server.url, timeout=30) as browser:
        reply = browser.request(method, url)
    assert _page(reply, status).startswith(says)
    if status == 405:
        assert reply.headers["allow"] == "GET, HEAD"


@pytest.mark.sqlite_only
def test_a_long_path_is_cut_in_a_404_or_405(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        page = _page(client.post("/p/" + LONG), 405)
        error = refused(client.get("/api/" + LONG), 404)
    assert "xxxxx…" in page and len(page) < MAX_MESSAGE, page[:200]
    assert "xxxxx…" in error["message"] and len(error["message"]) < MAX_MESSAGE, error


@pytest.mark.sqlite_only
@pytest.mark.parametrize("url", ["/api/stats/rin%00", "/nope%00", "/nope", "/static/nope.js"])
def test_a_refused_url_outside_the_dashboard_is_still_the_apis_json(
    server: LiveServer, url: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        refused(rin.get(url), 404, 422)


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("source", "body", "says"),
    [
        (
            "mcp-memory",
            b'{"name": "Mika"}',
            'line 1: a record\'s "type" is "entity" or "relation" (it has none)',
        ),
        ("mcp-memory", b'{"type": 5}', 'a record\'s "type" is "entity" or "relation" (got 5)'),
        ("chat", b'[{"role": {"a": 1}, "content": "hi"}]', 'unknown role {"a": 1};'),
        ("chat", b'[{"role": "usr\\u0007", "content": "hi"}]', "unknown role 'usr\\u0007';"),
    ],
)
def test_a_peer_file_names_what_it_refuses_in_json_not_python(
    server: LiveServer, source: str, body: bytes, says: str
) -> None:
    """Session 30: "unknown type None (entity or relation)"; a role that is not text in
    Python's repr ({'a': 1})."""
    with server.client(server.create_persona("rin")) as rin:
        error = refused(
            rin.post(
                "/api/import/rin",
                params={"source": source},
                content=body,
                headers={"content-type": "application/json"},
            ),
            422,
        )
    assert says in error["message"], error
    assert "None" not in error["message"] and "{'a'" not in error["message"], error


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("patch", "shown"),
    [
        ({"timezone": LONG}, 'is not a known IANA time zone: "xxxxx'),
        ({LONG: 1}, "unknown setting 'xxxxx"),
    ],
)
def test_a_refused_setting_is_cut_and_quoted_as_json(
    server: LiveServer, patch: dict[str, object], shown: str
) -> None:
    """Session 30: a time zone of 100,000 characters was echoed whole, in Python's repr."""
    with server.client(server.create_persona("rin")) as rin:
        error = refused(rin.put("/api/settings/rin", json=patch), 422)
    assert shown in error["message"] and "…" in error["message"], error["message"][:200]
    assert len(error["message"]) < 1000 and len(json.dumps(error)) < 1200, len(error["message"])


UTF16 = '{"content": "tea"}'.encode("utf-16")  # with its byte order mark, as PowerShell writes


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/api/memories/rin", {"content-type": "application/json"}),
        ("/api/import/rin", {"content-type": "application/x-ndjson"}),
    ],
)
def test_a_utf16_body_is_told_to_be_utf8(
    server: LiveServer, path: str, headers: dict[str, str]
) -> None:
    """Session 30: "not UTF-8 (byte 0)" did not say the file was UTF-16."""
    with server.client(server.create_persona("rin")) as rin:
        error = refused(rin.post(path, content=UTF16, headers=headers), 422)
    assert (
        "it is UTF-16 (it starts with a UTF-16 byte order mark): save or send it as UTF-8"
        in error["message"]
    ), error


@pytest.mark.sqlite_only
def test_an_import_sent_as_a_multipart_form_says_to_send_the_file_itself(
    server: LiveServer,
) -> None:
    """Session 30: curl -F file=@x.jsonl was refused as "line 1: not valid JSON" (the form's
    boundary line)."""
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.post("/api/import/rin", files={"file": ("rin.jsonl", b'{"type": "header"}')})
        error = refused(reply, 422)
    assert error["message"].startswith("send the file itself as the request body"), error

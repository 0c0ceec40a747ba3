"""Session 35's hostile-input sweep of the dashboard's own routes (left out of the OpenAPI
sweep: they are not in the document), driven by the routers the app installs, over real HTTP
and signed in as admin: every route with odd path values (unknown and invalid personas, keys,
job ids, session ids, block names; percent-encoded NUL and non-UTF-8 bytes) and every method;
every form field of every form with hostile values; bodies that are not UTF-8, huge, JSON,
multipart or broken; every query parameter with hostile values. No answer is a 5xx or shows a
traceback, and every refusal is the dashboard's HTML error page (a browser shows it).

Then what the sweep found: a CSRF token or a session cookie holding a character beyond ASCII
was a 500 (``hmac.compare_digest`` refuses two such ``str``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from urllib.parse import urlencode

import httpx
import pytest
from omoide_testing import LiveServer

from omoide.api.http.dashboard import ROUTERS

pytestmark = pytest.mark.sqlite_only  # the pages' HTTP layer; their data is swept elsewhere

PATH_VALUES = {
    "persona": ["nobody", "a b", "%00", "x" * 300, "%FF", "ü", "Rin"],
    "key": ["mem_nope", "x" * 5000, "%FF", "%00", "ü"],
    "job_id": ["-1", "9" * 30, "abc", "1.5", "NaN"],
    "session_id": ["nope", "x" * 5000, "%FF", "%00"],
    "block_name": ["nope", "x" * 5000, "%FF", "%00"],
}
FORM_FIELDS = [
    "name",
    "value",
    "action",
    "content",
    "tags",
    "kind",
    "valid_from",
    "valid_until",
    "block_name",
    "block_type",
    "max_tokens",
    "priority",
    "existing",
    "confirm",
]
HOSTILE = ["", "x" * 200_000, "-1", "9" * 400, "NaN", "inf", "\x00", "\ud800", "1e999", "ü"]
QUERY_NAMES = [
    "q",
    "mode",
    "tags",
    "date_range",
    "valid_at",
    "kind",
    "deleted",
    "before",
    "purged",
    "said_in",
    "page",
    "after",
    "edit",
    "unknown",
]
METHODS = ["GET", "POST", "PUT", "DELETE"]


def _csrf(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None, page.text[:300]
    return found.group(1)


def _encoded(pairs: dict[str, str]) -> str:
    """A form or query string that may hold a lone surrogate (as the bytes it would be)."""
    return urlencode(pairs, encoding="utf-8", errors="surrogatepass")


@pytest.fixture
def signed_in(server: LiveServer) -> Iterator[tuple[httpx.Client, str, dict[str, str]]]:
    """An admin's browser session, its CSRF token, and the names of rin's memory (``key``),
    session ``s1``, block ``b1`` and a job id."""
    server.create_persona("rin")
    with server.admin() as api:
        made = api.post("/api/memories/rin", json={"content": "Ken drinks green tea"})
        assert api.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        block = api.post("/api/blocks/rin", json={"block_name": "b1", "content": "hi"})
        assert block.status_code in (200, 201), block.text
    names = {
        "persona": "rin",
        "key": made.json()["memory"]["key"],
        "job_id": "1",
        "session_id": "s1",
        "block_name": "b1",
    }
    with server.signed_in(server.admin_key) as client:
        yield client, _csrf(client.get("/p/rin")), names


def _sound(reply: httpx.Response, what: object) -> None:
    assert reply.status_code < 500, (what, reply.status_code, reply.text[:300])
    assert "Traceback" not in reply.text, what
    if reply.status_code >= 400 and reply.request.method != "HEAD":
        assert reply.headers["content-type"].startswith("text/html"), (what, reply.text[:200])


def _routes() -> list[tuple[str, set[str]]]:
    return [(r.path, set(r.methods)) for router in ROUTERS for r in router.routes]


def _filled(path: str, names: dict[str, str]) -> str:
    for name, value in names.items():
        path = path.replace("{" + name + "}", value)
    return path


def test_every_route_takes_odd_path_values_and_every_method_without_a_5xx(
    signed_in: tuple[httpx.Client, str, dict[str, str]],
) -> None:
    client, csrf, names = signed_in
    swept = 0
    for path, _ in _routes():
        params = re.findall(r"{(\w+)}", path)
        choices = [[names[p], *PATH_VALUES[p]] for p in params]
        for values in itertools.product(*choices):
            url = _filled(path, dict(zip(params, values, strict=True)))
            for method in METHODS:
                reply = client.request(method, url, data={"csrf": csrf})
                _sound(reply, (method, url[:80]))
                swept += 1
    assert swept > 600


def test_every_form_field_takes_hostile_values_without_a_5xx(
    signed_in: tuple[httpx.Client, str, dict[str, str]],
) -> None:
    client, csrf, names = signed_in
    form = {"content-type": "application/x-www-form-urlencoded"}
    posted = [_filled(path, names) for path, methods in _routes() if "POST" in methods]
    posted = [url for url in posted if not url.endswith(("/delete", "/purge", "/logout"))]
    for url in posted:
        for field in FORM_FIELDS:
            for value in HOSTILE:
                pairs = {"csrf": csrf, "name": "keep_recent", field: value}
                body = _encoded(pairs).encode("utf-8", "surrogatepass")
                _sound(client.post(url, content=body, headers=form), (url, field, value[:20]))


def test_every_form_takes_broken_bodies_without_a_5xx(
    signed_in: tuple[httpx.Client, str, dict[str, str]],
) -> None:
    client, csrf, names = signed_in
    token = csrf.encode()
    multipart = (
        b'--b\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n' + token + b"\r\n--b--\r\n"
    )
    bodies = [
        (b"csrf=" + token + b"&content=\xff\xfe&name=\xc3", "application/x-www-form-urlencoded"),
        (b"x" * 5_000_000, "application/x-www-form-urlencoded"),
        (b'{"csrf": "' + token + b'"}', "application/json"),
        (multipart, "multipart/form-data; boundary=b"),
        (b"--b\r\n", "multipart/form-data"),
        (b"csrf=" + token + b"&&&==&%&%zz", "application/x-www-form-urlencoded"),
        (b"csrf=" + token, "application/x-www-form-urlencoded; charset=latin-1"),
        (b"\xff\xfe\x00", "text/plain"),
    ]
    for path, methods in _routes():
        if "POST" not in methods:
            continue
        url = _filled(path, names)
        for body, kind in bodies:
            headers = {"content-type": kind, "x-csrf-token": csrf}
            _sound(client.post(url, content=body, headers=headers), (url, body[:30]))


def test_every_page_takes_hostile_query_values_without_a_5xx(
    signed_in: tuple[httpx.Client, str, dict[str, str]],
) -> None:
    client, _, names = signed_in
    pages = [_filled(path, names) for path, methods in _routes() if "GET" in methods]
    for url in pages:
        for name in QUERY_NAMES:
            for value in [v[:20_000] for v in HOSTILE]:
                searched = ({"q": "tea", name: value},) if url.endswith("/memories") else ()
                for pairs in ({name: value}, *searched):  # with a query: the search's path
                    query = _encoded(pairs)
                    _sound(client.get(f"{url}?{query}"), (url, name, value[:20]))
            _sound(client.get(f"{url}?{name}=1&{name}=2"), (url, name, "twice"))


def test_a_csrf_token_beyond_ascii_is_refused_not_a_500(server: LiveServer) -> None:
    """``hmac.compare_digest`` raised TypeError for a token holding 'ü' (a 500 on the sign-in
    form and on every form of a signed-in page); such a token is now just a wrong one."""
    server.create_persona("rin")
    with httpx.Client(base_url=server.url, timeout=30) as client:
        client.get("/login")
        refused = client.post("/login", data={"key": server.admin_key, "csrf": "ü"})
        assert refused.status_code == 403 and "CSRF" in refused.text
        signed = client.post(
            "/login", data={"key": server.admin_key, "csrf": _csrf(client.get("/login"))}
        )
        assert signed.status_code == 303
        form = client.post("/p/rin/settings", data={"csrf": "ü", "name": "keep_recent"})
        assert form.status_code == 403 and "CSRF token" in form.text
        header = client.post(
            "/p/rin/settings", headers={"x-csrf-token": "é".encode("latin-1")}, data={}
        )
        assert header.status_code == 403


@pytest.mark.parametrize("cookie", ["1.n.99999999999.é", "é.é.é.é", "1.é.2.3"])
def test_a_session_cookie_beyond_ascii_signs_out_not_a_500(server: LiveServer, cookie: str) -> None:
    """A forged cookie whose signature holds 'é' reached ``compare_digest`` (a 500); it is
    read as any forged cookie: sign in again."""
    server.create_persona("rin")
    raw = f"omoide_session={cookie}".encode("latin-1")
    reply = httpx.get(f"{server.url}/p/rin", headers={"cookie": raw}, follow_redirects=False)
    assert reply.status_code == 303 and reply.headers["location"] == "/login"

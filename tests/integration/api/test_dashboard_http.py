"""The dashboard over plain HTTP: sessions, CSRF, headers, offline /docs (no browser needed)."""

from __future__ import annotations

import html
import json
import re
import select
import socket
import stat
from urllib.parse import urlsplit

import httpx
import pytest
from omoide_testing import LiveServer

from omoide.api.http.dashboard.session import SECRET_FILE


def _csrf(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def test_root_redirects_to_login_when_signed_out(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        reply = client.get("/")
        assert reply.status_code == 303 and reply.headers["location"] == "/login"
        assert client.get("/p/rin/memories").headers["location"] == "/login"


def test_login_without_its_csrf_token_is_refused(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        assert client.post("/login", data={"key": server.admin_key}).status_code == 403
        assert "omoide_session" not in client.cookies


def test_session_cookie_is_signed_and_expires(server: LiveServer) -> None:
    with server.signed_in(server.admin_key) as client:
        value = client.cookies["omoide_session"]
        assert server.admin_key not in value
        assert client.get("/").status_code == 200
        key_id, nonce, expires, signature = value.split(".")
        client.cookies.set("omoide_session", f"{key_id}.{nonce}.{int(expires) + 9999}.{signature}")
        assert client.get("/").status_code == 303  # tampered: the signature no longer fits
        client.cookies.set("omoide_session", value)
        server.omoide.clock.advance(hours=13)  # type: ignore[attr-defined]
        assert client.get("/").status_code == 303  # expired after 12 h


def test_set_cookie_flags(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        csrf = _csrf(client.get("/login"))
        reply = client.post("/login", data={"key": server.admin_key, "csrf": csrf})
        header = reply.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=strict" in header and "max-age=43200" in header


def test_secret_file_is_private(server: LiveServer) -> None:
    path = server.omoide.settings.data_dir / SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_pages_carry_a_strict_content_security_policy(server: LiveServer) -> None:
    with server.signed_in(server.admin_key) as client:
        csp = client.get("/").headers["content-security-policy"]
    assert "script-src 'self';" in csp and "style-src 'self';" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_persona_key_gets_403_for_another_persona(server: LiveServer) -> None:
    rin_key = server.create_persona("rin")
    server.create_persona("kai")
    with server.signed_in(rin_key) as client:
        assert client.get("/p/rin").status_code == 200
        page = client.get("/p/rin/blocks")
        for path in ("/p/kai", "/p/kai/memories", "/p/kai/settings"):
            assert client.get(path).status_code == 403, path
        reply = client.post(
            "/p/kai/blocks",
            data={
                "csrf": _csrf(page),
                "block_name": "x",
                "content": "y",
                "max_tokens": "9",
                "priority": "0",
            },
        )
        assert reply.status_code == 403
    assert server.omoide.blocks.list_blocks("kai") == []


def test_docs_reference_no_external_url(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        page = client.get("/docs")
        assert page.status_code == 200
        assert "http://" not in page.text and "https://" not in page.text
        assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert assets and all(a.startswith("/static/") for a in assets)
        for asset in assets:
            assert client.get(asset).status_code == 200, asset
        assert client.get("/static/swagger-ui/LICENSE").status_code == 200


def test_dashboard_routes_stay_out_of_the_openapi_schema(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as client:
        paths = client.get("/openapi.json").json()["paths"]
    assert not [p for p in paths if p == "/" or p.startswith(("/p/", "/login", "/logout"))]


def test_purge_needs_its_confirmation(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as api:
        memory = api.post("/api/memories/rin", json={"content": "Forget me"}).json()["memory"]
    with server.signed_in(key) as client:
        page = client.get(f"/p/rin/memories/{memory['key']}/purge")
        assert page.status_code == 200
        url = f"/p/rin/memories/{memory['key']}/purge"
        assert client.post(url, data={"csrf": _csrf(page)}).status_code == 422
        assert (
            client.post(url, data={"csrf": _csrf(page), "confirm": "mem_other"}).status_code == 422
        )
        assert server.omoide.memories.get("rin", memory["key"], recall=False).content == "Forget me"
        reply = client.post(url, data={"csrf": _csrf(page), "confirm": memory["key"]})
        assert reply.status_code == 303
        assert client.get(f"/p/rin/memories/{memory['key']}").status_code == 404


def test_numbers_too_large_for_the_store_are_a_422_not_a_500(server: LiveServer) -> None:
    """A session page's ``after`` and a job id beyond any integer the store holds raised
    OverflowError in the SQLite driver (500); they are refused like any other bad number."""
    key = server.create_persona("rin")
    with server.client(key) as api:
        assert api.post("/api/sessions/rin", json={"session_id": "s-1"}).status_code in (200, 201)
    huge = str(10**23)
    with server.signed_in(key) as client:
        assert client.get("/p/rin/sessions/s-1?after=9007199254740991").status_code == 200
        assert client.get(f"/p/rin/sessions/s-1?after={huge}").status_code == 422
        assert client.get("/p/rin/sessions/s-1?after=9223372036854775808").status_code == 422
        csrf = _csrf(client.get("/p/rin"))
        assert client.post(f"/p/rin/jobs/{huge}/retry", data={"csrf": csrf}).status_code == 422
        assert client.post("/p/rin/jobs/1/retry", data={"csrf": csrf}).status_code == 404


NUMBER_TEXTS = [
    ("keep_recent", "9"),
    ("keep_recent", " 7 "),
    ("keep_recent", "1e1"),
    ("keep_recent", "7.5"),
    ("keep_recent", "300"),
    ("keep_recent", "-1"),
    ("importance_weight", "0.25"),
    ("importance_weight", "2.5e-1"),
    ("importance_weight", "1e400"),
    ("importance_weight", "0"),
]
NOT_NUMBERS = [
    ("keep_recent", "1_0"),
    ("keep_recent", "+5"),
    ("keep_recent", "٣"),
    ("keep_recent", "0x10"),
    ("keep_recent", "07"),
    ("keep_recent", "１_０"),
    ("importance_weight", ".5"),
    ("importance_weight", "5."),
    ("importance_weight", "nan"),
    ("importance_weight", "Infinity"),
    ("importance_weight", "1_0.5"),
]


def _dashboard_error(page: httpx.Response) -> str | None:
    found = re.search(r'<p class="error" role="alert">([^<]*)</p>', page.text)
    return None if found is None else html.unescape(found.group(1))


def test_settings_form_reads_numbers_as_the_api_does(server: LiveServer) -> None:
    """The settings form's text went through Python's int()/float(), which read full-width
    and other scripts' digits ("１" → 1) and underscores ("1_000" → 1000) that the HTTP API,
    reading JSON numbers, refuses. A number the form takes is now one JSON writes; it is
    accepted or refused as the API treats that number, with the API's message."""
    key = server.create_persona("rin")
    with server.signed_in(key) as client, server.client(key) as api:
        for name, text in NUMBER_TEXTS:
            page = client.get("/p/rin/settings")
            form = client.post(
                "/p/rin/settings", data={"csrf": _csrf(page), "name": name, "value": text}
            )
            put = api.put(
                "/api/settings/rin",
                content=f'{{"{name}": {text}}}',
                headers={"content-type": "application/json"},
            )
            assert (form.status_code == 303) == (put.status_code == 200), (name, text)
            if put.status_code != 200:
                assert form.status_code == put.status_code == 422, (name, text)
                said = put.json()["error"]["message"]  # the body's reader says "request body:"
                assert _dashboard_error(form) == said.replace(
                    "request body:", f"setting {name!r}:"
                ), (name, text)
            else:
                assert (
                    server.omoide.settings_service.overrides("rin")[name]
                    == put.json()["overrides"][name]
                )
        before = server.omoide.settings_service.overrides("rin")
        for name, text in NOT_NUMBERS:
            page = client.get("/p/rin/settings")
            form = client.post(
                "/p/rin/settings", data={"csrf": _csrf(page), "name": name, "value": text}
            )
            assert form.status_code == 422, (name, text)
            said = _dashboard_error(form) or ""
            assert f"got {json.dumps(text, ensure_ascii=False)}" in said, (name, text)
            assert "digits 0-9" in (_dashboard_error(form) or "")
            assert api.put("/api/settings/rin", json={name: text}).status_code == 422
        assert server.omoide.settings_service.overrides("rin") == before


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        pytest.param("session_idle_minutes", "３０", 30.0, id="full-width-digits"),
        pytest.param("keep_recent", "　１２　", 12, id="ideographic-spaces"),
        pytest.param("importance_weight", "０．２５", 0.25, id="full-width-stop"),
        pytest.param("importance_weight", "２．５ｅ－１", 0.25, id="full-width-exponent"),
        pytest.param("context_include_blocks", "ｔｒｕｅ", True, id="full-width-boolean"),
    ],
)
def test_settings_form_reads_full_width_digits_as_ascii(
    server: LiveServer, name: str, text: str, value: object
) -> None:
    """ "３０" for session_idle_minutes, typed with a Japanese input method, was refused while
    every date the API reads takes full-width digits; the form now reads full-width forms as
    their ASCII letters (other scripts' digits, such as "٣", stay refused)."""
    key = server.create_persona("rin")
    with server.signed_in(key) as client:
        page = client.get("/p/rin/settings")
        form = client.post(
            "/p/rin/settings", data={"csrf": _csrf(page), "name": name, "value": text}
        )
        assert form.status_code == 303, _dashboard_error(form)
    assert server.omoide.settings_service.overrides("rin")[name] == value


def test_the_sessions_pages_say_how_each_session_ended(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as api:
        for session_id in ("told", "open"):
            assert api.post("/api/sessions/rin", json={"session_id": session_id}).status_code == 201
        api.post("/api/sessions/rin/told/end").raise_for_status()
    with server.signed_in(key) as client:
        listed = client.get("/p/rin/sessions")
        assert listed.status_code == 200
        assert re.search(r"<td>[^<]+ by client</td>", listed.text)
        assert "<td>open</td>" in listed.text
        page = client.get("/p/rin/sessions/told")
        assert page.status_code == 200 and " by client;" in page.text


def test_deleting_a_deleted_memory_again_goes_back_to_its_page(server: LiveServer) -> None:
    """A second delete (another tab, a double click) raised the API's refusal as an error
    page; the memory is deleted, which the page it goes back to shows."""
    key = server.create_persona("rin")
    with server.client(key) as api:
        made = api.post("/api/memories/rin", json={"content": "Ken drinks green tea."}).json()
    memory = made["memory"]["key"]
    with server.signed_in(key) as client:
        for _ in range(2):
            page = client.get(f"/p/rin/memories/{memory}")
            gone = client.post(f"/p/rin/memories/{memory}/delete", data={"csrf": _csrf(page)})
            assert gone.status_code == 303, gone.text
    with server.client(key) as api:
        assert api.get(f"/api/memories/rin/{memory}").json()["status"] == "tombstoned"


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("1_0", None),
        ("+5", None),
        ("٣", None),
        ("7.5", None),
        ("1e400", None),
        ("１２", 12),
        (" 12 ", 12),
        ("1.2e1", 12),
    ],
)
def test_the_blocks_form_reads_numbers_as_the_settings_form(
    server: LiveServer, text: str, stored: int | None
) -> None:
    """Session 25's probe: the blocks form read ``priority`` with ``int()``, so ``1_0`` was
    ten; it reads a number as the settings form and the query do (``engine.number_text``)."""
    key = server.create_persona("rin")
    with server.signed_in(key) as client:
        page = client.get("/p/rin/blocks")
        reply = client.post(
            "/p/rin/blocks",
            data={
                "csrf": _csrf(page),
                "block_name": "b1",
                "content": "y",
                "max_tokens": "50",
                "priority": text,
            },
        )
        blocks = server.omoide.blocks.list_blocks("rin")
        if stored is None:
            assert reply.status_code == 422, reply.text
            assert "priority" in (_dashboard_error(reply) or ""), reply.text
            assert blocks == []
        else:
            assert reply.status_code == 303, reply.text
            assert [b.priority for b in blocks] == [stored]


@pytest.mark.parametrize(
    "query", ["page=1_0", "page=%2B2", "page=.5", "page=nan", "page=٢", "page=2.5"]
)
def test_a_page_number_that_is_no_json_number_is_a_422(server: LiveServer, query: str) -> None:
    """``page=1_0`` (and ``after=1_0``) was read as 10 by ``int()``: the dashboard's numbers
    are read as the API's query numbers are, and refused with the parameter's name."""
    key = server.create_persona("rin")
    with server.client(key) as api:
        assert api.post("/api/sessions/rin", json={"session_id": "s-1"}).status_code in (200, 201)
    with server.signed_in(key) as client:
        reply = client.get(f"/p/rin/sessions?{query}")
        assert reply.status_code == 422, reply.text
        assert "page" in html.unescape(reply.text)
        after = client.get(f"/p/rin/sessions/s-1?{query.replace('page', 'after')}")
        assert after.status_code == 422
        assert "after" in html.unescape(after.text)
        assert client.get("/p/rin/sessions?page=２").status_code == 200  # full width: 2
        assert client.get("/p/rin/sessions/s-1?after=1e1").status_code == 200
        assert client.get("/p/kai/sessions?page=1_0").status_code == 403  # who may ask first
        csrf = _csrf(client.get("/p/rin"))  # a job id in the path is read alike
        retried = client.post("/p/rin/jobs/1_0/retry", data={"csrf": csrf})
        assert retried.status_code == 422 and "job_id" in html.unescape(retried.text)
        half = client.post("/p/rin/jobs/7.5/retry", data={"csrf": csrf})
        assert half.status_code == 422 and "job_id" in html.unescape(half.text)
        assert "valid integer" not in html.unescape(half.text)
        for read in ("1e0", "１"):  # the reader's numbers: job 1, which does not exist
            assert client.post(f"/p/rin/jobs/{read}/retry", data={"csrf": csrf}).status_code == 404
    with httpx.Client(base_url=server.url) as signed_out:
        assert signed_out.get("/p/rin/sessions?page=1_0").headers["location"] == "/login"


def test_a_settings_post_that_names_no_setting_says_so(server: LiveServer) -> None:
    """Session 30: a post without the form's 'name' said "unknown setting ''"."""
    key = server.create_persona("rin")
    with server.signed_in(key) as client:
        csrf = _csrf(client.get("/p/rin/settings"))
        reply = client.post("/p/rin/settings", data={"csrf": csrf, "value": "5"})
    assert reply.status_code == 422 and reply.headers["content-type"].startswith("text/html")
    assert "the form names no setting (its field &#39;name&#39;)" in reply.text, reply.text
    assert "unknown setting &#39;&#39;" not in reply.text


def _too_long(server: LiveServer, target: bytes) -> tuple[bytes, bytes]:
    """GET ``target`` (a URL longer than the server reads) sent in several reads, as a
    browser's long search is; the reply's head and body."""
    url = urlsplit(server.url)
    data = b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        # Past the server's 16 KiB (and a read's worth more) it has all it will read: sending
        # on after its answer (a busy machine's slow one) would be reset, the answer with it.
        for start in range(0, min(len(data), 20 * 1024), 4096):
            sock.sendall(data[start : start + 4096])
            if select.select([sock], [], [], 0.1)[0]:
                break  # answered: what is left would not be read
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return head, body


def test_a_dashboard_search_too_long_to_read_is_the_dashboards_error_page(
    server: LiveServer,
) -> None:
    """A search box's text over the server's 16 KiB request line was the HTTP layer's 414 as
    JSON, shown raw in the browser; under a dashboard URL it is the dashboard's error page
    (docs/dashboard.md), under the API's still the JSON."""
    head, body = _too_long(server, b"/p/rin/memories?q=" + b"a" * 70_000)
    assert head.startswith(b"HTTP/1.1 414 "), head
    assert b"content-type: text/html" in head.lower() and b"content-security-policy" in head.lower()
    assert b"<h1>Error 414</h1>" in body and b"search with a shorter text" in body, body[:500]
    head, body = _too_long(server, b"/api/search/rin?q=" + b"a" * 70_000)
    assert head.startswith(b"HTTP/1.1 414 ") and b"application/json" in head.lower(), head
    assert json.loads(body)["error"]["code"] == "uri_too_long"

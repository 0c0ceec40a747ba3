"""Every dashboard page, swept with control characters (ESC, DEL, a C1 control, a right-to-left
override, a line break) in each query parameter, path segment and one-line form field it takes:
the answer is a clear 4xx page naming the character, and nothing of it comes back raw.

Before: the memories page alone refused them (its search form). ``?purged=`` was written into
the memories page raw (a 200); ``?edit=``, ``?page=``, ``?after=``, ``?kind=``, ``?before=``
and a persona, key or unknown path segment holding DEL, a C1 control or a bidirectional
override were echoed raw by the error (JSON escapes only U+0000–U+001F); the blocks editor
showed a refused name, type or number back raw."""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
import pytest
from omoide_testing import LiveServer

_RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_ALERT = re.compile(r'role="alert">(.*?)</p>', re.S)
CONTROLS = ["a\x1bb", "a\x7fb", "a\x85b", "ab\u202e", "a\nb"]


def _csrf(text: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', text)
    assert found is not None
    return found.group(1)


def _refused(reply: httpx.Response, *, naming: bool = True) -> None:
    assert 400 <= reply.status_code < 500, (reply.status_code, str(reply.request.url))
    assert reply.headers["content-type"].startswith("text/html")
    assert _RAW.search(reply.text) is None
    shown = _ALERT.search(reply.text)
    assert shown is not None
    assert not naming or re.search(r"U\+[0-9A-F]{4}|\\[nu]", shown.group(1))


@pytest.mark.parametrize("bad", CONTROLS, ids=["esc", "del", "c1", "rtl-override", "newline"])
def test_every_page_refuses_a_control_character_with_a_clear_4xx_and_shows_none_raw(
    server: LiveServer, bad: str
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as api:
        made = api.post("/api/memories/rin", json={"content": "The user keeps bees."})
        memory = made.json()["memory"]["key"]
    segment = quote(bad, safe="")
    with server.signed_in(server.admin_key) as page:
        csrf = _csrf(page.get("/p/rin/blocks").text)
        gets: list[tuple[str, dict[str, str]]] = [
            (url, {"x": bad})
            for url in (
                "/",
                "/p/rin",
                "/p/rin/state",
                "/p/rin/settings",
                "/p/rin/sessions",
                "/p/rin/memories",
                f"/p/rin/memories/{memory}",
                f"/p/rin/memories/{memory}/purge",
            )
        ]
        gets += [(f"/p/rin/memories?{quote(bad)}=1", {})]  # in a parameter's name
        gets += [("/p/rin/sessions", {"page": bad}), ("/p/rin/sessions/s1", {"after": bad})]
        gets += [("/p/rin/blocks", {"edit": bad})]
        gets += [
            ("/p/rin/memories", {name: bad})
            for name in ("q", "mode", "tags", "date_range", "valid_at", "kind", "before")
        ]
        gets += [("/p/rin/memories", {n: bad}) for n in ("purged", "said_in", "scrub", "deleted")]
        gets += [("/p/rin/memories", {"q": "bees", "mode": bad}), ("/p/" + segment, {})]
        gets += [(f"/p/rin/{p}/{segment}", {}) for p in ("memories", "sessions")]
        gets += [(f"/p/rin/{segment}", {})]  # no page: the app's 404
        for url, params in gets:
            _refused(page.get(url, params=params or None))

        block = {"block_name": "b", "content": "x", "max_tokens": "5", "priority": "0"}
        posts: list[tuple[str, dict[str, str]]] = [
            ("/p/rin/blocks", {**block, name: "b" + bad})
            for name in ("block_name", "block_type", "max_tokens", "priority")
        ]
        posts += [
            (f"/p/rin/memories/{memory}/edit", {"content": "bees", name: "t" + bad})
            for name in ("tags", "kind", "valid_from", "valid_until")
        ]
        posts += [("/p/rin/settings", {"name": bad, "value": "1"})]
        posts += [("/p/rin/settings", {"name": "timezone", "value": bad})]
        for url, data in posts:
            _refused(page.post(url, data={**data, "csrf": csrf}))
        purge = {"confirm": bad, "csrf": csrf}  # refused as any wrong confirmation is
        _refused(page.post(f"/p/rin/memories/{memory}/purge", data=purge), naming=False)


def test_the_block_editor_refusing_a_control_character_holds_the_form_without_it(
    server: LiveServer,
) -> None:
    server.create_persona("rin")
    with server.signed_in(server.admin_key) as page:
        csrf = _csrf(page.get("/p/rin/blocks").text)
        form = {"block_name": "notes\x1b", "content": "x", "max_tokens": "50", "priority": "1"}
        reply = page.post("/p/rin/blocks", data={**form, "csrf": csrf})
        assert reply.status_code == 422 and _RAW.search(reply.text) is None
        assert "name holds a control character (U+001B at position 6)" in reply.text
        assert 'name="block_name" value="notes "' in reply.text
        retried = page.post("/p/rin/blocks", data={**form, "block_name": "notes", "csrf": csrf})
        assert retried.status_code == 303


def test_a_memorys_text_is_isolated_from_the_marks_beside_it(server: LiveServer) -> None:
    """A memory holding a right-to-left override (U+202E) or Hebrew/Arabic text: outside a
    ``<bdi>``, the bidi algorithm reorders the "closed · valid until …" and "deleted" marks
    written after it in the same cell, and an override left open reverses them."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        made = rin.post("/api/memories/rin", json={"content": "\u202eUser likes owls"})
        assert made.status_code == 201, made.text
        assert rin.delete(f"/api/memories/rin/{made.json()['memory']['key']}").status_code == 200
    with server.signed_in(key) as client:
        page = client.get("/p/rin/memories", params={"deleted": "true"})
        assert page.status_code == 200
        # isolated, and the override itself shown marked, not raw (dashboard/shown.py)
        assert "<bdi>⟨U+202E⟩User likes owls</bdi>" in page.text
        assert "\u202e" not in page.text

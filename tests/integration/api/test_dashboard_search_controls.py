"""A dashboard search whose query holds a control character: a clear 422 page whose links
work and that echoes no raw control character. NUL is refused before any route (with every
query string, the API's too): the dashboard's error page, its link back to the personas. Any
other (ESC, DEL, a C1 control, a right-to-left override) is refused on the memories page
itself, naming the field and the character, with the search form holding the query without
it (a space each), so the retry and the Clear link work.

Before: ``?q=a%1Bb`` was searched and written back raw into the page (the search box and the
results' heading)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from omoide_testing import LiveServer

_RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@contextmanager
def _signed_in(server: LiveServer) -> Iterator[httpx.Client]:
    key = server.create_persona("rin")
    with server.client(key) as api:
        assert api.post("/api/memories/rin", json={"content": "The user keeps bees."}).is_success
    with server.signed_in(key) as client:
        yield client


def _links(page: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)"', page)


@pytest.mark.parametrize(
    ("raw", "code", "cleaned"),
    [
        pytest.param("bees\x1bx", "U+001B at position 5", "bees x", id="esc"),
        pytest.param("be\x7fes", "U+007F at position 3", "be es", id="del"),
        pytest.param("\x85bees", "U+0085 at position 1", " bees", id="c1"),
        pytest.param("bees\u202e", "U+202E at position 5", "bees ", id="rtl-override"),
    ],
)
def test_a_search_holding_a_control_character_is_a_422_page_with_working_links(
    server: LiveServer, raw: str, code: str, cleaned: str
) -> None:
    with _signed_in(server) as page:
        reply = page.get("/p/rin/memories", params={"q": raw, "tags": "x"})
        assert reply.status_code == 422, reply.text
        assert _RAW.search(reply.text) is None
        assert f"the search holds a control character ({code})" in reply.text
        assert f'name="q" value="{cleaned}"' in reply.text  # the retry, without it
        assert 'action="/p/rin/memories"' in reply.text
        for link in _links(reply.text):
            if link.startswith("/") and not link.startswith("/logout"):
                assert page.get(link).status_code == 200, link
        retried = page.get("/p/rin/memories", params={"q": cleaned})
        assert retried.status_code == 200 and "The user keeps bees." in retried.text


def test_a_search_holding_nul_is_the_dashboards_error_page_with_a_working_link(
    server: LiveServer,
) -> None:
    with _signed_in(server) as page:
        reply = page.get("/p/rin/memories?q=be%00es")
        assert reply.status_code == 422, reply.text
        assert reply.headers["content-type"].startswith("text/html")
        assert "query parameter &#39;q&#39; holds a NUL character (%00); remove it" in reply.text
        assert _RAW.search(reply.text) is None
        assert "/" in _links(reply.text)  # back to the personas
        for link in _links(reply.text):
            assert page.get(link).status_code == 200, link

"""Which URLs are the dashboard's: a refusal of one is its HTML error page, of any other the
API's JSON (``web.is_page``)."""

from __future__ import annotations

import pytest

from omoide.api.http.dashboard.web import is_page


@pytest.mark.parametrize(("path", "page"), [
    ("/", True), ("/login", True), ("/login\x00", True), ("/logout", True), ("/docs", True),
    ("/p", True), ("/p/rin", True), ("/p/rin/memories/k/edit", True), ("/p/\ufffd", True),
    ("/api/stats/rin", False), ("/v1/models", False), ("/mcp", False), ("/health", False),
    ("/static/dashboard.js", False), ("/nope", False), ("//p/rin", False), ("/\x00", True),
    ("*", False), ("", False), ("/people", False), ("/loginx", False),
])
def test_the_dashboards_urls_are_its_pages_and_nothing_else(path: str, page: bool) -> None:
    assert is_page(path) is page

"""Which URLs are the dashboard's: a refusal of one is its HTML error page, of /mcp a JSON-RPC
error, of any other the API's JSON (``web.is_page``, ``app.reader_of``)."""

from __future__ import annotations

import pytest

from omoide.api.http.app import Reader, reader_of
from omoide.api.http.dashboard.web import is_page, path_controls


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/", True),
        ("/login", True),
        ("/login\x00", True),
        ("/logout", True),
        ("/docs", True),
        ("/p", True),
        ("/p/rin", True),
        ("/p/rin/memories/k/edit", True),
        ("/p/\ufffd", True),
        ("/api/stats/rin", False),
        ("/v1/models", False),
        ("/mcp", False),
        ("/health", False),
        ("/static/dashboard.js", False),
        ("/nope", False),
        ("//p/rin", False),
        ("/\x00", True),
        ("/login\x1b", True),  # a control character is the page's URL, refused as such
        ("/docs\u202e", True),
        ("/\x1b", True),
        ("/p\x85/rin", True),
        ("/mcp\x1b", False),
        ("/api\x1b/stats", False),
        ("*", False),
        ("", False),
        ("/people", False),
        ("/loginx", False),
    ],
)
def test_the_dashboards_urls_are_its_pages_and_nothing_else(path: str, page: bool) -> None:
    assert is_page(path) is page


@pytest.mark.parametrize(
    ("path", "reader"),
    [
        pytest.param("/", Reader.PAGE, id="overview"),
        pytest.param("/p/rin/memories", Reader.PAGE, id="page"),
        pytest.param("/login\x00", Reader.PAGE, id="sign-in-with-nul"),
        pytest.param("/mcp", Reader.MCP, id="mcp"),
        pytest.param("/mcp/", Reader.API, id="not-mcp-route"),
        pytest.param("/api/stats/rin", Reader.API, id="api"),
        pytest.param("/nope", Reader.API, id="no-route"),
    ],
)
def test_one_decision_names_who_reads_an_error_for_a_path(path: str, reader: Reader) -> None:
    assert reader_of(path) is reader


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ("/login\x1b", "the URL's path holds a control character (U+001B at position 7)"),
        (
            "/p/rin/memories\u202e",
            "the URL's path holds a control character (U+202E at position 16)",
        ),
        ("/p/rin/nothing", None),
        ("/p/\u540d\u524d", None),
    ],
)
def test_a_pages_path_holding_a_control_character_is_refused_naming_it(
    path: str, refused: str | None
) -> None:
    said = path_controls(path)
    assert (said if said is None else said.split(", which")[0]) == refused

"""Session 45: the API's "no route" 404 (and its 405) named the path with DEL, the C1 controls
and the bidirectional overrides raw (JSON's quoting escapes U+0000-U+001F only), so
``/api/x%E2%80%AE`` sent a U+202E that reversed the rest of the message where it is shown;
a C0 control was already written as JSON writes it (``\\u001b``). Each is now written so, as
the dashboard's error page writes them."""

from __future__ import annotations

import httpx
import pytest
from omoide_testing import refused

pytestmark = pytest.mark.sqlite_only  # the router's words, the same on either store


@pytest.mark.parametrize(
    ("method", "path", "status", "said"),
    [
        pytest.param(
            "GET",
            "/api/nothing%7F%C2%85%E2%80%AEok",
            404,
            "no route /api/nothing\\u007f\\u0085\\u202eok: the API's routes are listed at "
            "/docs (OpenAPI: /openapi.json)",
            id="404",
        ),
        pytest.param(
            "GET",
            "/api/nothing%1B%E2%81%A6",
            404,
            "no route /api/nothing\\u001b\\u2066: the API's routes are listed at /docs "
            "(OpenAPI: /openapi.json)",
            id="404-c0-and-isolate",
        ),
        pytest.param(
            "GET",
            "/api/personas/x%E2%80%AE",
            405,
            "GET is not allowed on /api/personas/x\\u202e; it takes DELETE",
            id="405",
        ),
    ],
)
def test_a_path_a_404_or_405_names_holds_no_raw_control_character(
    rin: httpx.Client, method: str, path: str, status: int, said: str
) -> None:
    error = refused(rin.request(method, path), status)
    assert error["message"] == said
    assert not any(ord(c) == 0x7F or 0x80 <= ord(c) <= 0x9F for c in error["message"])
    assert not any(c in error["message"] for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2069")

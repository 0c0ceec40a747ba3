"""``api.errors.error_bytes``: the refusals written below the app (the body guard, the HTTP
protocol) are byte for byte the body a route's ``JSONResponse`` writes."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.responses import JSONResponse

from omoide.api.errors import error_bytes
from omoide.errors import error_body


@pytest.mark.parametrize(
    ("code", "message", "fields"),
    [
        pytest.param("bad_request", "the request line is not HTTP", {}, id="ascii"),
        pytest.param("invalid_input", "名前 must not be empty", {"field": "名前"}, id="japanese"),
        pytest.param(
            "invalid_input",
            'content holds "\\u202e" and a tab\there, 🐝',
            {"field": "content", "limit": 50_000, "ratio": 0.5, "none": None, "ok": True},
            id="escapes-and-fields",
        ),
        pytest.param(
            "payload_too_large", "request body is larger than 1,048,576 bytes", {}, id="413"
        ),
    ],
)
def test_error_bytes_are_a_json_responses_body(
    code: str, message: str, fields: dict[str, Any]
) -> None:
    assert error_bytes(code, message, **fields) == bytes(
        JSONResponse(error_body(code, message, **fields)).body
    )


def test_a_value_json_cannot_write_is_refused_alike() -> None:
    """NaN is no JSON: both refuse it (``allow_nan=False``) rather than write ``NaN``."""
    with pytest.raises(ValueError):
        JSONResponse(error_body("invalid_input", "x", limit=float("nan")))
    with pytest.raises(ValueError):
        error_bytes("invalid_input", "x", limit=float("nan"))

"""Reading JSON request bodies with our own clear 4xx errors (never a framework default)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from omoide.errors import InvalidInput

__all__ = ["json_object", "only_fields"]


async def json_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object, or a 422 that says what is wrong with it."""
    raw = await request.body()
    if not raw.strip():
        raise InvalidInput("request body must be a JSON object")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidInput("request body must be a JSON object")
    return data


def only_fields(data: dict[str, Any], allowed: set[str], required: set[str] = frozenset()
                ) -> dict[str, Any]:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InvalidInput(f"unknown field(s) {', '.join(unknown)}; allowed: "
                           f"{', '.join(sorted(allowed))}", field=unknown[0])
    for name in sorted(required):
        if name not in data:
            raise InvalidInput(f"field {name!r} is required", field=name)
    return data

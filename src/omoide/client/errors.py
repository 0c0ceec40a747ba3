"""Server errors as exceptions: the classes of ``omoide.errors`` themselves, chosen by the
``code`` of the server's one error body ``{"error": {"code", "message", ...}}``.

``except omoide.errors.NotFound`` catches a 404 from the server exactly as it catches one from
an in-process service; every error also carries ``status``, ``code``, ``message`` and the
body's extra ``fields``.
"""

from __future__ import annotations

from typing import Any

import httpx

from omoide import errors
from omoide.errors import OmoideError

__all__ = ["OmoideError", "error_from_response", "known_codes"]


def _subclasses(cls: type[OmoideError]) -> list[type[OmoideError]]:
    found = [cls]
    for sub in cls.__subclasses__():
        found += _subclasses(sub)
    return found


def known_codes() -> dict[str, type[OmoideError]]:
    """Every error code the server can send, with its exception class."""
    table: dict[str, type[OmoideError]] = {}
    for cls in _subclasses(OmoideError):
        if cls.__module__ == errors.__name__:
            table.setdefault(cls.code, cls)
    return table


def error_from_response(response: httpx.Response) -> OmoideError:
    """The exception for a 4xx/5xx answer (a body that is not ours still gives one)."""
    try:
        body: Any = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        text = " ".join(response.text.split())[:300] or response.reason_phrase
        exc = OmoideError(f"HTTP {response.status_code}: {text}")
        exc.status = response.status_code
        return exc
    code = str(error.get("code") or "internal")
    message = str(error.get("message") or f"HTTP {response.status_code}")
    fields = {k: v for k, v in error.items() if k not in ("code", "message")}
    cls = known_codes().get(code, OmoideError)
    exc = cls(message, **fields)
    if exc.status != response.status_code or exc.code != code:
        exc.status, exc.code = response.status_code, code  # a code this client does not know
    return exc

"""Errors → responses, in one place: the JSON error response for HTTP, ToolError text for MCP.

The body itself is :func:`omoide.errors.error_body`, the only place that builds it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.responses import JSONResponse

from omoide.errors import (
    Conflict,
    OmoideError,
    StorageUnavailable,
    UpstreamRateLimited,
    error_body,
)

__all__ = [
    "INTERNAL_MESSAGE",
    "error_body",
    "error_bytes",
    "error_response",
    "raced_erase",
    "tool_error_message",
]

logger = logging.getLogger(__name__)

# What a client is told of a fault of ours (the log has the rest): the app's last-resort 500,
# and the error event that ends a chat stream it broke.
INTERNAL_MESSAGE = "internal error; see the server log"


def error_bytes(code: str, message: str, **fields: Any) -> bytes:
    """The error body as the bytes a route's ``JSONResponse`` writes (compact UTF-8 JSON, as
    its ``render`` writes it), for the refusals written below the app (the body guard, the
    HTTP protocol): one serialisation, whichever layer answers."""
    return json.dumps(
        error_body(code, message, **fields),
        ensure_ascii=False,
        allow_nan=False,
        indent=None,
        separators=(",", ":"),
    ).encode("utf-8")


def error_response(exc: OmoideError) -> JSONResponse:
    """An :class:`OmoideError` as HTTP: its status, its body, ``WWW-Authenticate`` on 401 and
    the ``Retry-After`` of a rate-limited chat request (the upstream's) or of a database's
    transient refusal."""
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
    if isinstance(exc, (UpstreamRateLimited, StorageUnavailable)) and exc.retry_after:
        headers["Retry-After"] = exc.retry_after
    return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers or None)


def raced_erase(exc: BaseException) -> Conflict | None:
    """A write that lost a race with an erase (a persona, session or memory deleted between
    the write's lookup and its insert): the store's foreign-key refusal, SQLite's or
    PostgreSQL's, as the 409 it is instead of a 500; the transaction rolled back. None for
    any other exception."""
    kind = type(exc)
    sqlite_fk = (
        kind.__module__ == "sqlite3"
        and kind.__name__ == "IntegrityError"
        and "FOREIGN KEY" in str(exc)
    )
    postgres_fk = kind.__name__ == "ForeignKeyViolation" and kind.__module__.startswith("psycopg")
    if not (sqlite_fk or postgres_fk):
        return None
    return Conflict(
        "what this write refers to (its persona, session or memory) was erased by "
        "a concurrent request; nothing was written: read it again before retrying"
    )


def tool_error_message(exc: OmoideError) -> str:
    """A message an LLM can act on, e.g. "no memory 'k12' for persona 'rin'; …"."""
    return f"{exc.message}; {hint}" if (hint := _hint(exc)) else exc.message


def _hint(exc: OmoideError) -> str | None:
    if exc.code == "invalid_input":
        return "fix the argument and call again"
    if exc.code == "not_found" and "key" in exc.fields:
        return "find the right key with memory_search"
    if exc.code == "not_found" and "session_id" in exc.fields:
        return "start one with session_begin"
    return None

"""Errors → responses, in one place: the JSON error response for HTTP, ToolError text for MCP.

The body itself is :func:`omoide.errors.error_body`, the only place that builds it.
"""

from __future__ import annotations

import logging

from starlette.responses import JSONResponse

from omoide.errors import OmoideError, error_body

__all__ = ["error_body", "error_response", "tool_error_message"]

logger = logging.getLogger(__name__)


def error_response(exc: OmoideError) -> JSONResponse:
    """An :class:`OmoideError` as HTTP: its status, its body, and ``WWW-Authenticate`` on 401."""
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
    return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)


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

"""Errors → responses, in one place: the JSON error body for HTTP, ToolError text for MCP."""

from __future__ import annotations

import logging
from typing import Any

from omoide.errors import OmoideError

__all__ = ["error_body", "tool_error_message"]

logger = logging.getLogger(__name__)


def error_body(code: str, message: str, **fields: Any) -> dict[str, Any]:
    """The only JSON error shape: ``{"error": {"code", "message", ...}}``."""
    return {"error": {"code": code, "message": message,
                      **{k: v for k, v in fields.items() if v is not None}}}


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

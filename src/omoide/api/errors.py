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


_HINTS = {
    "not_found": "check the key with memory_search or memory_read",
    "invalid_input": "fix the argument and call again",
}


def tool_error_message(exc: OmoideError) -> str:
    """A message an LLM can act on, e.g. "no memory 'k12' for persona 'rin'; …"."""
    hint = _HINTS.get(exc.code)
    return f"{exc.message}; {hint}" if hint else exc.message

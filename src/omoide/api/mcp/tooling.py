"""What every MCP tool shares: its annotations, its result shape and its one error path.

The tool modules (``tools_*.py``) import from here and ``server.py`` imports the tool modules,
so nothing here may import ``server.py`` (the import graph stays a tree).

Annotations, one per kind of effect (MCP's hints; clients use them to decide what to confirm).
``idempotentHint`` holds for *every* call with the same arguments, not only the usual one:

    READ_ONLY    get_context, user_state_history, episode_search, memory_read, memory_search,
                 memory_stats, memory_history. A read or search also counts as a recall (FSRS
                 bookkeeping on the memories it returns, like a file's access time), which
                 changes no content a caller sees, so these stay read-only.
    APPEND       session_begin (a new session each call), session_record (a turn without an
                 ``external_id`` is appended again), memory_create (a new memory unless the
                 current settings and memories make it a duplicate).
    SET          update_context (an unchanged value writes nothing), memory_update (unchanged
                 fields write no version), session_end (an ended session stays as it ended).
    ERASE        memory_delete (purge erases for good; deleting again changes nothing more).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from omoide.api.errors import raced_erase, tool_error_message
from omoide.errors import OmoideError
from omoide.service.search_request import MAX_QUERY_CHARS
from omoide.service.validate import (
    MAX_DATE_RANGE_CHARS,
    MAX_METADATA_CHARS,
    MAX_METADATA_DEPTH,
    MAX_TIMESTAMP_CHARS,
)

__all__ = [
    "APPEND",
    "ERASE",
    "METADATA_LIMITS",
    "READ_ONLY",
    "SET",
    "DateRangeText",
    "PersonaResolver",
    "Result",
    "SearchText",
    "TimestampText",
    "answer",
    "listed",
]

PersonaResolver = Callable[[Context], str]
"""Who the calling client is, per call: fixed for stdio, from the Bearer key over HTTP."""

Result = Annotated[CallToolResult, dict[str, Any]]
"""A tool's return type: the structured content's schema is a JSON object."""

SearchText = Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
"""A search query argument (memory_search, episode_search); each tool adds its description."""

DateRangeText = Annotated[str | None, Field(min_length=1, max_length=MAX_DATE_RANGE_CHARS)]
"""A ``date_range`` argument in words or dates ("last week", "先週", "2026-03-01..2026-03-31");
an empty one is refused, as HTTP refuses ``date_range=`` (it was no filter, as if it had
applied), and a blank one by the service (``check_filters``), as on every interface."""

TimestampText = Annotated[str | None, Field(max_length=MAX_TIMESTAMP_CHARS)]
"""A timestamp argument (ISO-8601, read by the service's ``check_timestamp``), at most as long
as the service reads one; each tool adds its description."""

METADATA_LIMITS = (
    f"at most {MAX_METADATA_CHARS:,} characters as JSON, nested at most {MAX_METADATA_DEPTH} "
    "levels, finite numbers only"
)
"""A metadata argument's limits, which no JSON Schema keyword says (the service's
``check_metadata``): in words, in its description."""


def listed(**keywords: Any) -> Any:
    """A limit the service enforces, said in the input schema only (JSON Schema keywords from
    the service's own constants, e.g. ``listed(maxLength=MAX_CONTENT_CHARS)`` in an argument's
    ``Annotated``), so that a client's validator and the model see it. Trigger: the schema said
    nothing of it (content of any length passed it and was refused). Why not pydantic's
    ``max_length``: the argument model would then refuse first, in its words; the service's
    refusal stays the one source of truth, and the tool error the text HTTP gives."""
    return Field(json_schema_extra=keywords)


READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)
APPEND = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False
)
SET = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
ERASE = ToolAnnotations(
    readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False
)


def answer(
    produce: Callable[[], dict[str, Any]], describe: Callable[[dict[str, Any]], str]
) -> CallToolResult:
    """Run a tool: ``produce`` calls the service and returns the ``api/render.py`` dict (the
    structured content, the same shape HTTP returns); ``describe`` writes its readable text
    (``api/mcp/text.py``). An :class:`OmoideError` becomes a ToolError the model can act on."""
    try:
        structured = produce()
        text = describe(structured)
    except OmoideError as exc:
        raise ToolError(tool_error_message(exc)) from exc
    except Exception as exc:
        raced = raced_erase(exc)
        if raced is None:
            raise
        raise ToolError(tool_error_message(raced)) from exc
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=structured
    )

"""Export and import (``/api/export``, ``/api/import``): what an import reports."""

from __future__ import annotations

from typing import Any

from omoide.api.http.schemas.common import Response

__all__ = ["ImportReply"]


class ImportReply(Response):
    """What was written. An Omoide export reports every kind of row; another system's file
    (``source`` mem0, mcp-memory or chat) reports memories, links, sessions and turns."""

    persona: str
    memories: int
    duplicates: int
    links: int
    sessions: int
    events: int
    source: str | None = None  # another system's file
    # an Omoide export: rows already there (a re-run); an MCP memory file: blank observations
    skipped: int | None = None
    skipped_items: list[dict[str, Any]] | None = None  # MCP memory: each skipped, and why
    episodes: int | None = None
    blocks: int | None = None
    state: int | None = None
    embedded: int | None = None
    moved_keys: dict[str, str] | None = None
    without_text: int | None = None  # a chat file: messages left out as they hold no text
    # a chat file: the session of each conversation (an OpenAI message list is named by its
    # content: chat-<16 hex digits>), to read or delete it by
    session_ids: list[str] | None = None

"""Export and import (``/api/export``, ``/api/import``): what an import reports."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict

from omoide.api.http.schemas.common import Response, reply_shape

__all__ = ["IMPORT_JSON_BODY", "ImportReply"]


@reply_shape
class SkippedItem(TypedDict):
    """An MCP memory file's observation left out of the import (engine.peer_formats)."""

    line: Annotated[int, Field(description="The file's line (1-based) of the entity.")]
    entity: Annotated[str, Field(description="The entity's name.")]
    observation: Annotated[
        int, Field(description="Its index in the entity's observations (0-based).")
    ]
    reason: Annotated[str, Field(description="Why it was left out, e.g. 'blank observation'.")]


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
    skipped_items: list[SkippedItem] | None = None  # MCP memory: each skipped, and why
    episodes: int | None = None
    blocks: int | None = None
    state: int | None = None
    embedded: int | None = None
    # an Omoide export: control characters in tags, emotion labels and state values (written
    # before they were refused), each read as a space
    controls_replaced: int | None = None
    moved_keys: dict[str, str] | None = None
    # an Omoide export merged: current memories found duplicates but written as their own (key
    # -> the memory it duplicates), as the pointers naming them, sent there, ran in a ring
    duplicates_kept: dict[str, str] | None = None
    without_text: int | None = None  # a chat file: messages left out as they hold no text
    # a chat file: the session of each conversation (an OpenAI message list is named by its
    # content: chat-<16 hex digits>), to read or delete it by
    session_ids: list[str] | None = None


# The JSON documents POST /api/import reads (source mem0 or chat), as /openapi.json shows them:
# each shape with the fields the import reads; any other field is allowed and left alone.
# common.JsonValue as the document names it in a request (FastAPI publishes a model used both
# ways twice, "-Input" and "-Output"; "JsonValue" alone was a reference to nothing).
_JSON = {"$ref": "#/components/schemas/JsonValue-Input"}
_TIME = {
    "description": "ISO-8601 with a UTC offset, or a Unix time",
    "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}],
}
_OTHER = {"additionalProperties": _JSON}
_ROLES_READ = (
    "user/human and assistant/model are turns; system, developer, tool, function and ipython "
    "are left out"
)
_KEPT = {"description": "kept in the memory's metadata.mem0", **_JSON}
_MEM0_MEMORY: dict[str, Any] = {
    "title": "Mem0Memory",
    "type": "object",
    "required": ["memory"],
    **_OTHER,
    "properties": {
        "memory": {"type": "string", "description": "the text ('text' is read too)"},
        "id": _KEPT,
        "user_id": {
            "description": "kept in the memory's metadata.mem0; with the user_id parameter, "
            "only that user's memories are imported",
            **_JSON,
        },
        "agent_id": _KEPT,
        "run_id": _KEPT,
        "hash": _KEPT,
        "categories": {
            "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
            "description": "become tags",
        },
        "metadata": {
            "anyOf": [{"type": "object", **_OTHER}, {"type": "null"}],
            "description": "free-form: any JSON object, kept as the memory's metadata",
        },
        "created_at": _TIME,
        "updated_at": _TIME,
    },
}
_CHAT_MESSAGE: dict[str, Any] = {
    "title": "OpenAIChatMessage",
    "type": "object",
    "required": ["role"],
    **_OTHER,
    "properties": {
        "role": {
            "type": "string",
            "description": _ROLES_READ,
        },
        "content": {"description": "text, or a list of parts whose text parts are read", **_JSON},
        "timestamp": _TIME,
    },
}
_TITLE = "kept in the metadata of the session's first turn"
_SESSION = "names the session: chat-<it>"
_TURN_ID = "the turn's external_id"
_CHATGPT: dict[str, Any] = {
    "title": "ChatGPTConversation",
    "type": "object",
    "required": ["mapping"],
    **_OTHER,
    "properties": {
        "mapping": {
            "type": "object",
            "description": "free-form: the message tree (node id "
            "to node), read from current_node up its parents",
            **_OTHER,
        },
        "current_node": {
            "type": "string",
            "description": "the conversation's last message: the turns are read up from it",
        },
        "title": {"type": "string", "description": _TITLE},
        "conversation_id": {"type": "string", "description": _SESSION},
        "id": {"type": "string", "description": "read when conversation_id is absent"},
        "create_time": _TIME,
    },
}
_CLAUDE: dict[str, Any] = {
    "title": "ClaudeConversation",
    "type": "object",
    "required": ["chat_messages"],
    **_OTHER,
    "properties": {
        "chat_messages": {
            "type": "array",
            "description": "the conversation's messages in order",
            "items": {
                "type": "object",
                **_OTHER,
                "properties": {
                    "sender": {
                        "type": "string",
                        "description": _ROLES_READ,
                    },
                    "text": {"type": "string", "description": "the message's text"},
                    "content": {
                        "description": "its parts, whose text is read when text is empty",
                        **_JSON,
                    },
                    "uuid": {"type": "string", "description": _TURN_ID},
                    "created_at": _TIME,
                },
            },
        },
        "uuid": {"type": "string", "description": _SESSION},
        "name": {"type": "string", "description": _TITLE},
        "created_at": _TIME,
    },
}
_MEMORIES = "the memories, each imported as one (a duplicate skipped)"
IMPORT_JSON_BODY: dict[str, Any] = {
    "anyOf": [
        {
            "title": "Mem0Export",
            "type": "object",
            **_OTHER,
            "description": 'source=mem0: {"results": [...]} (or {"memories": [...]})',
            "properties": {
                "results": {"type": "array", "items": _MEM0_MEMORY, "description": _MEMORIES},
                "memories": {
                    "type": "array",
                    "items": _MEM0_MEMORY,
                    "description": f"{_MEMORIES}, read when results is absent",
                },
            },
        },
        {
            "title": "OpenAIMessages",
            "type": "object",
            "required": ["messages"],
            **_OTHER,
            "description": "source=chat: one conversation as OpenAI messages",
            "properties": {
                "messages": {
                    "type": "array",
                    "items": _CHAT_MESSAGE,
                    "description": "the conversation's messages in order",
                },
                "title": {"type": "string", "description": _TITLE},
            },
        },
        {
            "title": "ListOfRecords",
            "type": "array",
            "description": "source=mem0: a list of memories; source=chat: a list of OpenAI "
            "messages, or a ChatGPT or Claude conversations export",
            "items": {"anyOf": [_MEM0_MEMORY, _CHAT_MESSAGE, _CHATGPT, _CLAUDE]},
        },
        {**_CHATGPT, "description": "source=chat: one ChatGPT conversation"},
        {**_CLAUDE, "description": "source=chat: one Claude conversation"},
    ]
}

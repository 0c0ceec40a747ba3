"""The OpenAI-compatible chat proxy: what Omoide reads of a request (the rest is relayed)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from omoide.api.http.schemas.common import JsonValue, Request, Response
from omoide.service.chat import MAX_MESSAGES, ROLES

__all__ = ["ChatCompletion", "ChatMessage", "ChatRequest", "ModelList"]


class ChatMessage(Request):
    """One message; fields other than role and content (name, tool_calls …) are relayed."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue]  # type: ignore[assignment]
    role: Literal[ROLES]  # type: ignore[valid-type]
    content: str | list[JsonValue] | None = None


class ChatRequest(Request):
    """An OpenAI chat completions request. Omoide reads ``messages``, ``stream``, ``user`` and
    ``tools``; every other field is passed to the upstream as sent."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue]  # type: ignore[assignment]
    messages: list[ChatMessage] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool | None = None
    user: str | None = Field(None, description="Names the session (chat-<user>) when no "
                                               "X-Omoide-Session header is sent.")
    tools: list[JsonValue] | None = None


class ChatCompletion(Response):
    """The upstream's ``chat.completion`` with an ``omoide`` object (session, what was
    injected, compaction); with ``stream: true`` a ``text/event-stream`` of chunks instead."""

    omoide: dict[str, Any]


class ModelOut(Response):
    id: str
    object: Literal["model"]
    created: int
    owned_by: str


class ModelList(Response):
    object: Literal["list"]
    data: list[ModelOut]

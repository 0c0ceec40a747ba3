"""The OpenAI-compatible chat proxy: what Omoide reads of a request (the rest is relayed)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator
from typing_extensions import TypedDict

from omoide.api.http.schemas.common import JsonValue, Request, Response, reply_shape
from omoide.service.chat_messages import (
    ASSISTANT_WITHOUT_CONTENT,
    MAX_MESSAGES,
    MAX_SAFETY_IDENTIFIER,
    check_messages,
    check_request_fields,
)

__all__ = [
    "AssistantMessage",
    "ChatCompletion",
    "ChatMessage",
    "ChatRequest",
    "ContentPart",
    "DeveloperMessage",
    "ModelList",
    "SystemMessage",
    "Tool",
    "ToolCall",
    "ToolChoice",
    "ToolMessage",
    "UserMessage",
]


class _Message(Request):
    """Fields other than the ones named (``name``, ``tool_calls`` …) are relayed as sent."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue]  # type: ignore[assignment]


class ContentPart(_Message):
    """One part of a content given as parts: ``{"type": "text", "text": "…"}``,
    ``{"type": "image_url", "image_url": {"url": "…"}}``, ``input_audio``, ``file``,
    ``refusal``. A known type must carry its payload (``text`` and ``refusal`` a string;
    ``image_url`` an object with a ``url`` string; ``input_audio`` and ``file`` objects); a part
    of another type is relayed as sent."""

    type: str = Field(
        min_length=1,
        description="The part's kind: text, image_url, input_audio, file, refusal, or another "
        "(relayed as sent).",
    )


Content = str | Annotated[list[ContentPart], Field(min_length=1)]
_CONTENT = "The message's text, or a list of one or more content parts."


def _role(role: str) -> Any:
    """A message's ``role`` field, which names its kind."""
    return Field(description=f"{role!r}: names the message's kind.")


class SystemMessage(_Message):
    """Instructions for the model; ``content`` is required."""

    role: Literal["system"] = _role("system")
    content: Content = Field(description=_CONTENT)


class DeveloperMessage(_Message):
    """Instructions for the model (newer OpenAI models' name for system); ``content`` is
    required."""

    role: Literal["developer"] = _role("developer")
    content: Content = Field(description=_CONTENT)


class UserMessage(_Message):
    """What the user said; ``content`` is required."""

    role: Literal["user"] = _role("user")
    content: Content = Field(description=_CONTENT)


class _Function(_Message):
    """A tool call's function: its ``name`` and ``arguments`` (JSON text, as OpenAI sends it)."""

    name: str = Field(description="The function's name.")
    arguments: str | None = Field(None, description="Its arguments: a JSON object as text.")


class ToolCall(_Message):
    """One of an assistant message's ``tool_calls``:
    ``{"id": …, "type": "function", "function": {"name": …, "arguments": "<JSON text>"}}``."""

    id: str | None = Field(None, description="The call's id, which a tool message answers.")
    function: _Function = Field(description="The function called and its arguments.")


class _ToolFunction(_Message):
    """A tool's function: its ``name`` and, when given, its ``parameters`` (a JSON Schema
    object)."""

    name: str = Field(description="The function's name.")
    parameters: dict[str, JsonValue] | None = Field(
        None, description="The function's parameters as a JSON Schema: a free-form object."
    )


class Tool(_Message):
    """One of ``tools``: ``{"type": "function", "function": {"name": …, "parameters": …}}``."""

    function: _ToolFunction = Field(description="The function the model may call.")


class _ChosenFunction(_Message):
    name: str = Field(description="The name of the function the model must call.")


class ToolChoice(_Message):
    """``tool_choice`` as an object: ``{"type": "function", "function": {"name": …}}``."""

    function: _ChosenFunction | None = Field(None, description="The function to call.")


class AssistantMessage(_Message):
    """What the model said: ``content``, or instead (``content`` absent or null) any of
    ``tool_calls``, ``function_call``, ``audio``, ``refusal``, as OpenAI's API requires."""

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": [name], "properties": {name: {"not": {"type": "null"}}}}
                for name in ("content", *ASSISTANT_WITHOUT_CONTENT)
            ]
        }
    )
    role: Literal["assistant"] = _role("assistant")
    content: Content | None = Field(None, description=f"{_CONTENT} Null with tool_calls.")
    tool_calls: list[ToolCall] | None = Field(None, description="The tools the model called.")


class ToolMessage(_Message):
    """A tool's result: ``content`` and the ``tool_call_id`` it answers are required."""

    role: Literal["tool"] = _role("tool")
    content: Content = Field(description=f"{_CONTENT} The tool's result.")
    tool_call_id: str = Field(description="The id of the assistant's tool call it answers.")


ChatMessage = Annotated[
    SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolMessage,
    Field(discriminator="role"),
]


class ChatRequest(Request):
    """An OpenAI chat completions request. Omoide reads ``messages``, ``stream``, ``user`` and
    ``tools``, and checks the shape of ``stop``, ``stream_options`` and ``tool_choice`` (it
    translates them for an Anthropic upstream) and the JSON type of OpenAI's typed fields
    (``model`` a string, ``temperature`` a number, ``max_tokens`` an integer …); ``n`` must be
    1 (one reply is recorded per turn), ``stream_options.include_usage`` true or false and
    ``safety_identifier`` at most 64 characters, for every upstream; every other field is
    passed to an OpenAI-compatible upstream as sent. An Anthropic upstream gets each field
    translated or refuses it (422 naming it: n other than 1, response_format, seed, logprobs …
    which the Messages API cannot do)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue]  # type: ignore[assignment]
    messages: list[ChatMessage] = Field(
        min_length=1,
        max_length=MAX_MESSAGES,
        description=f"The conversation, 1-{MAX_MESSAGES:,} messages in order; its new turns "
        "are recorded, and what the persona remembers joins the system prompt.",
    )
    stream: bool | None = Field(
        None, description="true: the reply comes as a text/event-stream of chunks."
    )
    user: str | None = Field(
        None, description="Names the session (chat-<user>) when no X-Omoide-Session header is sent."
    )
    tools: list[Tool] | None = Field(None, description="Functions the model may call.")
    model: str | None = Field(
        None,
        description="Any model id: the configured upstream's model (OMOIDE_LLM_MODEL) answers.",
    )
    temperature: float | None = Field(
        None, description="Sampling temperature (its range is the upstream's; Anthropic: 0-1)."
    )
    top_p: float | None = Field(None, description="Nucleus sampling (Anthropic: 0-1).")
    presence_penalty: float | None = Field(
        None, description="OpenAI's presence penalty (an anthropic upstream takes only 0)."
    )
    frequency_penalty: float | None = Field(
        None, description="OpenAI's frequency penalty (an anthropic upstream takes only 0)."
    )
    max_tokens: int | None = Field(None, description="The longest answer, in tokens.")
    max_completion_tokens: int | None = Field(
        None, description="The longest answer, in tokens (OpenAI's newer name)."
    )
    seed: int | None = Field(
        None, description="OpenAI's sampling seed (an anthropic upstream has none)."
    )
    top_logprobs: int | None = Field(
        None, description="Log probabilities of this many tokens (not with anthropic)."
    )
    logprobs: bool | None = Field(
        None, description="Whether to return log probabilities (not with anthropic)."
    )
    parallel_tool_calls: bool | None = Field(
        None, description="false: the model calls at most one tool per answer."
    )
    store: bool | None = Field(
        None, description="OpenAI's stored completions (an anthropic upstream stores none)."
    )
    n: int | None = Field(
        None,
        ge=1,
        le=1,
        description="1 or absent: one reply is recorded per turn, so several choices are "
        "refused (which one the user keeps cannot be known).",
    )
    safety_identifier: str | None = Field(
        None,
        max_length=MAX_SAFETY_IDENTIFIER,
        description="OpenAI's end-user id for abuse monitoring (a hash), at most 64 characters.",
    )
    stop: str | list[str] | None = Field(
        None, description="Text (or texts) at which the model stops writing."
    )
    stream_options: dict[str, JsonValue] | None = Field(
        None,
        description='Relayed as sent (a free-form object, e.g. {"include_usage": true}).',
    )
    tool_choice: str | ToolChoice | None = Field(
        None,
        description="Whether and which tool the model calls: none, auto, required, or an "
        "object naming the function.",
    )

    @model_validator(mode="before")
    @classmethod
    def _roles(cls, data: Any) -> Any:
        """Each message's role and the fields it needs, checked first by the service's own
        rule (``service.chat_messages.check_messages``), so a refusal names the message and what it
        misses ("messages[1] (tool) needs a tool_call_id string") rather than the union
        member pydantic tried."""
        if isinstance(data, dict) and isinstance(data.get("messages"), list) and data["messages"]:
            check_messages(data["messages"])
        if isinstance(data, dict):
            check_request_fields(data)
        return data


@reply_shape
class ChatInjected(TypedDict):
    """What the memory step added to the system prompt."""

    memories: Annotated[list[str], Field(description="The keys of the memories shown.")]
    blocks: Annotated[list[str], Field(description="The names of the blocks shown.")]
    user_state: Annotated[list[str], Field(description="The user state keys shown.")]
    persona_state: Annotated[list[str], Field(description="The persona state keys shown.")]
    tokens: int


@reply_shape
class ChatCompaction(TypedDict):
    """How the conversation was fitted into chat_budget_tokens (stage 0 untouched, 1-3
    mechanical trims, 4 summarised) and the stage-4 summary: made by the llm, offline, or
    cached; failed (the LLM call failed) or cooldown (a call failed recently, none was made),
    both sending the stage-3 result; null when no summary was needed, or when none could fit
    (the system prompt and the latest turn alone over the budget)."""

    stage: int
    tokens_before: int
    tokens_after: int
    summary: Literal["llm", "offline", "cached", "failed", "cooldown"] | None


@reply_shape
class ChatInfo(TypedDict):
    session_id: str
    injected: ChatInjected
    compaction: ChatCompaction


class ChatCompletion(Response):
    """The upstream's ``chat.completion`` with an ``omoide`` object (session, what was
    injected, compaction); with ``stream: true`` a ``text/event-stream`` of chunks instead."""

    omoide: ChatInfo


class ModelOut(Response):
    id: str
    object: Literal["model"]
    created: int
    owned_by: str


class ModelList(Response):
    object: Literal["list"]
    data: list[ModelOut]

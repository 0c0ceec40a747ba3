"""What the chat proxy checks of a request's ``messages`` before anything is relayed: OpenAI's
own rules (a known role, the fields each role needs) and the shape of a content given as parts
(``"content": [{"type": "text", "text": "…"}, …]``), so that a malformed message is a 422
naming it, never an upstream's 400 or a part the memory step cannot read.

A part is an object with a ``type``; the types OpenAI's chat API defines must carry their
payload (``text`` a string, ``image_url`` an object with a ``url`` string, ``input_audio`` and
``file`` objects, ``refusal`` a string). A part of another type is relayed as sent: the
upstream judges what it supports.
"""

from __future__ import annotations

from typing import Any

from omoide.engine.errors import json_type, named, of_json_type, quoted, too_many, wrong_type
from omoide.errors import InvalidInput

__all__ = [
    "ASSISTANT_WITHOUT_CONTENT",
    "MAX_MESSAGES",
    "MAX_SAFETY_IDENTIFIER",
    "PART_PAYLOADS",
    "ROLES",
    "check_messages",
    "check_request_fields",
]

ROLES = ("system", "developer", "user", "assistant", "tool")
MAX_MESSAGES = 5000
MAX_SAFETY_IDENTIFIER = 64  # OpenAI's limit on safety_identifier (characters)

# An assistant message may stand without content when it carries any of these (OpenAI's rule).
ASSISTANT_WITHOUT_CONTENT = ("tool_calls", "function_call", "audio", "refusal")

# A known part type → (the field holding its payload, the JSON type that payload must be).
PART_PAYLOADS: dict[str, tuple[str, type]] = {
    "text": ("text", str),
    "image_url": ("image_url", dict),
    "input_audio": ("input_audio", dict),
    "file": ("file", dict),
    "refusal": ("refusal", str),
}
_WORDS = {str: "a string", dict: "an object"}


def check_messages(messages: Any) -> list[dict[str, Any]]:
    """The request's ``messages``: a non-empty list of objects with a known role, the fields
    that role needs, and well-formed content parts."""
    if not isinstance(messages, list) or not messages:
        raise InvalidInput("messages must be a non-empty list", field="messages")
    if len(messages) > MAX_MESSAGES:
        raise InvalidInput(too_many("messages", MAX_MESSAGES, len(messages)), field="messages")
    for i, message in enumerate(messages):
        _check_role(i, message)
        content = message.get("content")
        if content is not None and not isinstance(content, str | list):
            raise InvalidInput(
                f"messages[{i}].content must be a string or a list of parts",
                field=f"messages[{i}].content",
            )
        if isinstance(content, list):
            _check_parts(f"messages[{i}].content", content)
        if message.get("tool_calls") is not None:
            _check_tool_calls(f"messages[{i}].tool_calls", message["tool_calls"])
        _check_required(i, message)
    return messages


def _check_role(i: int, message: Any) -> None:
    """``messages[i]`` is an object whose ``role`` is one of OpenAI's; a refusal says what
    was sent instead (a ``"role": "wizard"`` was told only that a role must be one of these)."""
    roles = ", ".join(ROLES)
    if not isinstance(message, dict):
        raise InvalidInput(
            f"messages[{i}] must be an object with a role of {roles}, got {json_type(message)}",
            field=f"messages[{i}]",
        )
    role = message.get("role")
    if "role" not in message:
        raise InvalidInput(
            f"messages[{i}].role is required: one of {roles}", field=f"messages[{i}].role"
        )
    if role not in ROLES:
        raise InvalidInput(
            f"messages[{i}].role must be one of {roles}, got {quoted(role)}",
            field=f"messages[{i}].role",
        )


# OpenAI's typed scalar request fields → their JSON type, checked for every upstream (and
# with none configured): a value of another type is refused by OpenAI's API and the Messages
# API alike, but was relayed to an openai upstream after the memory step had run, and without
# an upstream it was a 503 before its 422. The ranges are the upstream's (an anthropic
# upstream's: ``llm/anthropic_fields.py``).
_SCALARS = {
    "model": "string",
    "user": "string",
    "temperature": "number",
    "top_p": "number",
    "presence_penalty": "number",
    "frequency_penalty": "number",
    "max_tokens": "integer",
    "max_completion_tokens": "integer",
    "seed": "integer",
    "top_logprobs": "integer",
    "logprobs": "boolean",
    "parallel_tool_calls": "boolean",
    "store": "boolean",
}


def check_request_fields(body: dict[str, Any]) -> None:
    """The request fields besides ``messages`` that the proxy reads or translates for the
    upstream: ``tools`` (a list of ``{"type": "function", "function": {"name": …}}``),
    ``stop`` (a string or a list of strings), ``stream_options`` and ``tool_choice`` (an
    object, or for ``tool_choice`` a string), and the JSON type of OpenAI's scalar fields
    (``_SCALARS``: ``model`` and ``user`` strings, ``temperature`` a number …). Each was read
    as sent (``stop: 1`` or ``tools: [{"function": 5}]`` was a 500)."""
    for name, kind in _SCALARS.items():
        value = body.get(name)
        if value is not None and not of_json_type(value, kind):
            raise InvalidInput(wrong_type(name, kind, value), field=name)
    tools = body.get("tools")
    if tools is not None:
        if not isinstance(tools, list):
            raise InvalidInput(f"tools must be a list, got {json_type(tools)}", field="tools")
        for j, tool in enumerate(tools):
            _check_function(f"tools[{j}]", tool, ("parameters", dict))
    stop = body.get("stop")
    if stop is not None and not (
        isinstance(stop, str) or (isinstance(stop, list) and all(isinstance(x, str) for x in stop))
    ):
        raise InvalidInput(
            f"stop must be a string or a list of strings, got {json_type(stop)}", field="stop"
        )
    for name, allowed in (("stream_options", dict), ("tool_choice", str | dict)):
        value = body.get(name)
        if value is not None and not isinstance(value, allowed):
            words = "an object" if allowed is dict else "a string or an object"
            raise InvalidInput(f"{name} must be {words}, got {json_type(value)}", field=name)
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and "function" in choice:
        _check_function("tool_choice", choice, ("name", str))
    _check_choices(body.get("n"))
    usage = (body.get("stream_options") or {}).get("include_usage")
    if usage is not None and not isinstance(usage, bool):
        raise InvalidInput(
            f"stream_options.include_usage must be true or false, got {quoted(usage)}",
            field="stream_options.include_usage",
        )
    ident = body.get("safety_identifier")
    if ident is not None and (not isinstance(ident, str) or len(ident) > MAX_SAFETY_IDENTIFIER):
        raise InvalidInput(
            f"safety_identifier must be a string of at most {MAX_SAFETY_IDENTIFIER} characters "
            f"(a hash of the user's id, as OpenAI asks), got "
            f"{f'{len(ident):,} characters' if isinstance(ident, str) else quoted(ident)}",
            field="safety_identifier",
        )


def _check_choices(n: Any) -> None:
    """``n``: absent, null or 1. The proxy records the reply as the persona's turn; of several
    choices it cannot know which one the user keeps (recording the first put words in memory
    the user may have discarded; recording none lost the turn), so it answers with one, for
    every upstream, streamed or not (the Messages API has one choice per request anyway)."""
    whole = of_json_type(n, "integer")
    if n is None or (whole and n == 1):
        return
    if not whole:
        raise InvalidInput(wrong_type("n", "integer", n), field="n")
    raise InvalidInput(
        f"n: {n} cannot be sent: the chat proxy answers with one choice per request (n: 1), "
        "since it records the reply as the persona's turn and cannot know which of several "
        "the user keeps; leave n out and send the request again for another answer",
        field="n",
    )


def _check_tool_calls(where: str, calls: Any) -> None:
    """A message's ``tool_calls``: a list of ``{"id": …, "type": "function", "function":
    {"name": …, "arguments": "<JSON text>"}}`` (``arguments`` is text, as OpenAI sends it)."""
    if not isinstance(calls, list):
        raise InvalidInput(f"{where} must be a list, got {json_type(calls)}", field=where)
    for j, call in enumerate(calls):
        _check_function(f"{where}[{j}]", call, ("arguments", str))
        if "id" in call and not isinstance(call["id"], str):
            raise InvalidInput(
                f"{where}[{j}].id must be a string, got {quoted(call['id'])}",
                field=f"{where}[{j}].id",
            )


def _got(value: Any, shape: type) -> str:
    """What was sent in place of a ``shape``, as every type refusal says it (``engine.errors.
    wrong_type``): a text's place the value as sent, an object's its JSON type."""
    return quoted(value) if shape is str else json_type(value)


def _check_function(where: str, item: Any, optional: tuple[str, type]) -> None:
    """A tool or a tool call: an object whose ``function`` is an object with a ``name``
    string, and ``optional`` (a field name and its type) when present."""
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object, got {json_type(item)}", field=where)
    function = item.get("function")
    if not isinstance(function, dict):
        raise InvalidInput(
            f"{where}.function must be an object with a name, got "
            f"{'nothing' if function is None else json_type(function)}",
            field=f"{where}.function",
        )
    if not isinstance(function.get("name"), str):
        raise InvalidInput(
            f"{where}.function.name must be a string", field=f"{where}.function.name"
        )
    name, shape = optional
    if name in function and not isinstance(function[name], shape):
        raise InvalidInput(
            f"{where}.function.{name} must be {_WORDS[shape]}, got {_got(function[name], shape)}",
            field=f"{where}.function.{name}",
        )


def _check_parts(where: str, parts: list[Any]) -> None:
    """A content given as parts: not empty, each an object with a ``type`` string, a known
    type carrying its payload."""
    if not parts:
        raise InvalidInput(
            f"{where} must not be an empty list (send a string, or at least one part)",
            field=where,
        )
    for j, part in enumerate(parts):
        here = f"{where}[{j}]"
        if not isinstance(part, dict):
            raise InvalidInput(
                f'{here} must be an object such as {{"type": "text", "text": "…"}}, got '
                f"{json_type(part)}",
                field=here,
            )
        kind = part.get("type")
        if not isinstance(kind, str) or not kind:
            raise InvalidInput(
                f'{here}.type is required: a part names its type ("text", "image_url" …)',
                field=f"{here}.type",
            )
        if kind not in PART_PAYLOADS:
            continue
        name, shape = PART_PAYLOADS[kind]
        if not isinstance(part.get(name), shape):
            raise InvalidInput(
                f"{here}.{name} must be {_WORDS[shape]} (a part of type {named(kind)}), got "
                f"{'nothing' if name not in part else _got(part[name], shape)}",
                field=f"{here}.{name}",
            )
        if kind == "image_url" and not isinstance(part[name].get("url"), str):
            raise InvalidInput(
                f"{here}.image_url.url must be a string (the image's URL or data: URL)",
                field=f"{here}.image_url.url",
            )


def _check_required(i: int, message: dict[str, Any]) -> None:
    """Refuse what OpenAI's chat API refuses: a message missing the fields its role needs."""
    role = message["role"]
    if role == "assistant":
        if message.get("content") is None and not any(
            message.get(k) is not None for k in ASSISTANT_WITHOUT_CONTENT
        ):
            raise InvalidInput(
                f"messages[{i}] (assistant) needs content or tool_calls",
                field=f"messages[{i}].content",
            )
        return
    if message.get("content") is None:
        raise InvalidInput(f"messages[{i}] ({role}) needs content", field=f"messages[{i}].content")
    if role == "tool" and not isinstance(message.get("tool_call_id"), str):
        raise InvalidInput(
            f"messages[{i}] (tool) needs a tool_call_id string", field=f"messages[{i}].tool_call_id"
        )

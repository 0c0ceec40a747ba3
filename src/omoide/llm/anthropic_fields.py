"""What the chat proxy's ``anthropic`` upstream does with each field of an OpenAI chat request:
one policy, checked before anything is sent (pure; no I/O).

Every field is either *translated* to the Messages API (``anthropic_chat.py``: messages, tools,
``max_tokens`` …, the request's meaning kept) or *refused*: ``InvalidInput`` (422) naming the
field and what the Messages API lacks, before the memory step, compaction or the upstream
runs, and nothing is recorded. A field is never dropped: a dropped ``n: 3`` came back as one
choice, a dropped ``response_format`` as prose to a client parsing JSON, a dropped ``seed`` as
a sample that never repeats. Structured outputs are translated: a ``json_schema``
``response_format`` (``output_config.format``) and a tool's ``strict: true``. A field at the
value that asks for nothing (``n: 1``, ``logprobs: false``, ``presence_penalty: 0``,
``response_format: {"type": "text"}``, null …) is accepted, since there is nothing to do. A
field OpenAI's API does not define is refused too, as OpenAI refuses it (an ``openai``
upstream gets every field as sent).
"""

from __future__ import annotations

from typing import Any

from omoide.engine.errors import named, of_json_type, quoted, wrong_type
from omoide.errors import InvalidInput

__all__ = ["MAX_USER_ID", "TRANSLATED", "UNSUPPORTED", "check_for_anthropic"]

# Request fields the translation carries (``top_k``, not OpenAI's, is the Messages API's own).
TRANSLATED = frozenset(
    {
        "messages",
        "model",  # replaced by OMOIDE_LLM_MODEL, as for every upstream
        "stream",
        "stream_options",
        "max_tokens",
        "max_completion_tokens",
        "response_format",  # text, or json_schema → output_config.format
        "temperature",
        "top_p",
        "top_k",
        "stop",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "user",
        "safety_identifier",
        # 1 or null: any other is refused for every upstream before this check
        # (``service.chat_messages``), and the Messages API answers with one choice
        "n",
    }
)

# OpenAI fields the Messages API cannot honour → (the values that ask for nothing, what it
# lacks). Null is always "not given".
UNSUPPORTED: dict[str, tuple[tuple[Any, ...], str]] = {
    "logprobs": ((False,), "returns no token log probabilities"),
    "top_logprobs": ((0,), "returns no token log probabilities"),
    "logit_bias": (({},), "has no token biases"),
    "seed": ((), "has no seed for reproducible sampling"),
    "frequency_penalty": ((0,), "has no frequency penalty"),
    "presence_penalty": ((0,), "has no presence penalty"),
    "store": ((False,), "stores no completions"),
    "metadata": (({},), "keeps no completion metadata (a user id goes as user)"),
    "modalities": ((["text"],), "answers in text only"),
    "audio": ((), "answers in text only"),
    "prediction": ((), "has no predicted outputs"),
    "service_tier": (("auto",), "has other service tiers than OpenAI's"),
    "reasoning_effort": ((), "has extended thinking instead, which this proxy does not ask for"),
    "verbosity": (("medium",), "has no verbosity setting"),
    "web_search_options": ((), "searches the web only as its own server tool"),
    "functions": (([],), "takes tools only (functions is OpenAI's old form: send tools)"),
    "function_call": ((), "takes tools only (send tool_choice)"),
}

_OTHER = "use an openai upstream (OMOIDE_LLM_PROVIDER=openai)"
_MESSAGE_KEYS = frozenset({"role", "content", "tool_calls", "tool_call_id", "refusal"})
# Message fields OpenAI defines that the Messages API has nothing for → what it lacks.
_MESSAGE_UNSUPPORTED = {
    "name": "has no speaker names (put the name in the content)",
    "function_call": "takes tool_calls only (function_call is OpenAI's old form)",
    "audio": "cannot be given an earlier audio answer",
}
# A content part's type → its keys (``image_url`` holds ``url`` and ``detail``). ``cache_control``
# is not OpenAI's, but clients that cache Anthropic prompts through an OpenAI-shaped API
# (OpenRouter, LiteLLM) put it on parts: checked (``_check_cache_control``), then carried to
# the block (``anthropic_chat._part``).
_PART_KEYS = {
    "text": frozenset({"type", "text", "cache_control"}),
    "refusal": frozenset({"type", "refusal", "cache_control"}),
    "image_url": frozenset({"type", "image_url", "cache_control"}),
}
# The Messages API's cache breakpoint: ``{"type": "ephemeral"}``, with a ``ttl`` of 5m or 1h.
_CACHE_TTLS = ("5m", "1h")
_TOOL_CHOICES = ("auto", "required", "none")


def _refused(where: str, lacks: str, *, value: Any = None, shown: str = "") -> InvalidInput:
    """The refusal of ``where`` (a field, or a place such as ``messages[1].name``), showing
    the ``value`` sent or saying what it is (``shown``)."""
    shown = f": {quoted(value)}" if value is not None else shown
    return InvalidInput(
        f"{where}{shown} cannot be sent to the anthropic upstream: the Messages API {lacks}; "
        f"leave it out, or {_OTHER}",
        field=where,
    )


def _unknown(where: str) -> InvalidInput:
    """A field neither API defines for this proxy (``num_ctx``, an Ollama option): an
    ``openai`` upstream gets it as sent and judges it; the Messages API refuses a field it does
    not define, so it is refused here, before anything runs, naming it."""
    return _refused(
        where,
        "defines no such field, and it is not one of OpenAI's that this proxy translates (an "
        "openai upstream gets every field as sent)",
    )


def _asks_nothing(value: Any, defaults: tuple[Any, ...]) -> bool:
    """Whether ``value`` is null or one of ``defaults`` (``true`` is not ``1``)."""
    return value is None or any(
        value == d and isinstance(value, bool) == isinstance(d, bool) for d in defaults
    )


def check_for_anthropic(body: dict[str, Any]) -> None:
    """Refuse what of ``body`` the Messages API cannot do (see the module's policy)."""
    for name, value in body.items():
        if name in UNSUPPORTED:
            defaults, lacks = UNSUPPORTED[name]
            if not _asks_nothing(value, defaults):
                raise _refused(name, lacks, value=value)
        elif name not in TRANSLATED:
            raise _unknown(name)
    for key in body.get("stream_options") or {}:
        if key != "include_usage":
            raise _unknown(f"stream_options.{key}")
    _check_values(body)
    _check_response_format(body.get("response_format"))
    for j, tool in enumerate(body.get("tools") or ()):
        _check_tool(f"tools[{j}]", tool)
    _check_tool_choice(body.get("tool_choice"))
    for i, message in enumerate(body.get("messages") or ()):
        _check_message(f"messages[{i}]", message)


_JSON_SCHEMA = 'response_format: {"type": "json_schema", "json_schema": {"name", "schema"}}'


def _check_response_format(value: Any) -> None:
    """Text (nothing to do) or a JSON schema the answer is held to (``output_config.format``);
    JSON mode without a schema has no Messages API equivalent."""
    if value is None:
        return
    kind = value.get("type") if isinstance(value, dict) else None
    if kind == "json_object":
        raise _refused(
            "response_format",
            f"has no JSON mode without a schema (send {_JSON_SCHEMA})",
            value=value,
        )
    if kind not in ("text", "json_schema"):
        raise _refused(
            "response_format", f"takes text or a JSON schema ({_JSON_SCHEMA})", value=value
        )
    _only("response_format", value, {"type"} if kind == "text" else {"type", "json_schema"})
    if kind == "text":
        return
    spec = value.get("json_schema")
    where = "response_format.json_schema"
    if not isinstance(spec, dict) or not isinstance(spec.get("schema"), dict):
        raise _refused(
            f"{where}.schema" if isinstance(spec, dict) else where,
            f"needs the JSON schema the answer is held to, as an object ({_JSON_SCHEMA})",
            shown=" (missing or not an object)",
        )
    if spec.get("description") is not None:
        raise _refused(
            f"{where}.description",
            "takes no description of an output format (put it in the schema's own description)",
        )
    _only(where, spec, {"name", "schema", "strict", "description"})
    _check_flag(f"{where}.strict", spec.get("strict"))


def _check_flag(where: str, value: Any) -> None:
    if value is not None and not isinstance(value, bool):
        raise _refused(where, "takes true or false here", value=value)


# The translated fields an OpenAI client sends as numbers or a boolean: (JSON type, lowest,
# highest) as the Messages API reads them. The translation carries their values as sent, so a
# string ("0.5") reached the upstream, which refused it, and parallel_tool_calls: "false" asked
# for nothing at all; max_tokens: 0 was read as unset (4,096 tokens). ``user`` and
# ``safety_identifier`` are strings by the request's schema, for every upstream.
_VALUES: dict[str, tuple[str, float | None, float | None]] = {
    "temperature": ("number", 0, 1),
    "top_p": ("number", 0, 1),
    "top_k": ("integer", 0, None),
    "max_tokens": ("integer", 1, None),
    "max_completion_tokens": ("integer", 1, None),
    "parallel_tool_calls": ("boolean", None, None),
}


# The Messages API's longest ``metadata.user_id`` (characters), which ``user`` becomes; a
# longer one was relayed for the upstream to refuse (``safety_identifier``, which OpenAI holds
# to 64 characters, is checked for every upstream: ``service/chat_messages.py``).
MAX_USER_ID = 256


def _check_values(body: dict[str, Any]) -> None:
    """Each of ``_VALUES`` given (not null): of its JSON type and within its range; ``user``
    no longer than the Messages API's user id."""
    user = body.get("user")
    if isinstance(user, str) and len(user) > MAX_USER_ID:
        raise _refused(
            "user",
            f"takes a user id (metadata.user_id) of at most {MAX_USER_ID} characters",
            shown=f" ({len(user):,} characters)",
        )
    for name, (kind, low, high) in _VALUES.items():
        value = body.get(name)
        if value is None:
            continue
        if not of_json_type(value, kind):
            raise InvalidInput(wrong_type(name, kind, value), field=name)
        if kind != "boolean" and (
            (low is not None and value < low) or (high is not None and value > high)
        ):
            span = f"from {low:g} to {high:g}" if high is not None else f"of at least {low:g}"
            raise _refused(name, f"takes a {name} {span}", value=value)


def _check_tool(where: str, tool: dict[str, Any]) -> None:
    """``{"type": "function", "function": {"name", "description", "parameters", "strict"}}``
    (``strict: true``: the Messages API's strict tool use)."""
    _only(where, tool, {"type", "function"})
    if tool.get("type", "function") != "function":
        raise _refused(f"{where}.type", "takes function tools only", value=tool["type"])
    function = tool.get("function") or {}
    _only(f"{where}.function", function, {"name", "description", "parameters", "strict"})
    _check_flag(f"{where}.function.strict", function.get("strict"))


def _check_tool_choice(choice: Any) -> None:
    if choice is None:
        return
    if isinstance(choice, str):
        if choice not in _TOOL_CHOICES:
            raise _refused("tool_choice", "takes auto, required, none or a function", value=choice)
        return
    _only("tool_choice", choice, {"type", "function"})
    if choice.get("type", "function") != "function" or "function" not in choice:
        raise _refused(
            "tool_choice", "takes auto, required, none or a function", value=choice.get("type")
        )
    _only("tool_choice.function", choice.get("function"), {"name"})


def _check_message(where: str, message: dict[str, Any]) -> None:
    for key in message:
        if key in _MESSAGE_UNSUPPORTED and message[key] is not None:
            raise _refused(f"{where}.{key}", _MESSAGE_UNSUPPORTED[key])
        if key not in _MESSAGE_KEYS and key not in _MESSAGE_UNSUPPORTED:
            raise _unknown(f"{where}.{key}")
    for j, call in enumerate(message.get("tool_calls") or ()):
        _only(f"{where}.tool_calls[{j}]", call, {"id", "type", "function"})
        _only(f"{where}.tool_calls[{j}].function", call.get("function"), {"name", "arguments"})
    content = message.get("content")
    if not isinstance(content, list):
        return
    system = message.get("role") in ("system", "developer")
    for j, part in enumerate(content):
        _check_part(f"{where}.content[{j}]", part, system=system)


def _check_part(where: str, part: dict[str, Any], *, system: bool) -> None:
    """A content part: text, an assistant's refusal, or (not in a system prompt) an image at
    the resolution the Messages API picks (``detail`` ``auto`` or ``high``)."""
    kind = part.get("type")
    if kind not in _PART_KEYS or (system and kind == "image_url"):
        takes = "text parts in a system prompt" if system else "text and image_url parts here"
        raise _refused(where, f"takes {takes}", shown=f" (a content part of type {named(kind)})")
    _only(where, part, _PART_KEYS[kind])
    _check_cache_control(f"{where}.cache_control", part.get("cache_control"))
    if kind == "image_url":
        image = part.get("image_url") or {}
        _only(f"{where}.image_url", image, {"url", "detail"})
        if image.get("detail") not in (None, "auto", "high"):
            raise _refused(
                f"{where}.image_url.detail",
                "reads an image at its own resolution (no low-detail mode)",
                value=image["detail"],
            )


def _check_cache_control(where: str, value: Any) -> None:
    """A part's cache breakpoint, as the Messages API takes it: ``{"type": "ephemeral"}``,
    with an optional ``ttl`` of ``5m`` or ``1h`` (null: none)."""
    if value is None:
        return
    if (
        not isinstance(value, dict)
        or value.get("type") != "ephemeral"
        or not set(value) <= {"type", "ttl"}
        or value.get("ttl", "5m") not in _CACHE_TTLS
    ):
        raise _refused(
            where,
            'takes a cache breakpoint as {"type": "ephemeral"}, with a ttl of 5m or 1h',
            value=value,
        )


def _only(where: str, item: Any, allowed: set[str] | frozenset[str]) -> None:
    """Refuse a key of the object ``item`` outside ``allowed``."""
    if isinstance(item, dict):
        for key in item:
            if key not in allowed:
                raise _unknown(f"{where}.{key}")

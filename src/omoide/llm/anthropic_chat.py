"""OpenAI chat-completions ⇄ Anthropic Messages: the translation the chat proxy needs (no I/O).

Requests: what the Messages API cannot do is refused first (``anthropic_fields.py``: one
policy, never a field dropped); system (and developer) messages become ``system``; content parts
(text, an assistant's refusal, images by URL or data URL) become blocks, a part's
``cache_control`` the block's (a system message's is not carried: ``_text``); an assistant's
``tool_calls`` become ``tool_use`` blocks and ``tool`` messages ``tool_result`` blocks (text and
images) of a user turn; ``tools``/``tool_choice``/``parallel_tool_calls``, ``max_tokens``,
``temperature``, ``top_p``, ``top_k``, ``stop`` and ``user`` (``metadata.user_id``) are mapped;
structured outputs too: a ``json_schema`` ``response_format`` is ``output_config.format`` (the
answer's text, JSON held to the schema, comes back as the message content) and a tool's
``strict: true`` the tool's ``strict``.
Answers, streamed or not, come back as ``chat.completion`` / ``chat.completion.chunk`` objects
with text, tool calls, a finish reason and usage.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from omoide.errors import InvalidInput
from omoide.llm.anthropic_fields import check_for_anthropic

__all__ = [
    "API_VERSION",
    "StreamTranslator",
    "check_turns",
    "completion_from_anthropic",
    "request_to_anthropic",
]

API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096  # Anthropic requires a limit; OpenAI clients often send none
FINISH = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "pause_turn": "stop",
    "refusal": "content_filter",
}
_TOOL_CHOICE = {"auto": {"type": "auto"}, "required": {"type": "any"}, "none": {"type": "none"}}


def request_to_anthropic(body: dict[str, Any], model: str, *, stream: bool) -> dict[str, Any]:
    """The Messages API request for an OpenAI chat request; InvalidInput (422) for a field it
    cannot carry (:func:`~omoide.llm.anthropic_fields.check_for_anthropic`)."""
    check_for_anthropic(body)
    system: list[str] = []
    turns: list[dict[str, Any]] = []
    for message in body.get("messages") or []:
        role = message.get("role")
        if role in ("system", "developer"):
            system.append(_text(message.get("content")))
            continue
        blocks = _blocks(message)
        speaker = "assistant" if role == "assistant" else "user"
        if not blocks:
            continue
        if turns and turns[-1]["role"] == speaker:  # e.g. several tool results in a row
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": speaker, "content": blocks})
    out: dict[str, Any] = {
        "model": model,
        "messages": turns,
        "stream": stream,
        "max_tokens": body.get("max_completion_tokens")
        or body.get("max_tokens")
        or DEFAULT_MAX_TOKENS,
    }
    if any(s.strip() for s in system):
        out["system"] = "\n\n".join(s for s in system if s.strip())
    for name in ("temperature", "top_p", "top_k"):
        if body.get(name) is not None:
            out[name] = body[name]
    user = body.get("safety_identifier") or body.get("user")
    if user:  # OpenAI's end-user id for abuse monitoring is Anthropic's metadata.user_id
        out["metadata"] = {"user_id": user}
    stop = body.get("stop")
    if stop:
        out["stop_sequences"] = [stop] if isinstance(stop, str) else list(stop)
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":  # checked: it holds a schema object
        schema = response_format["json_schema"]["schema"]
        out["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
    if body.get("tools"):
        out["tools"] = [_tool(t) for t in body["tools"] if isinstance(t, dict)]
    choice = _tool_choice(body.get("tool_choice"))
    if body.get("parallel_tool_calls") is False and out.get("tools"):
        choice = choice or {"type": "auto"}
        if choice["type"] != "none":  # no call at all: nothing to keep single
            choice["disable_parallel_tool_use"] = True
    if choice is not None:
        out["tool_choice"] = choice
    return out


def check_turns(body: dict[str, Any]) -> None:
    """Refuse a request with no user or assistant turn to send: a system prompt alone, or only
    messages with empty text, became ``messages: []``, which the Messages API refuses (an
    ``upstream_rejected_request`` after the memory step had run); an ``openai`` upstream
    answers such a request."""
    for message in body.get("messages") or []:
        if message.get("role") not in ("system", "developer") and _blocks(message):
            return
    raise InvalidInput(
        "messages hold no user or assistant turn with content: the anthropic upstream's "
        "Messages API needs at least one (a system prompt alone or an empty message cannot be "
        "sent); add the user's message",
        field="messages",
    )


def _text(content: Any) -> str:
    """A system message's text: its parts' ``cache_control`` is not carried (the system prompt,
    the persona's memory appended to it, goes as one text, different from turn to turn)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"
        )
    return ""


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    blocks: list[dict[str, Any]] = []
    if isinstance(content, str) and content:
        blocks.append({"type": "text", "text": content})
    elif isinstance(content, list):
        blocks += [b for p in content if isinstance(p, dict) and (b := _part(p)) is not None]
    if message.get("role") == "tool":  # a tool's result: its text and images
        result = blocks if isinstance(content, list) else _text(content)
        return [
            {
                "type": "tool_result",
                "tool_use_id": str(message.get("tool_call_id", "")),
                "content": result,
            }
        ]
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal:  # what the assistant said, as its refusal part
        blocks.append({"type": "text", "text": refusal})
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except ValueError:
            arguments = None
        if not isinstance(arguments, dict):  # a tool_use input is an object: the text kept
            arguments = {"arguments": function.get("arguments")}
        blocks.append(
            {
                "type": "tool_use",
                "id": call.get("id", ""),
                "name": function.get("name", ""),
                "input": arguments,
            }
        )
    return blocks


# Content parts the Messages API takes, as blocks: text (an assistant's refusal is what it
# said) and images; an empty text is no block.
_TEXT_PARTS = {"text": "text", "refusal": "refusal"}


def _part(part: dict[str, Any]) -> dict[str, Any] | None:
    """A text, refusal or image part (``check_for_anthropic`` refused any other) as a block,
    with the part's ``cache_control`` (a prompt-caching breakpoint) when it has one."""
    block = _block(part)
    if block is not None and part.get("cache_control") is not None:
        block["cache_control"] = part["cache_control"]
    return block


def _block(part: dict[str, Any]) -> dict[str, Any] | None:
    kind = part.get("type")
    if kind in _TEXT_PARTS:
        text = part.get(_TEXT_PARTS[kind])
        return {"type": "text", "text": text} if isinstance(text, str) and text else None
    url = str((part.get("image_url") or {}).get("url", ""))
    if url.startswith("data:") and ";base64," in url:
        media, data = url[5:].split(";base64,", 1)
        return {"type": "image", "source": {"type": "base64", "media_type": media, "data": data}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool.get("function") or {}
    out = {
        "name": function.get("name", ""),
        "input_schema": function.get("parameters") or {"type": "object", "properties": {}},
    }
    if function.get("description"):
        out["description"] = function["description"]
    if function.get("strict") is True:  # strict tool use: the call's input held to the schema
        out["strict"] = True
    return out


def _tool_choice(choice: Any) -> dict[str, Any] | None:
    if isinstance(choice, str):
        found = _TOOL_CHOICE.get(choice)
        return dict(found) if found else None  # a copy: the caller may add to it
    if isinstance(choice, dict) and (choice.get("function") or {}).get("name"):
        return {"type": "tool", "name": choice["function"]["name"]}
    return None


def _tool_call(block: dict[str, Any], index: int | None = None) -> dict[str, Any]:
    call: dict[str, Any] = {
        "id": block.get("id", ""),
        "type": "function",
        "function": {
            "name": block.get("name", ""),
            "arguments": json.dumps(block.get("input") or {}, ensure_ascii=False),
        },
    }
    return call if index is None else {"index": index, **call}


def _usage(usage: dict[str, Any]) -> dict[str, int]:
    prompt, completion = int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def completion_from_anthropic(data: dict[str, Any]) -> dict[str, Any]:
    blocks = [b for b in data.get("content") or [] if isinstance(b, dict)]
    text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
    calls = [_tool_call(b) for b in blocks if b.get("type") == "tool_use"]
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return {
        "id": f"chatcmpl-{data.get('id', '')}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": data.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": FINISH.get(str(data.get("stop_reason")), "stop"),
            }
        ],
        "usage": _usage(data.get("usage") or {}),
    }


@dataclass
class StreamTranslator:
    """Anthropic stream events in, ``chat.completion.chunk`` dicts out (``feed`` per event)."""

    model: str
    include_usage: bool = False
    done: bool = False
    _id: str = "chatcmpl-"
    _created: int = field(default_factory=lambda: int(time.time()))
    _tools: dict[int, int] = field(default_factory=dict)  # content block index → tool index
    _usage: dict[str, Any] = field(default_factory=dict)

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": self._id,
            "object": "chat.completion.chunk",
            "created": self._created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    def feed(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        kind = event.get("type")
        if kind == "message_start":
            message = event.get("message") or {}
            self._id = f"chatcmpl-{message.get('id', '')}"
            self.model = message.get("model") or self.model
            self._usage.update(message.get("usage") or {})
            return [self._chunk({"role": "assistant", "content": ""})]
        if kind == "content_block_start":
            block = event.get("content_block") or {}
            if block.get("type") != "tool_use":
                return []
            index = self._tools.setdefault(int(event.get("index", 0)), len(self._tools))
            call = _tool_call({**block, "input": {}}, index)
            call["function"]["arguments"] = ""
            return [self._chunk({"tool_calls": [call]})]
        if kind == "content_block_delta":
            return self._delta(event)
        if kind == "message_delta":
            self._usage.update(event.get("usage") or {})
            reason = (event.get("delta") or {}).get("stop_reason")
            return [self._chunk({}, FINISH.get(str(reason), "stop"))] if reason else []
        if kind == "message_stop":
            self.done = True
            if self.include_usage:
                return [{**self._chunk({}), "choices": [], "usage": _usage(self._usage)}]
        return []

    def _delta(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        delta = event.get("delta") or {}
        if delta.get("type") == "text_delta":
            return [self._chunk({"content": delta.get("text", "")})]
        if delta.get("type") == "input_json_delta":
            index = self._tools.get(int(event.get("index", 0)))
            if index is None:
                return []
            return [
                self._chunk(
                    {
                        "tool_calls": [
                            {
                                "index": index,
                                "function": {"arguments": delta.get("partial_json", "")},
                            }
                        ]
                    }
                )
            ]
        return []

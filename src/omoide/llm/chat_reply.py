"""How the chat proxy reads an upstream's reply: its server-sent events, its JSON, and what
makes a ``chat.completion`` or a ``chat.completion.chunk`` the API's.

Pure functions over what the upstream sent; :mod:`omoide.llm.chat` turns what they find wrong
into the proxy's 502 (a stream's final error event).
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from http import HTTPStatus
from typing import Any

import httpx

from omoide.engine.json_text import NESTED_TOO_DEEP, JsonTextError, loads_upstream

__all__ = [
    "NotAnObject",
    "as_chunk",
    "choices_problem",
    "error_text",
    "json_object",
    "retry_after_header",
    "sse_events",
    "status_words",
]

# What a message's or a delta's ``content`` may be: text, none, or a list of parts (some
# OpenAI-compatible servers send one); a number, a boolean or an object is no content.
_CONTENT = str | list | None


async def sse_events(response: httpx.Response) -> AsyncIterator[tuple[str, str]]:
    """(event name, data) of each server-sent event; the name is "" when none was given."""
    event, data = "", []
    async for line in response.aiter_lines():
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "", []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            event = line[6:].strip()
    if data:
        yield event, "\n".join(data)


class NotAnObject(ValueError):
    """Why an upstream's text is no JSON object the proxy can relay; it reads after "a body"
    or "a stream event" (``that is not JSON``, ``that cannot be relayed: NaN is …``)."""


def json_object(data: str | bytes) -> dict[str, Any]:
    """The JSON object ``data`` holds (bytes read as UTF-8), read by
    :func:`~omoide.engine.json_text.loads_upstream` (a lone surrogate in its strings is
    U+FFFD); else :class:`NotAnObject` naming the cause: not JSON, ``NaN`` or ``Infinity`` (or
    a number overflowing to it), nested deeper than the encoder relaying it can follow (or so
    deep that the parser overflows: a RecursionError, which was a 500), or JSON that is no
    object. One message for all four hid which the upstream's fault was."""
    try:
        value = loads_upstream(data)
    except JsonTextError as exc:
        raise NotAnObject(f"that cannot be relayed: {exc.message}") from None
    except RecursionError:
        raise NotAnObject(f"that cannot be relayed: {NESTED_TOO_DEEP}") from None
    except ValueError:
        raise NotAnObject("that is not JSON") from None
    if not isinstance(value, dict):
        raise NotAnObject("that is JSON but not an object")
    return value


def choices_problem(choices: Any, part: str) -> str | None:
    """What makes ``choices`` other than the API's, or None: they are a list of objects, each
    one's ``part`` (``message`` in an answer, ``delta`` in a stream's chunk) an object or
    null, and its ``content`` text, a list of parts or null."""
    if not isinstance(choices, list):
        return "choices are not a list"
    if not all(isinstance(c, dict) for c in choices):
        return "choices hold an item that is not an object"
    if not all(isinstance(c.get(part), dict | None) for c in choices):
        return f"choice's {part} is not an object"
    if not all(isinstance((c.get(part) or {}).get("content"), _CONTENT) for c in choices):
        return f"choice's {part} content is not text"
    return None


def as_chunk(completion: dict[str, Any]) -> dict[str, Any]:
    """A whole ``chat.completion`` (its choices checked) as one ``chat.completion.chunk``."""
    choices = [
        {
            "index": c.get("index", 0),
            "delta": c.get("message") or {},
            "finish_reason": c.get("finish_reason"),
        }
        for c in completion["choices"]
    ]
    return {**completion, "object": "chat.completion.chunk", "choices": choices}


def error_text(payload: dict[str, Any]) -> str:
    """The words of an ``error`` an upstream sent in its stream, at most 300 characters."""
    error = payload.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or error.get("type") or "unknown error")[:300]
    return str(error)[:300]


def status_words(status: int) -> str:
    """``HTTP 429 Too Many Requests`` (the standard phrase, not the upstream's)."""
    try:
        return f"HTTP {status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"


def retry_after_header(headers: httpx.Headers) -> str | None:
    """The upstream's ``Retry-After`` (delay seconds or an HTTP date) as a header value safe to
    pass on, else its ``retry-after-ms`` (OpenAI) rounded up to seconds, else None."""
    value = headers.get("retry-after", "").strip()
    if value and len(value) <= 64 and value.isascii() and value.isprintable():
        return value
    millis = headers.get("retry-after-ms", "").strip()
    try:
        seconds = math.ceil(float(millis) / 1000)
    except (ValueError, OverflowError):  # not a number, nan, inf
        return None
    return str(seconds) if 0 <= seconds <= 86_400 else None

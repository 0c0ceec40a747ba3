"""Counting a chat request's tokens for compaction (``engine/compact.py``): a message's text,
its estimated tokens (text, images, tool calls, overhead), a request's and a tools list's.

Counting and cutting are :mod:`omoide.engine.tokens`' estimates, memoised for short texts. Pure:
no I/O, no clock.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from omoide.engine.tokens import estimate_tokens, truncate_to_tokens

__all__ = [
    "IMAGE_TOKENS",
    "MESSAGE_OVERHEAD",
    "REQUEST_OVERHEAD",
    "Message",
    "count_tokens",
    "cut_to_tokens",
    "message_text",
    "message_tokens",
    "request_tokens",
    "tools_tokens",
]

Message = dict[str, Any]

MESSAGE_OVERHEAD = 4  # role and separators, as chat templates add them per message
REQUEST_OVERHEAD = 3
IMAGE_TOKENS = 85  # an image part, at the low-detail rate most providers charge


def message_text(message: Message) -> str:
    """The text of a message: a string content, or its text parts joined by newlines."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


# A chat resends its whole history on every request: counting and cutting the same texts again
# is most of compaction's cost, so both are memoised (pure functions; bounded caches).
# Only texts up to _MEMO_CHARS are kept, so the caches stay small (8192 × 4000 characters at
# most) whatever clients send.
_MEMO_ENTRIES = 1 << 13
_MEMO_CHARS = 4000
_count_memo = lru_cache(maxsize=_MEMO_ENTRIES)(estimate_tokens)
_cut_memo = lru_cache(maxsize=_MEMO_ENTRIES)(truncate_to_tokens)


# A longer text (a pasted log, a 1 MB message) is what compaction reads again at each step;
# its count is memoised under a digest of the text, so the memo holds no text at all.
_LONG_ENTRIES = 256
_long_counts: OrderedDict[bytes, int] = OrderedDict()
_long_lock = threading.Lock()


def count_tokens(text: str) -> int:
    """:func:`~omoide.engine.tokens.estimate_tokens`, memoised (a long text by its digest)."""
    if len(text) <= _MEMO_CHARS:
        return _count_memo(text)
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).digest()
    with _long_lock:
        if key in _long_counts:
            _long_counts.move_to_end(key)
            return _long_counts[key]
    count = estimate_tokens(text)
    with _long_lock:
        _long_counts[key] = count
        while len(_long_counts) > _LONG_ENTRIES:
            _long_counts.popitem(last=False)
    return count


def cut_to_tokens(text: str, max_tokens: int) -> str:
    """:func:`~omoide.engine.tokens.truncate_to_tokens`, memoised for short texts (a long one
    is read only up to the budget). A text that fits is told by its memoised count."""
    if len(text) <= _MEMO_CHARS:
        return text if _count_memo(text) <= max_tokens else _cut_memo(text, max_tokens)
    return truncate_to_tokens(text, max_tokens)


def message_tokens(message: Message) -> int:
    """Estimated tokens of one message: its text, images, tool calls and overhead."""
    total = MESSAGE_OVERHEAD + count_tokens(message_text(message))
    content = message.get("content")
    if isinstance(content, list):
        total += IMAGE_TOKENS * sum(
            1 for p in content if isinstance(p, dict) and p.get("type") == "image_url"
        )
    for call in message.get("tool_calls") or ():
        function = call.get("function") or {} if isinstance(call, dict) else {}
        total += count_tokens(str(function.get("name", "")))
        total += count_tokens(str(function.get("arguments", "")))
    return total


def request_tokens(messages: Iterable[Message], *, fixed_tokens: int = 0) -> int:
    return REQUEST_OVERHEAD + fixed_tokens + sum(message_tokens(m) for m in messages)


def tools_tokens(tools: Any) -> int:
    """What a ``tools`` list costs: its JSON text (providers render it into the prompt)."""
    return estimate_tokens(json.dumps(tools, ensure_ascii=False)) if tools else 0

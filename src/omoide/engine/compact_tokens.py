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
from collections.abc import Hashable, Iterable
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
# is most of compaction's cost, so both are memoised (pure functions; bounded memos). Only texts
# up to _MEMO_CHARS are kept, and each memo holds at most _MEMO_ENTRIES entries and
# _MEMO_TOTAL_CHARS characters (keys and values), so it stays within a few MB (~2 MB of text
# for 4-byte characters) whatever clients send.
_MEMO_ENTRIES = 1 << 13
_MEMO_CHARS = 4000
_MEMO_TOTAL_CHARS = 1 << 19


class _TextMemo:
    """A least-recently-used memo bounded by entries and by the characters it holds."""

    def __init__(self, max_entries: int, max_chars: int) -> None:
        self.max_entries = max_entries
        self.max_chars = max_chars
        self.chars = 0
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> tuple[bool, Any]:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return False, None
            self._items.move_to_end(key)
            return True, item[0]

    def put(self, key: Hashable, value: Any, chars: int) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.chars -= old[1]
            self._items[key] = (value, chars)
            self.chars += chars
            while len(self._items) > self.max_entries or self.chars > self.max_chars:
                self.chars -= self._items.popitem(last=False)[1][1]


_counts = _TextMemo(_MEMO_ENTRIES, _MEMO_TOTAL_CHARS)
_cuts = _TextMemo(_MEMO_ENTRIES, _MEMO_TOTAL_CHARS)


def _short_count(text: str) -> int:
    found, count = _counts.get(text)
    if not found:
        count = estimate_tokens(text)
        _counts.put(text, count, len(text))
    return count


def _short_cut(text: str, max_tokens: int) -> str:
    found, cut = _cuts.get((text, max_tokens))
    if not found:
        cut = truncate_to_tokens(text, max_tokens)
        _cuts.put((text, max_tokens), cut, len(text) + len(cut))
    return cut


# A longer text (a pasted log, a 1 MB message) is what compaction reads again at each step;
# its count is memoised under a digest of the text, so the memo holds no text at all.
_LONG_ENTRIES = 256
_long_counts = _TextMemo(_LONG_ENTRIES, max_chars=0)  # holds digests only: no characters


def count_tokens(text: str) -> int:
    """:func:`~omoide.engine.tokens.estimate_tokens`, memoised (a long text by its digest)."""
    if len(text) <= _MEMO_CHARS:
        return _short_count(text)
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).digest()
    found, count = _long_counts.get(key)
    if not found:
        count = estimate_tokens(text)
        _long_counts.put(key, count, 0)
    return count


def cut_to_tokens(text: str, max_tokens: int) -> str:
    """:func:`~omoide.engine.tokens.truncate_to_tokens`, memoised for short texts (a long one
    is read only up to the budget). A text that fits is told by its memoised count."""
    if len(text) <= _MEMO_CHARS:
        return text if _short_count(text) <= max_tokens else _short_cut(text, max_tokens)
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

"""Chat compaction's per-message steps (``engine/compact.py``): stage 1 trims a message, stage 2
clears a tool result's body, stage 3 cuts a message to a number of tokens. Pure: no I/O.
"""

from __future__ import annotations

import re

from omoide.engine.compact_tokens import Message, cut_to_tokens, message_text

__all__ = ["CLEARED_TOOL_RESULT", "clear_tool_result", "trim_message", "truncate_message"]

CLEARED_TOOL_RESULT = "[tool result cleared to save context]"
_BLANK_RUN = re.compile(r"\n{3,}")


def _with_text(message: Message, text: str) -> Message:
    """The message with its text replaced; content parts collapse to one text part, images
    become a one-word placeholder."""
    content = message.get("content")
    if isinstance(content, list):
        images = sum(1 for p in content if isinstance(p, dict) and p.get("type") == "image_url")
        text = text + (" [image]" * images if images else "")
    return {**message, "content": text}


def trim_message(message: Message, line_max_tokens: int) -> Message:
    """Stage 1: trailing spaces off, blank-line runs to one, long lines cut."""
    text = message_text(message)
    if not text:
        return message
    lines = [cut_to_tokens(line.rstrip(), line_max_tokens) for line in text.split("\n")]
    trimmed = _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip()
    return message if trimmed == text else _with_text(message, trimmed)


def clear_tool_result(message: Message) -> Message:
    """Stage 2: a tool result's body becomes a note; the message (and its call id) stays."""
    if message.get("role") != "tool" or message_text(message) == CLEARED_TOOL_RESULT:
        return message
    return {**message, "content": CLEARED_TOOL_RESULT}


def truncate_message(message: Message, cap: int) -> Message:
    """Stage 3: the message's text cut to ``cap`` tokens."""
    text = message_text(message)
    if len(text) <= cap and isinstance(message.get("content"), str):
        return message  # a token is at least one character
    cut = cut_to_tokens(text, cap)
    return (
        message
        if cut == text and isinstance(message.get("content"), str)
        else _with_text(message, cut)
    )

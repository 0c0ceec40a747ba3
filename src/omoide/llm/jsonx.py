"""Find the JSON in a model's answer, whatever it wrapped around it.

Models asked for "JSON only" still add code fences, a sentence before or after, or a reasoning
block (``<think>…</think>``). This module tolerates those and nothing more: it does not repair
broken JSON. Pure; error messages give the answer's length, never its text (it may quote
personal memories).
"""

from __future__ import annotations

import json
import re
from typing import Any

from omoide.engine.json_text import loads_upstream
from omoide.llm.base import LLMOutputError

__all__ = ["extract_json"]

# Only a leading block: reasoning models put it first, and "<think>" later on may sit inside
# a JSON string we must not cut. An unclosed one means the answer was all reasoning.
_THINK = re.compile(r"\s*<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()
_MISSING = object()  # json.loads can return None, so None cannot mean "not found"


def extract_json(text: str) -> Any:
    """The JSON value in ``text``: the whole text, a fenced block, or the largest embedded
    object or array, a lone surrogate in its strings as U+FFFD (a note or a verdict holding
    one could not be stored). Raises LLMOutputError when there is none."""
    think = _THINK.match(text)
    cleaned = text[think.end() if think else 0 :].strip()
    found = _whole(cleaned)
    if found is not _MISSING:
        return found
    for block in _FENCE.findall(cleaned):
        found = _whole(block.strip())
        if found is not _MISSING:
            return found
    found = _largest_embedded(cleaned)
    if found is not _MISSING:
        return found
    raise LLMOutputError(
        f"no JSON object or array found in the model's answer ({len(text)} characters)"
    )


def _whole(text: str) -> Any:
    if not text:
        return _MISSING
    try:  # NUL and lone surrogates as U+FFFD: a note holding one could not be stored
        return loads_upstream(text, keep=True)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's reach
        return _MISSING


def _largest_embedded(text: str) -> Any:
    """Decode at each ``{`` / ``[`` outside an earlier match; keep the longest match.

    Longest, because prose such as "see [1]" decodes too and must not win over the answer.
    The match is then read as :func:`_whole` reads a text.
    """
    best = (0, 0)
    pos = 0
    while True:
        start = _next_opening(text, pos)
        if start < 0:
            return _whole(text[best[0] : best[1]])
        try:
            _, end = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            pos = start + 1
            continue
        if end - start > best[1] - best[0]:
            best = (start, end)
        pos = end


def _next_opening(text: str, pos: int) -> int:
    brace, bracket = text.find("{", pos), text.find("[", pos)
    if brace < 0 or bracket < 0:
        return max(brace, bracket)
    return min(brace, bracket)

"""JSON values a caller sends whole: metadata objects, and where a NUL hides in one."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from omoide.engine.errors import too_long
from omoide.errors import InvalidInput
from omoide.service.validate.patterns import (
    MAX_INT,
    MAX_METADATA_CHARS,
    MAX_METADATA_DEPTH,
    MIN_INT,
)


def check_metadata(value: Any, field: str = "metadata") -> dict[str, Any]:
    """A JSON object of finite numbers, at most 10,000 characters as JSON, nested ≤ 8 deep."""
    if not isinstance(value, dict):
        raise InvalidInput(f"{field} must be a JSON object", field=field)
    if _depth(value) > MAX_METADATA_DEPTH:
        raise InvalidInput(
            f"{field} is nested deeper than {MAX_METADATA_DEPTH} levels", field=field
        )
    if _wide_number(value):
        raise InvalidInput(
            f"{field} holds a number outside ±(2^53 − 1), which a JSON parser "
            "reads back rounded (and an export holding it could not be "
            "imported); send it as text",
            field=field,
        )
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        raise InvalidInput(
            f"{field} must hold only JSON values (finite numbers, text without lone surrogates)",
            field=field,
        ) from None
    if "\\u0000" in text and holds_nul(value):
        raise InvalidInput(
            f"{field} holds a NUL character (U+0000) in a key or value, which "
            "text cannot hold; remove it",
            field=field,
        )
    if len(text) > MAX_METADATA_CHARS:
        raise InvalidInput(
            too_long(field, MAX_METADATA_CHARS, text, "characters as JSON"),
            field=field,
        )
    return value


def holds_nul(value: Any) -> bool:
    """Whether a key or string of a JSON value holds U+0000."""
    return nul_at(value) is not None


def nul_at(value: Any) -> str | None:
    """Where the first key or string of a JSON value holding U+0000 is (``events[0].content``;
    an object's path when one of its keys holds it; ``""``: the value itself), or None. No
    recursion."""
    return _first_at(value, text=lambda s: "\x00" in s)


def non_finite_at(value: Any) -> str | None:
    """Where the first NaN or ±Infinity of a JSON value is (``persona_state.emotion_intensity``;
    ``""``: the value itself), or None: what a parser that reads ``NaN`` hands over (the MCP
    SDK's does; the HTTP guard refuses it in a body)."""
    return _first_at(value, number=lambda n: isinstance(n, float) and not math.isfinite(n))


def _first_at(
    value: Any,
    *,
    text: Callable[[str], bool] = lambda _: False,
    number: Callable[[Any], bool] = lambda _: False,
) -> str | None:
    """The path of the first string or key for which ``text`` holds (a key: its object's path),
    or number (int or float, not bool) for which ``number`` holds. No recursion."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if text(item):
                return path
        elif isinstance(item, int | float) and not isinstance(item, bool):
            if number(item):
                return path
        elif isinstance(item, dict):
            for key, child in item.items():
                if text(str(key)):
                    return path
                stack.append((child, f"{path}.{key}" if path else str(key)))
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return None


def _wide_number(value: Any) -> bool:
    """Whether a JSON value holds a number outside ±(2^53 − 1), an integer or not (the HTTP
    guard refuses one in any body, and so does an import reading an export; MCP callers reach
    the services directly: ``1e300`` was stored over MCP and its export refused on import)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if (
            isinstance(item, int | float)
            and not isinstance(item, bool)
            and not MIN_INT <= item <= MAX_INT
        ):
            return True
        if isinstance(item, dict | list):
            stack.extend(item.values() if isinstance(item, dict) else item)
    return False


def _depth(value: Any) -> int:
    """Nesting depth of a JSON value (a scalar is 0, ``{}`` is 1), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            if level > MAX_METADATA_DEPTH:
                return level
            stack.extend(
                (child, level) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest

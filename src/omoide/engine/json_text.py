"""Reading a JSON text a user handed over (an import file, one of its lines).

``json.loads`` raises more than :class:`json.JSONDecodeError` on text a user can write: a
:class:`RecursionError` for arrays or objects nested some thousand levels deep, and a bare
:class:`ValueError` (no ``msg``, a message about ``sys.set_int_max_str_digits``) for an integer
of more than 4,300 digits. Callers caught neither, so such a file was a 500. :func:`loads`
raises :class:`JsonTextError` with a message for the user for all three, and for a value
nested deeper than :data:`MAX_DEPTH` levels (what reads it next, NFC and the validators, walks
it recursively: 900 levels parsed and then overflowed there). No import format nests half as
deep: an export record with its metadata stays under 16 levels, a chat export under 12.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "JsonTextError", "loads"]

MAX_DEPTH = 64


class JsonTextError(ValueError):
    """Text that is not JSON this reader reads; ``message`` says why, for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def loads(text: str) -> Any:
    """``json.loads(text)``, or :class:`JsonTextError`."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonTextError("arrays or objects nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError:  # the one other: an integer literal past Python's digit limit
        raise JsonTextError("an integer of more than 4,300 digits") from None
    _check_depth(value)
    return value


def _check_depth(value: Any) -> None:
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            if level >= MAX_DEPTH:
                raise JsonTextError(f"arrays or objects nested deeper than {MAX_DEPTH} levels")
            stack.extend((child, level + 1) for child in (
                item.values() if isinstance(item, dict) else item))

"""Text as the stores keep it: storable (no NUL, no lone surrogate) and not blank."""

from __future__ import annotations

import re

from omoide.errors import InvalidInput
from omoide.service.validate.patterns import NON_BLANK_PATTERN

_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # what check_text refuses
_VISIBLE = re.compile(NON_BLANK_PATTERN)


def check_text(value: str, field: str) -> str:
    """Text that can be stored, alike on every store: no NUL (PostgreSQL's text cannot hold
    one, SQLite's can) and no lone surrogate (UTF-8 cannot encode one). The HTTP boundary
    refuses both in any JSON string; this catches MCP, import and CLI callers."""
    if "\x00" in value:
        raise InvalidInput(f"{field} holds a NUL character (U+0000), which text cannot hold; "
                           "remove it", field=field)
    if _SURROGATE.search(value):
        raise InvalidInput(f"{field} holds a lone surrogate (U+D800-U+DFFF); send valid Unicode",
                           field=field)
    return value


def replace_unstorable(value: str) -> str:
    """``value`` with what :func:`check_text` refuses (NUL, lone surrogates) as U+FFFD: for
    text that must be kept whatever it holds (a chat reply already sent)."""
    return _UNSTORABLE.sub("\ufffd", value)


def is_blank(value: str) -> bool:
    """Whether text shows nothing: empty, whitespace, or only invisible format characters
    (zero-width spaces and joiners, direction marks, U+FEFF …)."""
    return _VISIBLE.search(value) is None

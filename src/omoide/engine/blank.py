"""Text that shows nothing (pure): empty, whitespace, or only invisible characters.

The one predicate, :func:`is_blank`, and the character classes it is made of, written so that
Python's ``re``, the Rust regex of pydantic and an ECMA-262 ``u`` pattern (JSON Schema's) read
them alike. The services refuse a blank text with it (``service.validate`` re-exports it and
builds its field patterns from these classes; the HTTP schemas publish
:data:`NON_BLANK_PATTERN`) in the one wording :data:`NON_BLANK_RULE`, as do the import file
checks (``engine.transfer_check``, ``engine.peer_formats``); the chat reader reads a message
id of it as no id (``engine.peer_chats``).
"""

from __future__ import annotations

import re

__all__ = ["INVISIBLE", "NON_BLANK_PATTERN", "NON_BLANK_RULE", "WHITESPACE", "is_blank"]

# Exactly the characters ``str.isspace()`` (and so ``str.strip()``) treats as whitespace.
WHITESPACE = (
    "\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029"
    "\\u202f\\u205f\\u3000"
)
# Characters that show nothing on their own: the soft hyphen, the combining grapheme joiner,
# zero-width spaces and joiners, direction marks and the other format controls (Unicode Cf),
# variation selectors, Hangul fillers, the blank Braille pattern; beyond U+FFFF the Egyptian
# hieroglyph and shorthand format controls, the musical beam and slur controls, the tag
# characters and the variation selector supplement. Those are written as the characters
# themselves, not as escapes: Python's re, the Rust regex of pydantic and an ECMA-262 "u"
# pattern (JSON Schema's) all read a literal astral character as one code point, while no
# escape for it is common to the three.
INVISIBLE = (
    "\\xad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f"
    "\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u2800\\u3164"
    "\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
# Text that is not blank: it holds one character that is neither whitespace nor invisible (a
# search, not a full match).
NON_BLANK_PATTERN = f"[^{WHITESPACE}{INVISIBLE}]"

_VISIBLE = re.compile(NON_BLANK_PATTERN)
# The one wording of a refused blank text on every surface (HTTP, MCP, the CLI, an import
# file's format checks), after the field's name; ``service.validate`` re-exports it.
NON_BLANK_RULE = "must not be empty or whitespace, nor only invisible characters"


def is_blank(value: str) -> bool:
    """Whether text shows nothing: empty, whitespace, or only invisible format characters
    (zero-width spaces and joiners, direction marks, U+FEFF …)."""
    return _VISIBLE.search(value) is None

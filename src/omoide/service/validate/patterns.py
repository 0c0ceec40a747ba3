"""The bounds and patterns of user-supplied fields, each defined once (docs/api.md lists them).

The services check values against them (the other modules of this package) and the HTTP request
models publish the same patterns in the OpenAPI document. Patterns are written so that Python's
``re.fullmatch`` and an ECMA-262 ``^…$`` match read them alike: explicit character classes, never
``\\s``, whose meaning differs between the two.
"""

from __future__ import annotations

import re
from datetime import timedelta

# Blank text: the engine's classes (``engine.blank``, the one ``is_blank``), whitespace and
# invisible characters, the not-blank pattern, and the one wording of a refused blank text.
from omoide.engine.blank import INVISIBLE as INVISIBLE
from omoide.engine.blank import NON_BLANK_PATTERN as NON_BLANK_PATTERN
from omoide.engine.blank import NON_BLANK_RULE as NON_BLANK_RULE
from omoide.engine.blank import WHITESPACE as WHITESPACE

# DEL, C1 and the bidirectional controls: the engine's, which its quoting helpers escape.
from omoide.engine.errors import BEYOND_C0_CONTROLS as BEYOND_C0_CONTROLS

# Persona, block and memory-key names: the model's (the store checks a persona name too).
from omoide.model import MAX_NAME_CHARS as MAX_NAME_CHARS
from omoide.model import NAME_PATTERN as NAME_PATTERN
from omoide.model import NAME_RULE as NAME_RULE

MAX_TAGS = 20
MAX_FILTER_TAGS = MAX_TAGS * MAX_TAGS  # a search filter: 20 query values of 20 tags each
MAX_TAG_CHARS = 64
MAX_EMOTION_CHARS = 64
MAX_STATE_KEY_CHARS = 64
MAX_EXTERNAL_ID_CHARS = 200
MAX_USER_ID_CHARS = MAX_EXTERNAL_ID_CHARS  # a mem0 import's user_id: an id of the system it left
# A timestamp as text (the longest, 2026-03-01T09:30:00.123456+09:00, is 32 characters; the
# rest is room for the surrounding spaces a typed value may hold), and a date range in words
# or dates (2026-03-01T09:30:00+09:00..2026-03-31T18:00:00+09:00 is 52).
MAX_TIMESTAMP_CHARS = 64
MAX_DATE_RANGE_CHARS = 100
MIN_YEAR = 1900
MAX_YEAR = 9999
# Integers are exact in every JSON parser (IEEE doubles) up to 2^53 − 1.
MIN_INT = -(2**53 - 1)
MAX_INT = 2**53 - 1
MAX_METADATA_CHARS = 10_000
MAX_METADATA_DEPTH = 8
# How far ahead of the server's clock the time of something that happened may be: a client's
# clock runs ahead, or a date alone (00:00 UTC) is today's date of a zone up to UTC+14.
MAX_AHEAD = timedelta(hours=24)

# Control characters a label (a tag, an emotion label) cannot hold: C0 (tab and newline too:
# a label is one line), DEL, C1, and the bidirectional embeddings, overrides and isolates
# (U+202A-U+202E, U+2066-U+2069), which reorder the text shown after them ("Trojan Source").
# ``TEXT_CONTROLS``: the same but tab, newline and carriage return, which multi-line text (a
# state value) may hold. At the ends, the control characters that are whitespace are trimmed.
# ``BEYOND_C0_CONTROLS`` (``engine.errors``): those past C0, which JSON's quoting (an error
# message quoting a value) leaves raw.
CONTROLS = "\\x00-\\x1f" + BEYOND_C0_CONTROLS
TEXT_CONTROLS = "\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f" + BEYOND_C0_CONTROLS
# A state key: 1–64 characters of any script (``name``, ``名前``, ``prénom``) but whitespace,
# invisible and control characters and the ASCII punctuation other than ``_`` and ``-`` (so an
# ASCII key is one as before, ``A-Z a-z 0-9 _ -``). Case matters, as in JSON: ``Name`` and
# ``name`` are two keys.
STATE_KEY_PATTERN = (
    f"^[^{WHITESPACE}{INVISIBLE}{CONTROLS}\\x21-\\x2c\\x2e\\x2f\\x3a-\\x40"
    f"\\x5b-\\x5e\\x60\\x7b-\\x7e]{{1,{MAX_STATE_KEY_CHARS}}}$"
)
SESSION_ID_PATTERN = "^[A-Za-z0-9_.:@-]{1,128}$"
EXTERNAL_ID_PATTERN = f"^[^\\x00-\\x1f\\x7f]{{1,{MAX_EXTERNAL_ID_CHARS}}}$"
EXTERNAL_ID_RULE = f"1-{MAX_EXTERNAL_ID_CHARS} characters without control characters"
# One tag: 1–64 characters once stripped, no comma (the search query separates tags by commas),
# no control character: a first character, then up to 62 inside and a last one.
_TAG = (
    f"[^{WHITESPACE},{CONTROLS}](?:[^,{CONTROLS}]{{0,{MAX_TAG_CHARS - 2}}}"
    f"[^{WHITESPACE},{CONTROLS}])?"
)
_BLANK = f"[{WHITESPACE}]*"
TAG_PATTERN = f"^{_BLANK}{_TAG}{_BLANK}$"
# An emotion label: not blank, no control character (its length is checked apart).
EMOTION_PATTERN = (
    f"^[{WHITESPACE}]*[^{CONTROLS}]*[^{WHITESPACE}{INVISIBLE}{CONTROLS}]"
    f"[^{CONTROLS}]*[{WHITESPACE}]*$"
)
# A search query value: tags separated by commas (blank pieces are skipped), at least one and
# at most 20 (a value holding no tag, tags=, is refused: it was no filter at all).
_PIECE = f"{_BLANK}(?:{_TAG}{_BLANK})?"
TAGS_QUERY_PATTERN = (
    f"^(?:{_BLANK},){{0,{MAX_TAGS - 1}}}{_BLANK}{_TAG}{_BLANK}(?:,{_PIECE}){{0,{MAX_TAGS - 1}}}$"
)
# The syntax of an ISO-8601 date, or date and time with an offset; a time without one matches
# the syntax and is refused by check_timestamp with its own message.
TIMESTAMP_PATTERN = (
    f"^[{WHITESPACE}]*[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}"
    "(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.][0-9]{1,6})?)?"
    f"(?:[Zz]|[+-][0-9]{{2}}:[0-9]{{2}})?)?[{WHITESPACE}]*$"
)

_COMPILED: dict[str, re.Pattern[str]] = {}


def matches(pattern: str, value: str) -> bool:
    """Whether ``value`` matches a ``^…$`` pattern above as a whole string (``$`` is the end of
    the string, as in ECMA-262 and JSON Schema, never before a trailing newline)."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        compiled = _COMPILED[pattern] = re.compile(pattern.removeprefix("^").removesuffix("$"))
    return compiled.fullmatch(value) is not None

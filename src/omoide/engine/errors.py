"""The engine's own errors: ``ValueError`` subclasses that say which argument is wrong and why.

The engine is pure: it knows no HTTP status and raises none of ``omoide.errors``. A service that
hands a caller's value to the engine maps these to ``InvalidInput`` (422 / a tool error) with
``service.validate.engine_input``; anywhere else they are programming errors and stay loud.

    ValueError
    └── EngineValueError    .field names the argument (or None)
        ├── DateRangeError  text the date-range reader cannot read as a range
        ├── ParameterError  a parameter outside what the function accepts
        └── ModelDataError  a bundled model or calibration whose data does not fit

This module imports only the standard library, so every engine module and subpackage may use it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = [
    "BEYOND_C0_CONTROLS",
    "ECHO_CHARS",
    "DateRangeError",
    "EngineValueError",
    "ModelDataError",
    "ParameterError",
    "count_rule",
    "escape_controls",
    "json_type",
    "length_rule",
    "length_said",
    "named",
    "of_json_type",
    "one_of",
    "path_named",
    "quoted",
    "spelled",
    "too_long",
    "too_many",
    "wrong_type",
]


# The control characters past C0 that JSON's quoting leaves raw: DEL, C1 and the bidirectional
# embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder the text
# shown after them ("Trojan Source"). A character class body, for ``re`` and the validators.
BEYOND_C0_CONTROLS = "\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069"
_BEYOND_C0 = re.compile(f"[{BEYOND_C0_CONTROLS}]")


def escape_controls(text: str) -> str:
    """``text`` with DEL, the C1 controls and the bidirectional controls written as JSON
    escapes the C0 ones (``\\u007f``, ``\\u0085``, ``\\u202e``), never raw: what every message
    that quotes a caller's text (:func:`quoted`, :func:`named`), a 404's path and the
    dashboard's error page do to it, so a U+202E cannot reverse the words after it."""
    return _BEYOND_C0.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# How much of a value a refusal echoes, in every message (HTTP's and MCP's schema checks, the
# services', the CLI's, an import's): one limit, written once (docs/api.md "Values").
ECHO_CHARS = 80


def quoted(value: object) -> str:
    """``value`` as a refusal echoes what was sent: its JSON (text in JSON's double quotes,
    ``got "1_0"``; never Python's repr, ``'1_0'``, ``'\\u202e'``), cut to :data:`ECHO_CHARS`
    characters ("…") so that a 5,000-character input does not make a 5,000-character message.
    The control characters JSON leaves raw are escaped as it escapes the others
    (:func:`escape_controls`), and a lone surrogate (which a CLI argument may hold) is shown
    escaped, so the message is always UTF-8 text that shows what was sent."""
    text = escape_controls(json.dumps(value, ensure_ascii=False, default=str))
    if len(text) > ECHO_CHARS:
        text = text[: ECHO_CHARS - 1] + "…"
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def named(value: object, limit: int = 64) -> str:
    """A name the caller sent (a query parameter, a field, a key) as a refusal names it: in
    single quotes, as the API names what it knows (``unknown persona 'rin'``), its control
    characters escaped as JSON escapes them (never Python's repr; those JSON leaves raw too,
    :func:`escape_controls`), cut at ``limit`` ("…") so that a 5,000-character name does not
    make a 5,000-character message."""
    return f"'{spelled(value, limit)}'"


def path_named(path: object) -> str:
    """A file or folder path as a message names it: in single quotes, as :func:`named` writes a
    name, its control characters escaped alike, but never cut (a path cut short names another
    place). Never Python's repr, which switches to double quotes for a path holding a quote and
    writes ``\\x85`` where every other message writes ``\\u0085``."""
    return named(str(path), _PATH_MAX)


_PATH_MAX = 4096  # Linux's PATH_MAX: a longer path is no path to name


def spelled(value: object, limit: int = 64) -> str:
    """A name the caller sent, or a place in a value made of its keys (``metadata.a\\u202eb``),
    as :func:`named` writes it, without the quotes: where a refusal names a field path bare
    (HTTP's ``metadata.x holds a NUL character``)."""
    text = escape_controls(json.dumps(str(value), ensure_ascii=False)[1:-1].replace('\\"', '"'))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def json_type(value: Any) -> str:
    """What a JSON value is, in JSON's words (``[1]`` is an array, not a list)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def of_json_type(value: Any, kind: str) -> bool:
    """Whether ``value`` is of the JSON type ``kind``: ``"string"``, ``"number"``,
    ``"integer"`` or ``"boolean"`` (a boolean is no number, ``1.0`` no integer)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return {
        "string": isinstance(value, str),
        "number": number,
        "integer": number and isinstance(value, int),
        "boolean": isinstance(value, bool),
    }[kind]


def wrong_type(subject: str, kind: str, got: Any) -> str:
    """The one wording of a value not of the JSON type ``kind`` (:func:`of_json_type`):
    ``top_k must be an integer, got "5"``. What was received is told as sent, written as JSON
    (:func:`quoted`), so its type shows, as every type refusal says it where a text, number or
    boolean is expected (HTTP's and MCP's schema checks, ``service.validate``), never only its
    type ("got a number"); where an object or array is expected, its type (:func:`json_type`:
    ``got a string``) is what a refusal says (docs/api.md "Values")."""
    article = "an" if kind == "integer" else "a"
    return f"{subject} must be {article} {kind}, got {quoted(got)}"


def length_rule(limit: int, unit: str = "characters") -> str:
    """The rule a length refusal states: ``must be at most 50,000 characters``."""
    return f"must be at most {limit:,} {unit}"


def count_rule(limit: int, what: str = "items") -> str:
    """The rule a count refusal states: ``must have at most 20 items``."""
    return f"must have at most {limit:,} {what}"


def one_of(choices: Iterable[str]) -> str:
    """The choices of a closed set as a refusal lists them, the words HTTP's and MCP's schema
    checks say (pydantic's): ``'hybrid', 'semantic' or 'keyword'``."""
    shown = [f"'{choice}'" for choice in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def too_long(subject: str, limit: int, got: int | str, unit: str = "characters") -> str:
    """The one wording of a length refusal, on every surface (HTTP, MCP, CLI, import):
    ``content must be at most 50,000 characters, got 50,001``; ``got`` the text itself, or
    its length (:func:`length_said`)."""
    return f"{subject} {length_rule(limit, unit)}, got {length_said(got)}"


# How a length is counted, said where it can surprise: in code points of the text in NFC (the
# one form user text is kept in, ``service.validate.nfc``), which writes a few characters as
# two or three (composition exclusions: क़ U+0958 is क U+0915 + ◌़ U+093C). Counting the
# text as sent instead would keep a text longer than the limit, which its export could then
# not be imported from; so the count stays the stored text's, and the refusal says so when the
# text holds what such a character becomes: a combining mark, or a Tibetan subjoined letter
# (U+0FB5, U+0FB7, the only other pieces NFC leaves of one).
NFC_COUNTED = (
    "counted in code points of its Unicode NFC form, the form text is kept in, where a few "
    "characters are two or three (क़ U+0958 is क U+0915 + U+093C)"
)


def length_said(got: int | str) -> str:
    """A length as a refusal says it: ``50,001``, or for a text holding what NFC may have
    grown, ``60,000, counted in code points of its Unicode NFC form …`` (:data:`NFC_COUNTED`)."""
    if isinstance(got, int):
        return f"{got:,}"
    grown = any(unicodedata.combining(c) or c in "\u0fb5\u0fb7" for c in got)
    return f"{len(got):,}, {NFC_COUNTED}" if grown else f"{len(got):,}"


def too_many(subject: str, limit: int, got: int, what: str = "items") -> str:
    """The one wording of a count refusal: ``tags must have at most 20 items, got 21``."""
    return f"{subject} {count_rule(limit, what)}, got {got:,}"


class EngineValueError(ValueError):
    """A value the engine cannot work with; ``message`` says why, ``field`` names it."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class DateRangeError(EngineValueError):
    """Date-range text (``engine.dates``) that is not one of its accepted forms, or no range."""


class ParameterError(EngineValueError):
    """A parameter outside the function's domain (a negative budget, a non-positive stability,
    fusion weights that are all zero, turns out of order …)."""


class ModelDataError(EngineValueError):
    """A bundled model or calibration whose numbers do not fit what the engine expects."""

"""Validation of user-supplied fields: one rule per field, one clear message per mistake (422).

Every rule is defined here once, as a pattern or a bound, and used twice: by the services (for
MCP and CLI callers) and by the HTTP request models in ``api/http/schemas`` (which publish the
same patterns in the OpenAPI document). Patterns are written so that Python's ``re.fullmatch``
and an ECMA-262 ``^…$`` match read them alike: explicit character classes, never ``\\s``, whose
meaning differs between the two.

Bounds (docs/api.md lists them):

- timestamps: ISO-8601 dates (00:00 UTC), or times with their UTC offset (a time of day
  without one is refused, :func:`check_timestamp`), years 1900–9999 once normalised to UTC;
  the time something happened (a turn said, a session started, a row of an import written)
  at most ``MAX_AHEAD`` (24 hours) after the server's clock (:func:`check_happened`); a
  validity window (``valid_from``/``valid_until``) describes the world and may lie in any
  future year;
- text: no NUL (U+0000; PostgreSQL cannot store it) and no lone surrogate; text that must not
  be blank holds a character that shows (not only whitespace or invisible format characters);
- integers a caller sends are within ±(2^53 − 1), exact in any JSON parser; floats are finite;
- persona names, block names and state keys: 1–64 of ``A-Z a-z 0-9 _ -``;
- session ids: 1–128 of ``A-Z a-z 0-9 _ . : @ -``;
- tags: 1–64 characters without a comma (surrounding whitespace is trimmed), at most 20;
- external ids: 1–200 characters, no control characters;
- metadata: a JSON object of at most 10,000 characters as JSON, nested at most 8 deep.

Also the one place where the engine's errors meet the caller: :func:`engine_input`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from omoide.engine.errors import EngineValueError
from omoide.errors import InvalidInput
from omoide.model import MemoryKind

__all__ = [
    "EXTERNAL_ID_PATTERN",
    "INVISIBLE",
    "MAX_AHEAD",
    "MAX_FILTER_TAGS",
    "MAX_INT",
    "MAX_METADATA_CHARS",
    "MAX_METADATA_DEPTH",
    "MAX_TAGS",
    "MAX_TAG_CHARS",
    "MAX_YEAR",
    "MIN_INT",
    "MIN_YEAR",
    "NAME_PATTERN",
    "NON_BLANK_PATTERN",
    "SESSION_ID_PATTERN",
    "TAGS_QUERY_PATTERN",
    "TAG_PATTERN",
    "TIMESTAMP_PATTERN",
    "WHITESPACE",
    "check_content",
    "check_emotion_type",
    "check_external_id",
    "check_happened",
    "check_kind",
    "check_metadata",
    "check_name",
    "check_session_id",
    "check_tags",
    "check_text",
    "check_timestamp",
    "check_unit_interval",
    "check_window",
    "check_window_fits",
    "engine_input",
    "holds_nul",
    "is_blank",
    "matches",
    "nul_at",
    "replace_unstorable",
]

MAX_TAGS = 20
MAX_FILTER_TAGS = MAX_TAGS * MAX_TAGS  # a search filter: 20 query values of 20 tags each
MAX_TAG_CHARS = 64
MAX_EMOTION_CHARS = 64
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

# Exactly the characters ``str.isspace()`` (and so ``str.strip()``) treats as whitespace.
WHITESPACE = ("\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029"
              "\\u202f\\u205f\\u3000")
# Characters that show nothing on their own: the soft hyphen, the combining grapheme joiner,
# zero-width spaces and joiners, direction marks and the other format controls (Unicode Cf),
# variation selectors, Hangul fillers, the blank Braille pattern; beyond U+FFFF the Egyptian
# hieroglyph and shorthand format controls, the musical beam and slur controls, the tag
# characters and the variation selector supplement. Those are written as the characters
# themselves, not as escapes: Python's re, the Rust regex of pydantic and an ECMA-262 "u"
# pattern (JSON Schema's) all read a literal astral character as one code point, while no
# escape for it is common to the three.
INVISIBLE = ("\\xad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f"
             "\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u2800\\u3164"
             "\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb"
             "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
             "\U000e0000-\U000e007f\U000e0100-\U000e01ef")
# Text that is not blank: it holds one character that is neither whitespace nor invisible (a
# search, not a full match).
NON_BLANK_PATTERN = f"[^{WHITESPACE}{INVISIBLE}]"
# Persona names, block names, state keys.
NAME_PATTERN = "^[A-Za-z0-9_-]{1,64}$"
SESSION_ID_PATTERN = "^[A-Za-z0-9_.:@-]{1,128}$"
EXTERNAL_ID_PATTERN = "^[^\\x00-\\x1f\\x7f]{1,200}$"
# One tag: 1–64 characters once stripped, no comma (the search query separates tags by commas).
TAG_PATTERN = (f"^[{WHITESPACE}]*[^{WHITESPACE},](?:[^,]{{0,62}}[^{WHITESPACE},])?"
               f"[{WHITESPACE}]*$")
# A search query value: tags separated by commas (blank pieces are skipped), at most 20.
_PIECE = f"[{WHITESPACE}]*(?:[^{WHITESPACE},](?:[^,]{{0,62}}[^{WHITESPACE},])?[{WHITESPACE}]*)?"
TAGS_QUERY_PATTERN = f"^{_PIECE}(?:,{_PIECE}){{0,19}}$"
# The syntax of an ISO-8601 date, or date and time with an offset; a time without one matches
# the syntax and is refused by check_timestamp with its own message.
TIMESTAMP_PATTERN = (f"^[{WHITESPACE}]*[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}"
                     "(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.][0-9]{1,6})?)?"
                     f"(?:[Zz]|[+-][0-9]{{2}}:[0-9]{{2}})?)?[{WHITESPACE}]*$")

_COMPILED: dict[str, re.Pattern[str]] = {}
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


def matches(pattern: str, value: str) -> bool:
    """Whether ``value`` matches a ``^…$`` pattern above as a whole string (``$`` is the end of
    the string, as in ECMA-262 and JSON Schema, never before a trailing newline)."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        compiled = _COMPILED[pattern] = re.compile(pattern.removeprefix("^").removesuffix("$"))
    return compiled.fullmatch(value) is not None


def check_name(value: Any, field: str, what: str) -> str:
    """A persona name, block name or state key: 1–64 letters, digits, ``_`` or ``-``."""
    if not isinstance(value, str) or not matches(NAME_PATTERN, value):
        raise InvalidInput(f"{what} {value!r} is invalid: use 1-64 letters, digits, '_' or '-'",
                           field=field)
    return value


def check_session_id(value: Any, field: str = "session_id") -> str:
    """A new session's id (opened, recorded by the chat proxy, imported): the pattern, and not
    '.' or '..', the dot segments every URL-normalising client rewrites (…/sessions/p/../x is
    read as …/sessions/x), so such a session could not be named in a path."""
    if not isinstance(value, str) or not matches(SESSION_ID_PATTERN, value):
        raise InvalidInput(f"{field} {value!r} is invalid: use 1-128 letters, digits or "
                           "_ . : @ -", field=field)
    if value in (".", ".."):
        raise InvalidInput(f"{field} {value!r} is a URL path's dot segment, which clients "
                           "rewrite (…/sessions/p/../episodes is read as another path); give "
                           "an id with another character", field=field)
    return value


def check_external_id(value: Any, field: str) -> str | None:
    """A string (or an integer, kept as its text) of 1–200 characters, no control characters."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and MIN_INT <= value <= MAX_INT:
        value = str(value)
    if not isinstance(value, str) or not matches(EXTERNAL_ID_PATTERN, value):
        raise InvalidInput(f"{field} must be a string of 1-200 characters without control "
                           "characters", field=field)
    return check_text(value, field)


def check_content(content: Any, *, max_chars: int) -> str:
    if not isinstance(content, str):
        raise InvalidInput("content must be a string", field="content")
    if is_blank(content):
        raise InvalidInput("content must not be empty or whitespace, nor only invisible "
                           "characters", field="content")
    check_text(content, "content")
    if len(content) > max_chars:
        raise InvalidInput(
            f"content is {len(content):,} characters; the limit is {max_chars:,}",
            field="content")
    return content.strip()


def check_emotion_type(value: Any) -> str | None:
    """A memory's emotion label: None, or a string of at most 64 characters."""
    if value is not None and (not isinstance(value, str) or len(value) > MAX_EMOTION_CHARS):
        raise InvalidInput(f"emotion_type must be a string of at most {MAX_EMOTION_CHARS} "
                           "characters", field="emotion_type")
    return None if value is None else check_text(value, "emotion_type")


def check_unit_interval(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number between 0 and 1, got {value!r}", field=name)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, got {value!r}", field=name)
    return float(value) + 0.0  # -0.0 is 0.0 (PostgreSQL's float keeps the sign, SQLite's not)


def check_tags(tags: Any, *, limit: int = MAX_TAGS) -> tuple[str, ...]:
    """At most ``limit`` tags given; each 1–64 characters once stripped, no comma. Duplicates
    are dropped, order kept."""
    if tags is None:
        return ()
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput("tags must be a list of strings", field="tags")
    given = list(tags)
    if len(given) > limit:
        raise InvalidInput(f"{len(given)} tags given; the limit is {limit}", field="tags")
    clean: list[str] = []
    for tag in given:
        if not isinstance(tag, str) or is_blank(tag):
            raise InvalidInput(f"every tag must be a non-empty string (not only whitespace or "
                               f"invisible characters), got {tag!r}", field="tags")
        if len(tag.strip()) > MAX_TAG_CHARS:
            raise InvalidInput(f"tag {tag.strip()[:20]!r}… is {len(tag.strip())} characters; "
                               f"the limit is {MAX_TAG_CHARS}", field="tags")
        check_text(tag, "tags")
        if not matches(TAG_PATTERN, tag):  # what is left: a comma
            raise InvalidInput(f"tag {tag!r} holds a comma (commas separate tags in a search)",
                               field="tags")
        if tag.strip() not in clean:
            clean.append(tag.strip())
    return tuple(clean)


def check_kind(kind: Any) -> MemoryKind:
    try:
        return MemoryKind(kind)
    except ValueError:
        raise InvalidInput(
            f"unknown kind {kind!r}; use one of {', '.join(k.value for k in MemoryKind)}",
            field="kind") from None


def check_timestamp(value: Any, name: str) -> datetime | None:
    """An ISO-8601 date, or a date and time with its UTC offset (``Z`` or ``±HH:MM``), an aware
    datetime, or None; the one place that reads a caller's time (HTTP bodies and queries, MCP
    arguments, import records, through the services). A time of day without an offset is
    refused: the server cannot know the clock it was read from (reading it as UTC put a
    Tokyo client's 09:00 at 18:00 local). A date alone is that day at 00:00 UTC. Bounds: years
    1900–9999 once normalised to UTC."""
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidInput(_no_offset(name, value.isoformat()), field=name)
        when = value
    elif isinstance(value, str) and matches(TIMESTAMP_PATTERN, value):
        text = value.strip()
        try:
            # RFC 3339 allows a lower-case t and z, as the date ranges read them
            when = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1] in "Zz" else text)
        except ValueError:
            raise InvalidInput(f"{name} is not a valid ISO-8601 date or timestamp: {value!r} "
                               "(no such day or time)", field=name) from None
        if when.tzinfo is None:
            if len(text) > len("YYYY-MM-DD"):  # a time of day was given
                raise InvalidInput(_no_offset(name, text), field=name)
            when = when.replace(tzinfo=UTC)
    else:
        raise InvalidInput(
            f"{name} is not a valid ISO-8601 date or timestamp: {value!r} "
            "(e.g. 2026-03-01 or 2026-03-01T09:30:00+09:00)", field=name)
    try:
        utc = when.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not MIN_YEAR <= utc.year <= MAX_YEAR:
        raise InvalidInput(f"{name} must fall in the years {MIN_YEAR}-{MAX_YEAR} (UTC), got "
                           f"{value!r}", field=name)
    return utc


def _no_offset(name: str, text: str) -> str:
    return (f"{name} {text!r} has no UTC offset, so the instant it names is unknown; add Z "
            f"for UTC or the offset of the clock it was read from, e.g. '{text}Z' or "
            f"'{text}+09:00' (a date alone, such as '{text[:10]}', is that day at 00:00 UTC)")


def check_happened(value: Any, name: str, now: datetime) -> datetime | None:
    """The time something happened (a turn said, a session started, a row written): a
    timestamp as :func:`check_timestamp` reads it, at most :data:`MAX_AHEAD` after ``now``
    (the server's clock). A time far ahead would keep a session from ever going idle and
    order the conversation wrongly; past dates are fine."""
    when = check_timestamp(value, name)
    if when is not None and when > now + MAX_AHEAD:
        hours = int(MAX_AHEAD.total_seconds() // 3600)
        raise InvalidInput(f"{name} {value if isinstance(value, str) else when.isoformat()!r} "
                           f"is more than {hours} hours after the server's clock "
                           f"({now.isoformat(timespec='seconds')}); give the time it happened "
                           "(past dates are fine)", field=name)
    return when


def check_window_fits(valid_from: datetime | None, valid_until: datetime | None) -> bool:
    """Whether a validity window is well formed: ``valid_until`` after ``valid_from``."""
    return valid_from is None or valid_until is None or valid_until > valid_from


def check_window(valid_from: datetime | None, valid_until: datetime | None) -> None:
    if not check_window_fits(valid_from, valid_until):
        raise InvalidInput("valid_until must be after valid_from", field="valid_until")


def check_metadata(value: Any, field: str = "metadata") -> dict[str, Any]:
    """A JSON object of finite numbers, at most 10,000 characters as JSON, nested ≤ 8 deep."""
    if not isinstance(value, dict):
        raise InvalidInput(f"{field} must be a JSON object", field=field)
    if _depth(value) > MAX_METADATA_DEPTH:
        raise InvalidInput(f"{field} is nested deeper than {MAX_METADATA_DEPTH} levels",
                           field=field)
    if _wide_int(value):
        raise InvalidInput(f"{field} holds an integer outside ±(2^53 − 1), which a JSON parser "
                           "reads back rounded; send it as text", field=field)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        raise InvalidInput(f"{field} must hold only JSON values (finite numbers, text "
                           "without lone surrogates)", field=field) from None
    if "\\u0000" in text and holds_nul(value):
        raise InvalidInput(f"{field} holds a NUL character (U+0000) in a key or value, which "
                           "text cannot hold; remove it", field=field)
    if len(text) > MAX_METADATA_CHARS:
        raise InvalidInput(f"{field} is {len(text):,} characters as JSON; the limit is "
                           f"{MAX_METADATA_CHARS:,}", field=field)
    return value


def holds_nul(value: Any) -> bool:
    """Whether a key or string of a JSON value holds U+0000."""
    return nul_at(value) is not None


def nul_at(value: Any) -> str | None:
    """Where the first key or string of a JSON value holding U+0000 is (``events[0].content``;
    an object's path when one of its keys holds it; ``""``: the value itself), or None. No
    recursion."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path
        elif isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in str(key):
                    return path
                stack.append((child, f"{path}.{key}" if path else str(key)))
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return None


def _wide_int(value: Any) -> bool:
    """Whether a JSON value holds an integer outside ±(2^53 − 1) (the HTTP guard refuses one
    in any body; MCP and import callers reach the services directly)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool) and \
                not MIN_INT <= item <= MAX_INT:
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
            stack.extend((child, level) for child in
                         (item.values() if isinstance(item, dict) else item))
    return deepest


@contextmanager
def engine_input() -> Iterator[None]:
    """Around an engine call that reads a caller's value: the engine's own
    :class:`~omoide.engine.errors.EngineValueError` becomes ``InvalidInput`` (422 / a tool
    error) with the engine's message and field."""
    try:
        yield
    except EngineValueError as exc:
        raise InvalidInput(exc.message, field=exc.field) from exc

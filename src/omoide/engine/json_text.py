"""The one reader of a JSON text a user hands over: an API request body, an import file or one
of its lines, a message to the MCP server.

Python's ``json.loads`` reads text no caller should see, and raises more than
:class:`json.JSONDecodeError` on text a user can write. :func:`loads` reads JSON strictly and
raises :class:`JsonTextError` with a message for the user (``field``: where, when known) for:

- text that is not JSON (said in the reader's words with its line and column, not Python's
  "Expecting value"), or bytes that are not UTF-8;
- ``NaN``/``Infinity`` (or a number literal that overflows to it), and any number beyond
  ±(2^53 − 1), the range every JSON parser reads exactly (so never an integer of 4,300 digits,
  which Python refuses with a bare ``ValueError``);
- an object that names one key twice (Python keeps the last value silently, other parsers the
  first: which one the writer meant is unknown);
- a string holding a lone surrogate (only an escape such as ``\\ud800`` can write one);
- arrays or objects nested deeper than ``max_depth`` (what reads the value next walks it
  recursively), or so deep that the parser itself overflows (a :class:`RecursionError`).

Each door chooses its depth: a request body :data:`BODY_DEPTH` (no route's body nests deeper
than 8), an import line :data:`MAX_DEPTH` (an export record with its metadata stays under 16
levels, a chat export under 12). No recursion in the checks.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from omoide.engine.errors import named

__all__ = [
    "BODY_DEPTH",
    "BOM",
    "MAX_DEPTH",
    "MAX_SAFE_INT",
    "NESTED_TOO_DEEP",
    "JsonTextError",
    "loads",
    "loads_upstream",
    "not_utf8_hint",
    "shape_refusal",
    "syntax_refusal",
]

MAX_DEPTH = 64
BOM = "\ufeff"  # a byte order mark (EF BB BF in UTF-8)
BODY_DEPTH = 32
MAX_SAFE_INT = 2**53 - 1
_INT_DIGITS = len(str(MAX_SAFE_INT)) + 1
_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class JsonTextError(ValueError):
    """Text that is not JSON this reader reads; ``message`` says why, for the user, and
    ``field`` names the key concerned when one is."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``text`` (bytes are read as UTF-8), or :class:`JsonTextError`.

    One byte order mark at the start is ignored, as RFC 8259 §8.1 lets a reader do: Windows
    Notepad wrote one before every file it saved as UTF-8, and the refusal said "Unexpected
    UTF-8 BOM (decode using utf-8-sig)"."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonTextError(f"not UTF-8 (byte {exc.start}){not_utf8_hint(text)}") from None
    text = text.removeprefix(BOM)
    try:
        value = json.loads(
            text,
            parse_constant=_no_constant,
            parse_int=_bounded_int,
            parse_float=_finite_float,
            object_pairs_hook=_unique_keys,
        )
    except RecursionError:
        raise JsonTextError("arrays or objects nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise JsonTextError(_not_json(exc)) from None
    _check_tree(value, max_depth=max_depth, has_escapes="\\u" in text or "\\U" in text)
    return value


_WORDS = {  # Python's words ("Expecting value", "Extra data") → the reader's
    "Expecting value": "expected a value (a string in double quotes, a number, an object, an "
    "array, true, false or null)",
    "Expecting property name enclosed in double quotes": "expected a key in double quotes",
    "Expecting ':' delimiter": "expected ':' after the key",
    "Expecting ',' delimiter": "expected ',' or the closing bracket after an item",
    "Extra data": "more text follows the end of the JSON value",
    "Unterminated string starting at": "a string opens here and is never closed",
    "Invalid control character at": "a control character (a tab or line break) inside a "
    "string; write it escaped (\\t, \\n)",
    "Invalid \\escape": 'a backslash escape JSON does not have (it has \\" \\\\ \\/ \\b \\f '
    "\\n \\r \\t and \\uXXXX)",
    "Invalid \\uXXXX escape": "a \\u escape without four hex digits",
    # Python 3.13's words for a comma before a closing bracket
    "Illegal trailing comma before end of object": "a comma before '}': JSON allows none after "
    "the last item",
    "Illegal trailing comma before end of array": "a comma before ']': JSON allows none after "
    "the last item",
}


def not_utf8_hint(head: bytes) -> str:
    """What to add when bytes that start with ``head`` are refused as not UTF-8, where they
    tell what the file is: text saved as UTF-16 (Windows PowerShell's ``>`` and ``Out-File``,
    Notepad's "Unicode") starts with its byte order mark; a zip archive (ChatGPT's and Claude's
    data exports come as one, conversations.json inside) with ``PK``; a gzip file with 1f 8b.
    "not UTF-8 (byte 0)" did not say what the file was."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "; it is UTF-16 (it starts with a UTF-16 byte order mark): save or send it as UTF-8"
    if head.startswith(b"PK\x03\x04"):
        return (
            "; it is a zip archive: unzip it and import the file inside (a ChatGPT or Claude "
            "data export holds conversations.json)"
        )
    if head.startswith(b"\x1f\x8b"):
        return "; it is gzip-compressed: decompress it (gunzip) and import the file itself"
    return ""


def syntax_refusal(text: str | bytes) -> str | None:
    """Why ``text`` is not JSON at all, in this reader's words with the line and column (as
    :func:`loads` says it), or None when it is JSON (or bytes that are not UTF-8: the caller's
    reader says that). For a door whose messages another reader parses (the MCP SDK's said
    "EOF while parsing an object at line 1 column 1")."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return _not_json(exc)
    except (ValueError, RecursionError):
        return None
    return None


def _not_json(exc: json.JSONDecodeError) -> str:
    return f"not valid JSON: {_why(exc)} (line {exc.lineno}, column {exc.colno})"


def _why(exc: json.JSONDecodeError) -> str:
    """What is wrong at ``exc.pos``, in the reader's words: the text ends early, a comma
    before a closing bracket, a key in single quotes, or :data:`_WORDS`."""
    text, pos = exc.doc, exc.pos
    expecting = exc.msg.startswith("Expecting")
    if expecting and not text[pos:].strip():
        return (
            "the text is empty"
            if not text.strip()
            else "the text ends before the JSON value is complete"
        )
    before = text[:pos].rstrip()
    if expecting and text[pos] in "]}" and before.endswith(","):
        return f"a comma before {named(text[pos])}: JSON allows none after the last item"
    if exc.msg.startswith("Expecting property name") and text[pos] == "'":
        return "a key in single quotes; JSON writes keys and strings in double quotes"
    return _WORDS.get(exc.msg, "not JSON text here")


def shape_refusal(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> str | None:
    """Why a message is refused before another reader (the MCP SDK's) reads it: an object that
    names one key twice (that reader keeps the last value silently), or arrays or objects nested
    deeper than ``max_depth`` or too deep to read at all (/mcp answered a body of 10,000 ``[``
    with a 500: the check of its envelope overflowed the stack), or a string holding a lone
    surrogate (``"\\ud800"``; that reader refused it as "unexpected end of hex escape", of an
    escape that is complete). None for anything else, also
    text that is not JSON (that reader says so) or that this reader refuses for another reason
    (``NaN`` …: that reader reads those)."""
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys)
    except JsonTextError as exc:
        return exc.message
    except RecursionError:
        return "arrays or objects nested too deeply to read"
    except ValueError:
        return None
    escaped = b"\\u" in text if isinstance(text, bytes) else "\\u" in text
    try:
        _check_tree(value, max_depth=max_depth, has_escapes=escaped)
    except JsonTextError as exc:
        return exc.message
    return None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        _refuse_key_twice(pairs)
    return value


def _refuse_key_twice(pairs: list[tuple[str, Any]]) -> None:
    seen: set[str] = set()
    twice = next(key for key, _ in pairs if key in seen or seen.add(key))
    raise JsonTextError(
        f"names the key {named(twice)} twice in one object; send it once", field=twice
    )


def _no_constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not a number this reader accepts (numbers must be finite)")


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > _INT_DIGITS or not -MAX_SAFE_INT <= int(literal) <= MAX_SAFE_INT:
        shown = f"{literal[:24]}{'…' if len(literal) > 24 else ''}"
        raise JsonTextError(
            f"integer {shown} is outside ±{MAX_SAFE_INT} (integers must be "
            "exact in any JSON parser)"
        )
    return int(literal)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value) or not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
        raise JsonTextError(
            f"number {literal[:24]} is outside ±{MAX_SAFE_INT} (numbers must "
            "be finite and exact in any JSON parser)"
        )
    return value


def _upstream_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise JsonTextError(f"number {literal[:24]} is not finite (JSON numbers are)")
    return value


def _check_tree(value: Any, *, max_depth: int, has_escapes: bool) -> None:
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            if has_escapes and _SURROGATE.search(item):
                raise JsonTextError(
                    "holds a lone surrogate (\\ud800-\\udfff) in a string; send valid Unicode"
                )
        elif isinstance(item, dict | list):
            if level >= max_depth:
                raise JsonTextError(_nested_deeper(max_depth))
            if isinstance(item, dict):
                stack.extend((key, level) for key in item)
                stack.extend((child, level + 1) for child in item.values())
            else:
                stack.extend((child, level + 1) for child in item)


def _nested_deeper(depth: int) -> str:
    return f"arrays or objects nested deeper than {depth} levels"


NESTED_TOO_DEEP = _nested_deeper(MAX_DEPTH)  # what a text the parser itself overflowed on is


def _upstream_constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not a JSON number (JSON numbers are finite)")


def loads_upstream(text: str | bytes, *, max_depth: int = MAX_DEPTH, keep: bool = False) -> Any:
    """The JSON value of a text another program wrote (an LLM server's answer, its error, an
    event of its stream), read as ``json.loads`` reads it but with what could not be passed on:

    - a lone surrogate in a string (an escape such as ``\\ud83d`` without its pair, which a
      server stopped at ``max_tokens`` mid-emoji writes) becomes U+FFFD: no UTF-8 text holds
      one, so relaying, recording or answering the string failed (a 500, or a stream cut with
      no end);
    - arrays or objects nested deeper than ``max_depth`` raise :class:`JsonTextError`: a depth
      the parser just reached overflowed the encoder of the reply that relays it (a 500);
    - ``NaN``, ``Infinity`` or a number that overflows to it (``1e999``) raise
      :class:`JsonTextError`: they are not JSON, and the relayed reply could not be written (a
      500) or, streamed, was passed on as text no JSON parser reads.

    ``keep``: the value is text Omoide stores (a model's notes, verdicts, profile): NUL, which
    PostgreSQL cannot store and SQLite's C functions cut at, becomes U+FFFD too (relayed to a
    client, a NUL is valid JSON text and stays).

    Raises :class:`JsonTextError` or what ``json.loads`` raises (ValueError, RecursionError)."""
    value = json.loads(text, parse_constant=_upstream_constant, parse_float=_upstream_float)
    bad = _UNSTORABLE if keep else _SURROGATE
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if not isinstance(item, dict | list):
            continue
        if level >= max_depth:
            raise JsonTextError(_nested_deeper(max_depth))
        if isinstance(item, list):
            for i, child in enumerate(item):
                if isinstance(child, str):
                    item[i] = bad.sub("\ufffd", child)
                else:
                    stack.append((child, level + 1))
        else:
            pairs = list(item.items())
            item.clear()
            for key, child in pairs:
                if isinstance(child, str):
                    child = bad.sub("\ufffd", child)
                else:
                    stack.append((child, level + 1))
                item[bad.sub("\ufffd", key)] = child
    return bad.sub("\ufffd", value) if isinstance(value, str) else value

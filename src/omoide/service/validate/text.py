"""Text as the stores keep it: storable (no NUL, no lone surrogate), not blank, and for labels
and state values without control characters."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from omoide.engine.blank import is_blank as is_blank  # the one blank rule, the engine's
from omoide.engine.errors import named, quoted, spelled
from omoide.errors import InvalidInput
from omoide.service.validate.patterns import CONTROLS, NON_BLANK_RULE, TEXT_CONTROLS

_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # what check_text refuses
_CONTROL = {False: re.compile(f"[{CONTROLS}]"), True: re.compile(f"[{TEXT_CONTROLS}]")}


def check_text(value: str, field: str) -> str:
    """Text that can be stored, alike on every store: no NUL (PostgreSQL's text cannot hold
    one, SQLite's can) and no lone surrogate (UTF-8 cannot encode one). The HTTP boundary
    refuses both in any JSON string; this catches MCP, import and CLI callers."""
    if "\x00" in value:
        raise InvalidInput(
            f"{field} holds a NUL character (U+0000), which text cannot hold; remove it",
            field=field,
        )
    if _SURROGATE.search(value):
        raise InvalidInput(
            f"{field} holds a lone surrogate (U+D800-U+DFFF); send valid Unicode", field=field
        )
    return value


def check_controls(value: str, field: str, *, lines: bool = False) -> str:
    """``value`` (already trimmed) if it holds no control character (``patterns.CONTROLS``; with
    ``lines``, tab, newline and carriage return are allowed: ``TEXT_CONTROLS``), else refused
    naming the field and the first one: a tag holding ESC or a right-to-left override shows as
    something else than it is, and no one types one on purpose."""
    found = _CONTROL[lines].search(value)
    if found is not None:
        allowed = " (tab and line breaks are allowed)" if lines else ""
        raise InvalidInput(
            f"{field} holds a control character (U+{ord(found.group()):04X} at position "
            f"{found.start() + 1}), which it cannot hold{allowed}; remove it",
            field=field,
        )
    return value


def replace_controls(value: str, *, lines: bool = False) -> tuple[str, int]:
    """``value`` with each control character :func:`check_controls` refuses as a space, and how
    many there were: for text written before they were refused (an older export)."""
    return _CONTROL[lines].subn(" ", value)


def replace_unstorable(value: str) -> str:
    """``value`` with what :func:`check_text` refuses (NUL, lone surrogates) as U+FFFD: for
    text that must be kept whatever it holds (a chat reply already sent)."""
    return _UNSTORABLE.sub("\ufffd", value)


def check_non_blank(value: Any, field: str, *, subject: str | None = None) -> str:
    """``value`` if it is a string that is not blank (:func:`is_blank`), else refused in the
    one wording of each: ``speaker must be a string, got 5`` (what was sent, as JSON:
    :func:`~omoide.engine.errors.quoted`), ``speaker`` followed by
    :data:`NON_BLANK_RULE`. ``subject`` names the value in the message when it is not its
    ``field`` (a search's ``query``, whose field is HTTP's ``q``)."""
    said = subject or field
    if not isinstance(value, str):
        raise InvalidInput(f"{said} must be a string, got {quoted(value)}", field=field)
    if is_blank(value):
        raise InvalidInput(f"{said} {NON_BLANK_RULE}", field=field)
    return value


def nfc(value: Any, where: str = "") -> Any:
    """``value`` with every string in it, object keys too, in Unicode NFC: the one form user
    text is kept and compared in. "café" typed as one code point or as e + U+0301 is then one
    memory, one event text, one search query; without it a write in one form was stored
    again beside the other and a search in one form missed text in the other (an exact
    comparison). Applied once where user text enters: the HTTP body guard (JSON bodies and
    query strings), the MCP tool call, and the import's records. A value already in NFC (the
    usual case) is returned as is. Two keys of one object that become one key are refused
    (``where``: the object's path, for the message)."""
    if isinstance(value, str):
        return (
            value
            if unicodedata.is_normalized("NFC", value)
            else unicodedata.normalize("NFC", value)
        )
    if isinstance(value, dict):
        out = {}
        for key, child in value.items():
            name = nfc(key) if isinstance(key, str) else key
            path = f"{where}.{name}" if where else str(name)
            if name in out:
                raise InvalidInput(
                    f"{spelled(where) if where else 'the object'} names the key {named(name)} "
                    "twice once its Unicode is normalised (NFC); send it once",
                    field=path,
                )
            out[name] = nfc(child, path)
        return out
    if isinstance(value, list | tuple):
        return type(value)(nfc(child, f"{where}[{i}]") for i, child in enumerate(value))
    return value

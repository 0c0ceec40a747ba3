"""The request's query string and the headers the API reads once, checked before any route
(the guard, ``guard.py``, calls these): the query string read as UTF-8 and put in NFC whatever
bytes it came in (:func:`normal_query`); a persona or session header that is not ASCII or is
blank, or a header the API reads sent twice (:func:`header_refused`); and the one reader of a
header before a request has a route (:func:`scope_header`)."""

from __future__ import annotations

import unicodedata
from urllib.parse import quote, unquote_to_bytes, urlencode

from starlette.types import Scope

from omoide.api.http.json_body import JsonRefused
from omoide.api.http.target import BAD_ESCAPE, not_an_escape
from omoide.engine.errors import named, quoted
from omoide.service.validate import NAME_RULE, NON_BLANK_RULE, is_blank, nfc

__all__ = ["header_refused", "normal_query", "scope_header"]


def scope_header(scope: Scope, wanted: bytes) -> str | None:
    """The first value of the header ``wanted`` (lower case, as ASGI names them) in an ASGI
    scope, as text (Latin-1, as HTTP reads header bytes); None when it was not sent. The one
    reader of a header before a request has a route (the guard, ``/mcp``)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == wanted:
            return bytes(value).decode("latin-1")
    return None


_SINGLE_HEADERS = {
    b"authorization": "Authorization",
    b"x-omoide-persona": "X-Omoide-Persona",
    b"x-omoide-session": "X-Omoide-Session",
}


_HEADER_RULES = {
    "X-Omoide-Persona": NAME_RULE,
    "X-Omoide-Session": "1-128 ASCII letters, digits or _ . : @ -",
}


def _header_not_ascii(scope: Scope) -> tuple[str, str] | None:
    """A persona or session header holding bytes beyond ASCII, with its value read as UTF-8
    (Starlette reads header bytes as Latin-1: the 422 for X-Omoide-Persona: 日本 showed the
    name as 'æ\\x97¥æ\\x9c¬')."""
    for name, value in scope.get("headers", ()):
        shown = _SINGLE_HEADERS.get(name)
        if shown in _HEADER_RULES and not value.isascii():
            return shown, value.decode("utf-8", "replace")
    return None


# What a client sending a blank one meant to leave out, said after the blank wording.
_LEFT_OUT = {
    "X-Omoide-Persona": "name the persona, or leave the header out (a persona's own key needs "
    "none)",
    "X-Omoide-Session": "name the session, or leave the header out for the default one "
    "(chat-<user>, else derived from the first user message)",
}


def _header_blank(scope: Scope) -> str | None:
    """A persona or session header sent with a blank value (``X-Omoide-Session:``). Why: it
    was refused in its pattern's words ("must be 1-128 ASCII letters …, got \"\""), unlike
    every other blank text the API refuses (NON_BLANK_RULE), and did not say that leaving the
    header out is what gives the default."""
    for name, value in scope.get("headers", ()):
        shown = _SINGLE_HEADERS.get(name)
        if shown in _LEFT_OUT and value.isascii() and is_blank(value.decode("ascii")):
            return shown
    return None


def header_refused(scope: Scope) -> JsonRefused | None:
    """A header the API reads that is not ASCII, blank or sent twice (``field`` None: the
    ``Authorization`` header, a 401)."""
    foreign = _header_not_ascii(scope)
    if foreign is not None:
        name, shown = foreign
        return JsonRefused(
            f"{name} must be {_HEADER_RULES[name]}, got {quoted(shown)} (a header value is ASCII)",
            field=name,
        )
    blank = _header_blank(scope)
    if blank is not None:
        return JsonRefused(f"{blank} {NON_BLANK_RULE}, got ''; {_LEFT_OUT[blank]}", field=blank)
    twice = _header_twice(scope)
    if twice is None:
        return None
    name, count = twice
    return JsonRefused(
        f"the request sends the {name} header {count} times; send it once",
        field=None if name == "Authorization" else name,
    )


def _header_twice(scope: Scope) -> tuple[str, int] | None:
    """The first header the API reads once that the request sends more than once."""
    counts: dict[bytes, int] = {}
    for name, _ in scope.get("headers", ()):
        if name in _SINGLE_HEADERS:
            counts[name] = counts.get(name, 0) + 1
    return next(((_SINGLE_HEADERS[n], c) for n, c in counts.items() if c > 1), None)


def normal_query(query: bytes) -> bytes | None:
    """The query string as the app should read it, or None to pass it on as sent.

    Each name and value is read as UTF-8 once percent-decoded, whether its bytes came
    percent-encoded or raw (a server that hands raw bytes over, as uvicorn's httptools does,
    would otherwise have Starlette read them as Latin-1: mojibake), and put in NFC. A query
    string that is not ASCII, or not NFC, is sent on re-encoded (ASCII, percent-escapes), so
    every client's ``q=大阪`` is one text. Raises :class:`JsonRefused` naming the parameter
    whose bytes are not UTF-8, hold NUL, or hold a ``%`` that starts no percent-escape
    (``q=100%``: written ``%25``)."""
    if not query:
        return None
    pairs = [_query_pair(piece) for piece in query.split(b"&") if piece]
    if query.isascii() and all(
        unicodedata.is_normalized("NFC", k) and unicodedata.is_normalized("NFC", v)
        for k, v in pairs
    ):
        return None
    return urlencode([(nfc(k), nfc(v)) for k, v in pairs], quote_via=quote).encode("ascii")


def _query_pair(piece: bytes) -> tuple[str, str]:
    raw_name, _, raw_value = piece.partition(b"=")
    if (bad := BAD_ESCAPE.search(raw_name)) is not None:
        raise JsonRefused(f"a query parameter name {_not_an_escape(raw_name, bad.start())}")
    try:
        name = _query_text(raw_name)
    except UnicodeDecodeError:
        raise JsonRefused(
            "a query parameter name is not UTF-8 text once percent-decoded; "
            "send names and values as UTF-8"
        ) from None
    if (bad := BAD_ESCAPE.search(raw_value)) is not None:  # "%ZZ" was read as itself
        said = _not_an_escape(raw_value, bad.start())
        raise JsonRefused(f"query parameter {named(name)} {said}", field=name)
    try:
        value = _query_text(raw_value)
    except UnicodeDecodeError:
        raise JsonRefused(
            f"query parameter {named(name)} is not UTF-8 text once percent-decoded; "
            "send its value as UTF-8 (percent-encoded)",
            field=name,
        ) from None
    if "\x00" in name or "\x00" in value:
        raise JsonRefused(
            f"query parameter {named(name)} holds a NUL character (%00); remove it",
            field=name if "\x00" not in name else None,
        )
    return name, value


def _not_an_escape(raw: bytes, at: int) -> str:
    return f"{not_an_escape(raw, at)} (e.g. q=100%25)"


def _query_text(raw: bytes) -> str:
    return unquote_to_bytes(raw.replace(b"+", b" ")).decode("utf-8")

"""The request target, read as RFC 9112 §3.2 says, before anything else reads the path.

Trigger / why / outcome:
- absolute-form (``GET http://127.0.0.1:8765/api/stats/rin HTTP/1.1``, as a client configured
  with a proxy sends it): a server MUST accept it (§3.2.2), and it was a 404 naming
  ``/http://127.0.0.1:8765/api/stats/rin``, a route nobody asked for → read as its path and
  query, with the target's authority as the ``Host`` (the one the server then checks, as the
  RFC asks: ``/mcp``'s guard against DNS rebinding reads it).
- a target that is neither a path nor a URL (``GET api/stats/rin``, ``OPTIONS *``,
  ``CONNECT host:443``): it was a 404 naming ``/api/stats/rin``, a route that exists → 400
  naming the target as sent and the form to use.
- a path whose percent-escapes are not UTF-8 (``/api/stats/%E3%81``): read with U+FFFD in
  place of the bytes, then refused as if the client had sent that character → 422 saying so,
  as the guard says it of a query parameter.
- a ``%`` not followed by two hex digits (``/api/memories/rin/%ZZ``, a ``%`` sent as itself):
  not a percent-escape (RFC 3986 §2.1), and it was read as the text ``%ZZ`` while ``%41`` is
  ``A``, so what a bare ``%`` meant hung on the characters after it → 422 saying to write it
  as ``%25``, as the guard says it of a query parameter (``request_head.normal_query``).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_to_bytes

from starlette.types import Scope

from omoide.engine.errors import named

__all__ = ["BAD_ESCAPE", "TargetRefused", "not_an_escape", "origin_form"]

_ABSOLUTE = re.compile(rb"(?i)https?://([^/?#]*)(.*)")
# A "%" that does not start a percent-escape: not followed by two hex digits.
BAD_ESCAPE = re.compile(rb"%(?![0-9A-Fa-f]{2})")
ESCAPE_RULE = "a '%' starts a percent-escape of two hex digits: send a '%' itself as %25"


def not_an_escape(raw: bytes, at: int) -> str:
    """What a refusal says of ``raw`` (a path, a query name or value), whose ``%`` at ``at``
    starts no percent-escape (:data:`BAD_ESCAPE`)."""
    shown = raw[at : at + 3].decode("utf-8", "replace")
    return f"holds {named(shown)}, not a percent-escape; {ESCAPE_RULE}"


class TargetRefused(Exception):
    """A target the server does not read: ``status`` (400 or 422) and the words to answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def origin_form(scope: Scope) -> Scope:
    """``scope`` with its target in origin-form (an absolute-form one read as its path and
    authority); :class:`TargetRefused` for a target of another form, or a path holding a
    ``%`` that starts no percent-escape or that is not UTF-8 once percent-decoded."""
    raw = bytes(scope.get("raw_path") or scope.get("path", "").encode("utf-8", "replace"))
    absolute = _ABSOLUTE.fullmatch(raw)
    if absolute is not None:
        authority, raw = absolute.group(1), absolute.group(2) or b"/"
        headers = [
            (name, value) for name, value in scope.get("headers", ()) if name.lower() != b"host"
        ]
        scope = {
            **scope,
            "raw_path": raw,
            "path": unquote(raw.decode("ascii", "replace")),
            "headers": [*headers, (b"host", authority)],
        }
    if not raw.startswith(b"/"):
        shown = raw.decode("ascii", "replace")
        raise TargetRefused(
            400,
            f"the request target must be a path starting with '/' "
            f"(e.g. GET /api/stats/rin HTTP/1.1) or a full URL "
            f"(http://host:port/api/…); got {shown!r:.100}",
        )
    bad = BAD_ESCAPE.search(raw)
    if bad is not None:
        raise TargetRefused(422, f"the path {not_an_escape(raw, bad.start())}")
    try:
        unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise TargetRefused(
            422,
            "the path is not UTF-8 text once percent-decoded; "
            "percent-encode its characters as UTF-8 (e.g. %E5%A4%A7 for "
            "大)",
        ) from None
    return scope

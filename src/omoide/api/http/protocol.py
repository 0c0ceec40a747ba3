"""The HTTP/1.1 connection ``omoide serve`` runs: uvicorn's h11 protocol, with two changes at
the request line, before any app code runs.

Trigger / why / outcome:
- a request line whose target holds raw (not percent-encoded) bytes beyond ASCII, as curl and
  some HTTP libraries send ``?q=大阪`` → the bytes are percent-encoded as sent, so the app reads
  the same text as from ``?q=%E5%A4%A7%E9%98%AA`` (h11 refuses them: RFC 9112 allows only ASCII
  there, and the client got a bare 400 for a search another client gets answers to). Bytes that
  are not UTF-8 then reach the HTTP guard, which refuses them naming the parameter (422). Only a
  request line that arrives whole in one read is rewritten (every client sends it so);
  otherwise the bytes pass as sent.
- a request h11 cannot read (a malformed request line or header) → the 400 is in the API's one
  error shape (``bad_request``) with a message that says what to fix, instead of uvicorn's
  plain-text "Invalid HTTP request received.".
- a malformed ``Content-Length`` (not digits, negative, over 20 digits, two that differ), a
  ``Transfer-Encoding`` other than chunked, a malformed chunked body, no ``Host`` header or two
  → the 400 names what is wrong.
- a request line or header block longer than h11 reads (16 KiB, unless it arrives in one
  read) → 414 (the request line) or 431 (the headers) saying so: it was answered "malformed
  … a URL must be ASCII", about a URL that was ASCII and only long. Under a dashboard URL (a
  search typed into its box) it is the dashboard's error page, as every refusal there is
  (docs/dashboard.md); the API's JSON showed in the browser as raw text. Which URL is a page,
  and the page, are the app's to say (:data:`RefusalPage`, ``app.state.refusal_page``, set by
  ``api.http.app``): this connection layer knows nothing of the dashboard.
- a refusal sent while the request is still arriving (any of the above: the rest of a long
  request line, a body after a malformed header) → the reply is sent, the write side shut, and
  what the client still sends read and dropped until it closes (at most :data:`LINGER_BYTES`
  or :data:`LINGER_S`), then the connection closed. Closed at once with unread bytes, the
  kernel answers with a reset that can reach the client before it has read the refusal, so
  the client saw "connection reset" instead of the 414 (a flaky test found it).
- a reply that failed after its status was sent (``access_log.StreamCut``) → the connection
  is closed without the closing chunk, as uvicorn does, but without its "Exception in ASGI
  application" traceback: the request log has the one line saying so.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Callable
from urllib.parse import unquote

import h11
from starlette.responses import Response
from uvicorn.protocols.http.h11_impl import H11Protocol

from omoide.api.errors import error_bytes
from omoide.api.http.access_log import StreamCut

__all__ = ["OmoideH11Protocol", "RefusalPage", "encode_request_target"]

# ``(path, status, message)`` → the page a browser is shown for a request refused before the
# app runs, or None when the API's JSON answers it: the app's ``state.refusal_page``.
RefusalPage = Callable[[str, int, str], Response | None]

LINGER_S = 2.0  # how long a refused connection's unread bytes are read and dropped
LINGER_BYTES = 1024 * 1024  # … and how many at most

_HIGH = re.compile(rb"[\x80-\xff]")
_LINE_MAX = 64 * 1024  # a request line longer than this is left to h11's own limit
_BAD_REQUEST = error_bytes(
    "bad_request",
    "the request is not valid HTTP/1.1 and was not read (its request line or a "
    "header is malformed); a URL must be ASCII: percent-encode other characters as UTF-8 "
    "(curl: -G --data-urlencode 'q=…')",
)


_HEAD_MAX = h11._connection.DEFAULT_MAX_INCOMPLETE_EVENT_SIZE  # uvicorn's, as it sets none
_TOO_LONG = {
    414: (
        "uri_too_long",
        "the request line (the URL) is longer than the server reads "
        f"({_HEAD_MAX // 1024} KiB); send long text in a request body",
    ),
    431: (
        "headers_too_large",
        f"the request's headers are larger than the server reads ({_HEAD_MAX // 1024} KiB)",
    ),
}

# A browser's user reads these: no request body to send the text in
_PAGE_TOO_LONG = {
    414: f"the URL is longer than the server reads ({_HEAD_MAX // 1024} KiB): search with a "
    "shorter text",
    431: _TOO_LONG[431][1],
}


def _page_refusal(pending: bytes, app: object, status: int) -> Response | None:
    """The app's page (:data:`RefusalPage`) for a request too long to read (``status``) whose
    URL is the start of ``pending``; None when the app has none for it (the API's JSON)."""
    parts = pending.split(b" ", 2)
    page_for: RefusalPage | None = getattr(getattr(app, "state", None), "refusal_page", None)
    if len(parts) < 2 or page_for is None:
        return None
    path = unquote(parts[1].split(b"?", 1)[0].decode("ascii", "replace"))
    return page_for(path, status, _PAGE_TOO_LONG[status])


# h11's refusals of a body's framing or of the Host header, by the start of its words, in words
# that name what is wrong (the message above blamed the URL)
_FRAMING = (
    (
        "bad Content-Length",
        "the Content-Length header must be the body's size in bytes, "
        "written with the digits 0-9 (at most 20 of them); the request was "
        "not read",
    ),
    (
        "conflicting Content-Length headers",
        "the request sends Content-Length twice with different values; send it once",
    ),
    (
        "Only Transfer-Encoding: chunked is supported",
        "Transfer-Encoding must be chunked (or left out, with a Content-Length)",
    ),
    (
        "multiple Transfer-Encoding headers",
        "the request sends Transfer-Encoding twice; send it once (chunked)",
    ),
    (
        "illegal chunk header",
        "the request's chunked body is malformed: each chunk is its size "
        "in hexadecimal, CRLF, its bytes and CRLF, and a chunk of size 0 "
        "ends the body; the request was not read",
    ),
    (
        "malformed chunk footer",
        "the request's chunked body is malformed: each chunk's bytes "
        "end with CRLF; the request was not read",
    ),
    (
        "Missing mandatory Host: header",
        "an HTTP/1.1 request sends a Host header (this one sent none); the request was not read",
    ),
    ("Found multiple Host: headers", "the request sends the Host header twice; send it once"),
)


def _framing_words(error: BaseException | None) -> str | None:
    text = str(error) if error is not None else ""
    return next((words for start, words in _FRAMING if text.startswith(start)), None)


def encode_request_target(data: bytes) -> bytes:
    """``data`` (the start of a request) with the bytes beyond ASCII of its first line's target
    percent-encoded; unchanged when that line is not whole or needs nothing."""
    end = data.find(b"\n", 0, _LINE_MAX)
    if end < 0 or not _HIGH.search(data, 0, end):
        return data
    line = data[:end]
    first, _, rest = line.partition(b" ")
    target, space, version = rest.rpartition(b" ")
    if not space or not target:
        return data
    encoded = _HIGH.sub(lambda m: b"%%%02X" % m.group()[0], target)
    return b"%s %s %s%s" % (first, encoded, version, data[end:])


class _LoggedCuts(logging.Filter):
    """Drops uvicorn's "Exception in ASGI application" traceback for a reply cut after its
    status (:class:`~omoide.api.http.access_log.StreamCut`): the request log said it in one
    line, with the cause; and for a request cancelled because the server quit while it was
    open (a second Ctrl+C: uvicorn cancels what is left, which it never does otherwise, a
    client that leaves being told by ``http.disconnect``), the stop being asked for."""

    def filter(self, record: logging.LogRecord) -> bool:
        cause = record.exc_info[1] if record.exc_info else None
        return not isinstance(cause, StreamCut | asyncio.CancelledError)


# uvicorn's one error logger: the filter is added once, when the protocol is first imported.
logging.getLogger("uvicorn.error").addFilter(_LoggedCuts())


class OmoideH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the request-line changes of the module docstring; a reply
    cut after its status is not reported again, as a traceback (:class:`_LoggedCuts`)."""

    _dropped: int | None = None  # bytes read and dropped after a refusal; None until one

    def data_received(self, data: bytes) -> None:
        if self._dropped is not None:
            self._dropped += len(data)
            if self._dropped > LINGER_BYTES:
                self.transport.close()
            return
        if self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            data = encode_request_target(data)
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        status, body, reason = 400, _BAD_REQUEST, b"Bad Request"
        # uvicorn calls this inside its ``except h11.RemoteProtocolError``, and passes its own
        # words: h11's are the error being handled
        said = _framing_words(sys.exc_info()[1])
        if said is not None:
            body = error_bytes("bad_request", said)
        pending = self.conn.trailing_data[0]
        if len(pending) > _HEAD_MAX and b"\r\n\r\n" not in pending and b"\n\n" not in pending:
            status = 414 if b"\n" not in pending else 431
            code, message = _TOO_LONG[status]
            body = error_bytes(code, message)
            reason = b"URI Too Long" if status == 414 else b"Request Header Fields Too Large"
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        page = _page_refusal(pending, self.config.app, status) if status != 400 else None
        if page is not None:
            body, headers = page.body, [*page.raw_headers, (b"connection", b"close")]
        self.transport.write(
            self.conn.send(h11.Response(status_code=status, headers=headers, reason=reason))
        )
        self.transport.write(self.conn.send(h11.Data(data=body)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self._close_lingering()

    def _close_lingering(self) -> None:
        """Shut the write side (the reply, then end of stream), drop what the client still
        sends, and close once it closes (``eof_received``), past :data:`LINGER_BYTES` or after
        :data:`LINGER_S`."""
        transport = self.transport
        if not transport.can_write_eof():
            transport.close()
            return
        transport.write_eof()
        self._dropped = 0
        self.flow.resume_reading()
        self.loop.call_later(LINGER_S, transport.close)

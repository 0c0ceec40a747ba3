"""The HTTP boundary: every request body is size-checked on the bytes actually read, and every
JSON body of the API is parsed strictly, before any route (and so any write) sees it.

Trigger / why / outcome:
- first, the request target (``target.origin_form``): a full URL (absolute-form) is read as its
  path and authority; a target that is neither that nor a path → 400, a path that is not UTF-8
  once percent-decoded → 422.
- a body over ``max_body_bytes`` (a ``Content-Length`` that says so, or the bytes received,
  chunked or not) → 413 with the one error shape. The rest of the body is read and dropped (up
  to ``DRAIN_BYTES``, while it keeps coming) so that the client, still sending, gets to read
  the 413 instead of a reset; one that declared more than it sends gets it after a second of
  silence.
- a JSON body under ``/api`` or ``/v1`` that Python's ``json`` would read into something no
  route should see → 422 ``invalid_input``: ``NaN``/``Infinity`` (or a literal that overflows to
  it), a number beyond ±(2^53 − 1) (so never an integer of 4,300 digits), a string with a lone
  surrogate, nesting deeper than ``MAX_JSON_DEPTH``, bytes that are not UTF-8, a NUL character
  (``\u0000``) in any key or string (PostgreSQL's text cannot hold one, SQLite's can: both
  stores refuse it alike, and ``error.field`` names where it was), an object naming one key
  twice.
- a body under ``/api`` or ``/v1`` sent with a content type that is not JSON (form data, text)
  → 422 that says to send JSON (FastAPI would read it as no object and say so, misleadingly);
  one sent without a content type is read as JSON (the route is told it is), as documented.
  One sent with a ``Content-Encoding`` (gzip …) → 422 that says to send it uncompressed (it
  was "not UTF-8 (byte 1)"); the streamed import says the same (``encoding_refusal``).
- a query string whose bytes, percent-encoded or raw, are not UTF-8 → 422 naming the parameter
  (Starlette would silently replace them with U+FFFD); a path or query string holding NUL
  (``%00``) → 422. Raw bytes that are UTF-8 are read as UTF-8 (as percent-encoded ones are),
  not as Latin-1.
- every string of an API JSON body (keys too) and of the query string is put in Unicode NFC
  (``validate.nfc``) before a route reads it, so text typed in another normal form is the
  same text (one memory, one match); two keys of one object that are one key once normalised
  → 422.
- a header the API reads (``Authorization``, ``X-Omoide-Persona``, ``X-Omoide-Session``)
  given twice → 401 for ``Authorization``, 422 naming the header for the others: the first
  one won silently (a valid key before a wrong one was let in), as a query parameter or JSON
  key given twice used to. A persona or session header that is not ASCII → 422 naming it.

Under a dashboard page's URL (``/``, ``/login``, ``/p/…``) what is answered here is the
dashboard's HTML error page with the same status, not the API's JSON (a browser showed
``/p/rin%00``'s refusal as raw text); at ``/mcp`` it is a JSON-RPC error (``door``).

A refused body (not JSON, or JSON the API does not read, NaN to NUL above) is not answered by
the guard: it hands the app the request without its body and the refusal in its state
(:data:`REFUSED_BODY`), so the route is found first (404, 405), then the key (401, 403, 404
for an unknown persona), and only then ``query_check.refuse_refused_body`` answers the 422. A
refused header under ``/api`` and ``/v1`` goes the same way (:data:`REFUSED_HEADER`): the route
first, then ``query_check.refuse_refused_header`` (401 for ``Authorization``; a key first, then
422, for the others), before the body. A 413, a query string or path that is not text, and a
refused header elsewhere (``/mcp``, the dashboard) are answered here.

The guard replays the body it read to the app, so routes parse it as usual; it is a pure ASGI
middleware (no buffering of responses), so streaming replies and ``/mcp`` are unaffected.

Uploads (``streamed``: a path prefix and its own, larger limit; the file import) are not
buffered: the route reads them as a stream, and the guard counts the bytes as they pass. Past the
limit the rest is drained as above and the route's read raises :class:`PayloadTooLarge`, which
the app answers with the same 413. Such a route checks JSON itself (``json_body``:
:func:`strict_json`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import anyio
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from omoide.api.errors import error_bytes
from omoide.api.http.json_body import JsonRefused, encoding_refusal, is_json_media, strict_json
from omoide.api.http.request_head import header_refused, normal_query, scope_header
from omoide.api.http.target import TargetRefused, origin_form
from omoide.engine import json_text
from omoide.engine.errors import quoted
from omoide.errors import InvalidInput, PayloadTooLarge
from omoide.service.validate import nfc

__all__ = [
    "DRAIN_BYTES",
    "REFUSED_BODY",
    "REFUSED_HEADER",
    "BodyGuard",
    "refused_body",
    "refused_header",
]

DRAIN_BYTES = 64 * 1024 * 1024  # past this, an oversized upload is cut off instead of drained
DRAIN_SILENCE_S = 1.0  # a drain that receives nothing for this long stops (the 413 is sent)
_JSON_PATHS = ("/api/", "/v1/")
REFUSED_BODY = "omoide.refused_body"
REFUSED_HEADER = "omoide.refused_header"
_BOM = json_text.BOM.encode("utf-8")
_KEYLESS = ("/health",)  # reads no header: one sent twice is nothing to it


# The answer to a refusal (status, error code, message) of ``path`` where the API's JSON is not
# what the client reads (the dashboard's error page, /mcp's JSON-RPC error), or None: the JSON.
Door = Callable[[str, int, str, str], Response | None]


class BodyGuard:
    """ASGI middleware: body size limit and strict JSON (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        streamed: Mapping[str, tuple[int, str]] | None = None,
        door: Door | None = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.streamed = dict(streamed or {})
        self.door = door

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            scope = origin_form(scope)
        except TargetRefused as exc:
            code = "bad_request" if exc.status == 400 else "invalid_input"
            await self._answer(scope, send, exc.status, code, str(exc), close=exc.status == 400)
            return
        try:
            query = normal_query(scope.get("query_string", b""))
            if "\x00" in scope.get("path", ""):
                raise JsonRefused("the path holds a NUL character (%00); remove it")
        except JsonRefused as exc:
            await self._answer(scope, send, 422, "invalid_input", str(exc), field=exc.field)
            return
        if query is not None:
            scope = {**scope, "query_string": query}
        header = None if scope.get("path") in _KEYLESS else header_refused(scope)
        if header is not None and not _is_api(scope):
            status, code = (401, "unauthorized") if header.field is None else (422, "invalid_input")
            await self._answer(scope, send, status, code, str(header), field=header.field)
            return
        if header is not None:  # the API answers it once routed (refuse_refused_header)
            scope = {**scope, "state": {**scope.get("state", {}), REFUSED_HEADER: header}}
        stream = self._stream_limit(scope)
        if stream is not None:
            if _declared_length(scope) > stream[0]:
                await self._too_large(receive, send, limit=stream, scope=scope)
                return
            await self.app(scope, _counted(receive, stream), send)
            return
        if _declared_length(scope) > self.max_body_bytes:
            await self._too_large(receive, send, scope=scope)
            return
        buffer, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay(b"", message, receive), send)
                return
            buffer += message.get("body", b"")
            more = message.get("more_body", False)
            if len(buffer) > self.max_body_bytes:
                await self._too_large(receive, send, already=more, scope=scope, declared=False)
                return
        body = bytes(buffer)
        encoded = (
            encoding_refusal(scope_header(scope, b"content-encoding"))
            if body.strip() and _is_api(scope)
            else None
        )
        if encoded is not None:
            await self.app(
                _refusing(scope, JsonRefused(encoded)), _replay(b"", None, receive), send
            )
            return
        media = _foreign_media(scope) if body.strip() else None
        if media is not None:
            refused = JsonRefused(
                f"the request body must be JSON, sent with Content-Type: "
                f"application/json (got {quoted(media)})"
            )
            await self.app(_refusing(scope, refused), _replay(b"", None, receive), send)
            return
        api_json = bool(body) and _is_api_json(scope)
        if api_json and not body.strip():
            # whitespace asks for nothing (docs/api.md), as no body does: strict JSON reads
            # it as "the text is empty", which refused it even on a route that takes no body
            body = b""
            scope = _with_header(scope, b"content-length", b"0")
        elif api_json:
            try:
                value = strict_json(body)
                normal = nfc(value)
            except JsonRefused as exc:
                await self.app(_refusing(scope, exc), _replay(b"", None, receive), send)
                return
            except InvalidInput as exc:
                refused = JsonRefused(exc.message, field=exc.fields.get("field"))
                await self.app(_refusing(scope, refused), _replay(b"", None, receive), send)
                return
            if normal != value or body.startswith(_BOM):  # the route's reader gets neither
                body = json.dumps(normal, ensure_ascii=False).encode("utf-8")
                scope = _with_header(scope, b"content-length", str(len(body)).encode())
            if not any(name == b"content-type" for name, _ in scope.get("headers", ())):
                # read as the JSON it was just parsed as (FastAPI reads a body without a
                # content type as no object at all, and would say so misleadingly)
                scope = _with_header(scope, b"content-type", b"application/json")
        await self.app(scope, _replay(body, None, receive), send)

    def _stream_limit(self, scope: Scope) -> tuple[int, str] | None:  # limit, its variable
        if scope.get("method") != "POST":
            return None
        path = scope.get("path", "")
        return next(
            (limit for prefix, limit in self.streamed.items() if path.startswith(prefix)), None
        )

    async def _too_large(
        self,
        receive: Receive,
        send: Send,
        *,
        scope: Scope,
        already: bool = True,
        limit: tuple[int, str] | None = None,
        declared: bool = True,
    ) -> None:
        """The 413; ``declared`` when the declared length says so: a client that waits for
        ``100 Continue`` before it sends is answered at once (reading would ask it for the
        body), and the connection closed."""
        waiting = declared and (scope_header(scope, b"expect") or "").lower() == "100-continue"
        more = True if waiting else await _drain(receive) if already else False
        await self._answer(
            scope,
            send,
            413,
            "payload_too_large",
            too_large(limit or (self.max_body_bytes, "OMOIDE_MAX_BODY_BYTES")),
            close=more,
        )

    async def _answer(
        self,
        scope: Scope,
        send: Send,
        status: int,
        code: str,
        message: str,
        *,
        close: bool = False,
        field: str | None = None,
    ) -> None:
        """The refusal: the dashboard's HTML error page under a page's URL, a JSON-RPC error at
        /mcp (``door``), else the API's one error body."""
        page = self.door(scope.get("path", ""), status, code, message) if self.door else None
        if page is None:
            await _answer(send, status, code, message, close=close, field=field)
            return
        if close:
            page.headers["connection"] = "close"

        async def nothing() -> Message:  # the page reads no body
            return {"type": "http.disconnect"}

        await page(scope, nothing, send)


async def _drain(receive: Receive) -> bool:
    """Read and drop the rest of a body (up to :data:`DRAIN_BYTES`, and while its bytes keep
    coming: :data:`DRAIN_SILENCE_S` without any ends it); True if some is left. A client that
    declared more than it sends (``Content-Length: 1000000000000`` and a few bytes) waited for
    the 413 until it gave up, as the drain waited for the rest."""
    drained, more = 0, True
    while more and drained <= DRAIN_BYTES:
        message: Message | None = None
        with anyio.move_on_after(DRAIN_SILENCE_S):
            message = await receive()
        if message is None:
            return True
        if message["type"] != "http.request":
            return False
        drained += len(message.get("body", b""))
        more = message.get("more_body", False)
    return more


def too_large(limit: tuple[int, str]) -> str:
    """The 413's message: the limit, and the variable that sets it."""
    return f"request body is larger than {limit[0]:,} bytes (the server's limit, {limit[1]})"


def _counted(receive: Receive, limit: tuple[int, str]) -> Receive:
    """A ``receive`` that raises :class:`PayloadTooLarge` (after draining) once more than
    ``limit[0]`` body bytes have come through."""
    seen = 0

    async def counted() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit[0]:
                if message.get("more_body", False):
                    await _drain(receive)
                raise PayloadTooLarge(too_large(limit))
        return message

    return counted


def _declared_length(scope: Scope) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0


def _is_api_json(scope: Scope) -> bool:
    if not scope.get("path", "").startswith(_JSON_PATHS):
        return False
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return is_json_media(value.decode("latin-1"))
    return is_json_media(None)


def _foreign_media(scope: Scope) -> str | None:
    """The content type of an API body that is not JSON (every API route but the streamed
    import reads JSON; FastAPI would read such a body as no object at all)."""
    media = scope_header(scope, b"content-type") if _is_api(scope) else None
    return None if media is None or is_json_media(media) else media


def refused_header(state: Mapping[str, Any]) -> JsonRefused | None:
    """The header refusal :class:`BodyGuard` put in an API request's state, if any."""
    refused = state.get(REFUSED_HEADER)
    return refused if isinstance(refused, JsonRefused) else None


def _is_api(scope: Scope) -> bool:
    return scope.get("path", "").startswith(_JSON_PATHS)


def _refusing(scope: Scope, refused: JsonRefused) -> Scope:
    """``scope`` carrying a refused body (:data:`REFUSED_BODY` in its state) and no body: the
    app routes it first (404 for an unknown route, 405), the route's dependencies ask who is
    calling (401, 403), and only then :func:`refused_body` answers 422."""
    state = {**scope.get("state", {}), REFUSED_BODY: refused}
    return {**_with_header(scope, b"content-length", b"0"), "state": state}


def refused_body(state: Mapping[str, Any]) -> JsonRefused | None:
    """The refusal :class:`BodyGuard` put in a request's state, if any."""
    refused = state.get(REFUSED_BODY)
    return refused if isinstance(refused, JsonRefused) else None


def _with_header(scope: Scope, name: bytes, value: bytes) -> Scope:
    """``scope`` whose header ``name`` (lower case) says ``value``, in place of any it had."""
    headers = [(key, old) for key, old in scope.get("headers", ()) if key != name]
    return {**scope, "headers": [*headers, (name, value)]}


def _replay(body: bytes, first: Message | None, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then the client's next
    messages (a disconnect, which the chat proxy watches for)."""
    pending: list[Message] = (
        [first]
        if first is not None
        else [{"type": "http.request", "body": body, "more_body": False}]
    )

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


async def _answer(
    send: Send,
    status: int,
    code: str,
    message: str,
    *,
    close: bool = False,
    field: str | None = None,
) -> None:
    extra = {"field": field} if field else {}
    payload = error_bytes(code, message, **extra)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})

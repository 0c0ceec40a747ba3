"""Streamable HTTP MCP at ``/mcp``, in the same process as the REST API.

The persona comes from the ``Authorization: Bearer`` key: a request without a valid persona key
is refused here (401 without a key or with an unknown one, 403 for the admin key, which has no
persona to act as) before it reaches the SDK, as a JSON-RPC error whose ``data.code`` is the
API's error code (:func:`refusal_response`; so is the guard's 413 for a body over the limit):
the SDK's client showed the API's error body as "Server returned an error response". Tools
authenticate again per call (``server.bearer_persona``), so the session id never decides who
the caller is.

The SDK's session manager can run only once, so a fresh one is made each time the FastAPI
lifespan starts (:meth:`McpEndpoint.running`). Sessions are capped
(``OMOIDE_MCP_MAX_SESSIONS``: one more ``initialize`` gets a 503 until a session ends) and
closed after ``OMOIDE_MCP_SESSION_IDLE_MINUTES`` without a request in flight (the client then
gets a 404 for the old session id and initializes again).

A message whose object names one key twice (``{"content": "tea", "content": "coffee"}``) is
answered 400 with a JSON-RPC parse error naming the key, as the SDK answers a body it cannot
parse: the SDK's parser kept the last value silently, where the HTTP API refuses such a body.
So is one nested deeper than 64 levels (``json_text.shape_refusal``; 10,000 ``[`` was a 500),
and one that is not JSON at all, in the API's words with the line and column
(``json_text.syntax_refusal``: the SDK's were serde's, "EOF while parsing an object").
A message whose envelope is wrong (an array, no ``"jsonrpc": "2.0"``, a ``method`` that is not a
string, ``params`` that are not an object) is answered 400 with a JSON-RPC error naming the
field (``protocol.envelope_problem``), not pydantic's report of the SDK's union.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.types import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from mcp_types.version import SUPPORTED_PROTOCOL_VERSIONS
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from omoide.api.errors import raced_erase
from omoide.api.http.access_log import record_persona
from omoide.api.http.request_head import scope_header
from omoide.api.mcp.protocol import envelope_problem
from omoide.api.mcp.server import bearer_persona, build_mcp_server, persona_for_key
from omoide.engine import json_text
from omoide.engine.errors import named, quoted
from omoide.errors import OmoideError
from omoide.wiring import Omoide

__all__ = ["McpEndpoint", "error_refusal", "internal_error_response", "refusal_response"]

logger = logging.getLogger(__name__)


class McpEndpoint:
    """The ASGI app behind ``/mcp``: Bearer check, then the SDK's streamable HTTP transport."""

    def __init__(self, omoide: Omoide, *, host: str = "127.0.0.1") -> None:
        self.omoide = omoide
        self.host = host
        self.server: MCPServer = build_mcp_server(omoide, bearer_persona(omoide.auth))
        self._manager: StreamableHTTPSessionManager | None = None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run the SDK session manager for as long as the enclosing app lifespan."""
        # streamable_http_app() makes a new session manager; we serve it through our own
        # route (for the auth check), so only the manager is kept.
        settings = self.omoide.settings
        self.server.streamable_http_app(
            streamable_http_path="/mcp",
            host=self.host,
            max_sessions=settings.mcp_max_sessions,
            session_idle_timeout=settings.mcp_session_idle_minutes * 60,
        )
        manager = self.server.session_manager
        async with manager.run():
            self._manager = manager
            logger.info("MCP streamable HTTP ready at /mcp")
            try:
                yield
            finally:
                self._manager = None

    def open_sessions(self) -> int:
        """Sessions the SDK holds now (the ``omoide_mcp_sessions`` gauge)."""
        manager = self._manager
        # The SDK has no public count; its session table is the one source.
        return 0 if manager is None else len(manager._server_instances)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = await self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        if self._manager is None:
            await refusal_response(
                503,
                "unavailable",
                "MCP is not running (the server is starting or stopping); retry in a moment",
            )(scope, receive, send)
            return
        version = _unsupported_version(scope)
        if version is not None:
            await _rpc_error(400, INVALID_REQUEST, version, None)(scope, receive, send)
            return
        if scope.get("method") == "POST":
            receive = await self._checked_body(scope, receive, send)
            if receive is None:
                return
        await self._manager.handle_request(scope, receive, _json_refusals(scope, send))

    @staticmethod
    async def _checked_body(scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """The body read (and handed on), or None once a duplicate key or a wrong envelope
        (``protocol.envelope_problem``) was answered."""
        messages: list[Message] = []
        more = True
        while more:
            message = await receive()
            messages.append(message)
            more = message["type"] == "http.request" and message.get("more_body", False)
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
        twice = json_text.shape_refusal(body) if body else None
        problem = (
            (PARSE_ERROR, f"Parse error: {twice}", None)
            if twice is not None
            else _envelope(body)
            if _is_json(scope)
            else None
        )  # else the SDK's 415 comes first
        if problem is not None:
            code, words, answer_id = problem
            await _rpc_error(400, code, words, answer_id)(scope, receive, send)
            return None

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        return replay

    async def _refusal(self, scope: Scope) -> Response | None:
        header = scope_header(scope, b"authorization")
        try:
            persona = await anyio.to_thread.run_sync(persona_for_key, self.omoide.auth, header)
            record_persona(scope, persona)
        except OmoideError as exc:
            return error_refusal(exc)
        except Exception as exc:  # the key's persona erased while its key was read
            raced = raced_erase(exc)
            if raced is None:
                raise
            logger.info("MCP request lost a race with an erase: %s", type(exc).__name__)
            return error_refusal(raced)
        return None


def error_refusal(exc: OmoideError) -> Response:
    """An :class:`OmoideError` as /mcp refuses a request (:func:`refusal_response`), with
    ``WWW-Authenticate`` on a 401."""
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
    return refusal_response(exc.status, exc.code, exc.message, headers=headers)


def refusal_response(
    status: int, code: str, message: str, *, headers: dict[str, str] | None = None
) -> Response:
    """A refusal of a request to /mcp before the SDK reads it (a key that is missing, unknown or
    the admin's, a body over the limit, MCP not running) as a JSON-RPC error (-32600, the API's
    error code in ``data.code``) with ``status``: the SDK's client shows a JSON-RPC error's
    message, and showed the API's error body as "Server returned an error response"."""
    return _rpc_error(status, INVALID_REQUEST, message, None, data={"code": code}, headers=headers)


def internal_error_response(message: str) -> Response:
    """An unexpected error raised under /mcp (answered by the app's last error handler) as a
    500 JSON-RPC error: id null (the request's id is not known there), -32603 (Internal error)
    and ``message``, plain words and no trace; the API's JSON error body was no answer an MCP
    client reads."""
    return _rpc_error(500, INTERNAL_ERROR, message, None)


def _rpc_error(
    status: int,
    code: int,
    words: str,
    answer_id: str | int | None,
    *,
    data: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    error = JSONRPCError(
        jsonrpc="2.0",
        id=answer_id,
        error=ErrorData(code=code, message=words, **({"data": data} if data is not None else {})),
    )
    return Response(
        error.model_dump_json(by_alias=True, exclude_unset=True),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


def _unsupported_version(scope: Scope) -> str | None:
    """Why the ``MCP-Protocol-Version`` header is refused (a version this server does not
    speak), or None (none was sent, or a supported one). The SDK sent such a request to its
    newest protocol's reader, which answered "params._meta must be an object carrying the
    required … envelope keys", which did not say the version was the problem."""
    version = scope_header(scope, b"mcp-protocol-version")
    if version is None or version in SUPPORTED_PROTOCOL_VERSIONS:
        return None
    return (
        f"unsupported MCP-Protocol-Version {quoted(version)}: this server speaks "
        f"{', '.join(SUPPORTED_PROTOCOL_VERSIONS)}; send the version initialize agreed on "
        "(or no header before initialize)"
    )


def _sdk_words(text: str, scope: Scope) -> str:
    """The SDK's plain-text refusals of a request's headers, in words that say what to send."""
    if text == "Invalid Content-Type header":
        got = scope_header(scope, b"content-type")
        return (
            f"a POST to /mcp is sent with Content-Type: application/json (got {quoted(got)})"
            if got
            else "a POST to /mcp is sent with Content-Type: application/json (none was sent)"
        )
    if text == "Invalid Host header":
        return (
            f"the Host header {named(scope_header(scope, b'host') or '', 80)} is not one this "
            "server answers MCP for: connect to the address it listens on (127.0.0.1 or "
            "localhost); other names are refused as a guard against DNS rebinding"
        )
    if text == "Invalid Origin header":
        return (
            f"a page from {named(scope_header(scope, b'origin') or '', 80)} may not call this "
            "server's MCP (only pages of the host it listens on may, a guard against DNS "
            "rebinding)"
        )
    return text


def _json_refusals(scope: Scope, send: Send) -> Send:
    """``send`` with the SDK's plain-text refusals (a 400 "Invalid Content-Type header", a 421
    or 403 for the Host or Origin header) answered as the JSON-RPC errors its other refusals
    are, in words that say what to send."""
    held: Message | None = None
    chunks: list[bytes] = []

    async def sending(message: Message) -> None:
        nonlocal held
        if message["type"] == "http.response.start" and message["status"] >= 400:
            # the SDK names the session on its refusals too, one it opened for this request
            # and dropped at once (a refused first request): no session a client may use
            message = {
                **message,
                "headers": [
                    (name, value)
                    for name, value in message.get("headers", ())
                    if name.lower() != b"mcp-session-id"
                ],
            }
        if (
            message["type"] == "http.response.start"
            and message["status"] >= 400
            and not any(
                name.lower() == b"content-type" and value.startswith(b"application/json")
                for name, value in message.get("headers", ())
            )
        ):
            held = message
            return
        if held is None or message["type"] != "http.response.body":
            await send(message)
            return
        chunks.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        text = b"".join(chunks).decode("utf-8", "replace").strip()
        error = JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(
                code=INVALID_REQUEST, message=_sdk_words(text, scope) or f"HTTP {held['status']}"
            ),
        )
        body = error.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")
        headers = [
            (name, value)
            for name, value in held.get("headers", ())
            if name.lower() not in (b"content-type", b"content-length")
        ]
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({**held, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return sending


def _envelope(body: bytes) -> tuple[int, str, str | int | None] | None:
    """The envelope problem of a body that parses as JSON, or the parse error of one that is
    not JSON, in the API's words (the SDK's were serde's: "EOF while parsing an object at line
    1 column 1", "trailing characters", "column 0" for an empty body)."""
    not_json = json_text.syntax_refusal(body)
    if not_json is not None:
        return PARSE_ERROR, f"Parse error: {not_json}", None
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return envelope_problem(message)


def _is_json(scope: Scope) -> bool:
    """Sent as JSON, as the SDK requires of a POST (it refuses another type with 415)."""
    media = (scope_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    return media == "application/json"

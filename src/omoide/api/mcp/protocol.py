"""JSON-RPC messages the SDK refuses, told in words that name the field.

The SDK answers a message whose envelope is wrong (an array, ``"jsonrpc"`` missing, a
``method`` that is not a string, ``params`` that are not an object) with pydantic's report of
four union members, docs URLs included, and params that fail a method's schema (``tools/call``
without ``name``, ``arguments`` that are not an object) with a bare "Invalid request
parameters". :func:`envelope_problem` is checked by the HTTP endpoint before the SDK reads the
message; :class:`ClearParams` is server middleware (both transports). Tool arguments are told
by ``server.OmoideMCP`` (a tool error per argument).

Over stdio the SDK dropped a line that is not a JSON-RPC message (not JSON, or JSON of another
shape) after logging it at debug level, so the client waited for an answer that never came.
:class:`AnsweredLines` answers it as JSON-RPC 2.0 says and as the SDK's HTTP transport does: a
parse error (-32700) for a line that is not JSON, an invalid request (-32600) naming the field
for JSON that is no message (``envelope_problem``), with ``"id": null`` unless the line's id
could be read. A blank line is skipped. A line whose object names one key twice (the SDK's
reader kept the last value silently), or that nests deeper than 64 levels, is answered with
the parse error the HTTP endpoint gives such a body (:class:`CheckedLines`, "Parse error:
names the key 'content' twice …"): one rule on both transports, as the HTTP API refuses such
a body. So is a line whose bytes are not UTF-8 ("Parse error: not UTF-8 (byte 12) …"): stdin
was read with each such byte as U+FFFD, so the line was refused as "expected a value", or,
inside a string, read with the character changed; it is now read with each such byte kept
apart (``surrogateescape``) and refused before the SDK parses it.
"""

from __future__ import annotations

import logging
import re
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from omoide.api.http.validation_errors import json_path, value_rule
from omoide.engine import json_text
from omoide.engine.errors import json_type, named, quoted

__all__ = [
    "AnsweredLines",
    "CheckedLines",
    "ClearParams",
    "clauses",
    "envelope_problem",
    "line_problem",
]

logger = logging.getLogger(__name__)

_EXAMPLE = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'


def envelope_problem(message: Any) -> tuple[int, str, str | int | None] | None:
    """What is wrong with a JSON-RPC message's envelope (the parsed body), if anything: the
    error code, the message naming the field, and the id to answer with (the message's own
    when it is usable). A response (``result`` or ``error``) and a method's params are left
    to the SDK and :class:`ClearParams`."""
    if isinstance(message, list):
        return (
            INVALID_REQUEST,
            "a JSON array (a batch) is not accepted: send one JSON-RPC "
            f"message per request, e.g. {_EXAMPLE}",
            None,
        )
    if not isinstance(message, dict):
        return (
            INVALID_REQUEST,
            f"a JSON-RPC message is a JSON object, e.g. {_EXAMPLE}; got {json_type(message)}",
            None,
        )
    given = message.get("id")
    usable = (
        given
        if isinstance(given, str | int) and not isinstance(given, bool)
        else int(given)
        if isinstance(given, float) and given.is_integer()
        else None
    )
    if message.get("jsonrpc") != "2.0":
        got = f"got {quoted(message['jsonrpc'])}" if "jsonrpc" in message else "missing"
        return INVALID_REQUEST, f"'jsonrpc' must be \"2.0\" ({got})", usable
    if "id" in message and usable is None:
        return (
            INVALID_REQUEST,
            f"'id' must be a string or an integer (got {quoted(given)})",
            None,
        )
    if "method" not in message:
        if "result" in message or "error" in message:
            return None  # a response to a request of the server's
        return (
            INVALID_REQUEST,
            f"'method' is missing: a request names its method and id, e.g. {_EXAMPLE}",
            usable,
        )
    if not isinstance(message["method"], str):
        return (
            INVALID_REQUEST,
            f"'method' must be a string, e.g. \"tools/list\" (got {quoted(message['method'])})",
            usable,
        )
    if "params" in message and not isinstance(message["params"], dict):
        return (
            INVALID_PARAMS,
            f"'params' must be an object ({{…}}) (got {json_type(message['params'])})",
            usable,
        )
    return None


def clauses(error: ValidationError, *, root: str = "params") -> list[str]:
    """One clause per problem, in HTTP's words (``validation_errors.value_rule``): ``'top_k'
    must be at least 1 (got 0)``, ``'turns[0].speaker' is required``; a validator's own words
    after a colon (``'when': …``). ``root`` names the whole value: a method's params here, a
    tool's arguments in ``server``."""
    out = []
    for item in error.errors():
        where = json_path(item["loc"]) or root
        told = value_rule(item)
        if told is None:
            said = str(item["msg"]).removeprefix("Value error, ")
            out.append(f"{named(where)}: {said} (got {quoted(item.get('input'))})")
            continue
        rule, got = told
        out.append(f"{named(where)} {rule}" + ("" if got is None else f" (got {got})"))
    return out


class ClearParams:
    """Server middleware: a request whose params fail its method's schema is an invalid-params
    error naming each field ("invalid params of tools/call: 'params.name' is required"),
    not the SDK's bare "Invalid request parameters"."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        try:
            return await call_next(ctx)
        except ValidationError as exc:
            raise MCPError(
                code=INVALID_PARAMS,
                message=f"invalid params of {ctx.method}: " + "; ".join(clauses(exc)),
            ) from None


def line_problem(error: Exception) -> JSONRPCError | None:
    """The answer to a line the SDK's stdio reader could not read as a message (``error``, its
    pydantic report), or None for a blank line and for an error of another kind."""
    if not isinstance(error, ValidationError) or not error.errors():
        return None
    errors = error.errors()
    first = errors[0]
    if first["type"] == "json_invalid":
        if not str(first.get("input", "")).strip():
            return None
        why = json_text.syntax_refusal(str(first["input"])) or "not valid JSON"
        return _answer(
            PARSE_ERROR,
            f"Parse error: {why}: each line is one JSON-RPC message, e.g. {_EXAMPLE}",
            None,
        )
    # every member of the SDK's message union that wants a field the line lacks reports the
    # whole message as its input ("missing"); one that wants an object, the whole value
    whole = next((e["input"] for e in errors if len(e["loc"]) <= 1 or e["type"] == "missing"), None)
    problem = envelope_problem(whole) if whole is not None else None
    code, words, answer_id = problem or (
        INVALID_REQUEST,
        f"not a JSON-RPC message this server reads, e.g. {_EXAMPLE}",
        None,
    )
    return _answer(code, words, answer_id)


def _answer(code: int, words: str, answer_id: str | int | None) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=answer_id, error=ErrorData(code=code, message=words))


_REFUSED_LINE = "omoide: a line refused before the SDK read it"
# A byte that is not UTF-8, as stdin read with ``errors="surrogateescape"`` holds it (a lone
# low surrogate: no UTF-8 text decodes to one).
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def _not_utf8(line: str) -> str | None:
    """Why a stdin line read with ``errors="surrogateescape"`` is refused: where its first byte
    that is not UTF-8 is (0-based, as the HTTP API counts a body's), or None (it is UTF-8)."""
    found = _ESCAPED_BYTE.search(line)
    if found is None:
        return None
    raw = line.encode("utf-8", "surrogateescape")
    at = len(line[: found.start()].encode("utf-8", "surrogateescape"))
    return (
        f"not UTF-8 (byte {at}){json_text.not_utf8_hint(raw)}: each line is one JSON-RPC "
        f"message in UTF-8, e.g. {_EXAMPLE}"
    )


class CheckedLines:
    """The stdin lines the SDK's stdio reader parses, each line whose object names one key twice
    (or that nests too deep: ``json_text.shape_refusal``, as /mcp checks a body) replaced by a
    placeholder that is no JSON (the SDK reports it as one it could not read, and
    :class:`AnsweredLines` answers it with the refusal kept here, in order)."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        self._lines = lines
        self._refused: deque[str] = deque()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._read()

    async def _read(self) -> AsyncIterator[str]:
        async for line in self._lines:
            why = _not_utf8(line)
            if why is None:
                why = json_text.shape_refusal(line) if line.strip() else None
            if why is None:
                yield line
                continue
            self._refused.append(why)
            yield _REFUSED_LINE + "\n"

    def refusal(self, error: Exception) -> str | None:
        """Why the line behind the SDK's ``error`` was refused here, or None (another line)."""
        if not (self._refused and isinstance(error, ValidationError) and error.errors()):
            return None
        first = error.errors()[0]
        if str(first.get("input", "")).strip() != _REFUSED_LINE:
            return None
        return self._refused.popleft()


class AnsweredLines:
    """The SDK's stdio read stream, with each line that is not a message answered on the
    write stream (:func:`line_problem`) instead of handed on, where the SDK dropped it."""

    def __init__(self, inner: Any, write: Any, keys: CheckedLines | None = None) -> None:
        self._inner = inner
        self._write = write
        self._keys = keys

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item (the SDK's dispatcher reads it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        return await self._next(self._inner.receive)

    def __aiter__(self) -> AnsweredLines:
        return self

    async def __anext__(self) -> Any:
        return await self._next(self._inner.__anext__)

    async def _next(self, read: Any) -> Any:
        while True:
            item = await read()
            if not isinstance(item, Exception):
                return item
            twice = self._keys.refusal(item) if self._keys is not None else None
            answer = (
                _answer(PARSE_ERROR, f"Parse error: {twice}", None)
                if twice is not None
                else line_problem(item)
            )
            if answer is not None:
                logger.warning(
                    "stdio: answered a line that is not a JSON-RPC message: %s",
                    answer.error.message[:200],
                )
                await self._write.send(SessionMessage(answer))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> AnsweredLines:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return bool(await self._inner.__aexit__(*exc))

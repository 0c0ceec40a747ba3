"""The MCP server object: tool registration, persona resolution and argument errors.

A tool (``tools_*.py``) validates its arguments (the input schema does most of it), calls one
service method, and returns the ``api/render.py`` dict as structured content plus a readable
text rendering of the same dict, through ``tooling.answer``. Logic stays in the services, so MCP
and HTTP cannot drift apart.

Every failure a caller can fix reaches the model as a tool error with a message it can act on:
schema violations are rewritten here from pydantic's report into one line per argument, and an
:class:`OmoideError` goes through ``api/errors.tool_error_message`` (in ``tooling.answer``) —
never a traceback or a repr.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from pydantic import ValidationError

from omoide import __version__
from omoide.api.errors import tool_error_message
from omoide.api.http.validation_errors import TYPE_WORDS, json_path
from omoide.api.mcp.protocol import AnsweredLines, CheckedLines, ClearParams, clauses
from omoide.api.mcp.stdio_stop import StdinLines, do_nothing, stop_on_signal
from omoide.api.mcp.tool_templates import tool_for
from omoide.api.mcp.tooling import PersonaResolver
from omoide.api.mcp.tools_context import register_context_tools
from omoide.api.mcp.tools_episodes import register_episode_tools
from omoide.api.mcp.tools_memory import register_memory_tools
from omoide.engine.errors import named, quoted
from omoide.errors import Forbidden, InvalidInput
from omoide.service.auth import AuthService
from omoide.service.validate import nfc, non_finite_at, nul_at
from omoide.wiring import Omoide

__all__ = [
    "PersonaResolver",
    "bearer_persona",
    "build_mcp_server",
    "fixed_persona",
    "persona_for_key",
]

logger = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Omoide is your long-term memory. Call session_begin once at the start of a conversation "
    "to load who you are, who the user is and what you remember. Store lasting facts with "
    "memory_create, look things up with memory_search before saying you don't know, and record "
    "changes in the user's name or your own state with update_context."
)

ADMIN_ON_MCP = (
    "the admin key cannot be used for MCP: the tools act as one persona; connect "
    "with that persona's API key (POST /api/personas returns one)"
)


def fixed_persona(name: str) -> PersonaResolver:
    """stdio: the persona named on the command line, for every call."""
    return lambda _ctx: name


def bearer_persona(auth: AuthService) -> PersonaResolver:
    """HTTP: the persona of the ``Authorization: Bearer`` key sent with *this* request.

    Checked per call rather than per session, so a session id can never carry one key's
    persona over to a request made with another key.
    """

    def resolve(ctx: Context) -> str:
        headers: Mapping[str, str] = ctx.headers or {}
        return persona_for_key(auth, headers.get("authorization"))

    return resolve


def persona_for_key(auth: AuthService, authorization: str | None) -> str:
    """The persona of a Bearer key: 401 without a valid key, 403 for the admin key."""
    principal = auth.authenticate(authorization)
    if principal.is_admin or principal.persona is None:
        raise Forbidden(ADMIN_ON_MCP)
    return principal.persona


class OmoideMCP(MCPServer):
    """MCPServer whose argument errors read as one clear line per bad argument, and whose
    stdio answers a line that is not a JSON-RPC message (``protocol.AnsweredLines``)."""

    async def run_stdio_async(self, *, after_signals: Callable[[], None] = do_nothing) -> None:
        """As the SDK's, with :class:`~omoide.api.mcp.protocol.AnsweredLines` reading, and the
        lines read through :class:`~omoide.api.mcp.protocol.CheckedLines` (stdin read as UTF-8,
        each byte that is not UTF-8 kept apart, so that its line is refused as not UTF-8,
        where the SDK's reading as U+FFFD said "expected a value"; from a duplicate of fd 0
        that is never closed, as the SDK never closes its own: a worker thread may still be
        blocked reading it when the server stops). SIGTERM and SIGINT end the loop; once its
        handlers are gone, ``after_signals()`` (:func:`.stdio_stop.stop_on_signal`)."""
        lowlevel = self._lowlevel_server
        stdin = open(  # noqa: SIM115
            os.dup(0), encoding="utf-8", errors="surrogateescape", closefd=False
        )
        keys = CheckedLines(StdinLines(stdin))
        async with anyio.create_task_group() as stopping:
            stopping.start_soon(stop_on_signal, stopping.cancel_scope, after_signals)
            async with stdio_server(stdin=keys) as (  # type: ignore[arg-type]
                read_stream,
                write_stream,
            ):
                await lowlevel.run(
                    AnsweredLines(read_stream, write_stream, keys),
                    write_stream,
                    lowlevel.create_initialization_options(),
                )
            stopping.cancel_scope.cancel()  # the client closed the pipe: no signal to wait for

    def add_tool(
        self,
        fn: Any,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: Any = None,
        icons: Any = None,
        meta: Any = None,
        structured_output: bool | None = None,
    ) -> None:
        """As the SDK's, with the tool's metadata read once per process (tool_templates)."""
        tool = tool_for(
            fn,
            name=name,
            title=title,
            description=description,
            annotations=annotations,
            icons=icons,
            meta=meta,
            structured_output=structured_output,
        )
        # call_tool refuses an argument the tool does not have: the schema says so too
        tool.parameters["additionalProperties"] = False
        if self._tool_manager.get_tool(tool.name) is None:
            self._tool_manager._tools[tool.name] = tool

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is not None and isinstance(arguments, dict):
            # Trigger: an argument the tool does not have ("limit" for top_k). Why: pydantic
            # drops it, and the call would run as if it had not been sent. Outcome: a tool
            # error naming it and the arguments the tool takes (HTTP refuses unknown fields too).
            known = list(tool.parameters.get("properties", {}))
            unknown = [key for key in arguments if key not in known]
            if unknown:
                raise ToolError(
                    f"Error executing tool {name}: "
                    + tool_error_message(
                        InvalidInput(
                            f"unknown argument {', '.join(map(named, unknown))}; {name} "
                            f"takes {', '.join(known) or 'no arguments'}",
                            field=unknown[0],
                        )
                    )
                )
            # Trigger: NaN or ±Infinity in any argument (the SDK's parser reads them; 1e999 is
            # Infinity). Why: min_importance=NaN was told "must be at most 1.0 (got NaN)",
            # top_k=NaN "must be an integer". Outcome: one tool error naming the argument, in
            # the words HTTP's body guard refuses them with.
            where = non_finite_at(arguments)
            if where is not None:
                raise ToolError(
                    f"Error executing tool {name}: "
                    + tool_error_message(
                        InvalidInput(
                            f"argument {named(where)}: NaN, Infinity and numbers past a double's "
                            "range (1e400) are not numbers this reader accepts (numbers must "
                            "be finite)",
                            field=where,
                        )
                    )
                )
            # Trigger: a scalar argument of another JSON type than its schema's (top_k=true,
            # top_k="5", purge="yes", importance="0.5"). Why: pydantic's lax mode read true as
            # 1 and "yes" as true, so a wrong type ran as another call; HTTP's models are
            # strict and refuse them. Outcome: a tool error naming the argument and the type
            # it takes. (An object or list sent as JSON text is still read, as the SDK does
            # for clients that send them so.)
            wrong = _wrong_type(tool.parameters.get("properties", {}), arguments)
            if wrong is not None:
                raise ToolError(f"Error executing tool {name}: " + tool_error_message(wrong))
            # Trigger: NUL (U+0000) in any argument. Why: SQLite would store it or look it up,
            # PostgreSQL refuses it. Outcome: one tool error naming the argument, on both.
            where = nul_at(arguments)
            if where is not None:
                raise ToolError(
                    f"Error executing tool {name}: "
                    + tool_error_message(
                        InvalidInput(
                            f"argument {named(where)} holds a NUL character (U+0000), which "
                            "text cannot hold; remove it",
                            field=where,
                        )
                    )
                )
            # Trigger: text in another Unicode normal form than NFC (e + U+0301 for é). Why:
            # stored beside the same text in NFC, or searched and missed. Outcome: every
            # string argument in NFC, as HTTP's body guard does.
            try:
                arguments = nfc(arguments)
            except InvalidInput as exc:
                raise ToolError(f"Error executing tool {name}: {tool_error_message(exc)}") from None
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            # Trigger: the arguments failed the input schema. Why: pydantic's report carries
            # reprs and a docs URL. Outcome: "'mode' must be one of 'hybrid', …", in HTTP's
            # words (validation_errors.value_rule, through protocol.clauses).
            raise ToolError(
                f"Error executing tool {name}: {tool_error_message(_invalid_arguments(cause))}"
            ) from cause


_SCALARS = {"integer", "number", "boolean"}


def _wrong_type(properties: Mapping[str, Any], arguments: Mapping[str, Any]) -> InvalidInput | None:
    """The first argument whose schema takes an integer, number or boolean (or null) and that
    holds a value of another JSON type (a bool is not a number, a string is neither)."""
    for name, value in arguments.items():
        allowed = _types(properties.get(name, {}))
        if not allowed or not allowed <= _SCALARS | {"null"}:
            continue
        kind = _json_type(value)
        if kind in allowed or (kind == "integer" and "number" in allowed):
            continue
        wanted = " or ".join(TYPE_WORDS[t] for t in sorted(allowed) if t != "null")
        return InvalidInput(
            f"invalid argument {named(name)} must be {wanted}"
            f"{' or null' if 'null' in allowed else ''} (got {quoted(value)})",
            field=name,
        )
    return None


def _types(schema: Mapping[str, Any]) -> set[str]:
    """The JSON types a property's schema allows (its ``type`` and its ``anyOf`` branches');
    empty when the schema does not say."""
    kinds = schema.get("type")
    out = set(kinds) if isinstance(kinds, list) else {kinds} if isinstance(kinds, str) else set()
    for branch in schema.get("anyOf", ()):
        branch_types = _types(branch)
        if not branch_types:
            return set()
        out |= branch_types
    return out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):  # 5.0 is an integer to JSON Schema
        return "integer" if value.is_integer() else "number"
    return "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"


def _invalid_arguments(error: ValidationError) -> InvalidInput:
    """One ``'argument' must be … (got value)`` clause per problem (``protocol.clauses``)."""
    problems = clauses(error, root="arguments")
    first = error.errors()[0]["loc"] if error.errors() else ()
    noun = "invalid argument" if len(problems) == 1 else "invalid arguments"
    return InvalidInput(f"{noun} " + "; ".join(problems), field=json_path(first) or "arguments")


def build_mcp_server(omoide: Omoide, persona_of: PersonaResolver) -> OmoideMCP:
    """The MCP server with every tool registered, bound to ``omoide`` and a persona resolver."""
    server = OmoideMCP(
        "omoide",
        title="Omoide memory",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        middleware=[ClearParams()],
    )
    register_context_tools(server, omoide, persona_of)
    register_memory_tools(server, omoide, persona_of)
    register_episode_tools(server, omoide, persona_of)
    return server

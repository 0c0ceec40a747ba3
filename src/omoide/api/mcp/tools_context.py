"""MCP tools over persona context: session_begin, get_context, update_context, user_state_history.

Each tool calls one ContextService / StateService method and returns the HTTP API's shape
(``render_*`` from ``api/render.py``) plus text, through ``tooling.answer``. For session_begin
and get_context the text is the context itself, written by the service for the model to read.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel, ConfigDict, Field

from omoide.api.mcp import text
from omoide.api.mcp.tooling import (
    APPEND,
    READ_ONLY,
    SET,
    PersonaResolver,
    Result,
    TimestampText,
    answer,
)
from omoide.api.render import (
    render_changes,
    render_context,
    render_session_start,
    render_state_history,
)
from omoide.api.state_map import STATE_MAP_SCHEMA
from omoide.service.state import MAX_VALUE_CHARS
from omoide.service.validate import STATE_KEY_PATTERN
from omoide.wiring import Omoide

__all__ = ["register_context_tools"]

StateValue = Annotated[str | None, Field(min_length=1, max_length=MAX_VALUE_CHARS)]


class UserInfo(BaseModel):
    """What the persona knows about the user; other keys (e.g. birthday, city) are allowed.
    Strict, as the tools' scalar arguments are (``server.OmoideMCP``): a value of another JSON
    type is refused, not converted (``"nickname": 5`` is not the text "5"). Its schema lists the
    state map's keys and values as HTTP's does (it said ``additionalProperties: true``, so a key
    with a space, a boolean value or a 51st key passed it and was refused)."""

    model_config = ConfigDict(extra="allow", strict=True, json_schema_extra=STATE_MAP_SCHEMA)

    name: StateValue = Field(None, description="The user's name, e.g. 'Rau'.")
    nickname: StateValue = Field(None, description="A nickname, e.g. 'Rau-chan'.")
    preferred_address: StateValue = Field(
        None, description="How the user wants to be addressed, e.g. 'Rau-san'."
    )


class PersonaState(BaseModel):
    """The persona's own state; other keys are allowed. Strict: ``emotion_intensity=true`` was
    read as 1.0 and ``"0.5"`` as 0.5 (HTTP refuses true; MCP's schema says a number)."""

    model_config = ConfigDict(extra="allow", strict=True, json_schema_extra=STATE_MAP_SCHEMA)

    emotion: StateValue = Field(None, description="e.g. 'joy', 'worry'.")
    emotion_intensity: Annotated[float | None, Field(ge=0.0, le=1.0)] = Field(
        None, description="0-1."
    )
    mood: StateValue = Field(None, description="e.g. 'cheerful'.")
    current_activity: StateValue = Field(None, description="e.g. 'helping with a recital'.")
    goals: StateValue = Field(None, description="Several goals joined with '; '.")


StateKey = Annotated[
    str,
    Field(
        pattern=STATE_KEY_PATTERN,
        description=(
            "The user-state key: name, nickname, preferred_address, or any other key you stored."
        ),
    ),
]


def _values(model: BaseModel | None) -> dict[str, Any] | None:
    """The keys the call gave: a value, or null to close the key (a key left out is left
    alone)."""
    return None if model is None else model.model_dump(exclude_unset=True)


def register_context_tools(server: MCPServer, omoide: Omoide, persona_of: PersonaResolver) -> None:
    context, state = omoide.context, omoide.state

    @server.tool(title="Begin a session", annotations=APPEND)
    def session_begin(ctx: Context) -> Result:
        """Call this once at the start of every conversation, before replying. It opens a
        session and returns your context as text to read: who you are and your current state,
        who the user is and how to address them, how long it has been since you last talked,
        recent memories, the most important memories that are still strong, and memory stats.
        A session you left open is ended first, so nothing said in it is lost: until its turns
        have become memories (seconds later, in the background), the context shows what was
        said in it under "Last conversation".
        Returns {session_id, started_at, previous_session_at, text, sections, ...}.
        Example: session_begin()."""
        return answer(
            lambda: render_session_start(context.session_begin(persona_of(ctx))),
            text.session_start_text,
        )

    @server.tool(title="Read the context", annotations=READ_ONLY)
    def get_context(ctx: Context) -> Result:
        """Read your current context again without opening a session: the same text and
        sections as session_begin. Use it mid-conversation after update_context or many new
        memories, or when you need to re-check how to address the user. It never repeats the
        conversation in progress; right after session_end it shows what was said in it.
        Returns {persona, text, sections, language, tokens, budget_tokens, omitted}.
        Example: get_context()."""
        return answer(
            lambda: render_context(context.get_context(persona_of(ctx))), text.context_text
        )

    @server.tool(title="Update user info / own state", annotations=SET)
    def update_context(
        ctx: Context,
        user_info: Annotated[
            UserInfo | None,
            Field(description=('Facts about the user to record, e.g. {"name": "Rau"}.')),
        ] = None,
        persona_state: Annotated[
            PersonaState | None,
            Field(description=('Your own state to record, e.g. {"mood": "cheerful"}.')),
        ] = None,
    ) -> Result:
        """Record what changed about the user (their name, nickname, how they want to be
        addressed, other facts) and/or your own state (emotion, mood, current activity,
        goals). Call it as soon as the user tells you their name or asks to be called
        differently. Old values are kept with the time they stopped being true (see
        user_state_history); a value that did not change writes nothing. null closes a key
        that is no longer true (e.g. {"nickname": null} when the user drops the nickname):
        it stops being current, its history stays.
        Returns {persona, changed: {user_info: [keys], persona_state: [keys]}}.
        Example: update_context(user_info={"name": "Rau", "preferred_address": "Rau-san"},
        persona_state={"mood": "happy"})."""

        given = {"user_info": _values(user_info), "persona_state": _values(persona_state)}
        # the keys given null: the text says they were closed, not recorded
        closed = {
            field: {k for k, v in (values or {}).items() if v is None}
            for field, values in given.items()
        }

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            return render_changes(
                persona,
                context.update_context(
                    persona, user_info=given["user_info"], persona_state=given["persona_state"]
                ),
            )

        named = any(values for values in given.values())
        return answer(body, lambda changes: text.changes_text(changes, closed=closed, given=named))

    @server.tool(title="User state history", annotations=READ_ONLY)
    def user_state_history(
        ctx: Context,
        key: StateKey,
        at: Annotated[
            TimestampText,
            Field(
                min_length=1,
                description=(
                    "ISO-8601 date or time with its offset: only the value that was true then, "
                    "e.g. "
                    "'2026-03-01'."
                ),
            ),
        ] = None,
    ) -> Result:
        """Every value one user-state key has had, oldest first, each with when it became
        and stopped being true; the last one is current. Use it for "what did I call you
        before?" or, with `at`, "what was your name on 2026-03-01?".
        Returns {persona, key, history: [{value, valid_from, valid_until, is_current}]}.
        Example: user_state_history(key="name")."""

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            return render_state_history(
                persona, key, state.get_user_state_history(persona, key, at)
            )

        return answer(body, text.state_history_text)

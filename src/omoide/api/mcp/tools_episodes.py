"""MCP tools over the Episode tier: session_record, session_end, episode_search.

The raw conversation is the Episode tier (spec §Episode + Note): record turns as they happen,
end the session when the conversation is over, and search the excerpts when the notes do not
have the answer. Each tool calls one SessionService / SearchService method.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel, ConfigDict, Field

from omoide.api.mcp import text
from omoide.api.mcp.tooling import (
    APPEND,
    READ_ONLY,
    SET,
    DateRangeText,
    PersonaResolver,
    Result,
    SearchText,
    TimestampText,
    answer,
    listed,
)
from omoide.api.render import render_search, render_session_end
from omoide.engine.attachments import MAX_CAPTION_CHARS
from omoide.errors import OmoideError
from omoide.service.event_input import MAX_EVENT_CHARS, MAX_EVENTS_PER_BATCH, MAX_SPEAKER_CHARS
from omoide.service.search_request import MAX_TOP_K
from omoide.service.validate import MAX_EXTERNAL_ID_CHARS, SESSION_ID_PATTERN
from omoide.wiring import Omoide

__all__ = ["register_episode_tools"]

# The pattern HTTP's session ids follow: a malformed id is told the rule (as HTTP tells it),
# not "no session".
SessionId = Annotated[
    str,
    Field(pattern=SESSION_ID_PATTERN, description=("The session_id that session_begin returned.")),
]


class Turn(BaseModel):
    """One conversation turn."""

    # a field the turn does not have ("text", "metadata") is refused, as HTTP refuses it in
    # an event: it was dropped and the turn recorded without it. Strict, as the tools' scalar
    # arguments are: a value of another JSON type is refused, not converted.
    model_config = ConfigDict(extra="forbid", strict=True)

    speaker: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_SPEAKER_CHARS,
            description=("Who said it, e.g. the user's name or yours."),
        ),
    ]
    role: Literal["user", "assistant", "other"] = Field(
        "user", description=("user (the person you talk with), assistant (you) or other.")
    )
    content: Annotated[
        str, Field(min_length=1, description="What was said."), listed(maxLength=MAX_EVENT_CHARS)
    ]
    timestamp: Annotated[
        TimestampText,
        Field(
            description=(
                "ISO-8601 time it was said, with its UTC offset, e.g. '2026-03-01T09:30:00+09:00' "
                "(default: now)."
            ),
        ),
    ] = None
    external_id: Annotated[
        str | None,
        Field(
            max_length=MAX_EXTERNAL_ID_CHARS,
            description=(
                "Your id for the turn; resending the same turn with it never duplicates it "
                "(another "
                "turn needs another id)."
            ),
        ),
    ] = None
    image_caption: Annotated[
        str | None,
        Field(
            min_length=1,
            max_length=MAX_CAPTION_CHARS,
            description=("When the speaker shared an image: a short description of what it shows."),
        ),
    ] = None

    def event(self) -> dict[str, Any]:
        """The HTTP API's event shape: the caption travels in metadata."""
        out = self.model_dump(exclude_none=True, exclude={"image_caption"})
        if self.image_caption:
            out["metadata"] = {"image_caption": self.image_caption}
        return out


def register_episode_tools(server: MCPServer, omoide: Omoide, persona_of: PersonaResolver) -> None:
    sessions, search = omoide.sessions, omoide.search

    @server.tool(title="Record conversation turns", annotations=APPEND)
    def session_record(
        ctx: Context,
        session_id: SessionId,
        turns: Annotated[
            list[Turn],
            Field(
                min_length=1,
                max_length=MAX_EVENTS_PER_BATCH,
                description=("The new turns, oldest first."),
            ),
        ],
    ) -> Result:
        """Append the latest turns of this conversation to your raw memory (the Episode
        tier). Call it after each exchange, or every few turns, with the session_id from
        session_begin (an unknown session_id is an error: begin a session first). In the
        background the conversation is cut into episodes and distilled into notes you will
        find with memory_search. Re-sending a turn with the same
        external_id is harmless (a different turn under a used id is an error).
        Returns {session_id, accepted, duplicates}.
        Example: session_record(session_id="ses_…", turns=[{"speaker": "Rau", "role": "user",
        "content": "I adopted a cat named Miso!"}])."""

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            # An unknown id is an error, as HTTP's 404 (it used to open that session, so a
            # mistyped id split a conversation): "no session '…'; start one with session_begin".
            try:
                accepted, duplicates = sessions.record(
                    persona, session_id, [t.event() for t in turns]
                )
            except OmoideError as exc:
                raise _as_turns(exc) from exc
            return {"session_id": session_id, "accepted": accepted, "duplicates": duplicates}

        return answer(body, text.recorded_text)

    @server.tool(title="End the session", annotations=SET)
    def session_end(ctx: Context, session_id: SessionId) -> Result:
        """Mark the conversation as finished, at its end (goodbye, or the user leaving). The
        last turns become an episode and everything is consolidated into notes in the
        background (a session you forget to end is ended after session_idle_minutes without a
        turn, or by the next session_begin). Returns {session_id, ended_at, ended_by,
        already_ended}: ended_by is client, or how it had already ended (new_session, idle,
        import); already_ended is true when it had, and then nothing more was done.
        Example: session_end(session_id="ses_…")."""

        def body() -> dict[str, Any]:
            ended, queued = sessions.end_told(persona_of(ctx), session_id)
            return {**render_session_end(ended), "already_ended": not queued}

        return answer(body, text.ended_text)

    @server.tool(title="Search past conversations", annotations=READ_ONLY)
    def episode_search(
        ctx: Context,
        query: Annotated[
            SearchText,
            Field(description=("What to look for in past conversations, in any language.")),
        ],
        top_k: Annotated[int, Field(ge=1, le=MAX_TOP_K, description="How many excerpts.")] = 5,
        date_range: Annotated[
            DateRangeText,
            Field(description=("When it was said: 'last week', '先週', '2026-03-01..2026-03-31'.")),
        ] = None,
    ) -> Result:
        """Search the raw conversation log (episodes) for what was actually said: each result
        is a short excerpt of the turns around the match, headed by the date it was said, with
        the turns' ids in sources. Use it when memory_search finds no note, or to check the
        exact words or date. Returns {persona, query, results: [...]}.
        Example: episode_search(query="when did we talk about the trip to Lisbon")."""

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            request = search.build_request(persona, query=query, top_k=top_k, date_range=date_range)
            return render_search(persona, search.search_episodes(persona, request))

        return answer(body, text.episode_search_text)


def _as_turns(exc: OmoideError) -> OmoideError:
    """``exc`` with the turns named as this tool's argument names them (``turns[0]``), not as
    the service, which speaks HTTP's body (``events[0].timestamp``)."""
    exc.message = exc.message.replace("events[", "turns[")
    exc.args = (exc.message,)
    exc.fields = {
        name: value.replace("events[", "turns[") if isinstance(value, str) else value
        for name, value in exc.fields.items()
    }
    return exc

"""MCP tools over the Note tier: memory_create / read / update / delete / search / stats / history.

Each tool resolves the persona, calls one MemoryService or SearchService method and returns the
same dict the HTTP API returns (``api/render.py``) plus a readable text. The docstrings are what
the model reads when it decides which tool to call.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from omoide.api.mcp import text
from omoide.api.mcp.tooling import (
    APPEND,
    ERASE,
    METADATA_LIMITS,
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
from omoide.api.render import (
    render_create,
    render_history,
    render_memory,
    render_purged,
    render_search,
    render_stats,
)
from omoide.model import UNSET, Unset
from omoide.service.memories import MAX_CONTENT_CHARS
from omoide.service.search_request import MAX_TOP_K
from omoide.service.validate import (
    MAX_EMOTION_CHARS,
    MAX_FILTER_TAGS,
    MAX_NAME_CHARS,
    MAX_TAGS,
    TAG_PATTERN,
)
from omoide.wiring import Omoide

__all__ = ["register_memory_tools"]

Key = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_NAME_CHARS,  # a memory key is a name (an import checks it as one)
        description="The memory's key, e.g. 'mem_3f2a9c01d4e5b6a7' (from "
        "memory_create or memory_search).",
    ),
]
Kind = Literal["note", "fact", "preference", "profile", "event", "instruction"]
KindArg = Annotated[
    Kind | None,
    Field(
        description="What sort of memory: note (default), fact, preference, profile (about the "
        "user), event, instruction."
    ),
]
# A tag: the service's pattern (1-64 characters once trimmed; a max_length counted the spaces)
Tag = Annotated[str, Field(min_length=1), listed(pattern=TAG_PATTERN)]
Tags = Annotated[
    list[Tag] | None,
    Field(
        max_length=MAX_TAGS,
        description="Short labels for filtering later, e.g. ['food', 'family'].",
    ),
]
# A memory's text: its length the service's (MemoryService.build_new), said by the schema
Content = Annotated[str, Field(min_length=1), listed(maxLength=MAX_CONTENT_CHARS)]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]
When = Annotated[
    TimestampText,
    Field(
        description="ISO-8601 date (00:00 UTC) or time with its UTC offset, e.g. "
        "'2026-03-01' or '2026-03-01T09:30:00+09:00'.",
    ),
]


def _given(**fields: Any) -> dict[str, Any]:
    """Only the arguments the caller actually sent (an MCP tool cannot tell null from absent)."""
    return {k: v for k, v in fields.items() if v is not None}


def _bound(value: str | None) -> str | Unset | None:
    """A validity bound or the emotion label for memory_update: absent → leave alone,
    ``"none"`` (or ``"null"``, ``""``) → remove it (a tool cannot send null to clear)."""
    if value is None:
        return UNSET
    return None if value.strip().lower() in ("none", "null", "") else value


def register_memory_tools(server: MCPServer, omoide: Omoide, persona_of: PersonaResolver) -> None:
    memories, search = omoide.memories, omoide.search

    @server.tool(title="Store a memory", annotations=APPEND)
    def memory_create(
        ctx: Context,
        content: Annotated[
            Content,
            Field(
                description=(
                    "The memory in one self-contained sentence, in the conversation's language."
                ),
            ),
        ],
        importance: Annotated[
            Unit,
            Field(description=("How much this matters, 0-1 (default 0.5). Fixed once stored.")),
        ] = 0.5,
        tags: Tags = None,
        kind: KindArg = None,
        emotion_type: Annotated[
            str | None,
            Field(
                max_length=MAX_EMOTION_CHARS,
                description=("The feeling attached, e.g. 'joy', 'sadness'."),
            ),
        ] = None,
        emotion_intensity: Annotated[
            Unit | None, Field(description=("0-1; vivid memories (>0.5) fade more slowly."))
        ] = None,
        valid_from: When = None,
        valid_until: When = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(description=f"Extra JSON fields to keep with the memory ({METADATA_LIMITS})."),
        ] = None,
    ) -> Result:
        """Store something worth remembering across conversations: a fact about the user, a
        preference, an event, a promise. Call it when you learn something that will still
        matter later; one fact per call. A restatement of a current memory (other words, the
        same values) is not stored again: the result then has status "duplicate" and names
        the existing memory. A changed or added value (a number, date or time, bound,
        negation, person, name or place), or a change told outright ("now", "no longer",
        最近, やめた), is stored and then classified against the memory it updates.
        Returns {status: "created", memory} or {status: "duplicate", duplicate_of}.
        Example: memory_create(content="The user's sister Mei lives in Osaka",
        kind="fact", importance=0.7, tags=["family"])."""

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            new = memories.build_new(
                **_given(
                    content=content,
                    importance=importance,
                    tags=tags,
                    kind=kind,
                    emotion_type=emotion_type,
                    emotion_intensity=emotion_intensity,
                    valid_from=valid_from,
                    valid_until=valid_until,
                    metadata=metadata,
                )
            )
            return render_create(memories.create(persona, new, changed_by="mcp"))

        return answer(body, text.create_text)

    @server.tool(title="Read a memory", annotations=READ_ONLY)
    def memory_read(ctx: Context, key: Key) -> Result:
        """Read one memory by key, with its strength, validity window, links and whether a
        newer memory superseded it. Use it when a search result or a link names a key you want
        in full. Reading counts as recalling it (it will fade more slowly).
        Returns the memory object. Example: memory_read(key="mem_3f2a9c01d4e5b6a7")."""
        return answer(lambda: render_memory(memories.get(persona_of(ctx), key)), text.memory_text)

    @server.tool(title="Correct a memory", annotations=SET)
    def memory_update(
        ctx: Context,
        key: Key,
        content: Annotated[
            Content | None, Field(description=("The corrected text (re-indexed for search)."))
        ] = None,
        tags: Annotated[
            list[Tag] | None, Field(max_length=MAX_TAGS, description="Replaces all tags.")
        ] = None,
        kind: KindArg = None,
        emotion_type: Annotated[
            str | None,
            Field(
                max_length=MAX_EMOTION_CHARS,
                description=("The feeling attached, or 'none' to remove it."),
            ),
        ] = None,
        emotion_intensity: Annotated[Unit | None, Field(description="0-1.")] = None,
        valid_from: Annotated[
            TimestampText,
            Field(
                description=(
                    "ISO-8601 start of validity (a time with its offset), or 'none' to remove it."
                ),
            ),
        ] = None,
        valid_until: Annotated[
            TimestampText,
            Field(
                description=(
                    "ISO-8601 end of validity (the fact stopped being true; a time with its "
                    "offset), or 'none' to reopen."
                ),
            ),
        ] = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(description=f"Replaces the metadata object ({METADATA_LIMITS})."),
        ] = None,
    ) -> Result:
        """Correct or annotate an existing memory in place; only the fields you pass change and
        every change is kept as a new version (see memory_history). Importance cannot change.
        When a fact simply changed (the user moved, changed jobs), prefer memory_create with
        the new fact: the old one is closed automatically and its history kept.
        Returns the updated memory. Example: memory_update(key="mem_3f2a9c01d4e5b6a7",
        content="The user's sister Mei lives in Kyoto", tags=["family"])."""

        def body() -> dict[str, Any]:
            changes = _given(
                content=content,
                tags=tags,
                kind=kind,
                emotion_intensity=emotion_intensity,
                metadata=metadata,
            )
            return render_memory(
                memories.update(
                    persona_of(ctx),
                    key,
                    changed_by="mcp",
                    valid_from=_bound(valid_from),
                    valid_until=_bound(valid_until),
                    emotion_type=_bound(emotion_type),
                    **changes,
                )
            )

        return answer(body, text.updated_text)

    @server.tool(title="Delete a memory", annotations=ERASE)
    def memory_delete(
        ctx: Context,
        key: Key,
        purge: Annotated[
            bool,
            Field(
                description=(
                    "true when the user asks you to forget it: the memory is erased for good, with "
                    "its history, and cannot be read or restored. false (default): it is only "
                    "hidden "
                    "and its history stays readable."
                )
            ),
        ] = False,
    ) -> Result:
        """Delete a memory that is wrong, or erase one the user asked you to forget. When the
        user says "forget this" (a PIN, a secret, something they regret sharing), call it with
        purge=true: the memory and every trace of its text are erased. Without purge it
        disappears from search and context but its version history stays readable. Do not
        delete a memory just because a fact changed: store the new fact with memory_create.
        Returns the deleted memory (status "tombstoned") or {key, status: "purged",
        said_in}: said_in names the sessions whose turns the memory was drawn from, which a
        purge does not erase (their words may still be there).
        Example: memory_delete(key="mem_3f2a9c01d4e5b6a7", purge=true)."""

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            if purge:
                return render_purged(persona, key, memories.purge(persona, key))
            return render_memory(memories.delete(persona, key))

        return answer(body, text.deleted_text)

    @server.tool(title="Search memories", annotations=READ_ONLY)
    def memory_search(
        ctx: Context,
        query: Annotated[
            SearchText,
            Field(
                description=(
                    "What to look for, in any language, e.g. 'where does the user's sister live'."
                )
            ),
        ],
        top_k: Annotated[int, Field(ge=1, le=MAX_TOP_K, description="How many results.")] = 10,
        mode: Annotated[
            Literal["hybrid", "semantic", "keyword"],
            Field(
                description=(
                    "hybrid (default: meaning + words), semantic (meaning only), keyword (exact "
                    "words)."
                )
            ),
        ] = "hybrid",
        tags: Annotated[
            list[Tag] | None,
            Field(
                max_length=MAX_FILTER_TAGS,
                description="Only memories carrying every one of these tags.",
            ),
        ] = None,
        date_range: Annotated[
            DateRangeText,
            Field(
                description=(
                    "When the memory was stored, in words or dates: 'last week', '先週', "
                    "'yesterday', '2026-03-01', '2026-03-01..2026-03-31'."
                )
            ),
        ] = None,
        valid_at: Annotated[
            TimestampText,
            Field(
                min_length=1,
                description=(
                    "Only facts true at this time: ISO-8601 (a time with its offset) or 'now' "
                    "(drops superseded facts)."
                ),
            ),
        ] = None,
        min_importance: Annotated[Unit | None, Field(description="Minimum importance.")] = None,
        kind: KindArg = None,
        importance_weight: Annotated[
            Unit | None,
            Field(
                description=(
                    "How much current strength (importance × recall) counts against relevance; "
                    "default: the persona's setting."
                )
            ),
        ] = None,
        include_episodes: Annotated[
            bool | None,
            Field(
                description=(
                    "Leave unset: memories and excerpts of past conversations are ranked together. "
                    "false: memories only; true: excerpts even when the persona turned them off."
                )
            ),
        ] = None,
    ) -> Result:
        """Search the persona's memories and past conversations by meaning and words. A fact
        that changed never ranks above the fact that replaced it; a past fact is marked
        "[past: valid until …, superseded by …]" (current=false in the data); a plan given up
        before it began never came true and is marked
        "[past: never held: cancelled before its planned start …, superseded by …]".
        Call it before answering anything about the user's life, past conversations or earlier
        promises, and before saying you don't remember. Each result has its key (notes) or id
        (conversation excerpts, type "episode"), content, score (the order within this query:
        the last result may show 0.000 and still be related), similarity (raw cosine,
        comparable across queries) and sources.
        Returns {persona, query, mode, results: [...]}.
        Example: memory_search(query="user's favourite food", top_k=5, date_range="last month")."""

        def body() -> dict[str, Any]:
            persona = persona_of(ctx)
            request = search.build_request(
                persona,
                query=query,
                top_k=top_k,
                mode=mode,
                tags=tags,
                date_range=date_range,
                valid_at=valid_at,
                min_importance=min_importance,
                kind=kind,
                importance_weight=importance_weight,
                include_episodes=include_episodes,
            )
            return render_search(persona, search.search(persona, request))

        return answer(body, text.search_text)

    @server.tool(title="Memory statistics", annotations=READ_ONLY)
    def memory_stats(ctx: Context) -> Result:
        """Counts of the persona's memories: active, deleted, superseded, by kind, mean
        strength, links, oldest and newest. Use it to answer "how much do you remember?" or to
        check that memories are being stored. Returns the stats object. Example: memory_stats()."""
        return answer(lambda: render_stats(memories.stats(persona_of(ctx))), text.stats_text)

    @server.tool(title="Memory history", annotations=READ_ONLY)
    def memory_history(ctx: Context, key: Key) -> Result:
        """Every version of one memory, oldest first: creation, edits, merges, when a newer
        fact superseded it, deletion — each with who changed it, when, and the before/after
        values. Use it to answer "what did I used to think?" or "when did that change?".
        Returns {key, versions: [...]}. Example: memory_history(key="mem_3f2a9c01d4e5b6a7")."""
        return answer(
            lambda: render_history(key, memories.history(persona_of(ctx), key)), text.history_text
        )

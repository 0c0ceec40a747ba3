"""``omoide memory …`` and ``omoide session …``: one persona's memories (add, get, history,
list, delete or purge), the list of its conversations, the end and the erasure of one. The
commands that write hold the data folder's lock shared (``cli_common.holding``), so none runs during
``omoide reindex``."""

from __future__ import annotations

from typing import Any

import click

from omoide.cli_common import (
    SCRUB_PENDING,
    _print,
    built,
    data_option,
    field_lines,
    friendly,
    holding,
    how_many,
    json_option,
    one_line,
    page_options,
    persona_option,
)
from omoide.cli_types import KIND, UNIT

__all__ = ["memory", "session"]


@click.group()
def memory() -> None:
    """Add, read, list, delete memories and show their history."""


@memory.command("add")
@data_option
@json_option
@persona_option
@click.argument("content")
@click.option("--importance", type=UNIT, default=None, help="0-1 (default 0.5).")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option(
    "--kind",
    type=KIND,
    default=None,
    help="What sort of memory (default note).",
)
@click.option("--emotion-intensity", type=UNIT, default=None, help="0-1.")
@friendly
def memory_add(
    data: str | None,
    as_json: bool,
    persona: str,
    content: str,
    importance: float | None,
    tags: tuple[str, ...],
    kind: str | None,
    emotion_intensity: float | None,
) -> None:
    """Store CONTENT as a memory of the persona (deduplicated); CONTENT - reads it from
    standard input (e.g. a note piped in)."""
    from omoide.api.render import render_create

    if content == "-":  # was stored as the memory "-"
        content = click.get_text_stream("stdin").read()
    with holding(data, "memory add") as app:
        new = app.memories.build_new(
            content=content,
            importance=importance,
            tags=list(tags),
            kind=kind,
            emotion_intensity=emotion_intensity,
        )
        out = render_create(app.memories.create(persona, new))
        app.queue.run_ready(persona)  # its evolution, here; never another persona's backlog
    _print(
        out,
        as_json,
        lambda d: (
            f"created {d['memory']['key']}"
            if d["status"] == "created"
            else f"duplicate of {d['duplicate_of']['key']} "
            f"(similarity {d['duplicate_of']['similarity']})"
        ),
    )


@memory.command("get")
@data_option
@json_option
@persona_option
@click.argument("key")
@friendly
def memory_get(data: str | None, as_json: bool, persona: str, key: str) -> None:
    """Show one memory."""
    from omoide.api.render import render_memory

    with built(data) as app:
        memory = app.memories.get(persona, key)
        out = render_memory(memory)
        mark = _past(out, memory.closed_at(app.clock.now())).strip()
        _print(
            out,
            as_json,
            lambda d: field_lines(d) + (f"\n{mark}" if mark else ""),
        )


def _past(row: dict[str, Any], closed: bool) -> str:
    """`` [past: valid until …, superseded by …]`` for a closed fact (as search shows it)."""
    from omoide.api.mcp.text import past_mark

    return past_mark({**row, "current": not closed})


@memory.command("history")
@data_option
@json_option
@persona_option
@click.argument("key")
@friendly
def memory_history(data: str | None, as_json: bool, persona: str, key: str) -> None:
    """Every version of one memory, oldest first (the HTTP API's history)."""
    from omoide.api.mcp.text import history_text
    from omoide.api.render import render_history

    with built(data) as app:
        _print(render_history(key, app.memories.history(persona, key)), as_json, history_text)


@memory.command("list")
@data_option
@json_option
@persona_option
@page_options
@friendly
def memory_list(data: str | None, as_json: bool, persona: str, limit: int, offset: int) -> None:
    """Recent memories, newest first."""
    from omoide.api.render import render_memory

    with built(data) as app:
        now = app.clock.now()
        memories = app.memories.list_recent(persona, limit=limit, offset=offset)
        rows = [render_memory(m) for m in memories]
        marks = [_past(r, m.closed_at(now)) for m, r in zip(memories, rows, strict=True)]
        _print(
            rows,
            as_json,
            lambda rs: (
                "\n".join(
                    f"{r['key']}  {r['created_at'][:16]}  s={r['strength']:.2f}  "
                    f"{one_line(r['content'], 70)}"
                    f"{mark}"
                    for r, mark in zip(rs, marks, strict=True)
                )
                or "(no memories)"
            ),
        )


@memory.command("delete")
@data_option
@json_option
@persona_option
@click.argument("key")
@click.option(
    "--purge",
    is_flag=True,
    help="Erase it with its history, so its text is nowhere in the data folder.",
)
@friendly
def memory_delete(data: str | None, as_json: bool, persona: str, key: str, purge: bool) -> None:
    """Delete (tombstone) a memory; its history stays. --purge erases it for good."""
    with holding(data, "memory delete") as app:
        if purge:
            purged = app.memories.purge(persona, key)
        else:
            deleted = app.memories.delete(persona, key)
    if purge:
        _print(
            {
                "key": key,
                "status": "purged",
                "also_purged": list(purged.also),
                "said_in": list(purged.said_in),
                "scrub_pending": app.scrub_pending,  # after the wait of its close
            },
            as_json,
            lambda d: _purged_text(d, persona),
        )
        return
    _print(
        {"key": deleted.key, "status": str(deleted.status)},
        as_json,
        lambda d: f"deleted {d['key']}",
    )


def _purged_text(reply: dict[str, Any], persona: str) -> str:
    """A purge in words: what was erased, and the sessions whose turns may still hold it."""
    lines = [f"erased {reply['key']}"]
    lines += [f"erased {k} (a remainder of it)" for k in reply["also_purged"]]
    if reply["said_in"]:
        lines.append(
            "its words may still be in the turns of: "
            + ", ".join(reply["said_in"])
            + f" (not erased; `omoide session delete -p {persona} SESSION_ID` "
            "erases one)"
        )
    if reply["scrub_pending"]:
        lines.append(SCRUB_PENDING)
    return "\n".join(lines)


@click.group()
def session() -> None:
    """Conversations (sessions) of a persona."""


@session.command("list")
@data_option
@json_option
@persona_option
@page_options
@friendly
def session_list(data: str | None, as_json: bool, persona: str, limit: int, offset: int) -> None:
    """The persona's conversations, newest first: one line each with its id, open or ended
    (when, and how: client, new_session, idle, import or unknown), its turns' time span, and
    how many turns and episodes it holds."""
    from omoide.api.render import render_session

    with built(data) as app:
        rows = [
            render_session(s) for s in app.sessions.list_recent(persona, limit=limit, offset=offset)
        ]
        _print(rows, as_json, lambda rs: "\n".join(_session_line(r) for r in rs) or "(no sessions)")


def _session_line(row: dict[str, Any]) -> str:
    """``id  open|ended <time> by <cause>  <first turn> .. <last turn>  N turns  M episodes``
    (the cause ``unknown`` for a session ended before causes were recorded)."""
    state = (
        "open"
        if row["ended_at"] is None
        else f"ended {row['ended_at'][:16]} by {row['ended_by'] or 'unknown'}"
    )
    span = (
        f"{row['first_event_at'][:16]} .. {row['last_event_at'][:16]}"
        if row["first_event_at"]
        else f"started {row['started_at'][:16]}, no turns"
    )
    return (
        f"{row['session_id']}  {state}  {span}  {how_many(row['events'], 'turn')}  "
        f"{how_many(row['episodes'], 'episode')}"
    )


@session.command("delete")
@data_option
@json_option
@persona_option
@click.argument("session_id")
@click.option(
    "--with-notes", is_flag=True, help="Also erase the notes consolidated from the conversation."
)
@friendly
def session_delete(
    data: str | None, as_json: bool, persona: str, session_id: str, with_notes: bool
) -> None:
    """Erase a conversation: its events and episodes (and with --with-notes, its notes)."""
    with holding(data, "session delete") as app:
        erased = app.forget.delete_session(persona, session_id, with_notes=with_notes)
    _print(
        {
            "session_id": session_id,
            "status": "erased",
            "events": erased.events,
            "episodes": erased.episodes,
            "notes": list(erased.keys),
            "scrub_pending": app.scrub_pending,  # after the wait of its close
        },
        as_json,
        lambda d: (
            f"erased {d['session_id']} ({how_many(d['events'], 'event')}, "
            f"{how_many(d['episodes'], 'episode')}, {how_many(len(d['notes']), 'note')})"
            + (f"\n{SCRUB_PENDING}" if d["scrub_pending"] else "")
        ),
    )


@session.command("end")
@data_option
@json_option
@persona_option
@click.argument("session_id")
@friendly
def session_end(data: str | None, as_json: bool, persona: str, session_id: str) -> None:
    """End a conversation, as session_end does: its last turns become an episode and its
    consolidation is queued (a running server or `omoide jobs wait` does it). Says when and
    how it ended (client, or how it had already ended: new_session, idle, import)."""
    from omoide.api.render import render_session_end

    with holding(data, "session end") as app:
        session, queued = app.sessions.end_told(persona, session_id)
    _print(
        {**render_session_end(session), "queued": queued, "already_ended": not queued},
        as_json,
        lambda d: (
            f"ended {d['session_id']} {d['ended_at'][:16]} by "
            f"{d['ended_by'] or 'unknown'} (consolidation queued)"
            if d["queued"]
            else f"{d['session_id']} had already ended {d['ended_at'][:16]} by "
            f"{d['ended_by'] or 'unknown'} (nothing queued)"
        ),
    )

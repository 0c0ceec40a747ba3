"""Dataclasses → JSON-ready dicts, shared by the HTTP API and the MCP tools (one shape each)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Any

from omoide.engine.context import MemoryLine, TurnLine
from omoide.engine.hit_order import shown_score
from omoide.engine.tokens import estimate_tokens
from omoide.model import (
    MEMORY_FIELDS,
    Block,
    CreateOutcome,
    Link,
    Memory,
    MemoryStats,
    MemoryVersion,
    Purged,
    SearchHit,
    Session,
    SessionSummary,
    Source,
    memory_values,
)
from omoide.service.context import ContextResult, SessionStart
from omoide.service.passages import day_header
from omoide.service.search_request import SearchResult
from omoide.service.state import StateChanges, StateEntry

__all__ = [
    "render_block",
    "render_changes",
    "render_context",
    "render_create",
    "render_episode",
    "render_history",
    "render_hit",
    "render_link",
    "render_memory",
    "render_purged",
    "render_search",
    "render_session",
    "render_session_end",
    "render_session_start",
    "render_state_entry",
    "render_state_history",
    "render_stats",
    "render_version",
    "ts",
]


def ts(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _iso(value: datetime) -> str:
    return value.isoformat()


def render_source(source: Source) -> dict[str, Any]:
    return {"event_id": source.event_id, "external_id": source.external_id}


def render_link(link: Link) -> dict[str, Any]:
    return {
        "key": link.other_key,
        "type": str(link.link_type),
        "weight": round(link.weight, 4),
        "co_activation_count": link.co_activation_count,
        "last_activated": ts(link.last_activated),
    }


def render_memory(memory: Memory) -> dict[str, Any]:
    out = memory_values(memory, MEMORY_FIELDS, _iso)
    out["strength"], out["stability"] = round(memory.strength, 6), round(memory.stability, 6)
    out["sources"] = [render_source(s) for s in memory.sources]
    out["links"] = [render_link(link) for link in memory.links]
    return out


def render_purged(persona: str, key: str, purged: Purged) -> dict[str, Any]:
    """What a purge leaves to show: the key, that it is gone, the remainders erased with it,
    and the sessions whose turns may still hold its words (``said_in``, not erased)."""
    return {
        "persona": persona,
        "key": key,
        "status": "purged",
        "also_purged": list(purged.also),
        "said_in": list(purged.said_in),
        "scrub_pending": purged.scrub_pending,
    }


def render_create(outcome: CreateOutcome) -> dict[str, Any]:
    if outcome.status == "duplicate":
        assert outcome.duplicate_of is not None
        return {
            "status": "duplicate",
            "duplicate_of": {
                "key": outcome.duplicate_of.key,
                "content": outcome.duplicate_of.content,
                "similarity": round(outcome.similarity or 0.0, 4),
            },
        }
    assert outcome.memory is not None
    return {"status": "created", "memory": render_memory(outcome.memory)}


def render_hit(hit: SearchHit) -> dict[str, Any]:
    out: dict[str, Any] = {"type": hit.type}
    out["key" if hit.type == "note" else "id"] = hit.id
    out.update(
        {
            "content": hit.content,
            "score": shown_score(hit.score),
            "similarity": None if hit.similarity is None else round(hit.similarity, 4),
            "sources": [render_source(s) for s in hit.sources],
        }
    )
    if hit.memory is not None:
        m = hit.memory
        out.update(
            {
                "kind": str(m.kind),
                "tags": list(m.tags),
                "importance": m.importance,
                "strength": round(m.strength, 6),
                "created_at": ts(m.created_at),
                "valid_from": ts(m.valid_from),
                "valid_until": ts(m.valid_until),
                "superseded_by": m.superseded_by,
            }
        )
    out.update(hit.extra)
    return out


def render_search(persona: str, result: SearchResult) -> dict[str, Any]:
    """``{persona, query, mode, results}``: a search of notes (and episodes) or of episodes."""
    return {
        "persona": persona,
        "query": result.query,
        "mode": str(result.mode),
        "results": [render_hit(h) for h in result.results],
    }


def render_history(key: str, versions: list[MemoryVersion]) -> dict[str, Any]:
    """``{key, versions}``, oldest first."""
    return {"key": key, "versions": [render_version(v) for v in versions]}


def render_version(version: MemoryVersion) -> dict[str, Any]:
    return {
        "version": version.version,
        "change": str(version.change),
        "changed_by": version.changed_by,
        "changed_at": ts(version.changed_at),
        "before": version.before,
        "after": version.after,
    }


def render_stats(stats: MemoryStats) -> dict[str, Any]:
    return {
        "persona": stats.persona,
        "total": stats.total,
        "active": stats.active,
        "tombstoned": stats.tombstoned,
        "superseded": stats.superseded,
        "by_kind": stats.by_kind,
        "mean_strength": round(stats.mean_strength, 6),
        "links": stats.links,
        "oldest": ts(stats.oldest),
        "newest": ts(stats.newest),
    }


def render_session(summary: SessionSummary) -> dict[str, Any]:
    """A conversation as ``GET /api/sessions/{persona}`` and ``omoide session list`` show it."""
    return {
        "session_id": summary.session_id,
        "status": "open" if summary.ended_at is None else "ended",
        "started_at": ts(summary.started_at),
        "ended_at": ts(summary.ended_at),
        "ended_by": None if summary.ended_by is None else str(summary.ended_by),
        "first_event_at": ts(summary.first_event_at),
        "last_event_at": ts(summary.last_event_at),
        "events": summary.events,
        "episodes": summary.episodes,
    }


def render_session_end(session: Session) -> dict[str, Any]:
    """A session's end as every reply that reports it says it (``session_end`` over HTTP, MCP
    and the CLI, a session's episodes): when, and how (``ended_by``: client, new_session,
    idle, import; null while open or when the cause predates its recording)."""
    return {
        "session_id": session.session_id,
        "ended_at": ts(session.ended_at),
        "ended_by": None if session.ended_by is None else str(session.ended_by),
    }


def render_episode(episode: Any, notes: list[str]) -> dict[str, Any]:
    """An Episode (``store.sqlite.sessions.Episode``) with its consolidated notes' keys."""
    return {
        "id": episode.id,
        "session_id": episode.session_id,
        "first_event_id": episode.first_event_id,
        "last_event_id": episode.last_event_id,
        "first_seq": episode.first_seq,
        "last_seq": episode.last_seq,
        "topic": episode.topic,
        "surprise": round(episode.surprise, 4),
        "boundary_reason": episode.boundary_reason,
        "started_at": ts(episode.started_at),
        "ended_at": ts(episode.ended_at),
        "consolidated_at": ts(episode.consolidated_at),
        "content": episode.content,
        "notes": notes,
    }


# -- context, state and blocks -------------------------------------------------------


def render_state_entry(entry: StateEntry) -> dict[str, Any]:
    return {
        "value": entry.value,
        "valid_from": ts(entry.valid_from),
        "valid_until": ts(entry.valid_until),
        "is_current": entry.is_current,
    }


def render_state_history(
    persona: str, key: str | None, entries: list[StateEntry]
) -> dict[str, Any]:
    """``{persona, key, history}``: one state key's values, oldest first."""
    return {"persona": persona, "key": key, "history": [render_state_entry(e) for e in entries]}


def render_block(block: Block) -> dict[str, Any]:
    return {
        "block_name": block.block_name,
        "content": block.content,
        "block_type": block.block_type,
        "max_tokens": block.max_tokens,
        "priority": block.priority,
        "metadata": block.metadata,
        "tokens": estimate_tokens(block.content),
        "created_at": ts(block.created_at),
        "updated_at": ts(block.updated_at),
    }


def _excerpts(turns: Sequence[TurnLine], tz: tzinfo) -> list[dict[str, Any]]:
    """The context's turns not yet consolidated, one excerpt per run of turns of one session:
    ``{session_id, said_at, content, sources}``, shaped like a search's episode excerpt (a date
    header, the day in the persona's ``tz``, then one ``Speaker: text`` line per turn, each
    turn one source)."""
    runs: list[list[TurnLine]] = []
    for turn in turns:
        if runs and runs[-1][0].session_id == turn.session_id:
            runs[-1].append(turn)
        else:
            runs.append([turn])
    return [
        {
            "session_id": run[0].session_id,
            "said_at": ts(run[0].said_at),
            "content": "\n".join(
                [day_header(run[0].said_at, tz), *(f"{t.speaker}: {t.content}" for t in run)]
            ),
            "sources": [{"event_id": t.event_id, "external_id": t.external_id} for t in run],
        }
        for run in runs
    ]


def _memory(line: MemoryLine) -> dict[str, Any]:
    return {
        "key": line.key,
        "content": line.content,
        "created_at": ts(line.created_at),
        "strength": round(line.strength, 6),
    }


def render_context(result: ContextResult) -> dict[str, Any]:
    """``{persona, text, sections, language, tokens, budget_tokens, omitted}``."""
    c = result.context
    stats = (
        None
        if c.stats is None
        else {
            "active": c.stats.active,
            "superseded": c.stats.superseded,
            "mean_strength": round(c.stats.mean_strength, 6),
            "links": c.stats.links,
        }
    )
    sections = {
        "persona": {"name": result.persona, "state": c.persona_state},
        "user": {"address": c.user_address, "state": c.user_state},
        "session": {
            "last_session_at": ts(result.last_session_at),
            "since_last_session": c.last_session,
        },
        "blocks": [
            {
                "block_name": b.name,
                "content": b.content,
                "priority": b.priority,
                "max_tokens": b.max_tokens,
            }
            for b in c.blocks
        ],
        "last_conversation": _excerpts(c.conversation, result.tz),
        "recent_memories": [_memory(m) for m in c.recent],
        "important_memories": [_memory(m) for m in c.important],
        "stats": stats,
    }
    return {
        "persona": result.persona,
        "text": c.text,
        "sections": sections,
        "language": str(c.language),
        "tokens": c.tokens,
        "budget_tokens": c.budget_tokens,
        "omitted": c.omitted,
    }


def render_session_start(start: SessionStart) -> dict[str, Any]:
    return {
        "session_id": start.session_id,
        "started_at": ts(start.started_at),
        "previous_session_at": ts(start.previous_session_at),
        **render_context(start.context),
    }


def render_changes(persona: str, changes: StateChanges) -> dict[str, Any]:
    return {
        "persona": persona,
        "changed": {"user_info": changes.user, "persona_state": changes.persona},
    }


# -- user state and persona state (same shapes) ------------------------------------------

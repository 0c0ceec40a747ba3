"""Dataclasses → JSON-ready dicts, shared by the HTTP API and the MCP tools (one shape each)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from omoide.model import (
    CreateOutcome,
    Link,
    Memory,
    MemoryStats,
    MemoryVersion,
    SearchHit,
    Source,
)

__all__ = [
    "render_create",
    "render_episode",
    "render_hit",
    "render_link",
    "render_memory",
    "render_stats",
    "render_version",
    "ts",
]


def ts(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def render_source(source: Source) -> dict[str, Any]:
    return {"event_id": source.event_id, "external_id": source.external_id}


def render_link(link: Link) -> dict[str, Any]:
    return {"key": link.other_key, "type": str(link.link_type), "weight": round(link.weight, 4),
            "co_activation_count": link.co_activation_count,
            "last_activated": ts(link.last_activated)}


def render_memory(memory: Memory) -> dict[str, Any]:
    return {
        "key": memory.key,
        "persona": memory.persona,
        "content": memory.content,
        "kind": str(memory.kind),
        "importance": memory.importance,
        "tags": list(memory.tags),
        "emotion_type": memory.emotion_type,
        "emotion_intensity": memory.emotion_intensity,
        "source": memory.source,
        "source_ref": memory.source_ref,
        "created_at": ts(memory.created_at),
        "updated_at": ts(memory.updated_at),
        "strength": round(memory.strength, 6),
        "stability": round(memory.stability, 6),
        "access_count": memory.access_count,
        "last_accessed": ts(memory.last_accessed),
        "valid_from": ts(memory.valid_from),
        "valid_until": ts(memory.valid_until),
        "superseded_by": memory.superseded_by,
        "summary_ref": memory.summary_ref,
        "status": str(memory.status),
        "metadata": memory.metadata,
        "sources": [render_source(s) for s in memory.sources],
        "links": [render_link(link) for link in memory.links],
    }


def render_create(outcome: CreateOutcome) -> dict[str, Any]:
    if outcome.status == "duplicate":
        assert outcome.duplicate_of is not None
        return {"status": "duplicate", "duplicate_of": {
            "key": outcome.duplicate_of.key, "content": outcome.duplicate_of.content,
            "similarity": round(outcome.similarity or 0.0, 4)}}
    assert outcome.memory is not None
    return {"status": "created", "memory": render_memory(outcome.memory)}


def render_hit(hit: SearchHit) -> dict[str, Any]:
    out: dict[str, Any] = {"type": hit.type}
    out["key" if hit.type == "note" else "id"] = hit.id
    out.update({"content": hit.content, "score": round(hit.score, 6),
                "similarity": None if hit.similarity is None else round(hit.similarity, 4),
                "sources": [render_source(s) for s in hit.sources]})
    if hit.memory is not None:
        m = hit.memory
        out.update({"kind": str(m.kind), "tags": list(m.tags), "importance": m.importance,
                    "strength": round(m.strength, 6), "created_at": ts(m.created_at),
                    "valid_from": ts(m.valid_from), "valid_until": ts(m.valid_until),
                    "superseded_by": m.superseded_by})
    out.update(hit.extra)
    return out


def render_version(version: MemoryVersion) -> dict[str, Any]:
    return {"version": version.version, "change": str(version.change),
            "changed_by": version.changed_by, "changed_at": ts(version.changed_at),
            "before": version.before, "after": version.after}


def render_stats(stats: MemoryStats) -> dict[str, Any]:
    return {"persona": stats.persona, "total": stats.total, "active": stats.active,
            "tombstoned": stats.tombstoned, "superseded": stats.superseded,
            "by_kind": stats.by_kind, "mean_strength": round(stats.mean_strength, 6),
            "links": stats.links, "oldest": ts(stats.oldest), "newest": ts(stats.newest)}


def render_episode(episode: Any, notes: list[str]) -> dict[str, Any]:
    """An Episode (``store.sqlite.sessions.Episode``) with its consolidated notes' keys."""
    return {"id": episode.id, "session_id": episode.session_id,
            "first_event_id": episode.first_event_id, "last_event_id": episode.last_event_id,
            "first_seq": episode.first_seq, "last_seq": episode.last_seq,
            "topic": episode.topic, "surprise": round(episode.surprise, 4),
            "boundary_reason": episode.boundary_reason, "started_at": ts(episode.started_at),
            "ended_at": ts(episode.ended_at), "consolidated_at": ts(episode.consolidated_at),
            "content": episode.content, "notes": notes}

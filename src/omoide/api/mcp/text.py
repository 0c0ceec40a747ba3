"""Readable text for MCP tool results, written from the same render_* dicts as the structured
content, so the text a model reads can never disagree with the data beside it.

Pure formatting: no service calls, no I/O.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from omoide.engine.counts import how_many, plural
from omoide.model import SCRUB_PENDING_MEANS, never_held_window

__all__ = [
    "changes_text",
    "context_text",
    "create_text",
    "deleted_text",
    "ended_text",
    "episode_search_text",
    "history_text",
    "memory_text",
    "past_mark",
    "recorded_text",
    "search_text",
    "session_start_text",
    "state_history_text",
    "stats_text",
    "updated_text",
]

# said after an erase whose scrub is owed: the shared wording, as a sentence
_SCRUB_PENDING = SCRUB_PENDING_MEANS[0].upper() + SCRUB_PENDING_MEANS[1:]

_PREVIEW = 200


def _preview(text: str, limit: int = _PREVIEW) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _day(stamp: str | None) -> str:
    return "—" if stamp is None else stamp[:16].replace("T", " ")


def memory_text(memory: dict[str, Any], *, title: str = "Memory") -> str:
    lines = [
        f"{title} {memory['key']} ({memory['kind']}, {memory['status']})",
        memory["content"],
        f"importance {memory['importance']:.2f} · strength {memory['strength']:.3f} · "
        f"stability {memory['stability']:.1f} d · recalled {memory['access_count']}×",
    ]
    if memory["tags"]:
        lines.append("tags: " + ", ".join(memory["tags"]))
    lines.append(f"created {_day(memory['created_at'])} · updated {_day(memory['updated_at'])}")
    if never_held(memory):
        lines.append(f"never held: cancelled before its planned start {_day(memory['valid_from'])}")
    elif memory["valid_from"] or memory["valid_until"]:
        lines.append(f"valid {_day(memory['valid_from'])} → {_day(memory['valid_until'])}")
    if memory["superseded_by"]:
        lines.append(f"superseded by {memory['superseded_by']} (no longer current)")
    if memory["links"]:
        lines.append("linked: " + ", ".join(link["key"] for link in memory["links"]))
    return "\n".join(lines)


def updated_text(memory: dict[str, Any]) -> str:
    return memory_text(memory, title="Updated memory")


def create_text(outcome: dict[str, Any]) -> str:
    if outcome["status"] == "duplicate":
        dup = outcome["duplicate_of"]
        return (
            f"Not saved: it duplicates memory {dup['key']} "
            f"(similarity {dup['similarity']:.2f}): {_preview(dup['content'])}"
        )
    memory = outcome["memory"]
    return f"Saved as {memory['key']}: {_preview(memory['content'])}"


def deleted_text(memory: dict[str, Any]) -> str:
    """A tombstone (the memory) or a purge (``{persona, key, status: "purged"}``)."""
    if memory["status"] == "purged":
        also = memory.get("also_purged") or []
        held = "it" if len(also) == 1 else "they"
        tail = f" Also erased, as {held} held part of its text: {', '.join(also)}." if also else ""
        said = memory.get("said_in") or []
        if said:
            one = len(said) == 1
            tail += (
                f" It was drawn from what was said in {plural(len(said), 'session')} "
                f"{', '.join(said)}, which {'was' if one else 'were'} not erased and may still "
                "hold these words; to erase them too, ask the user, then delete "
                f"{'that session' if one else 'those sessions'}."
            )
        if memory.get("scrub_pending"):
            tail += f" {_SCRUB_PENDING}; the server scrubs them as soon as it can."
        return f"Erased memory {memory['key']}: it and its history are gone.{tail}"
    return (
        f"Deleted {memory['key']} (tombstoned; its history stays readable with "
        f"memory_history): {_preview(memory['content'])}"
    )


def context_text(context: dict[str, Any]) -> str:
    """get_context: the context text itself, written by the service for the model."""
    return str(context["text"])


def session_start_text(start: dict[str, Any]) -> str:
    return f"{start['text']}\n\n(session {start['session_id']})"


def recorded_text(recorded: dict[str, Any]) -> str:
    duplicates = recorded["duplicates"]
    return f"recorded {how_many(recorded['accepted'], 'turn')} in {recorded['session_id']}" + (
        f" ({duplicates} already recorded)" if duplicates else ""
    )


def ended_text(ended: dict[str, Any]) -> str:
    """``session … ended 2026-03-01 10:00 by client; consolidating``, or for a session that
    had already ended ``session … had already ended 2026-03-01 10:00 by idle; nothing more to
    do`` (an ended session stays as it ended, and its end already queued its work)."""
    if ended.get("already_ended"):
        return (
            f"session {ended['session_id']} had already ended {_day(ended['ended_at'])} by "
            f"{ended['ended_by'] or 'unknown'}; nothing more to do"
        )
    return (
        f"session {ended['session_id']} ended {_day(ended['ended_at'])} by "
        f"{ended['ended_by'] or 'unknown'}; consolidating"
    )


def search_text(result: dict[str, Any]) -> str:
    return _hits_text(result, "memories")


def episode_search_text(result: dict[str, Any]) -> str:
    return _hits_text(result, "episodes")


def _hits_text(result: dict[str, Any], what: str) -> str:
    """The numbered hits of a search; none found says which kind was searched."""
    hits = result["results"]
    if not hits:
        return f"No {what} match “{result['query']}”."
    lines = [f"{how_many(len(hits), 'result')} for “{result['query']}” ({result['mode']}):"]
    for n, hit in enumerate(hits, 1):
        ident = hit.get("key") or f"episode {hit.get('id')}"
        extra = past_mark(hit) + folded_mark(hit)
        when = f" · {_day(hit['created_at'])}" if hit.get("created_at") else ""
        lines.append(
            f"{n}. {ident} (score {hit['score']:.3f}{similarity_mark(hit)}{when})"
            f"{extra}: {_preview(hit['content'])}"
        )
    return "\n".join(lines)


def similarity_mark(hit: dict[str, Any]) -> str:
    """`` · similarity 0.412``: the raw cosine beside the score, which ranks within the query
    only (its weakest candidate scores 0.000 there, however related it is)."""
    similarity = hit.get("similarity")
    return "" if similarity is None else f" · similarity {similarity:.3f}"


def folded_mark(hit: dict[str, Any]) -> str:
    """`` [notes shown in its lines: k1, k2]`` for an excerpt that folded notes in, else ``""``:
    the keys a model needs to update or forget those notes (``engine.budget``)."""
    keys = hit.get("folded_notes") or []
    return f" [notes shown in its lines: {', '.join(keys)}]" if keys else ""


def past_mark(hit: dict[str, Any]) -> str:
    """`` [past: valid until …, superseded by …]`` for a closed fact, else ``""``."""
    if hit.get("current", True):
        return ""
    parts = []
    if never_held(hit):
        parts.append(f"never held: cancelled before its planned start {_day(hit['valid_from'])}")
    elif hit.get("valid_until"):
        parts.append(f"valid until {_day(hit['valid_until'])}")
    if hit.get("superseded_by"):
        parts.append(f"superseded by {hit['superseded_by']}")
    return f" [past: {', '.join(parts) or 'no longer current'}]"


def never_held(memory: dict[str, Any]) -> bool:
    """A fact (as rendered) contradicted before it began, which is no "valid until" of a fact
    that held: the model's rule (``model.never_held_window``) asked of its rendered times."""
    return never_held_window(_time(memory.get("valid_from")), _time(memory.get("valid_until")))


def _time(stamp: str | None) -> datetime | None:
    return None if stamp is None else datetime.fromisoformat(stamp)


def history_text(history: dict[str, Any]) -> str:
    versions = how_many(len(history["versions"]), "version")
    lines = [f"History of {history['key']} ({versions}, oldest first):"]
    for version in history["versions"]:
        after = version.get("after") or {}
        content = f": {_preview(str(after['content']), 120)}" if "content" in after else ""
        changed = _changed_fields(version.get("before") or {}, after)
        lines.append(
            f"v{version['version']} {version['change']} by {version['changed_by']} "
            f"at {_day(version['changed_at'])}{content}" + (f" ({changed})" if changed else "")
        )
    return "\n".join(lines)


_TIME_FIELDS = frozenset({"valid_from", "valid_until"})


def _changed_fields(before: dict[str, Any], after: dict[str, Any]) -> str:
    """What a version changed besides the text, in words: a supersession showed the same
    text twice, and the reader could not tell that the fact was closed, when, or by which."""
    if not before:
        return ""
    said = []
    for name, new in after.items():
        old = before.get(name)
        if name == "content" or old == new:
            continue
        said.append(f"{name}: {_field_value(name, old)} → {_field_value(name, new)}")
    return "; ".join(said)


def _field_value(name: str, value: Any) -> str:
    if value is None:
        return "—"
    if name in _TIME_FIELDS and isinstance(value, str):
        return _day(value)
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return _preview(str(value), 60)


def stats_text(stats: dict[str, Any]) -> str:
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(stats["by_kind"].items()))
    return (
        f"Persona {stats['persona']}: {how_many(stats['active'], 'active memory')} "
        f"({stats['total']} total, {stats['tombstoned']} deleted, "
        f"{stats['superseded']} superseded); mean strength {stats['mean_strength']:.3f}; "
        f"{how_many(stats['links'], 'link')}; by kind: {kinds or 'none'}; "
        f"oldest {_day(stats['oldest'])}, newest {_day(stats['newest'])}"
    )


def state_history_text(history: dict[str, Any]) -> str:
    rows = history["history"]
    if not rows:
        return f"No recorded value for “{history['key']}”."
    lines = [f"{history['key']} over time (oldest first):"]
    for row in rows:
        mark = "  ← current" if row["is_current"] else ""
        lines.append(
            f"{row['value']!s}  from {_day(row['valid_from'])} "
            f"until {_day(row['valid_until']) if row['valid_until'] else 'now'}{mark}"
        )
    return "\n".join(lines)


def changes_text(
    changes: dict[str, Any], *, closed: dict[str, set[str]] | None = None, given: bool = True
) -> str:
    """``Recorded user_info name; closed user_info nickname (…)``: ``closed`` holds the keys
    the call gave null (they stopped being current), so they are not said to be recorded;
    ``given`` is False when the call named no key at all (``user_info={}``)."""
    shut = closed or {}
    recorded: list[str] = []
    ended: list[str] = []
    for field, keys in changes["changed"].items():
        gone = shut.get(field, set())
        for out, picked in (
            (recorded, [k for k in keys if k not in gone]),
            (ended, [k for k in keys if k in gone]),
        ):
            if picked:
                out.append(f"{field} {', '.join(picked)}")
    if not recorded and not ended and not given:  # {} said "every value given was current"
        return (
            'Nothing changed: no key was given; name at least one, e.g. user_info={"name": "Rau"}.'
        )
    if not recorded and not ended:
        return "Nothing changed: every value given was already current."
    said = "; ".join(
        [
            *(["Recorded " + "; ".join(recorded)] if recorded else []),
            *(["closed " + "; ".join(ended)] if ended else []),
        ]
    )
    return said[0].upper() + said[1:] + " (earlier values stay in the history)."

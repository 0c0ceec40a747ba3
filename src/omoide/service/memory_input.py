"""A memory's fields as a user gives them (HTTP body, MCP arguments, CLI options), checked: a new
memory's, or the changes to a stored one (422 on the first mistake, 409 when a change conflicts
with what is stored)."""

from __future__ import annotations

from typing import Any

from omoide.errors import Conflict
from omoide.model import Memory, MemoryKind, NewMemory, Unset
from omoide.service.validate import (
    check_content,
    check_emotion_type,
    check_kind,
    check_metadata,
    check_tags,
    check_timestamp,
    check_unit_interval,
    check_window,
    check_window_fits,
)

__all__ = ["checked_changes", "checked_new"]


def checked_new(
    *,
    content: Any,
    importance: Any,
    tags: Any,
    emotion_type: Any,
    emotion_intensity: Any,
    kind: Any,
    valid_from: Any,
    valid_until: Any,
    metadata: Any,
    max_chars: int,
) -> NewMemory:
    """A new memory's fields checked into a :class:`NewMemory` (its defaults where not given)."""
    emotion_type = check_emotion_type(emotion_type)
    if metadata is not None:
        check_metadata(metadata)
    start = check_timestamp(valid_from, "valid_from")
    end = check_timestamp(valid_until, "valid_until")
    check_window(start, end)
    return NewMemory(
        content=check_content(content, max_chars=max_chars),
        kind=check_kind(kind) if kind is not None else MemoryKind.NOTE,
        importance=check_unit_interval(0.5 if importance is None else importance, "importance"),
        tags=check_tags(tags),
        emotion_type=emotion_type,
        emotion_intensity=check_unit_interval(
            0.0 if emotion_intensity is None else emotion_intensity, "emotion_intensity"
        ),
        valid_from=start,
        valid_until=end,
        metadata=dict(metadata or {}),
    )


def checked_changes(current: Memory, *, max_chars: int, **fields: Any) -> dict[str, Any]:
    """The changes ``fields`` make to ``current`` (UNSET: left alone), checked; only those that
    change a value."""
    changes: dict[str, Any] = {}
    given = {k: v for k, v in fields.items() if not isinstance(v, Unset)}
    if "content" in given:
        changes["content"] = check_content(given["content"], max_chars=max_chars)
    if "tags" in given:
        changes["tags"] = check_tags(given["tags"])
    if "emotion_type" in given:
        changes["emotion_type"] = check_emotion_type(given["emotion_type"])
    if "emotion_intensity" in given:
        changes["emotion_intensity"] = check_unit_interval(
            given["emotion_intensity"], "emotion_intensity"
        )
    if "kind" in given:
        changes["kind"] = check_kind(given["kind"])
    if "metadata" in given:
        changes["metadata"] = check_metadata(given["metadata"])
    for name in ("valid_from", "valid_until"):
        if name in given:
            changes[name] = check_timestamp(given[name], name)
    check_window(changes.get("valid_from"), changes.get("valid_until"))
    if not check_window_fits(
        changes.get("valid_from", current.valid_from),
        changes.get("valid_until", current.valid_until),
    ):
        # One end comes from the stored memory: the request conflicts with it.
        start = current.valid_from.isoformat() if current.valid_from else "no start"
        end = current.valid_until.isoformat() if current.valid_until else "no end"
        raise Conflict(
            "valid_until must be after valid_from (the memory's stored "
            f"validity is {start} to {end})",
            field="valid_until" if "valid_until" in given else "valid_from",
            key=current.key,
        )
    return {k: v for k, v in changes.items() if getattr(current, k) != v}

"""The fields of a memory: content, kind, tags, emotion and the 0–1 weights."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from omoide.engine.errors import quoted, too_long, too_many
from omoide.errors import InvalidInput
from omoide.model import MemoryKind
from omoide.service.validate.patterns import (
    MAX_EMOTION_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    NON_BLANK_RULE,
    TAG_PATTERN,
    matches,
)
from omoide.service.validate.text import check_controls, check_text, is_blank

# said after a blank emotion label is refused, by the service and by HTTP's body schema
NO_EMOTION_HINT = "leave it out or send null for no emotion"


def check_content(content: Any, *, max_chars: int) -> str:
    if not isinstance(content, str):
        raise InvalidInput("content must be a string", field="content")
    if is_blank(content):
        raise InvalidInput(f"content {NON_BLANK_RULE}", field="content")
    check_text(content, "content")
    if len(content) > max_chars:
        raise InvalidInput(too_long("content", max_chars, content), field="content")
    return content.strip()


def check_emotion_type(value: Any) -> str | None:
    """A memory's emotion label: None (no label), or text that is not blank, at most 64
    characters, trimmed as tags are. ``""`` is refused as a blank tag or state value is (it
    was stored as an empty label, neither a label nor none): leave the field out or send null
    for none."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(
            f"emotion_type must be a string or null, got {quoted(value)}", field="emotion_type"
        )
    if len(value) > MAX_EMOTION_CHARS:
        raise InvalidInput(too_long("emotion_type", MAX_EMOTION_CHARS, value), field="emotion_type")
    if is_blank(value):
        raise InvalidInput(
            f"emotion_type {NON_BLANK_RULE}, got {quoted(value)}; {NO_EMOTION_HINT}",
            field="emotion_type",
        )
    return check_controls(check_text(value, "emotion_type").strip(), "emotion_type")


def check_unit_interval(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(
            f"{name} must be a number between 0 and 1, got {quoted(value)}", field=name
        )
    if (isinstance(value, float) and math.isnan(value)) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, got {quoted(value)}", field=name)
    return float(value) + 0.0  # -0.0 is 0.0 (PostgreSQL's float keeps the sign, SQLite's not)


def split_search_tags(values: Iterable[Any], name: str = "tags") -> list[str]:
    """A search's tag values (HTTP ``tags=``, the CLI's ``--tag``): each one or more tags
    separated by commas, blank pieces skipped (``a,,b`` is a and b). A value holding no tag
    (``tags=``, ``--tag ""``, ``tags=,``) is refused, as an empty ``date_range=`` is: a script's
    unset variable would otherwise search every memory as if the filter had applied."""
    tags: list[str] = []
    for value in values:
        pieces = [p for p in str(value).split(",") if p.strip()]  # an invisible one is refused
        if not pieces:
            raise InvalidInput(
                f"{name} must not be empty, got {quoted(str(value))}: give a tag, or leave "
                f"{name} out for no tag filter",
                field="tags",
            )
        tags.extend(pieces)
    return tags


def check_tags(tags: Any, *, limit: int = MAX_TAGS) -> tuple[str, ...]:
    """At most ``limit`` tags given; each 1–64 characters once stripped, no comma, no control
    character. Duplicates are dropped, order kept."""
    if tags is None:
        return ()
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput("tags must be a list of strings", field="tags")
    given = list(tags)
    if len(given) > limit:
        raise InvalidInput(too_many("tags", limit, len(given)), field="tags")
    clean: list[str] = []
    for tag in given:
        if not isinstance(tag, str):
            raise InvalidInput(f"every tag must be a string, got {quoted(tag)}", field="tags")
        if is_blank(tag):
            raise InvalidInput(f"every tag {NON_BLANK_RULE}, got {quoted(tag)}", field="tags")
        if len(tag.strip()) > MAX_TAG_CHARS:
            raise InvalidInput(
                too_long(f"tag {quoted(tag.strip())}", MAX_TAG_CHARS, tag.strip()),
                field="tags",
            )
        check_controls(check_text(tag, "tags").strip(), "tags")
        if not matches(TAG_PATTERN, tag):  # what is left: a comma
            raise InvalidInput(
                f"tag {quoted(tag)} holds a comma (commas separate tags in a search)", field="tags"
            )
        if tag.strip() not in clean:
            clean.append(tag.strip())
    return tuple(clean)


def check_kind(kind: Any) -> MemoryKind:
    try:
        return MemoryKind(kind)
    except ValueError:
        raise InvalidInput(
            f"unknown kind {quoted(kind)}; use one of {', '.join(k.value for k in MemoryKind)}",
            field="kind",
        ) from None

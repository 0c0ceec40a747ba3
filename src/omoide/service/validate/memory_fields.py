"""The fields of a memory: content, kind, tags, emotion and the 0–1 weights."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from omoide.engine.errors import quoted
from omoide.errors import InvalidInput
from omoide.model import MemoryKind
from omoide.service.validate.patterns import (
    MAX_EMOTION_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    TAG_PATTERN,
    matches,
)
from omoide.service.validate.text import check_controls, check_text, is_blank


def check_content(content: Any, *, max_chars: int) -> str:
    if not isinstance(content, str):
        raise InvalidInput("content must be a string", field="content")
    if is_blank(content):
        raise InvalidInput(
            "content must not be empty or whitespace, nor only invisible characters",
            field="content",
        )
    check_text(content, "content")
    if len(content) > max_chars:
        raise InvalidInput(
            f"content is {len(content):,} characters; the limit is {max_chars:,}", field="content"
        )
    return content.strip()


def check_emotion_type(value: Any) -> str | None:
    """A memory's emotion label: None (no label), or text that is not blank, at most 64
    characters, trimmed as tags are. ``""`` is refused as a blank tag or state value is (it
    was stored as an empty label, neither a label nor none): leave the field out or send null
    for none."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_EMOTION_CHARS:
        raise InvalidInput(
            f"emotion_type must be a string of at most {MAX_EMOTION_CHARS} characters",
            field="emotion_type",
        )
    if is_blank(value):
        raise InvalidInput(
            "emotion_type must not be empty (nor only whitespace or invisible "
            "characters); leave it out or send null for no emotion",
            field="emotion_type",
        )
    return check_controls(check_text(value, "emotion_type").strip(), "emotion_type")


def check_unit_interval(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(
            f"{name} must be a number between 0 and 1, got {quoted(value)}", field=name
        )
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, got {quoted(value)}", field=name)
    return float(value) + 0.0  # -0.0 is 0.0 (PostgreSQL's float keeps the sign, SQLite's not)


def check_tags(tags: Any, *, limit: int = MAX_TAGS) -> tuple[str, ...]:
    """At most ``limit`` tags given; each 1–64 characters once stripped, no comma, no control
    character. Duplicates are dropped, order kept."""
    if tags is None:
        return ()
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput("tags must be a list of strings", field="tags")
    given = list(tags)
    if len(given) > limit:
        raise InvalidInput(f"{len(given)} tags given; the limit is {limit}", field="tags")
    clean: list[str] = []
    for tag in given:
        if not isinstance(tag, str) or is_blank(tag):
            raise InvalidInput(
                f"every tag must be a non-empty string (not only whitespace or "
                f"invisible characters), got {quoted(tag)}",
                field="tags",
            )
        if len(tag.strip()) > MAX_TAG_CHARS:
            raise InvalidInput(
                f"tag {quoted(tag.strip(), 22)} is {len(tag.strip())} characters; "
                f"the limit is {MAX_TAG_CHARS}",
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

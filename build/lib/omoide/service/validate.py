"""Validation of user-supplied memory fields: one clear message per mistake (422)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from omoide.clock import parse_iso
from omoide.errors import InvalidInput
from omoide.model import MemoryKind

__all__ = [
    "MAX_TAGS",
    "MAX_TAG_CHARS",
    "check_content",
    "check_kind",
    "check_tags",
    "check_timestamp",
    "check_unit_interval",
    "check_window",
]

MAX_TAGS = 20
MAX_TAG_CHARS = 64


def check_content(content: Any, *, max_chars: int) -> str:
    if not isinstance(content, str):
        raise InvalidInput("content must be a string", field="content")
    if not content.strip():
        raise InvalidInput("content must not be empty or whitespace", field="content")
    if len(content) > max_chars:
        raise InvalidInput(
            f"content is {len(content):,} characters; the limit is {max_chars:,}",
            field="content")
    return content.strip()


def check_unit_interval(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number between 0 and 1, got {value!r}", field=name)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{name} must be between 0 and 1, got {value!r}", field=name)
    return float(value)


def check_tags(tags: Any) -> tuple[str, ...]:
    if tags is None:
        return ()
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput("tags must be a list of strings", field="tags")
    clean: list[str] = []
    for tag in tags:
        if not isinstance(tag, str) or not tag.strip():
            raise InvalidInput(f"every tag must be a non-empty string, got {tag!r}", field="tags")
        tag = tag.strip()
        if len(tag) > MAX_TAG_CHARS:
            raise InvalidInput(f"tag {tag[:20]!r}… is {len(tag)} characters; the limit is "
                               f"{MAX_TAG_CHARS}", field="tags")
        if tag not in clean:
            clean.append(tag)
    if len(clean) > MAX_TAGS:
        raise InvalidInput(f"{len(clean)} tags given; the limit is {MAX_TAGS}", field="tags")
    return tuple(clean)


def check_kind(kind: Any) -> MemoryKind:
    try:
        return MemoryKind(kind)
    except ValueError:
        raise InvalidInput(
            f"unknown kind {kind!r}; use one of {', '.join(k.value for k in MemoryKind)}",
            field="kind") from None


def check_timestamp(value: Any, name: str) -> datetime | None:
    """An ISO-8601 date or timestamp (naive → UTC), a datetime, or None."""
    if value is None or isinstance(value, datetime):
        return value if value is None or value.tzinfo else parse_iso(value.isoformat())
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be an ISO-8601 date or timestamp, got {value!r}",
                           field=name)
    try:
        return parse_iso(value.strip())
    except ValueError:
        raise InvalidInput(
            f"{name} is not a valid ISO-8601 date or timestamp: {value!r} "
            "(e.g. 2026-03-01 or 2026-03-01T09:30:00+09:00)", field=name) from None


def check_window(valid_from: datetime | None, valid_until: datetime | None) -> None:
    if valid_from is not None and valid_until is not None and valid_until <= valid_from:
        raise InvalidInput("valid_until must be after valid_from", field="valid_until")

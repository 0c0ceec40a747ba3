"""Memories and search: request bodies and documented replies (shapes of ``api/render.py``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_type_hints

from pydantic import Field
from typing_extensions import TypedDict

from omoide.api.http.schemas.common import (
    METADATA_DESCRIPTION,
    Metadata,
    NonBlank,
    Request,
    Response,
    ScrubPending,
    Tag,
    Timestamp,
    UnitInterval,
    reply_shape,
)
from omoide.model import VERSIONED_FIELDS, MemoryKind
from omoide.service.memories import MAX_CONTENT_CHARS
from omoide.service.validate import EMOTION_PATTERN, MAX_EMOTION_CHARS, MAX_TAG_CHARS, MAX_TAGS

__all__ = [
    "CreateReply",
    "HistoryReply",
    "LinkOut",
    "LinksReply",
    "MemoryCreate",
    "MemoryList",
    "MemoryOut",
    "MemoryPatch",
    "PurgeReply",
    "SearchHitOut",
    "SearchReply",
    "StatsOut",
]

# An enum member is given by its value (strict mode would want the Python member itself).
Kind = Annotated[MemoryKind, Field(strict=False)]
_EMOTION = Field(
    None,
    max_length=MAX_EMOTION_CHARS,
    pattern=EMOTION_PATTERN,
    description=(
        f"A label such as joy or worry (≤ {MAX_EMOTION_CHARS} chars, not blank, no control "
        "characters); null or absent: none."
    ),
)
_TAGS = (
    f"At most {MAX_TAGS} tags, each 1-{MAX_TAG_CHARS} characters without a comma (search "
    "filters by them)"
)
_KINDS = ", ".join(kind.value for kind in MemoryKind)
_VALID_FROM = "When what the memory says began to be true (null: not said)."
_VALID_UNTIL = "When it stopped being true (null: still true); after valid_from."


class MemoryCreate(Request):
    """A new memory. ``valid_until`` must be after ``valid_from`` when both are given."""

    content: NonBlank = Field(
        max_length=MAX_CONTENT_CHARS, description="The memory's text (not blank)."
    )
    importance: UnitInterval | None = Field(None, description="0-1, default 0.5; immutable.")
    tags: list[Tag] | None = Field(None, max_length=MAX_TAGS, description=f"{_TAGS}; default none.")
    emotion_type: str | None = _EMOTION
    emotion_intensity: UnitInterval | None = Field(None, description="0-1, default 0.")
    kind: Kind | None = Field(None, description=f"One of {_KINDS}; default note.")
    valid_from: Timestamp | None = Field(None, description=_VALID_FROM)
    valid_until: Timestamp | None = Field(None, description=_VALID_UNTIL)
    metadata: Metadata | None = Field(None, description=METADATA_DESCRIPTION)


class MemoryPatch(Request):
    """Fields to change; absent fields are left alone, ``null`` clears a nullable one.
    ``importance`` is immutable: it may only repeat the current value."""

    content: NonBlank = Field(
        None, max_length=MAX_CONTENT_CHARS, description="New text (re-embedded)."
    )
    importance: UnitInterval = Field(None, description="Must equal the current value.")
    tags: list[Tag] = Field(None, max_length=MAX_TAGS, description=f"{_TAGS}; replaces them all.")
    emotion_type: str | None = _EMOTION
    emotion_intensity: UnitInterval = Field(None, description="0-1.")
    kind: Kind = Field(None, description=f"One of {_KINDS}.")
    valid_from: Timestamp | None = Field(None, description=_VALID_FROM)
    valid_until: Timestamp | None = Field(None, description=_VALID_UNTIL)
    metadata: Metadata = Field(None, description=f"Replaces it: {METADATA_DESCRIPTION}")


class SourceOut(Response):
    event_id: int
    external_id: str | None


class LinkOut(Response):
    key: str
    type: str
    weight: float
    co_activation_count: int
    last_activated: str | None


class MemoryOut(Response):
    key: str
    persona: str
    content: str
    kind: str
    importance: float
    tags: list[str]
    emotion_type: str | None
    emotion_intensity: float
    source: str | None
    source_ref: str | None
    created_at: str
    updated_at: str | None
    strength: float
    stability: float
    access_count: int
    last_accessed: str | None
    valid_from: str | None
    valid_until: str | None
    superseded_by: str | None
    summary_ref: str | None
    status: str
    metadata: Metadata  # never null: a memory without metadata has {}
    sources: list[SourceOut]
    links: list[LinkOut]


class DuplicateOf(Response):
    key: str
    content: str
    similarity: float


class CreateReply(Response):
    """201 ``{status: "created", memory}`` or 200 ``{status: "duplicate", duplicate_of}``."""

    status: Literal["created", "duplicate"]
    memory: MemoryOut | None = None
    duplicate_of: DuplicateOf | None = None


class MemoryList(Response):
    persona: str
    memories: list[MemoryOut]


def _image_of(memory: type[Response]) -> Any:
    """``MemoryImage``: a memory as one version found it, the fields a change can touch
    (model.memory's VERSIONED_FIELDS), each typed as ``memory`` (MemoryOut) types it, so the two
    cannot drift apart. A TypedDict with keys that may be absent: a history imported from an
    older export may lack some of them."""
    hints = get_type_hints(memory, include_extras=True)
    image = TypedDict(
        "MemoryImage",
        {name: hints[name] for name in VERSIONED_FIELDS},  # type: ignore[misc]
        total=False,
    )
    image.__doc__ = (
        "A memory as one version found it: the fields a change can touch "
        "(model.memory's\nVERSIONED_FIELDS). A history imported from an older "
        "export may lack some of them."
    )
    return reply_shape(image)


MemoryImage = _image_of(MemoryOut)


class VersionOut(Response):
    version: int
    change: str
    changed_by: str | None
    changed_at: str
    before: MemoryImage | None = Field(
        description="The memory before the change; null for its creation."
    )
    after: MemoryImage | None


class HistoryReply(Response):
    key: str
    versions: list[VersionOut]


class LinksReply(Response):
    key: str
    links: list[LinkOut]


class PurgeReply(Response):
    """``purge=true``: the memory is erased (otherwise the tombstoned memory is returned)."""

    persona: str
    key: str
    status: Literal["purged"]
    also_purged: list[str] = Field(
        description=(
            "Remainders erased with it: what evolution kept current of it when a newer memory "
            "contradicted one part (they hold part of its text)."
        )
    )
    said_in: list[str] = Field(
        description=(
            "The sessions whose turns the memory was drawn from (by provenance: its source events "
            "and the episode it was consolidated from), sorted; empty when none. A purge does not "
            "touch conversations: their turns may still hold its words. Erase one with DELETE "
            "/api/sessions/{persona}/{session_id}."
        )
    )
    scrub_pending: ScrubPending


class StatsOut(Response):
    persona: str
    total: int
    active: int
    tombstoned: int
    superseded: int
    by_kind: dict[str, int]
    mean_strength: float
    links: int
    oldest: str | None
    newest: str | None


class SearchHitOut(Response):
    """A note (``key``, with its memory fields) or an episode (``id``, ``session_id`` …)."""

    type: Literal["note", "episode"]
    key: str | None = None
    id: str | None = None
    content: str
    score: float = Field(
        description=(
            "What the results are ordered by: keyword and semantic evidence relative to this "
            "query's other candidates (with strength blended in by importance_weight). It ranks; "
            "it "
            "is not comparable across queries, and 0 means the weakest candidate considered, not "
            "an irrelevant one (docs/search.md#reading-the-results)."
        )
    )
    similarity: float | None = Field(
        description=(
            "Raw cosine between the query and the text (for an excerpt, its best turn) on the "
            "server's embedder, the scale its thresholds use; comparable across queries (in "
            "keyword mode too). null only for a text with no stored vector."
        )
    )
    sources: list[SourceOut]


class SearchReply(Response):
    persona: str
    query: str
    mode: str
    results: list[SearchHitOut]

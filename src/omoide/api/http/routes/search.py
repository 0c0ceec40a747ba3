"""``GET /api/search/{persona}``: hybrid / semantic / keyword search with filters."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import Field

from omoide.api.http.deps import App, persona_access
from omoide.api.http.schemas import SearchReply, errors
from omoide.api.http.schemas.common import TIMESTAMP_DESCRIPTION
from omoide.api.render import render_search
from omoide.model import MemoryKind, SearchMode
from omoide.service.search_request import MAX_QUERY_CHARS, MAX_TOP_K
from omoide.service.validate import (
    MAX_DATE_RANGE_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TIMESTAMP_CHARS,
    NON_BLANK_PATTERN,
    TAGS_QUERY_PATTERN,
    split_search_tags,
)

router = APIRouter(tags=["search"])

Persona = Annotated[str, Depends(persona_access)]
TagsValue = Annotated[str, Field(pattern=TAGS_QUERY_PATTERN)]


@router.get(
    "/api/search/{persona}",
    summary="Search memories and conversation excerpts, ranked together",
    response_model=None,
    responses={200: {"model": SearchReply}, **errors(401, 403, 404, 422)},
)
def search(
    persona: Persona,
    app: App,
    q: str = Query(
        ...,
        description="What to look for (any language); not blank.",
        pattern=NON_BLANK_PATTERN,
        max_length=MAX_QUERY_CHARS,
    ),
    top_k: int = Query(10, ge=1, le=MAX_TOP_K, description="How many results."),
    mode: SearchMode = Query(
        SearchMode.HYBRID,
        description="hybrid (meaning + words), semantic (meaning only), keyword (exact words).",
    ),
    tags: list[TagsValue] | None = Query(
        None,
        max_length=MAX_TAGS,
        description="Every tag must match; repeat the parameter or separate tags by commas "
        f"(each tag 1-{MAX_TAG_CHARS} characters; at most {MAX_TAGS} per value). A value holding "
        "no tag (tags=) is "
        "refused: leave the parameter out for no tag filter.",
    ),
    date_range: str | None = Query(
        None,
        min_length=1,  # an empty one was no filter, as if it had applied
        max_length=MAX_DATE_RANGE_CHARS,
        json_schema_extra={"format": "date-range"},
        description="When the memory was created, e.g. 'last week', '先週', '3 days ago', "
        "'2026-03', '2026-03-01..2026-03-15' (docs/api.md lists the forms).",
    ),
    valid_at: str | None = Query(
        None,
        min_length=1,
        max_length=MAX_TIMESTAMP_CHARS,
        json_schema_extra={"format": "timestamp"},
        description="Only facts valid then: 'now' or an " + TIMESTAMP_DESCRIPTION,
    ),
    min_importance: float | None = Query(
        None, ge=0, le=1, allow_inf_nan=False, description="Only memories this important (0-1)."
    ),
    kind: MemoryKind | None = Query(None, description="Only memories of this kind."),
    importance_weight: float | None = Query(
        None, ge=0, le=1, allow_inf_nan=False, description="Override the setting (0-1)."
    ),
    include_episodes: bool | None = Query(
        None,
        description="Unset: conversation excerpts are ranked with the notes when the persona's "
        "episode_search_enabled setting is on (the default). false: notes only; true: excerpts "
        "whatever that setting says.",
    ),
) -> dict[str, Any]:
    split_tags = split_search_tags(tags or [])
    request = app.search.build_request(
        persona,
        query=q,
        top_k=top_k,
        mode=mode,
        tags=split_tags,
        date_range=date_range,
        valid_at=valid_at,
        min_importance=min_importance,
        kind=kind,
        importance_weight=importance_weight,
        include_episodes=include_episodes,
    )
    return render_search(persona, app.search.search(persona, request))

"""``GET /api/search/{persona}``: hybrid / semantic / keyword search with filters."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from omoide.api.http.deps import App, persona_access
from omoide.api.render import render_hit

router = APIRouter(tags=["search"])

Persona = Annotated[str, Depends(persona_access)]


@router.get("/api/search/{persona}", summary="Search memories (notes first, then episodes)")
def search(
    persona: Persona,
    app: App,
    q: str = Query(..., description="What to look for (any language)."),
    top_k: int = Query(10, description="How many results (1-100)."),
    mode: str = Query("hybrid", description="hybrid, semantic or keyword."),
    tags: list[str] | None = Query(None, description="Every tag must match (repeat or comma)."),
    date_range: str | None = Query(None, description="e.g. 'last week', '先週', '2026-03-01'."),
    valid_at: str | None = Query(None, description="ISO time or 'now': only facts valid then."),
    min_importance: float | None = Query(None),
    kind: str | None = Query(None),
    importance_weight: float | None = Query(None, description="Override the setting (0-1)."),
    include_episodes: bool | None = Query(None),
) -> dict[str, Any]:
    split_tags = [t for tag in tags or [] for t in tag.split(",") if t.strip()]
    request = app.search.build_request(
        persona, query=q, top_k=top_k, mode=mode, tags=split_tags, date_range=date_range,
        valid_at=valid_at, min_importance=min_importance, kind=kind,
        importance_weight=importance_weight, include_episodes=include_episodes)
    result = app.search.search(persona, request)
    return {"persona": persona, "query": result.query, "mode": str(result.mode),
            "results": [render_hit(h) for h in result.results]}

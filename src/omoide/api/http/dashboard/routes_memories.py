"""Memories: the paginated list, search, detail (curve, versions, sources), edit, tombstone,
and purge (after a confirmation page).

Search goes through the API's own ``SearchService`` (same validation, ranking and filters) with
``recall=False``: a person looking at a persona's memories must not strengthen them, so reading
here never changes what the persona remembers. The detail page reads without recall too.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from omoide.api.http.dashboard.views import closure, forgetting_curve, version_diffs
from omoide.api.http.dashboard.web import (
    DashboardRoute,
    PersonaPage,
    SignedIn,
    Viewer,
    controls_refused,
    form_data,
    form_page,
    render,
    shows_back,
)
from omoide.api.http.deps import App
from omoide.errors import Conflict, InvalidInput, NotFound
from omoide.model import SCRUB_PENDING_MEANS, MemoryKind, SearchMode
from omoide.wiring import Omoide

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

PAGE = 50
# The sessions a purge's notice names (its redirect's ``said_in``; the rest are counted in
# ``said_more``): the URL stays far within what the server reads (16 KiB), even for session ids
# of 128 characters each percent-encoded. Before: every one, and more than 100 a 422.
SAID_IN_NAMED = 20
SEARCH_TOP_K = 20


# the search form's text fields, as its labels name them: shown back in the form, so that a
# control character in them is refused on this page with the form holding the text without it
_TEXT_FIELDS = {
    "q": "the search",
    "tags": "tags",
    "date_range": "date range",
    "valid_at": "valid at",
}


def _tags(text: str) -> list[str] | None:
    tags = [t.strip() for t in text.split(",") if t.strip()]
    return tags or None


@router.get("/p/{persona}/memories")
@shows_back(_TEXT_FIELDS)
def memories(
    request: Request,
    persona: PersonaPage,
    viewer: SignedIn,
    app: App,
    q: str = "",
    mode: str = "hybrid",
    tags: str = "",
    date_range: str = "",
    valid_at: str = "",
    kind: str = "",
    deleted: bool = False,
    before: str = "",
    purged: str = "",
    said_in: list[str] = Query([], max_length=SAID_IN_NAMED),
    said_more: int = Query(0, ge=0),
    scrub: str = "",
) -> Response:
    now = app.clock.now()
    form = {
        "q": q,
        "mode": mode,
        "tags": tags,
        "date_range": date_range,
        "valid_at": valid_at,
        "kind": kind,
        "deleted": deleted,
    }
    context: dict[str, Any] = {
        "viewer": viewer,
        "persona": persona,
        "tab": "memories",
        "form": form,
        "modes": [str(m) for m in SearchMode],
        "kinds": [str(k) for k in MemoryKind],
        "now": now,
        "closure": closure,
        "error": None,
        "hits": None,
        "rows": [],
        "before": before,
        "next_cursor": None,
        "purged": purged,
        "said_in": said_in,
        "said_more": said_more,
        "scrub_pending": scrub == "pending",
        "scrub_pending_means": SCRUB_PENDING_MEANS,
        "filtered": False,
        "keep": "",
    }
    context["error"] = controls_refused(form, _TEXT_FIELDS)
    if context["error"] is not None:
        return render(request, "memories.html", status=422, **context)
    if q.strip():
        try:
            search = app.search.build_request(
                persona,
                query=q,
                top_k=SEARCH_TOP_K,
                mode=mode or None,
                tags=_tags(tags),
                date_range=date_range.strip() or None,
                valid_at=valid_at or None,
                kind=kind or None,
            )
            context["hits"] = app.search.search(persona, search, recall=False).results
        except InvalidInput as exc:
            context["error"] = exc.message
            return render(request, "memories.html", status=422, **context)
    else:  # the filters apply without a query too: the newest memories that pass them
        try:
            filters = app.search.build_filters(
                persona,
                tags=_tags(tags),
                date_range=date_range.strip() or None,
                valid_at=valid_at or None,
                kind=kind or None,
            )
            page = app.overview.memory_page(
                persona, before=before or None, limit=PAGE, include_deleted=deleted, filters=filters
            )
        except InvalidInput as exc:
            context["error"] = exc.message
            return render(request, "memories.html", status=422, **context)
        kept = {
            name: value
            for name, value in (
                ("tags", tags),
                ("date_range", date_range),
                ("valid_at", valid_at),
                ("kind", kind),
            )
            if value
        }
        context.update(
            rows=page.memories,
            next_cursor=page.next_cursor,
            filtered=not filters.empty,
            keep=urlencode({**kept, **({"deleted": "true"} if deleted else {})}),
        )
    return render(request, "memories.html", **context)


def _detail(
    request: Request,
    persona: str,
    key: str,
    viewer: Viewer,
    app: Omoide,
    *,
    error: str | None = None,
    status: int = 200,
) -> Response:
    now = app.clock.now()
    memory = app.memories.get(persona, key, recall=False)
    linked = []
    for link in memory.links:
        try:
            linked.append((link, app.memories.get(persona, link.other_key, recall=False)))
        except NotFound:
            linked.append((link, None))
    versions = [(v, version_diffs(v)) for v in reversed(app.memories.history(persona, key))]
    return render(
        request,
        "memory.html",
        status=status,
        viewer=viewer,
        persona=persona,
        tab="memories",
        memory=memory,
        closed=closure(memory, now),
        curve=forgetting_curve(memory, now),
        linked=linked,
        versions=versions,
        error=error,
        sources=app.overview.events(persona, [s.event_id for s in memory.sources]),
        kinds=[str(k) for k in MemoryKind],
        now=now,
    )


@router.get("/p/{persona}/memories/{key}")
def memory(
    request: Request, persona: PersonaPage, key: str, viewer: SignedIn, app: App
) -> Response:
    return _detail(request, persona, key, viewer, app)


@router.post("/p/{persona}/memories/{key}/edit")
async def edit_memory(
    request: Request, persona: PersonaPage, key: str, viewer: SignedIn, app: App
) -> Response:
    form = await form_data(request)
    try:
        await run_in_threadpool(  # embedding new content is CPU work: off the event loop
            app.memories.update,
            persona,
            key,
            content=form.get("content", ""),
            tags=_tags(form.get("tags", "")) or [],
            kind=form.get("kind") or "note",
            valid_from=form.get("valid_from", "").strip() or None,
            valid_until=form.get("valid_until", "").strip() or None,
            changed_by="dashboard",
        )
    except InvalidInput as exc:
        return _detail(request, persona, key, viewer, app, error=exc.message, status=422)
    return RedirectResponse(f"/p/{persona}/memories/{key}#versions", status_code=303)


@router.get("/p/{persona}/memories/{key}/edit")
@router.get("/p/{persona}/memories/{key}/delete")
def memory_form(persona: str, key: str) -> Response:
    return form_page("p", persona, "memories", key)


@router.post("/p/{persona}/memories/{key}/delete")
def delete_memory(persona: PersonaPage, key: str, viewer: SignedIn, app: App) -> Response:
    with contextlib.suppress(Conflict):  # already deleted (a second tab, a double click):
        app.memories.delete(persona, key)  # the page it goes back to shows it deleted
    return RedirectResponse(f"/p/{persona}/memories/{key}", status_code=303)


@router.get("/p/{persona}/memories/{key}/purge")
def confirm_purge(
    request: Request, persona: PersonaPage, key: str, viewer: SignedIn, app: App
) -> Response:
    """The confirmation step: what will be erased, and the one button that does it."""
    memory = app.memories.get(persona, key, recall=False)
    return render(
        request,
        "purge.html",
        viewer=viewer,
        persona=persona,
        tab="memories",
        memory=memory,
        versions=len(app.memories.history(persona, key)),
    )


@router.post("/p/{persona}/memories/{key}/purge")
async def purge_memory(
    request: Request, persona: PersonaPage, key: str, viewer: SignedIn, app: App
) -> Response:
    """Erase the memory for good (``MemoryService.purge``); only with the confirmation."""
    if (await form_data(request)).get("confirm") != key:
        raise InvalidInput(
            "a purge needs its confirmation: use the button on the purge page", field="confirm"
        )
    purged = await run_in_threadpool(app.memories.purge, persona, key)
    # the notice names what was erased, the conversations (kept) it was drawn from, and
    # whether the text is still in the folder's files (``scrub_pending``)
    query = urlencode(
        [
            ("purged", ", ".join([key, *purged.also])),
            *(("said_in", s) for s in purged.said_in[:SAID_IN_NAMED]),
            *(
                [("said_more", str(len(purged.said_in) - SAID_IN_NAMED))]
                if len(purged.said_in) > SAID_IN_NAMED
                else []
            ),
            *([("scrub", "pending")] if purged.scrub_pending else []),
        ]
    )
    return RedirectResponse(f"/p/{quote(persona)}/memories?{query}", status_code=303)

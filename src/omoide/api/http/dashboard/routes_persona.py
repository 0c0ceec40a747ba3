"""A persona's overview, background jobs, state timelines, sessions and settings."""

from __future__ import annotations

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import RedirectResponse, Response

from omoide.api.http.dashboard.views import closure
from omoide.api.http.dashboard.web import (
    DashboardRoute,
    PersonaPage,
    SignedIn,
    Viewer,
    form_data,
    form_page,
    render,
)
from omoide.api.http.deps import App
from omoide.config import PERSONA_SETTINGS
from omoide.errors import Conflict, InvalidInput
from omoide.service.state import StateKind
from omoide.service.validate import MAX_INT
from omoide.wiring import Omoide

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

RECENT = 10
PAGE = 50


@router.get("/p/{persona}")
def overview(request: Request, persona: PersonaPage, viewer: SignedIn, app: App) -> Response:
    return render(
        request,
        "overview.html",
        viewer=viewer,
        persona=persona,
        tab="overview",
        summary=app.overview.persona_summary(persona),
        jobs=app.overview.job_counts(persona),
        failed=app.overview.jobs(persona, "failed"),
        waiting=app.overview.jobs(persona, "pending") + app.overview.jobs(persona, "running"),
        recent=app.memories.list_recent(persona, limit=RECENT),
        sessions=app.overview.sessions(persona, limit=5),
        now=app.clock.now(),
        closure=closure,
    )


@router.get("/p/{persona}/jobs/{job_id}/retry")
def jobs_form(persona: str) -> Response:
    return form_page("p", persona)


@router.post("/p/{persona}/jobs/{job_id}/retry")
def retry_job(
    persona: PersonaPage, viewer: SignedIn, app: App, job_id: int = Path(ge=0, le=MAX_INT)
) -> Response:
    app.overview.retry_job(persona, job_id)
    return RedirectResponse(f"/p/{persona}#jobs", status_code=303)


@router.get("/p/{persona}/state")
def state(request: Request, persona: PersonaPage, viewer: SignedIn, app: App) -> Response:
    kinds = []
    for kind, title in ((StateKind.USER, "User state"), (StateKind.PERSONA, "Persona state")):
        current = app.state.current(persona, kind)
        timelines = {key: app.state.history(persona, kind, key) for key in current}
        # keys closed with null keep their bi-temporal history: shown folded, below
        closed = {
            key: app.state.history(persona, kind, key)
            for key in app.state.closed_keys(persona, kind)
        }
        kinds.append(
            {
                "kind": str(kind),
                "title": title,
                "current": current,
                "timelines": timelines,
                "closed": closed,
            }
        )
    return render(request, "state.html", viewer=viewer, persona=persona, tab="state", kinds=kinds)


@router.get("/p/{persona}/sessions")
def sessions(
    request: Request,
    persona: PersonaPage,
    viewer: SignedIn,
    app: App,
    page: int = Query(1, ge=1, le=100_000),
) -> Response:
    rows = app.overview.sessions(persona, limit=PAGE + 1, offset=(page - 1) * PAGE)
    return render(
        request,
        "sessions.html",
        viewer=viewer,
        persona=persona,
        tab="sessions",
        rows=rows[:PAGE],
        page=page,
        more=len(rows) > PAGE,
    )


@router.get("/p/{persona}/sessions/{session_id}")
def session(
    request: Request,
    persona: PersonaPage,
    session_id: str,
    viewer: SignedIn,
    app: App,
    after: int = Query(0, ge=0, le=MAX_INT),
) -> Response:
    view = app.overview.session(persona, session_id, after_seq=after)
    by_episode = {e.episode.id: e for e in view.episodes}
    return render(
        request,
        "session.html",
        viewer=viewer,
        persona=persona,
        tab="sessions",
        view=view,
        by_episode=by_episode,
        after=after,
    )


@router.get("/p/{persona}/settings")
def settings(request: Request, persona: PersonaPage, viewer: SignedIn, app: App) -> Response:
    return _settings_page(request, persona, viewer, app)


def _settings_page(
    request: Request,
    persona: str,
    viewer: Viewer,
    app: Omoide,
    *,
    error: str | None = None,
    status: int = 200,
) -> Response:
    defaults = app.settings_service.defaults
    overrides = app.settings_service.overrides(persona)
    effective = app.settings_service.get(persona)
    rows = [
        {
            "setting": s,
            "default": getattr(defaults, s.name),
            "override": overrides.get(s.name),
            "overridden": s.name in overrides,
            "value": getattr(effective, s.name),
        }
        for s in PERSONA_SETTINGS
    ]
    return render(
        request,
        "settings.html",
        status=status,
        viewer=viewer,
        persona=persona,
        tab="settings",
        rows=rows,
        error=error,
    )


@router.post("/p/{persona}/settings")
async def save_setting(
    request: Request, persona: PersonaPage, viewer: SignedIn, app: App
) -> Response:
    form = await form_data(request)
    name = form.get("name", "")
    value: str | None = None if form.get("action") == "reset" else form.get("value", "")
    if not name:  # "unknown setting ''" said nothing of what was wrong
        return _settings_page(
            request,
            persona,
            viewer,
            app,
            status=422,
            error="the form names no setting (its field 'name'); use a "
            "setting's Save or Reset button on this page",
        )
    try:
        app.settings_service.update(persona, {name: value})
    except (InvalidInput, Conflict) as exc:  # a bad value 422; a pair that does not hold 409
        return _settings_page(request, persona, viewer, app, error=exc.message, status=exc.status)
    return RedirectResponse(f"/p/{persona}/settings#s-{name}", status_code=303)

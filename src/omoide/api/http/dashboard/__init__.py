"""The persona dashboard (``/``, ``/login``, ``/p/{persona}/…``) and the offline ``/docs``.

Server-rendered Jinja2 templates (autoescaped), one small script of our own, no build step and
nothing loaded from the internet. Pages call the same services with the same persona check as
the REST API; see ``docs/dashboard.md``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from omoide.api.http.dashboard import (
    docs,
    routes_auth,
    routes_blocks,
    routes_memories,
    routes_persona,
)
from omoide.api.http.dashboard.session import SessionSigner, load_secret
from omoide.api.http.dashboard.web import Dashboard, make_environment
from omoide.wiring import Omoide

__all__ = ["ROUTERS", "STATIC_DIR", "install_dashboard"]

STATIC_DIR = Path(__file__).parent / "static"
# The pages' routers, as declared (the app's query-number reader reads their ``page=``, ``after=``).
ROUTERS = tuple(
    module.router for module in (routes_auth, routes_persona, routes_memories, routes_blocks, docs)
)


def install_dashboard(app: FastAPI, omoide: Omoide) -> None:
    """Add the dashboard routes, ``/docs`` and ``/static`` to ``app`` (created with
    ``docs_url=None``)."""
    app.state.dashboard = Dashboard(
        env=make_environment(),
        signer=SessionSigner(
            load_secret(omoide.settings.data_dir, omoide.settings.dashboard_secret)
        ),
    )
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

"""A query parameter the route does not have is refused (422), as an unknown body field is:
``GET /api/memories/rin?kind=fact`` used to list every memory, as if the filter had applied.
Only under ``/api`` and ``/v1`` (the dashboard's pages keep their own links).
"""

from __future__ import annotations

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from omoide.errors import InvalidInput

__all__ = ["refuse_unknown_query"]

_CHECKED = ("/api/", "/v1/")


async def refuse_unknown_query(request: Request) -> None:
    """An app-wide dependency: runs before the route, on the route the request matched."""
    if not request.query_params or not request.url.path.startswith(_CHECKED):
        return
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    known = _names(route.dependant)  # a few names, read only when a query is sent
    unknown = [name for name in request.query_params if name not in known]
    if unknown:
        # who may ask comes first, as on every route: 401, then 403 for another persona's key
        caller = request.app.state.omoide.auth.authenticate(request.headers.get("authorization"))
        persona = request.path_params.get("persona")
        if isinstance(persona, str):
            caller.require_persona(persona)
        takes = ", ".join(sorted(known)) if known else "no query parameters"
        raise InvalidInput(f"unknown query parameter {unknown[0]!r}; {route.path} takes "
                           f"{takes}", field=unknown[0])


def _names(dependant: Dependant) -> set[str]:
    """The query parameters of a route's function and of every dependency it uses."""
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _names(sub)
    return names

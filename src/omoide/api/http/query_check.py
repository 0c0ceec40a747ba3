"""What a route does not read is refused (422), as an unknown body field is, so nothing a
client sends is ignored silently. Only under ``/api`` and ``/v1`` (the dashboard's pages keep
their own links and forms).

- A query parameter the route does not have: ``GET /api/memories/rin?kind=fact`` used to list
  every memory, as if the filter had applied. So is one that takes a single value given twice
  (``?limit=1&limit=500`` kept the last one silently, as a JSON object naming a key twice did).
- A request body on a route that takes none (GET, DELETE, ``POST …/end``):
  ``DELETE /api/memories/rin/KEY`` with ``{"purge": true}`` tombstoned the memory and kept its
  text. A client that sends a body there meant something the route does not do; the message
  names the parameters it does take. An empty body, whitespace and ``{}`` ask for nothing and
  pass (some clients always send one).
- A numeric query parameter whose value is not a number as JSON writes it (``top_k=1_0``), or
  such a number in the path (``…/keys/1_0``): ``query_numbers`` reads the values and leaves its
  refusal here, to be said after who may ask.
"""

from __future__ import annotations

from typing import Any, get_args, get_origin

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from omoide.api.http.deps import check_access
from omoide.api.http.guard import refused_body, refused_header
from omoide.api.http.query_numbers import refused_number
from omoide.engine.errors import named
from omoide.errors import InvalidInput, Unauthorized

__all__ = [
    "refuse_refused_body",
    "refuse_refused_header",
    "refuse_unexpected_body",
    "refuse_unknown_query",
]

_CHECKED = ("/api/", "/v1/")
# Routes whose refusals name the input under another key than ``field``, and as what: a
# settings PUT names the setting (``"setting": "language"``, "setting 'language' …").
_NAMED_AS = {("PUT", "/api/settings/{persona}"): "setting"}


async def refuse_refused_header(request: Request) -> None:
    """An app-wide dependency, the first: a header the guard refused (sent twice, not ASCII),
    once the request has a route. ``Authorization`` twice is a 401; another header is judged
    after the key (401), as an input."""
    refused = refused_header(request.scope.get("state", {}))
    if refused is None:
        return
    if refused.field is None:
        raise Unauthorized(str(refused))
    request.app.state.omoide.auth.authenticate(request.headers.get("authorization"))
    raise InvalidInput(str(refused), field=refused.field)


async def refuse_refused_body(request: Request) -> None:
    """An app-wide dependency, the first: a body the guard refused (not JSON, JSON the API does
    not read) is answered here, once the request has a route (an unknown path is a 404, a
    wrong method a 405) and after who may ask (401, 403), not before."""
    refused = refused_body(request.scope.get("state", {}))
    if refused is None:
        return
    _may_ask(request)
    route = request.scope.get("route")
    key = _NAMED_AS.get((request.method, getattr(route, "path", "")), "field")
    field = refused.field
    if key != "field" and field and field.isidentifier():  # one of the body's top keys
        said = str(refused).removeprefix(field)
        raise InvalidInput(f"{key} {named(field)}{said}", **{key: field})
    raise InvalidInput(str(refused), **({"field": field} if field else {}))


async def refuse_unknown_query(request: Request) -> None:
    """An app-wide dependency: runs before the route, on the route the request matched."""
    route = request.scope.get("route")
    if not request.url.path.startswith(_CHECKED) or not isinstance(route, APIRoute):
        return
    if request.query_params:
        _refuse_unknown(request, route)
    refused = refused_number(request.scope.get("state", {}))
    if refused is not None:  # a numeric value that is not a number (``query_numbers``)
        _may_ask(request)
        raise refused


def _refuse_unknown(request: Request, route: APIRoute) -> None:
    """A query parameter the route does not have, or one of a single value given twice."""
    known = _names(route.dependant)  # a few names, read only when a query is sent
    unknown = [name for name in request.query_params if name not in known]
    counts = {
        name: len(request.query_params.getlist(name))
        for name in dict.fromkeys(request.query_params)
    }
    twice = [] if unknown else [name for name, n in counts.items() if n > 1 and not known[name]]
    if unknown or twice:
        _may_ask(request)
        if twice:
            raise InvalidInput(
                f"query parameter {named(twice[0])} is given {counts[twice[0]]} times; "
                "it takes one value",
                field=twice[0],
            )
        takes = ", ".join(sorted(known)) if known else "no query parameters"
        raise InvalidInput(
            f"unknown query parameter {named(unknown[0])}; {route.path} takes {takes}",
            field=unknown[0],
        )


async def refuse_unexpected_body(request: Request) -> None:
    """An app-wide dependency: a body sent to a route that reads none is refused."""
    route = request.scope.get("route")
    if (
        not isinstance(route, APIRoute)
        or not request.url.path.startswith(_CHECKED)
        or _reads_body(route)
        or not _may_have_body(request)
    ):
        return
    body = (await request.body()).strip()
    if body in (b"", b"{}"):
        return
    _may_ask(request)
    known = _names(route.dependant)
    takes = (
        f"its inputs are the path and the query ({', '.join(sorted(known))})"
        if known
        else "its inputs are the path"
    )
    raise InvalidInput(
        f"{request.method} {route.path} takes no request body ({len(body):,} "
        f"bytes were sent); {takes}"
    )


def _may_ask(request: Request) -> None:
    """Who may ask comes first, as on every route: 401, 403 (another persona's key, a route for
    the admin), 404 for an unknown persona (``deps.check_access``)."""
    check_access(request)


def _reads_body(route: APIRoute) -> bool:
    """A body model, or a body the route reads itself (the import's stream)."""
    return route.body_field is not None or "requestBody" in (route.openapi_extra or {})


def _may_have_body(request: Request) -> bool:
    headers = request.headers
    return headers.get("content-length", "0") != "0" or "transfer-encoding" in headers


def _names(dependant: Dependant) -> dict[str, bool]:
    """The query parameters of a route's function and of every dependency it uses, each
    with whether it takes several values (a list)."""
    names = {
        param.alias: _takes_many(param.field_info.annotation) for param in dependant.query_params
    }
    for sub in dependant.dependencies:
        names |= _names(sub)
    return names


def _takes_many(annotation: Any) -> bool:
    """``list[str]``, ``list[str] | None``, ``Annotated[list[str], …]`` …"""
    if get_origin(annotation) in (list, tuple, set):
        return True
    return any(_takes_many(arg) for arg in get_args(annotation))

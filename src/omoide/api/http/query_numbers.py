"""A number in the query string may be typed with full-width digits and signs (``top_k=１０``,
``min_importance=０．５``, ``offset=－１``), as every date the API reads and the settings form's
numbers may: a Japanese input method types them. Only the values of a route's numeric query
parameters (``int``, ``float``) are read as ASCII; text parameters (``q``, tags …) reach the
route as sent. Other scripts' digits (``٣``) are left as they are, and the route's validation
refuses them (422) as before.

The query string comes from :class:`~omoide.api.http.guard.BodyGuard`, which re-encodes a
non-ASCII one as UTF-8 percent-escapes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, get_args, get_origin
from urllib.parse import quote, unquote

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from omoide.engine.width import half_width

__all__ = ["QueryNumbers"]

_NUMERIC = (int, float)


class QueryNumbers:
    """ASGI middleware, inside the guard: the values of the numeric query parameters of the
    route a request goes to, with full-width forms read as ASCII. ``routes`` are the API's
    routes (the routers' own, as declared)."""

    def __init__(self, app: ASGIApp, *, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        self.routes = [(route, frozenset(_numeric_names(route.dependant)))
                       for route in routes if isinstance(route, APIRoute)]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if b"%" in query:  # full-width forms arrive percent-encoded (BodyGuard)
            names = self._names(scope)
            if names:
                scope = {**scope, "query_string": _read_as_ascii(query, names)}
        await self.app(scope, receive, send)

    def _names(self, scope: Scope) -> frozenset[str]:
        """The numeric query parameters of the route the path and method match, else of the
        first route on the path alone (which answers 405 whatever the query)."""
        partial: frozenset[str] = frozenset()
        for route, names in self.routes:
            match = route.matches(scope)[0]
            if match == Match.FULL:
                return names
            if match == Match.PARTIAL and not partial:
                partial = names
        return partial


def _read_as_ascii(query: bytes, names: frozenset[str]) -> bytes:
    pieces = []
    for piece in query.split(b"&"):
        raw_name, eq, raw_value = piece.partition(b"=")
        if eq and unquote(raw_name.decode("ascii", "replace")) in names:
            value = unquote(raw_value.decode("ascii", "replace").replace("+", " "))
            ascii_value = half_width(value)
            if ascii_value != value:
                piece = raw_name + b"=" + quote(ascii_value, safe="").encode("ascii")
        pieces.append(piece)
    return b"&".join(pieces)


def _numeric_names(dependant: Dependant) -> set[str]:
    """The query parameters of a route's function and its dependencies that take a number."""
    names = {param.alias for param in dependant.query_params
             if _takes_number(param.field_info.annotation)}
    for sub in dependant.dependencies:
        names |= _numeric_names(sub)
    return names


def _takes_number(annotation: Any) -> bool:
    """``int``, ``float | None``, ``Annotated[int, …]`` … (not ``bool``, nor a list)."""
    if annotation in _NUMERIC:
        return True
    if get_origin(annotation) in (list, tuple, set):
        return False
    return any(_takes_number(arg) for arg in get_args(annotation))

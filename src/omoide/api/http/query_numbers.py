"""A number in the query string is read as the settings form's numbers are: as the JSON number
it writes (:func:`~omoide.engine.number_text.read_number`). Full-width digits and signs
(``top_k=１０``, ``min_importance=０．５``, ``offset=－１``, typed with a Japanese input method) are
read as ASCII, as every date the API reads; ``1e1`` is 10, as in a body. What Python's
``int()``/``float()`` read but JSON does not write (``top_k=1_0`` was read as 10; ``+5``, ``.5``,
``inf``, ``nan``, other scripts' digits) is refused (422, ``field`` the parameter) once the
request has a route and after who may ask (``query_check``). Only the values of a route's
numeric query parameters (``int``, ``float``) are read; text parameters (``q``, tags …) reach
the route as sent. A number in the path (a key id, a job id) is read alike. An integer (in the
query or the path) is read by :func:`~omoide.engine.number_text.read_integer` (``top_k=7.5`` is
refused in its words, not pydantic's "a valid integer").

The query string comes from :class:`~omoide.api.http.guard.BodyGuard`, which re-encodes a
non-ASCII one as UTF-8 percent-escapes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, get_args, get_origin
from urllib.parse import quote, unquote

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match, replace_params
from starlette.types import ASGIApp, Receive, Scope, Send

from omoide.engine.errors import named
from omoide.engine.number_text import REFUSED, read_integer, read_number, refusal
from omoide.errors import InvalidInput

__all__ = ["QueryNumbers", "refused_number"]

_NUMERIC = (int, float)
REFUSED_NUMBER = "omoide.refused_number"


class QueryNumbers:
    """ASGI middleware, inside the guard: the values of the numeric query parameters of the
    route a request goes to, read as JSON numbers (a refusal is put in the request's state).
    ``routes`` are the app's routes: the API's and the dashboard's pages (``page=``, ``after=``)."""

    def __init__(self, app: ASGIApp, *, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        api = [route for route in routes if isinstance(route, APIRoute)]
        self.routes = [(route, _numeric_names(route.dependant)) for route in api]
        # the routes with a number in their path (a key id, a job id), and its names
        self.path_routes = [
            (route, names) for route in api if (names := _numeric_names(route.dependant, path=True))
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = None
        if scope["type"] == "http":
            scope, refused = self._path_numbers(scope)
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if query:
            names = self._names(scope)
            if names:
                read, query_refused = _read_numbers(query, names)
                scope = {**scope, "query_string": read}
                refused = refused or query_refused
        if refused is not None:
            scope = {**scope, "state": {**scope.get("state", {}), REFUSED_NUMBER: refused}}
        await self.app(scope, receive, send)

    def _path_numbers(self, scope: Scope) -> tuple[Scope, InvalidInput | None]:
        """The numbers in the path read as the query's are: ``…/keys/１０`` and ``…/keys/1e1``
        are key 10 (the path is rewritten with the number as the route reads it); ``1_0``
        (``int()`` read it as 10), ``٢`` or ``7.5`` for an integer is refused with the
        reader's words, naming the path parameter."""
        for route, names in self.path_routes:
            match, child = route.matches(scope)
            if match != Match.FULL:
                continue
            params = dict(child.get("path_params", {}))
            written = {}
            for name, kind in names.items():
                value = params.get(name)
                if not isinstance(value, str):
                    continue
                try:
                    number = _read(value, kind, name)
                except REFUSED as exc:
                    return scope, InvalidInput(
                        refusal(f"path parameter {named(name)}", exc), field=name
                    )
                if _written(number) != value:
                    written[name] = _written(number)
            if not written:
                return scope, None
            path, _ = replace_params(
                route.path_format, route.param_convertors, {**params, **written}
            )
            return {**scope, "path": _root(scope) + path}, None
        return scope, None

    def _names(self, scope: Scope) -> dict[str, type]:
        """The numeric query parameters of the route the path and method match, else of the
        first route on the path alone (which answers 405 whatever the query)."""
        partial: dict[str, type] = {}
        for route, names in self.routes:
            match = route.matches(scope)[0]
            if match == Match.FULL:
                return names
            if match == Match.PARTIAL and not partial:
                partial = names
        return partial


def _root(scope: Scope) -> str:
    """The ``root_path`` in front of the route's path in ``scope["path"]`` (as Starlette's
    routing strips it), else ``""``."""
    root = scope.get("root_path", "")
    return root if root and scope["path"].startswith(root + "/") else ""


def refused_number(state: Any) -> InvalidInput | None:
    """The refusal :class:`QueryNumbers` put in a request's state, if any."""
    refused = state.get(REFUSED_NUMBER) if isinstance(state, dict) else None
    return refused if isinstance(refused, InvalidInput) else None


def _read_numbers(query: bytes, names: dict[str, type]) -> tuple[bytes, InvalidInput | None]:
    """The query with each numeric value written as the number it reads as, and the refusal
    of the first value that is not a number (left as sent)."""
    pieces, refused = [], None
    for piece in query.split(b"&"):
        raw_name, eq, raw_value = piece.partition(b"=")
        name = unquote(raw_name.decode("ascii", "replace"))
        if eq and name in names:
            value = unquote(raw_value.decode("ascii", "replace").replace("+", " "))
            try:
                number = _read(value, names[name], name)
            except REFUSED as exc:
                refused = refused or InvalidInput(
                    refusal(f"query parameter {named(name)}", exc), field=name
                )
            else:
                piece = raw_name + b"=" + quote(_written(number), safe="").encode("ascii")
        pieces.append(piece)
    return b"&".join(pieces), refused


def _read(value: str, kind: type, name: str) -> int | float:
    """A path or query value as the number it writes: an integer parameter's by
    :func:`read_integer` (``7.5`` refused in its words, ``7.0`` is 7)."""
    return (
        read_integer(value, name=name) if kind is int else read_number(value, kind=kind, name=name)
    )


def _written(number: int | float) -> str:
    """``number`` as the route's validation reads it: a whole float as an integer (``1e1`` is
    10, as a body's ``1e1`` is for an integer field)."""
    if isinstance(number, float) and number.is_integer():
        return str(int(number))
    return repr(number)


def _numeric_names(dependant: Dependant, *, path: bool = False) -> dict[str, type]:
    """The query (or ``path``) parameters of a route's function and its dependencies that take
    a number, each with its kind (``int`` or ``float``, for the refusal's words)."""
    params = dependant.path_params if path else dependant.query_params
    names = {
        param.alias: _kind(param.field_info.annotation)
        for param in params
        if _takes_number(param.field_info.annotation)
    }
    for sub in dependant.dependencies:
        names |= _numeric_names(sub, path=path)
    return names


def _kind(annotation: Any) -> type:
    if annotation is int:
        return int
    return int if any(_kind(arg) is int for arg in get_args(annotation)) else float


def _takes_number(annotation: Any) -> bool:
    """``int``, ``float | None``, ``Annotated[int, …]`` … (not ``bool``, nor a list)."""
    if annotation in _NUMERIC:
        return True
    if get_origin(annotation) in (list, tuple, set):
        return False
    return any(_takes_number(arg) for arg in get_args(annotation))

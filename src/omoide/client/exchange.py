"""One exchange with the server, the same for the sync and the async client: the options of
their httpx client, a :class:`~omoide.client.call.Call` as httpx's request arguments, and its
answer read (an error answer raised as its ``omoide.errors`` class). No I/O here."""

from __future__ import annotations

from typing import Any, TypeVar

import httpx

from omoide.client.call import Call, wire
from omoide.client.errors import error_from_response
from omoide.errors import OmoideError
from omoide.tls import shared_ssl_context

__all__ = [
    "DEFAULT_URL",
    "answer",
    "client_options",
    "raise_for_error",
    "request_options",
    "stream_options",
]

T = TypeVar("T")
DEFAULT_URL = "http://127.0.0.1:8765"


def client_options(base_url: str, api_key: str | None, timeout: float) -> dict[str, Any]:
    """The arguments of the httpx client (sync or async) for a server and a key."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return {
        "base_url": base_url.rstrip("/"),
        "headers": headers,
        "timeout": timeout,
        "verify": shared_ssl_context(),
    }


def request_options(call: Call[Any]) -> dict[str, Any]:
    """``call`` as the arguments of httpx's ``request`` (or ``stream``)."""
    return {
        "method": call.method,
        "url": call.path,
        "params": wire(dict(call.params)),
        "json": wire(call.json),
        "content": call.content,
        "headers": dict(call.headers),
        "timeout": call.timeout if call.timeout is not None else httpx.USE_CLIENT_DEFAULT,
    }


def stream_options(call: Call[Any]) -> dict[str, Any]:
    """As :func:`request_options`, without a timeout: a streamed export takes as long as it
    takes."""
    return {**request_options(call), "timeout": None}


def raise_for_error(response: httpx.Response) -> None:
    """Raise the ``omoide.errors`` class of a 4xx/5xx answer (its body read)."""
    if response.status_code >= 400:
        raise error_from_response(response)


def answer(call: Call[T], response: httpx.Response) -> T:
    """What ``call`` answers: its model, or the text of a text answer (metrics). A success
    whose body is not this route's JSON (another server at that address, a proxy's page)
    raises :class:`OmoideError` with its status, as an error answer not of Omoide's shape
    does (it raised json's or pydantic's own error)."""
    raise_for_error(response)
    if call.text:
        return response.text  # type: ignore[return-value]
    try:
        body = response.json()
    except ValueError:
        raise _not_omoide(response, "a body that is not JSON") from None
    try:
        return call.parse(body)
    except ValueError:  # pydantic's ValidationError is one
        raise _not_omoide(response, "JSON that is not this route's answer") from None


def _not_omoide(response: httpx.Response, what: str) -> OmoideError:
    request = response.request
    text = " ".join(response.text.split())[:200]
    exc = OmoideError(
        f"{request.method} {request.url} answered HTTP {response.status_code} with {what}, "
        f"so it is not Omoide's answer (is the client's base_url an Omoide server?): {text}"
    )
    exc.status = response.status_code
    return exc

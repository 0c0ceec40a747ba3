"""A request to the HTTP API as data (:class:`Call`: method, path, query, body, and how its
answer is parsed), which the sync and async clients send alike (``exchange.py``), and the
conversion of a value to what JSON carries (:func:`wire`). The routes' calls are built in
``calls.py``. No I/O here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Generic, TypeVar

__all__ = ["JSON", "Call", "When", "model", "wire"]


T = TypeVar("T")


JSON = dict[str, Any]


# A time the API takes: ISO-8601 text, a date, or an aware datetime.
When = str | date | datetime


def wire(value: Any, where: str = "") -> Any:
    """``value`` as JSON can carry it: an aware datetime as ISO-8601 with its offset, a date as
    ``YYYY-MM-DD``. A naive datetime raises ValueError naming where it is: the server refuses a
    time of day without its offset (docs/api.md), so it is not sent."""
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(
                f"{where or 'a time'} {value.isoformat()!r} has no UTC offset; "
                "give an aware datetime (e.g. tzinfo=datetime.UTC or "
                "ZoneInfo('Asia/Tokyo'))"
            )
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {k: wire(v, f"{where}.{k}" if where else str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [wire(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return value


def _json(body: Any) -> JSON:
    return body  # type: ignore[no-any-return]


def model(name: str) -> Callable[[Any], Any]:
    """Parse an answer into the API's model ``name`` (looked up when the first answer comes)."""

    def parse(body: Any) -> Any:
        from omoide.api.http import schemas
        from omoide.api.http.schemas import transfer

        found = getattr(schemas, name, None) or getattr(transfer, name)
        return found.model_validate(body)

    parse.__name__ = f"parse_{name}"
    return parse


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    params: Mapping[str, Any] = field(default_factory=dict)
    json: Any = None
    content: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    parse: Callable[[Any], T] = _json  # type: ignore[assignment]
    text: bool = False  # the answer is text (metrics), not JSON
    timeout: float | None = None  # longer than the client's default (a wait)

"""The value types of the ``omoide`` options and arguments: text kept as typed, numbers read
as JSON writes them, closed sets of words; and the bounded ones the commands share, each bound
the service's own. A value out of bounds is refused as it is read (before the data folder is
opened or the embedder loaded), naming the option typed in click's words for a bad value and
the rule in the words HTTP and MCP say for the field (``Invalid value for '--top-k': must be
at most 100, got 500``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import click

from omoide.config.process import MAX_PORT
from omoide.engine.errors import one_of, quoted
from omoide.errors import InvalidInput
from omoide.model import MemoryKind, SearchMode
from omoide.service.queue import MAX_WAIT_S
from omoide.service.search_request import MAX_TOP_K, check_date_range, check_valid_at
from omoide.service.validate import MAX_INT, MAX_LIST_LIMIT, check_user_id, nfc

__all__ = [
    "DATE_RANGE",
    "KEY_ID",
    "KIND",
    "LIMIT",
    "OFFSET",
    "PORT",
    "SEARCH_MODE",
    "TIMEOUT",
    "TOP_K",
    "UNIT",
    "USER_ID",
    "VALID_AT",
    "VERBATIM",
    "Checked",
    "NumberText",
    "OneOf",
    "Verbatim",
]


class Verbatim(click.types.StringParamType):
    """A string option that is not user text (a folder, a host, a database URL with its
    password): :func:`friendly` passes it on as typed, never in NFC."""

    name = "text"  # what --help shows, as for any string


VERBATIM = Verbatim()


class NumberText(click.ParamType):
    """A number option or argument read as the HTTP query and the settings form read one
    (``engine.number_text``): ``--top-k 1_0`` was ten to ``int()``; it is refused, as are
    ``+5``, ``.5``, ``inf``, ``nan`` and other scripts' digits, with one message; full-width
    digits are read as ASCII. ``minimum``/``maximum`` bound it, when given (the service's own
    bounds, checked here so that the refusal names the option typed, in click's words for a bad
    value): one out of bounds is refused in the words HTTP and MCP say for the field ("must be
    at most 1, got 2"; ``hint`` is what parentheses after the bound say), one out of JSON's
    exact range naming both bounds ("must be an integer from 1 to 9,007,199,254,740,991 …")."""

    def __init__(
        self,
        kind: type,
        minimum: float | None = None,
        maximum: float | None = None,
        *,
        hint: str = "",
    ) -> None:
        self.kind = kind
        self.name = "integer" if kind is int else "float"  # what --help shows
        self.minimum, self.maximum = minimum, maximum
        self.hint = f" ({hint})" if hint else ""

    def _bounds(self) -> str:
        """ "an integer from 1 to 9,007,199,254,740,991", "a number of at least 0" …"""
        what = "an integer" if self.kind is int else "a number"
        if self.minimum is not None and self.maximum is not None:
            span = f"from {self.minimum:,} to {self.maximum:,}"
        elif self.minimum is not None:
            span = f"of at least {self.minimum:,}"
        else:
            span = f"of at most {self.maximum:,}"
        return f"{what} {span}{self.hint}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from omoide.engine.json_text import JsonTextError
        from omoide.engine.number_text import REFUSED, read_integer, read_number

        bounded = self.minimum is not None or self.maximum is not None
        typed = str(value).strip()  # said as typed, unquoted: HTTP's query says "got 0"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number: int | float = value  # a default
        else:
            try:
                number = (
                    read_integer(str(value)) if self.kind is int else float(read_number(str(value)))
                )
            except REFUSED as exc:
                if bounded and isinstance(exc, JsonTextError):  # a number, far out of bounds
                    self.fail(f"must be {self._bounds()}, got {typed}", param, ctx)
                self.fail(exc.message, param, ctx)
        if self.minimum is not None and number < self.minimum:
            rule = f"at least {_bound(self.minimum)}"
        elif self.maximum is not None and number > self.maximum:
            rule = f"at most {_bound(self.maximum)}"
        else:
            return number
        self.fail(f"must be {rule}{self.hint}, got {typed}", param, ctx)


def _bound(limit: float) -> str:
    """A bound as HTTP's refusal writes it: ``3600``, not ``3600.0``."""
    return str(int(limit)) if float(limit).is_integer() else str(limit)


class OneOf(click.Choice[str]):
    """A closed set of words (``--mode``, ``--kind``, ``--from``), a value outside it refused in
    the words HTTP and MCP say for the field ("must be one of 'hybrid', 'semantic' or
    'keyword', got "fuzzy""), not click's ("'fuzzy' is not one of …")."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"must be one of {one_of(self.choices)}, got {quoted(value)}", param, ctx)


class Checked(click.ParamType):
    """A text option the service checks with ``check`` under its field's name (``--valid-at``:
    ``valid_at``), refused as it is read, naming the option typed in click's words for a bad
    value and the rule in the service's words without the field's name ("Invalid value for
    '--valid-at': is not a valid ISO-8601 date or timestamp: "soon" …"), as every other option
    is; it was refused once the folder was open, as ``valid_at is not …``. The value is passed
    on as typed (``friendly`` reads it in NFC, as the check does); the service checks it
    again with the persona's clock and zone."""

    name = "text"  # what --help shows, as for any string

    def __init__(self, check: Callable[[str], object], field: str) -> None:
        self.check, self.field = check, field

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            self.check(nfc(str(value)))
        except InvalidInput as exc:
            self.fail(exc.message.removeprefix(f"{self.field} "), param, ctx)
        return value


def _now() -> datetime:
    return datetime.now(UTC)


LIMIT = NumberText(int, 1, MAX_LIST_LIMIT)  # a list's page (``--limit``, ``--offset``)
OFFSET = NumberText(int, 0, MAX_INT)
TOP_K = NumberText(int, 1, MAX_TOP_K)
UNIT = NumberText(float, 0, 1)  # importance, emotion intensity
TIMEOUT = NumberText(float, 0, MAX_WAIT_S)  # ``jobs wait``, in seconds
PORT = NumberText(int, 0, MAX_PORT)
KEY_ID = NumberText(int, 1, MAX_INT, hint="an id that `omoide persona key list` shows")
SEARCH_MODE = OneOf([mode.value for mode in SearchMode])
KIND = OneOf([kind.value for kind in MemoryKind])
# Read at the time they are typed and in UTC: only whether they can be read is checked here;
# the search reads them again at its clock in the persona's zone.
DATE_RANGE = Checked(lambda v: check_date_range(v, now=_now(), zone=UTC), "date_range")
VALID_AT = Checked(lambda v: check_valid_at(v, now=_now()), "valid_at")
USER_ID = Checked(check_user_id, "user_id")

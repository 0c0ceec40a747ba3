"""Times a caller gives: timestamps (with their UTC offset), things that happened (not far in
the future) and validity windows."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from omoide.engine.errors import quoted, too_long
from omoide.engine.width import half_width
from omoide.errors import InvalidInput
from omoide.service.validate.patterns import (
    MAX_AHEAD,
    MAX_TIMESTAMP_CHARS,
    MAX_YEAR,
    MIN_YEAR,
    TIMESTAMP_PATTERN,
    matches,
)


def check_timestamp(value: Any, name: str) -> datetime | None:
    """An ISO-8601 date, or a date and time with its UTC offset (``Z`` or ``±HH:MM``), an aware
    datetime, or None; the one place that reads a caller's time (HTTP bodies and queries, MCP
    arguments, import records, through the services). A time of day without an offset is
    refused: the server cannot know the clock it was read from (reading it as UTC put a
    Tokyo client's 09:00 at 18:00 local). A date alone is that day at 00:00 UTC. Bounds: years
    1900–9999 once normalised to UTC; at most :data:`MAX_TIMESTAMP_CHARS` characters of text."""
    if value is None:
        return None
    if isinstance(value, str) and len(value) > MAX_TIMESTAMP_CHARS:
        raise InvalidInput(too_long(name, MAX_TIMESTAMP_CHARS, value), field=name)
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidInput(_no_offset(name, value.isoformat()), field=name)
        when = value
    elif isinstance(value, str) and matches(TIMESTAMP_PATTERN, _folded(value)):
        text = _folded(value).strip()
        leap = _LEAP.search(text)
        if leap:  # read as second 59, then checked and moved to its last microsecond below
            text = text[: leap.start(1)] + "59" + text[leap.end() :]
        try:
            # RFC 3339 allows a lower-case t and z, as the date ranges read them
            when = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1] in "Zz" else text)
        except ValueError:
            raise InvalidInput(
                f"{name} is not a valid ISO-8601 date or timestamp: {quoted(value)} "
                "(no such day or time)",
                field=name,
            ) from None
        if leap:
            when = _leap_second(when, value, name)
        if when.tzinfo is None:
            if len(text) > len("YYYY-MM-DD"):  # a time of day was given
                raise InvalidInput(_no_offset(name, text), field=name)
            when = when.replace(tzinfo=UTC)
    else:
        raise InvalidInput(
            f"{name} is not a valid ISO-8601 date or timestamp: {quoted(value)} "
            + (_PLUS_AS_SPACE if _plus_read_as_space(value) else _EXAMPLE),
            field=name,
        )
    try:
        utc = when.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not MIN_YEAR <= utc.year <= MAX_YEAR:
        raise InvalidInput(
            f"{name} must fall in the years {MIN_YEAR}-{MAX_YEAR} (UTC), got {quoted(value)}",
            field=name,
        )
    return utc


_EXAMPLE = "(e.g. 2026-03-01 or 2026-03-01T09:30:00+09:00)"
_PLUS_AS_SPACE = (
    "(its UTC offset's '+' arrived as a space: in a URL's query string a '+' means a space, "
    "so send it percent-encoded, as %2B, e.g. valid_at=2026-03-01T09:30:00%2B09:00)"
)


def _plus_read_as_space(value: Any) -> bool:
    """Whether ``value`` is a timestamp whose offset's ``+`` became a space, as a ``+`` sent
    unencoded in a query string (``?valid_at=2026-03-01T09:30:00+09:00``) is read: the
    message says so, where a client reading only "not a valid timestamp" would look at the
    value it sent, which was right."""
    if not isinstance(value, str):
        return False
    head, space, offset = _folded(value).strip().rpartition(" ")
    return bool(space) and matches(TIMESTAMP_PATTERN, f"{head}+{offset}")


def _folded(value: str) -> str:
    """``value`` with full-width digits, letters and signs read as ASCII (``half_width``, the
    one fold of a typed value, as numbers and switches are read): ``２０２６－０３－０１``
    typed with a Japanese input method is 2026-03-01 in every date the API reads (``valid_at``,
    ``valid_from``, ``at``, a turn's ``timestamp`` …). Other compatibility forms NFKC would also
    fold (superscript ``²``, circled ``①``) are no date a user types, and stay refused."""
    return half_width(value)


# Second 60 (with its fraction) of a time of day: RFC 3339's leap second.
_LEAP = re.compile(r"[Tt ][0-9]{2}:[0-9]{2}:(60)(?:[.][0-9]{1,6})?")


def _leap_second(when: datetime, value: str, name: str) -> datetime:
    """A time read with its second 60 as 59: a leap second is inserted at 23:59:60 UTC (in
    any offset's local time) and a datetime cannot hold it, so it is kept as 23:59:59.999999
    UTC, after every time of the second before it and before the next day (a turn of that
    second keeps its place in the conversation). Another second 60 names no instant."""
    if when.tzinfo is None or when.utcoffset() is None:
        return when  # refused below for its missing offset
    utc = when.astimezone(UTC)
    if (utc.hour, utc.minute, utc.second) != (23, 59, 59):
        raise InvalidInput(
            f"{name} {quoted(value)} has second 60, which only a leap second "
            "has, at 23:59:60 UTC (in the offset's local time); give a time whose "
            "seconds are 00-59",
            field=name,
        )
    return when.replace(microsecond=999999)


def _no_offset(name: str, text: str) -> str:
    return (
        f"{name} {quoted(text)} has no UTC offset, so the instant it names is unknown; add Z "
        f"for UTC or the offset of the clock it was read from, e.g. '{text}Z' or "
        f"'{text}+09:00' (a date alone, such as '{text[:10]}', is that day at 00:00 UTC)"
    )


def check_happened(value: Any, name: str, now: datetime) -> datetime | None:
    """The time something happened (a turn said, a session started, a row written): a
    timestamp as :func:`check_timestamp` reads it, at most :data:`MAX_AHEAD` after ``now``
    (the server's clock). A time far ahead would keep a session from ever going idle and
    order the conversation wrongly; past dates are fine."""
    when = check_timestamp(value, name)
    if when is not None and when > now + MAX_AHEAD:
        hours = int(MAX_AHEAD.total_seconds() // 3600)
        shown = quoted(value if isinstance(value, str) else when.isoformat())
        raise InvalidInput(
            f"{name} {shown} "
            f"is more than {hours} hours after the server's clock "
            f"({now.isoformat(timespec='seconds')}); give the time it happened "
            "(past dates are fine)",
            field=name,
        )
    return when


def check_window_fits(valid_from: datetime | None, valid_until: datetime | None) -> bool:
    """Whether a validity window is well formed: ``valid_until`` after ``valid_from``."""
    return valid_from is None or valid_until is None or valid_until > valid_from


def check_window(valid_from: datetime | None, valid_until: datetime | None) -> None:
    if not check_window_fits(valid_from, valid_until):
        raise InvalidInput("valid_until must be after valid_from", field="valid_until")

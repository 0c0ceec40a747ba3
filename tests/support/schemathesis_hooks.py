"""Schemathesis hooks for Omoide's OpenAPI document (loaded with ``SCHEMATHESIS_HOOKS``).

JSON Schema cannot say everything the server checks, so the generator is taught the rest here,
each rule as the server states it:

- ``format: timestamp`` (ISO-8601 with years 1900-9999 once in UTC, a real calendar day) and
  ``format: date-range`` (the natural-language forms of ``engine/dates.py``) get strategies that
  draw only values of that format;
- cross-field rules of request bodies, on positive cases only: ``valid_until`` after
  ``valid_from``, a block's ``content`` within its ``max_tokens`` (the server's estimate), and
  a settings body's pairs: ``chat_memory_budget_tokens`` not above the ``chat_budget_tokens``
  it sends, ``keyword_weight`` and ``semantic_weight`` not both 0 (a body setting both so is
  a 422; one that meets the persona's stored value or the server default is a 409, which a
  schema-valid request may get);
- rules on every string of a positive case (docs/api.md "Values"): no NUL (U+0000) in a key or
  value, text that is not whitespace holds a character that shows (not only invisible format
  characters), the time a turn was said or a session started at most 24 hours ahead, and a
  new session's id not '.' or '..'.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import schemathesis
from hypothesis import strategies as st

from omoide.engine.tokens import estimate_tokens
from omoide.service.validate import MAX_AHEAD, is_blank

_OFFSETS = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
_INSTANTS = st.datetimes(
    min_value=datetime(1900, 1, 2), max_value=datetime(9999, 12, 30), timezones=_OFFSETS
)


def _timestamp(when: datetime, shape: int) -> str:
    if shape == 0:
        return when.date().isoformat()
    if shape == 1:
        return when.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
    return when.isoformat(timespec="seconds" if shape == 2 else "microseconds")


TIMESTAMPS = st.builds(_timestamp, _INSTANTS, st.integers(min_value=0, max_value=3))
DATE_RANGES = st.one_of(
    st.sampled_from(
        [
            "today",
            "yesterday",
            "day before yesterday",
            "this week",
            "last week",
            "this month",
            "last month",
            "this year",
            "last year",
            "今日",
            "昨日",
            "先週",
            "今月",
            "去年",
        ]
    ),
    st.integers(min_value=1, max_value=50).map(lambda n: f"{n} days ago"),
    st.integers(min_value=1, max_value=50).map(lambda n: f"last {n} days"),
    st.dates(min_value=date(1900, 1, 2), max_value=date(9999, 12, 30)).map(date.isoformat),
)

schemathesis.openapi.format("timestamp", TIMESTAMPS)
schemathesis.openapi.format("date-range", DATE_RANGES)


def _parse(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _clean(value: Any) -> Any:
    """No NUL in keys or strings; a string of only invisible characters (and whitespace) made
    visible; the API's rules that no JSON Schema keyword states."""
    if isinstance(value, str):
        value = value.replace("\x00", "")
        return "x" if value.strip() and is_blank(value) else value
    if isinstance(value, list):
        return [_clean(item) for item in value]
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in value.items()}
    return value


def _happened(value: Any) -> Any:
    """A turn's or a session's time at most a day ahead (``MAX_AHEAD``; past dates are fine)."""
    when = _parse(value)
    if when is not None and when > datetime.now(UTC) + MAX_AHEAD - timedelta(minutes=5):
        return "2026-01-01T00:00:00Z"
    return value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _fit(body: dict[str, Any]) -> dict[str, Any]:
    body = _clean(body)
    if body.get("session_id") in (".", ".."):  # dot segments: no new session is named so
        body["session_id"] = "s" + body["session_id"]
    if "started_at" in body:
        body["started_at"] = _happened(body["started_at"])
    for event in body.get("events") or []:
        if isinstance(event, dict) and "timestamp" in event:
            event["timestamp"] = _happened(event["timestamp"])
    start, end = _parse(body.get("valid_from")), _parse(body.get("valid_until"))
    if start is not None and end is not None and end <= start:
        body = {k: v for k, v in body.items() if k != "valid_until"}
    memory, whole = body.get("chat_memory_budget_tokens"), body.get("chat_budget_tokens")
    if _number(memory) and _number(whole) and memory > whole:
        body = {**body, "chat_memory_budget_tokens": whole}
    weights = (body.get("keyword_weight"), body.get("semantic_weight"))
    if all(_number(w) and w == 0 for w in weights):
        body = {**body, "keyword_weight": 1}
    limit = body.get("max_tokens", 500)
    if (
        "block_name" in body
        and isinstance(body.get("content"), str)
        and isinstance(limit, int | float)
        and not isinstance(limit, bool)
    ):  # 5.0 is an integer
        tokens = estimate_tokens(body["content"])
        if tokens > limit:
            body = {**body, "max_tokens": max(tokens, 1)}
    return body


@schemathesis.hook
def map_case(ctx: Any, case: Any) -> Any:
    meta = getattr(case, "meta", None)
    positive = meta is None or meta.generation.mode.is_positive
    if positive and isinstance(case.body, dict):
        case.body = _fit(case.body)
    if positive and isinstance(getattr(case, "query", None), dict):
        case.query = _clean(case.query)
    if positive and isinstance(getattr(case, "path_parameters", None), dict):
        case.path_parameters = _clean(case.path_parameters)
    return case

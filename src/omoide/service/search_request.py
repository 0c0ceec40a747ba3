"""What a search asks and what it answers, and the checks that turn raw parameters (an HTTP
query string, MCP tool arguments) into a request: the query, its count and mode, its filters."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from omoide.clock import Clock
from omoide.engine.dates import parse_date_range
from omoide.engine.errors import one_of, quoted, too_long
from omoide.errors import InvalidInput
from omoide.model import SearchFilters, SearchHit, SearchMode
from omoide.service.validate import (
    MAX_DATE_RANGE_CHARS,
    MAX_FILTER_TAGS,
    NON_BLANK_RULE,
    check_kind,
    check_non_blank,
    check_tags,
    check_text,
    check_timestamp,
    check_unit_interval,
    engine_input,
    is_blank,
)

__all__ = [
    "MAX_QUERY_CHARS",
    "MAX_TOP_K",
    "SearchRequest",
    "SearchResult",
    "check_date_range",
    "check_filters",
    "check_query",
    "check_valid_at",
]

MAX_QUERY_CHARS = 2000
MAX_TOP_K = 100


@dataclass(frozen=True)
class SearchRequest:
    query: str
    top_k: int = 10
    mode: SearchMode = SearchMode.HYBRID
    filters: SearchFilters = field(default_factory=SearchFilters)
    importance_weight: float | None = None  # None → the persona's setting
    # None → the persona's episode_search_enabled; True → always; False → notes only
    include_episodes: bool | None = None


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: SearchMode
    results: list[SearchHit]


def check_query(query: Any, top_k: Any, mode: Any) -> tuple[str, int, SearchMode]:
    """The query (stripped), how many results and the mode of a search, checked."""
    check_non_blank(query, "q", subject="query")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput(too_long("q", MAX_QUERY_CHARS, query), field="q")
    check_text(query, "q")
    # the words HTTP's and MCP's argument checks say (a bound and the number given)
    if isinstance(top_k, bool) or not isinstance(top_k, int):
        raise InvalidInput(
            f"top_k must be an integer from 1 to {MAX_TOP_K}, got {quoted(top_k)}", field="top_k"
        )
    if top_k < 1:
        raise InvalidInput(f"top_k must be at least 1, got {top_k}", field="top_k")
    if top_k > MAX_TOP_K:
        raise InvalidInput(f"top_k must be at most {MAX_TOP_K}, got {top_k}", field="top_k")
    try:
        search_mode = SearchMode(mode or SearchMode.HYBRID)
    except ValueError:
        raise InvalidInput(
            f"mode must be one of {one_of(SearchMode)}, got {quoted(mode)}", field="mode"
        ) from None
    return query.strip(), top_k, search_mode


def check_filters(
    *,
    tags: Any,
    date_range: Any,
    valid_at: Any,
    min_importance: Any,
    kind: Any,
    clock: Clock,
    zone: tzinfo,
) -> SearchFilters:
    """A search's filters, checked (the same with a query or without one: the dashboard's
    list applies them alone); a natural-language ``date_range`` is read in ``zone``. A blank
    one (spaces or invisible characters only) is refused, on every interface alike: it was no
    filter, as if it had applied."""
    created_from, created_until = check_date_range(date_range, now=clock.now(), zone=zone)
    return SearchFilters(
        tags=check_tags(tags, limit=MAX_FILTER_TAGS),
        created_from=created_from,
        created_until=created_until,
        min_importance=None
        if min_importance is None
        else check_unit_interval(min_importance, "min_importance"),
        kind=None if kind is None else check_kind(kind),
        valid_at=check_valid_at(valid_at, now=clock.now()),
    )


def check_date_range(
    date_range: Any, *, now: datetime, zone: tzinfo
) -> tuple[datetime | None, datetime | None]:
    """A natural-language ``date_range`` read at ``now`` in ``zone``: its start and end, or
    ``(None, None)`` for no filter. A blank one (spaces or invisible characters only) is
    refused, on every interface alike: it was no filter, as if it had applied. The CLI checks
    ``--date-range`` with it as the option is read (``cli_types.DATE_RANGE``)."""
    if date_range is None:
        return None, None
    if is_blank(str(date_range)):
        raise InvalidInput(
            f"date_range {NON_BLANK_RULE}; leave it out for no date filter",
            field="date_range",
        )
    if len(str(date_range)) > MAX_DATE_RANGE_CHARS:
        raise InvalidInput(
            too_long("date_range", MAX_DATE_RANGE_CHARS, str(date_range)),
            field="date_range",
        )
    with engine_input():
        span = parse_date_range(check_text(str(date_range), "date_range"), now=now, tz=zone)
    return span.start, span.end


def check_valid_at(value: Any, *, now: datetime) -> datetime | None:
    """``now`` (the word: ``now`` itself), a timestamp, or None for no filter; an empty one is
    refused, as HTTP and MCP refuse it (it was no filter, as if it had applied: ``omoide
    search --valid-at ''``)."""
    if value is None:
        return None
    if value == "":
        raise InvalidInput('valid_at must not be empty, got ""', field="valid_at")
    if isinstance(value, str) and value.strip().lower() == "now":
        return now
    return check_timestamp(value, "valid_at")

"""A list's page (``limit``, ``offset``), checked for a caller of the services (the CLI's
``memory list`` and ``session list``) in the words the HTTP routes use for the same query
parameters ("limit must be at least 1, got 0"), whose schemas declare the same bounds."""

from __future__ import annotations

from omoide.errors import InvalidInput
from omoide.service.validate.patterns import MAX_INT

MAX_LIST_LIMIT = 1000


def check_page(limit: int, offset: int) -> None:
    """``limit`` 1–1000 and ``offset`` 0 – 2^53 − 1 (docs/api.md, Limits)."""
    for name, value, low, high in (
        ("limit", limit, 1, MAX_LIST_LIMIT),
        ("offset", offset, 0, MAX_INT),
    ):
        if value < low:
            raise InvalidInput(f"{name} must be at least {low}, got {value}", field=name)
        if value > high:
            raise InvalidInput(f"{name} must be at most {high}, got {value}", field=name)

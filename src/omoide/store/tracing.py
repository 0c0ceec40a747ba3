"""Statement tracing shared by both stores' databases (tests count the queries a call runs)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

__all__ = ["Traced", "Tracer"]

Tracer = Callable[[str], None]


class Traced:
    """Gives a database :meth:`trace`; the database says how its ``tracer`` reaches the
    connections (SQLite installs it on each, PostgreSQL's wrappers call it)."""

    tracer: Tracer | None

    @contextlib.contextmanager
    def trace(self) -> Iterator[list[str]]:
        """Collect every statement run while the block executes (PostgreSQL adds BEGIN, COMMIT
        and ROLLBACK for each write transaction)."""
        seen: list[str] = []
        previous = self.tracer
        self.tracer = seen.append
        try:
            yield seen
        finally:
            self.tracer = previous

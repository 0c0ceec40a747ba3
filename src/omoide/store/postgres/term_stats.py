"""The keyword statistics a PostgreSQL search may reuse: a term's document frequency as the
planner's statistics give it, kept until those statistics change.

Past :attr:`PgFtsIndex.estimate_above <omoide.store.postgres.fts.PgFtsIndex>` rows, a common
term's frequency is read from ``pg_stats`` and the index's size is the planner's row estimate
(``reltuples``). Both change only when the table is analysed (or vacuumed), not at each write,
so a search whose every term was common in an earlier search's statistics needs no statistics
statement. The entries are stamped with what they were read with (the table's ``reltuples``
and how many times each index table has been analysed); the candidates statement that follows
returns the current stamp, and on a difference the entries are dropped and the search runs
again with fresh statistics (so a result never mixes two snapshots).
Counted terms (rare by those statistics, counted up to a cap at each search) are never kept:
any write may change them.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Sequence

__all__ = ["TermStats"]

_MAX_ENTRIES = 50_000  # terms kept per database before starting over


class TermStats:
    """Reusable statistics of one database's keyword indexes (thread-safe)."""

    def __init__(self, max_entries: int = _MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._stamp: dict[str, tuple[int, ...]] = {}  # index (its trigram table) → stamp
        self._dfs: dict[tuple[str, Hashable], int] = {}

    def lookup(
        self, index: str, terms: Sequence[Hashable]
    ) -> tuple[tuple[int, ...], list[int]] | None:
        """``(stamp, document frequencies)`` when every term is known for ``index``."""
        with self._lock:
            stamp = self._stamp.get(index)
            if stamp is None:
                return None
            dfs = [self._dfs.get((index, term)) for term in terms]
        if any(df is None for df in dfs):
            return None
        return stamp, [int(df) for df in dfs if df is not None]

    def keep(self, index: str, stamp: tuple[int, ...], common: dict[Hashable, int]) -> None:
        """Record the frequencies of the common terms read with the statistics ``stamp``
        (entries of another stamp are dropped first)."""
        with self._lock:
            if self._stamp.get(index) != stamp:
                self._drop(index)
                self._stamp[index] = stamp
            if len(self._dfs) + len(common) > self.max_entries:
                self._dfs.clear()
            self._dfs.update({(index, term): df for term, df in common.items()})

    def forget(self, index: str) -> None:
        """The statistics of ``index`` changed: drop what was kept of them."""
        with self._lock:
            self._drop(index)

    def _drop(self, index: str) -> None:
        self._stamp.pop(index, None)
        for key in [k for k in self._dfs if k[0] == index]:
            del self._dfs[key]

"""One lock per key (a persona name), held only as long as someone holds or waits for it.

A dict of ``threading.Lock`` that never forgets a key grows by one entry per persona ever
written to (and per deleted persona, and per name a caller tried): a long-running server
leaks. Here each entry counts its holder and waiters; the last one out removes it, so the
dict holds only keys in use, and two threads with the same key still run one at a time (the
entry cannot be removed while a waiter counts on it).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["KeyedLocks"]


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0  # the holder and the waiters


class KeyedLocks:
    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self._guard = threading.Lock()

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        """Run the block while holding ``key``'s lock (other keys are not blocked)."""
        with self._guard:
            entry = self._entries.get(key)
            if entry is None:
                entry = self._entries[key] = _Entry()
            entry.users += 1
        try:
            with entry.lock:
                yield
        finally:
            with self._guard:
                entry.users -= 1
                if entry.users == 0:
                    del self._entries[key]

    def __len__(self) -> int:
        """How many keys have a holder or a waiter now."""
        with self._guard:
            return len(self._entries)

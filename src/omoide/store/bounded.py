"""A wait a closing store bounds (both stores): by a deadline, and ended at once when the stop is
told to give up (a server's second Ctrl+C, ``omoide.stopping.Hurry``)."""

from __future__ import annotations

import threading
import time

__all__ = ["GIVE_UP_POLL_S", "acquired"]

GIVE_UP_POLL_S = 0.05  # how soon a wait sees that it is told to give up


def acquired(lock: threading.RLock, deadline: float, give_up: threading.Event | None) -> bool:
    """``lock`` acquired by ``deadline`` (``time.monotonic``), unless ``give_up`` is set first
    (seen within :data:`GIVE_UP_POLL_S`); whether it was."""
    while True:
        left = max(0.0, deadline - time.monotonic())
        if lock.acquire(timeout=left if give_up is None else min(left, GIVE_UP_POLL_S)):
            return True
        if left <= 0 or (give_up is not None and give_up.is_set()):
            return False

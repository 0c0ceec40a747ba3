"""The scrub an erase still owes, retried in the background until it is done (both stores).

An erase commits, then scrubs the freed bytes out of the files (SQLite: a WAL checkpoint;
PostgreSQL: a VACUUM of the tables it touched). A scrub refused after the commit does not undo
the erase nor fail it (issue 8 item 5): the reply says ``scrub_pending`` and the scrub is owed.
:class:`OwedScrub` is the one rule for retrying it: one daemon thread per database, a try every
``every_s`` seconds until one finds nothing owed, stopped with the database, which then tries it
in its own thread (:meth:`OwedScrub.settle`): once as it closes, and for a bounded wait in a
command that erased and is about to end (``cli_common.holding``), since the thread dies with the
process. Each store gives it its own "try the scrub once" function and keeps what is owed where
it belongs (PostgreSQL records it in its database, so a restart retries it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from omoide.stopping import joined

__all__ = ["OwedScrub"]

logger = logging.getLogger(__name__)


class OwedScrub:
    """Retries an owed scrub in one background thread until a try finds nothing owed.

    ``try_once`` tries the whole scrub at once and returns whether nothing is owed any more; it
    must not raise (a refusal is "still owed"). A count of owes, not a flag: the thread compares
    it across a try, so an erase that owes the scrub while a try runs (after that try read what
    was owed) is tried again by the next one rather than forgotten.
    """

    def __init__(
        self, try_once: Callable[[], bool], *, every_s: float, thread_name: str, done: str
    ) -> None:
        self._try_once = try_once
        self._every_s = every_s
        self._thread_name = thread_name
        self._done = done  # logged (INFO) when the owed scrub is done
        self._owes = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def pending(self) -> bool:
        """Whether a scrub is owed (the erase replies' ``scrub_pending``)."""
        with self._lock:
            return self._owes > 0

    def owe(self) -> None:
        """Owe the scrub: retried from now on, by the one thread (started if none runs)."""
        with self._lock:
            self._owes += 1
            if self._thread is None and not self._stopping.is_set():
                self._thread = threading.Thread(
                    target=self._retry, name=self._thread_name, daemon=True
                )
                self._thread.start()

    def stop(
        self, *, deadline: float | None = None, give_up: threading.Event | None = None
    ) -> bool:
        """Stop retrying (the database closes): the thread ends after its current try, which
        is waited for until ``deadline`` (``time.monotonic``; None: however long it takes), and
        no longer once ``give_up`` is set (``omoide.stopping.joined``). What is owed
        stays owed (:attr:`pending`), for the store's last try and its log. True when the
        thread has ended (or none ran)."""
        self._stopping.set()
        with self._lock:
            thread = self._thread
        if thread is None or thread is threading.current_thread():
            return True
        return joined(thread, deadline, give_up)

    def settle(self, wait_s: float, *, give_up: threading.Event | None = None) -> bool:
        """Stop the background retries (the database closes), then try what is owed here, every
        ``every_s`` seconds, until a try finds nothing owed, ``wait_s`` has passed or
        ``give_up`` is set (``omoide serve``'s second Ctrl+C); one try at least, however short
        the wait; whether nothing is owed any more. A process about to end does so: its
        background thread would die with it, the scrub not done."""
        deadline = time.monotonic() + wait_s
        given_up = give_up or threading.Event()
        # the thread's try under way, if any, is waited for within the wait (one retry period
        # at least), so that this one does not run beside it: before, however long it took
        self.stop(deadline=max(deadline, time.monotonic() + self._every_s), give_up=given_up)
        while self.pending:
            if self._try_once():
                with self._lock:
                    self._owes = 0
                logger.info("%s", self._done)
                return True
            left = deadline - time.monotonic()
            if left <= 0 or given_up.wait(min(self._every_s, left)):
                return not self.pending  # (done by the thread's try, still under way)
        return True

    def _retry(self) -> None:
        while not self._stopping.wait(self._every_s):
            with self._lock:
                owes = self._owes
            if not self._try_once():
                continue
            with self._lock:
                if self._owes != owes:  # owed again during the try: the next one covers it
                    continue
                self._owes = 0
                self._thread = None
            logger.info("%s", self._done)
            return

"""A storage outage as the job runner's threads meet it (``omoide.jobs``): the workers poll ever
less often while it lasts (:data:`OUTAGE_FIRST_WAIT_S`, doubling, at most
:data:`OUTAGE_MAX_WAIT_S` apart), and the log says its start and its end once each."""

from __future__ import annotations

import logging
import threading
import time

from omoide.errors import StorageUnavailable

__all__ = ["OUTAGE_FIRST_WAIT_S", "OUTAGE_MAX_WAIT_S", "Outage"]

logger = logging.getLogger("omoide.jobs")  # said as the runner's own lines, as before

OUTAGE_FIRST_WAIT_S = 1.0
OUTAGE_MAX_WAIT_S = 30.0


class Outage:
    """A storage outage as the runner's threads meet it: one WARNING when the first of them
    finds storage unavailable, one INFO when one of them finds it serving again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._since: float | None = None  # time.monotonic() when it began; None: no outage

    def seen(self, exc: StorageUnavailable) -> None:
        with self._lock:
            if self._since is not None:
                logger.debug("storage still unavailable: %s", exc)
                return
            self._since = time.monotonic()
        logger.warning(
            "storage unavailable; background jobs wait until it serves again (polled %g s, "
            "doubling, at most %g s apart): %s",
            OUTAGE_FIRST_WAIT_S,
            OUTAGE_MAX_WAIT_S,
            exc,
        )

    def over(self) -> None:
        if self._since is None:  # the common case, without the lock
            return
        with self._lock:
            if self._since is None:
                return
            lasted = time.monotonic() - self._since
            self._since = None
        logger.info("storage serves again after %.0f s; background jobs resume", lasted)

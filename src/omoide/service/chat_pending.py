"""Chat turns answered but not yet recorded.

The proxy records a turn after its reply has gone out (the reply is not held back by the
write). A client that sends its next request at once could then be routed before the turn it
continues is recorded: :meth:`ChatService.session_for` finds the conversation's session by the
turns recorded, so the request would land in another session (a new one, or an ended one whose
opening words it shares). The route opens a :class:`Pending` once the reply is whole, before
the client can have read it, and closes it when the turn is recorded (or not, whatever
happened); ``session_for`` and a session's end wait for the persona's open ones first
(``SessionService.pending``: every end, HTTP, MCP or CLI, includes such a turn). A turn whose
record never ran (the client left as the reply went out) stops being waited for after
:data:`RECORD_WAIT_S`, so nothing waits longer than that, and is let go at the persona's next.
"""

from __future__ import annotations

import logging
import threading
import time

__all__ = ["RECORD_WAIT_S", "Pending", "PendingRecords"]

logger = logging.getLogger(__name__)

RECORD_WAIT_S = 5.0  # the longest a request waits for the persona's turns being recorded


class Pending:
    """One answered turn of ``persona`` being recorded; :meth:`close` once, on every path."""

    def __init__(self, records: PendingRecords, persona: str) -> None:
        self._records = records
        self.persona = persona
        self.opened = time.monotonic()

    def close(self) -> None:
        self._records.discard(self)


class PendingRecords:
    """The answered turns not yet recorded, per persona (one process's; each server process
    records the turns it answered)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._open: dict[str, list[Pending]] = {}

    def expect(self, persona: str) -> Pending:
        """A turn of ``persona`` answered: its record is waited for until closed. The
        persona's turns no longer waited for (their record never ran) are let go here."""
        pending = Pending(self, persona)
        with self._changed:
            held = self._open.get(persona, [])
            fresh = [p for p in held if pending.opened - p.opened < RECORD_WAIT_S]
            self._open[persona] = [*fresh, pending]
        return pending

    def discard(self, pending: Pending) -> None:
        """``pending`` recorded (or never to be): no longer waited for; twice is once."""
        with self._changed:
            held = self._open.get(pending.persona, [])
            if pending in held:
                held.remove(pending)
            if not held:
                self._open.pop(pending.persona, None)
            self._changed.notify_all()

    def wait(self, persona: str, timeout: float = RECORD_WAIT_S) -> bool:
        """Wait until every turn of ``persona`` answered before this call is recorded (or
        :data:`RECORD_WAIT_S` old); False when ``timeout`` ran out first."""
        asked = time.monotonic()
        deadline = asked + timeout
        with self._changed:
            while True:
                now = time.monotonic()
                live = [
                    p
                    for p in self._open.get(persona, ())
                    if p.opened <= asked and now - p.opened < RECORD_WAIT_S
                ]
                if not live:
                    return True
                if now >= deadline:
                    logger.warning(
                        "chat turns still being recorded after %g s persona=%s count=%d: the "
                        "request is routed without them",
                        timeout,
                        persona,
                        len(live),
                    )
                    return False
                stale_at = min(p.opened for p in live) + RECORD_WAIT_S
                self._changed.wait(min(deadline, stale_at) - now)

"""The transaction a write of the port runs in, as callbacks see it."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol


class UnitOfWork(Protocol):
    """The write transaction a handle method is running. What is done through it commits or
    rolls back with that write (a job exists if and only if the write that caused it did)."""

    def enqueue(
        self,
        *,
        kind: str,
        persona_id: int | None,
        payload: dict[str, Any],
        now: datetime,
        delay_s: float = 0.0,
        max_attempts: int = 5,
    ) -> int: ...

"""Writes that depend on a duplicate check (a create, a merge import's batch): the check made
again when another writer changed the persona's memories meanwhile, and what the check reads of
a memory written earlier in the same batch (:class:`Pending`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

import numpy as np

from omoide.model import valid_between

__all__ = ["DEDUP_ATTEMPTS", "Pending", "write_deduplicated"]

logger = logging.getLogger(__name__)

# Dedup decisions a write (or a merge import's batch) makes before it inserts without checking
# the revision: every retry means another write of the persona committed meanwhile, so only a
# persona written to without pause from other processes gets there; saving a possible duplicate
# then beats losing a write.
DEDUP_ATTEMPTS = 8

Decision = TypeVar("Decision")
Written = TypeVar("Written")


@dataclass(frozen=True)
class Pending:
    """A memory written in the same transaction before the one being checked for duplicates
    (a merge import's batch): what the duplicate check reads of a stored one."""

    key: str
    content: str
    vector: np.ndarray
    superseded_by: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None

    def valid_at(self, when: datetime) -> bool:
        return valid_between(self.valid_from, self.valid_until, when)


def write_deduplicated(
    revision: Callable[[], int],
    decide: Callable[[], Decision],
    write: Callable[[Decision, int | None], Written | None],
    *,
    what: str,
) -> Written:
    """A write that depends on a duplicate check, kept apart from other writers' (one way
    for a create and a merge import's batch).

    ``decide`` reads the persona's memories (which are duplicates); ``write`` applies the
    decision, only while the persona's memory revision is still the one read before
    ``decide`` (checked inside its transaction, under the store's per-persona lock) and
    returns None, having written nothing, when it moved: another process, or a background
    write, may have stored the same memory meanwhile, so the check is made again. The last of
    :data:`DEDUP_ATTEMPTS` writes is made without the check (None as the revision)."""
    for attempt in range(1, DEDUP_ATTEMPTS + 1):
        seen = revision() if attempt < DEDUP_ATTEMPTS else None
        written = write(decide(), seen)
        if written is not None:
            return written
        logger.debug(
            "%s: its memories changed during the duplicate check (attempt %d); checking again",
            what,
            attempt,
        )
    raise AssertionError("the last write is made without the revision check")

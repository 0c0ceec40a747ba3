"""Forgetting on the user's word: a whole conversation, or a whole persona (DESIGN §2).

Everything else in Omoide keeps history; these use cases erase, so that the text is nowhere in
the data folder afterwards (see ``store/sqlite/erase.py`` for how). Purging one memory is
:meth:`MemoryService.purge`.
"""

from __future__ import annotations

import logging

from omoide.clock import Clock
from omoide.engine.counts import how_many
from omoide.errors import InvalidInput
from omoide.model import Erased, check_persona_name
from omoide.store.port import Store

__all__ = ["ForgetService"]

logger = logging.getLogger(__name__)


class ForgetService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def delete_session(self, persona: str, session_id: str, *, with_notes: bool = False) -> Erased:
        """Erase a conversation: its events (with their FTS rows and vectors), its episodes
        and the session; with ``with_notes`` also every note consolidated from it, purged like
        :meth:`MemoryService.purge`. Notes that are kept lose their provenance to the erased
        turns. NotFound for an unknown persona or session."""
        if not isinstance(session_id, str) or not 1 <= len(session_id) <= 128:
            raise InvalidInput(
                "session_id must be a string of 1-128 characters", field="session_id"
            )
        erased = self.store.erase_session(
            persona, session_id, with_notes=with_notes, now=self.clock.now()
        )
        logger.info(
            "session_delete persona=%s session=%s: %s, %s, %s erased",
            persona,
            session_id,
            how_many(erased.events, "event"),
            how_many(erased.episodes, "episode"),
            how_many(erased.memories, "note"),
        )
        return erased

    def delete_persona(self, name: str) -> Erased:
        """Erase a persona and every row keyed by it; its API keys stop working at once.
        NotFound for an unknown persona."""
        erased = self.store.delete_persona(check_persona_name(name))
        logger.info(
            "persona_delete %s: %s, %s erased, %s discarded",
            name,
            how_many(erased.memories, "memory"),
            how_many(erased.sessions, "session"),
            how_many(erased.jobs, "queued or running job"),
        )
        return erased

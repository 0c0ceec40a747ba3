"""A chat file imported again into a session an older server wrote: which of its turns are there.

A server before session 44 stored a chat message's blank id (spaces, invisible characters) as
its turn's ``external_id``; an import now reads such an id as none and names the turn by the
message's place, so the stored turn is found by its role and text instead (:func:`held_unnamed`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from omoide.engine.peer_chats import ChatTurn
from omoide.model import Session
from omoide.service.event_input import MAX_EVENT_CHARS
from omoide.service.transfer.records import kept_external_id
from omoide.service.validate import MAX_EXTERNAL_ID_CHARS
from omoide.store.port import Store

__all__ = ["held_unnamed"]


def held_unnamed(
    store: Store, persona: str, session: Session, turns: Sequence[ChatTurn]
) -> set[int]:
    """The places of the turns without a message id of their own that the session already
    holds under a blank id: a server before session 44 stored a message's blank id as the
    turn's, which an import now reads as no id (as an Omoide export's,
    ``transfer.records.kept_external_id``) and names by the message's place, so a re-import
    of the same file found no turn under that name and added it again. Such a turn is the
    stored one of its role and text, each stored turn matched once, in order."""
    if not any(t.unnamed for t in turns):
        return set()
    stored = store.sessions(persona).events_after(session, 0)
    ids = {e.external_id for e in stored}
    blank = Counter(
        (e.role, e.content)
        for e in stored
        if e.external_id is not None and kept_external_id(e.external_id) is None
    )
    held: set[int] = set()
    for i, turn in enumerate(turns):
        said = (turn.role, turn.content[:MAX_EVENT_CHARS].strip())
        if turn.unnamed and turn.external_id[:MAX_EXTERNAL_ID_CHARS] not in ids and blank[said]:
            blank[said] -= 1
            held.add(i)
    return held

"""The steps of a conversation's and a persona's erasure that are the same statements in both
adapters (``store/sqlite/erase.py``, ``store/postgres/erase.py``): finding the session and
what it holds, closing it once its events and episodes are gone, counting what a persona holds
before its erasure, and dropping its last rows. The purge rules they share are
``erase_rules.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from omoide.engine.errors import named
from omoide.errors import NotFound
from omoide.model import PERIODIC_KINDS, Erased
from omoide.store.sqlite.erase_rules import select_ids
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.state import erase_session_state

__all__ = [
    "COUNT_OPEN_JOBS",
    "DeleteJobs",
    "PersonaCensus",
    "close_session",
    "drop_persona_rows",
    "persona_census",
    "session_erased",
    "session_pk",
    "session_tier",
]

# The persona's background work that an erasure drops: queued or running, not the scheduled
# decay every persona has.
COUNT_OPEN_JOBS = (
    "SELECT COUNT(*) FROM jobs WHERE persona_id = ? AND status IN "
    f"('pending', 'running') AND kind NOT IN "
    f"({', '.join(repr(k) for k in PERIODIC_KINDS)})"
)

# An adapter's deletion of the jobs whose payload names one of ``values`` under ``field``:
# (conn, persona_id, field, values).
DeleteJobs = Callable[[Any, int, str, Sequence[int | str]], None]


def session_pk(conn: Any, memories: MemoryStore, session_id: str) -> int:
    """The row id of ``memories``' persona's session ``session_id``; NotFound if it has none."""
    row = conn.execute(
        "SELECT id FROM sessions WHERE persona_id = ? AND session_id = ?",
        (memories.persona_id, session_id),
    ).fetchone()
    if row is None:
        raise NotFound(
            f"no session {named(session_id)} for persona {named(memories.persona)}",
            persona=memories.persona,
            session_id=session_id,
        )
    return int(row[0])


def session_tier(conn: Any, session_pk: int) -> tuple[list[int], list[int]]:
    """The ids of one session's events and of its episodes."""
    events = select_ids(conn, "SELECT id FROM session_events WHERE session_pk = ?", session_pk)
    episodes = select_ids(conn, "SELECT id FROM episodes WHERE session_pk = ?", session_pk)
    return events, episodes


def close_session(
    conn: Any,
    memories: MemoryStore,
    session_id: str,
    session_pk: int,
    episodes: Sequence[int],
    delete_jobs: DeleteJobs,
) -> None:
    """The last steps of a conversation's erasure, once its events and episodes are gone: the
    user state learned from it, the session row, the jobs naming it or its episodes, and a new
    event revision for the persona."""
    persona_id = memories.persona_id
    erase_session_state(conn, memories.persona, session_id)
    conn.execute("DELETE FROM sessions WHERE id = ?", (session_pk,))
    delete_jobs(conn, persona_id, "session_id", [session_id])
    delete_jobs(conn, persona_id, "episode_id", episodes)
    conn.execute(
        "UPDATE personas SET event_revision = event_revision + 1 WHERE id = ?", (persona_id,)
    )


def session_erased(purged: Sequence[str], events: Sequence[int], episodes: Sequence[int]) -> Erased:
    """What erasing one conversation (and the notes ``purged`` with it) removed."""
    return Erased(
        memories=len(purged),
        keys=tuple(purged),
        sessions=1,
        events=len(events),
        episodes=len(episodes),
    )


@dataclass(frozen=True)
class PersonaCensus:
    """What a persona holds, counted before its erasure."""

    memory_ids: list[int]
    events: list[int]
    episodes: list[int]
    sessions: int
    jobs: int

    def erased(self) -> Erased:
        return Erased(
            memories=len(self.memory_ids),
            sessions=self.sessions,
            events=len(self.events),
            episodes=len(self.episodes),
            jobs=self.jobs,
        )


def persona_census(conn: Any, persona_id: int) -> PersonaCensus:
    """The persona's memory, event and episode ids, its session count and open jobs."""
    memory_ids = select_ids(conn, "SELECT id FROM memories WHERE persona_id = ?", persona_id)
    events = select_ids(conn, "SELECT id FROM session_events WHERE persona_id = ?", persona_id)
    episodes = select_ids(conn, "SELECT id FROM episodes WHERE persona_id = ?", persona_id)
    sessions = conn.execute(
        "SELECT COUNT(*) FROM sessions WHERE persona_id = ?", (persona_id,)
    ).fetchone()[0]
    jobs = conn.execute(COUNT_OPEN_JOBS, (persona_id,)).fetchone()[0]
    return PersonaCensus(memory_ids, events, episodes, int(sessions), int(jobs))


def drop_persona_rows(
    conn: Any, persona_id: int, name: str, tables: Sequence[tuple[str, str]]
) -> None:
    """The last steps of a persona's erasure, once its memories' children and its events are
    gone: its sessions and memories, every other row of ``tables`` ((table, column) keyed by
    the persona's id or name), and the persona itself."""
    for table in ("sessions", "memories"):
        conn.execute(f"DELETE FROM {table} WHERE persona_id = ?", (persona_id,))
    for table, column in tables:
        conn.execute(
            f"DELETE FROM {table} WHERE {column} = ?",
            (persona_id if column == "persona_id" else name,),
        )
    conn.execute("DELETE FROM personas WHERE id = ?", (persona_id,))

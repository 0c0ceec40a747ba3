"""The rules of the user's "forget" that hold in standard SQL, run by both adapters.

``store/sqlite/erase.py`` and ``store/postgres/erase.py`` erase the same things with the same
effects; they differ only in how a set of ids reaches the SQL (chunked ``IN`` lists against
``= ANY(?)`` arrays), in how job payloads are read, in how the keyword index is cleaned and in
how the tables keyed by a persona are found. What does not depend on that lives here once: the
closure of a purge over its remainders (:func:`with_remainders`), the sessions it was said in
(:func:`said_in`) and the taking back of its evolution (:func:`take_back_evolution`); the steps
of a conversation's and a persona's erasure that are the same statements in both are
``erase_steps.py``'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from omoide.model import Erased, VersionChange
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.memory_sql import SELECT_MEMORY
from omoide.store.sqlite.rows import memory_from_row

__all__ = [
    "CHANGED_BY",
    "MEMORY_CHILDREN",
    "TAUGHT_SOURCES",
    "PurgeFound",
    "chunks",
    "clear_pointer",
    "purge_by_key",
    "run_in",
    "said_in",
    "select_ids",
    "take_back_evolution",
    "with_remainders",
]

_CHUNK = 500
CHANGED_BY = "forget"
# The ``source`` of notes a conversation teaches (consolidated, or split off one by evolution).
TAUGHT_SOURCES = "('consolidation', 'evolution')"

# Children of ``memories`` (deleted before the memories themselves; foreign keys are on).
MEMORY_CHILDREN = (
    "memory_versions",
    "memory_strength",
    "memory_vectors",
    "memory_tags",
    "memory_sources",
)


def chunks(values: Sequence[int | str]) -> Iterable[Sequence[int | str]]:
    """``values`` in slices small enough for one ``IN (…)`` list."""
    for start in range(0, len(values), _CHUNK):
        yield values[start : start + _CHUNK]


def run_in(conn: Any, sql: str, values: Sequence[int | str], *params: object) -> None:
    """Run ``sql`` (with ``{marks}`` for an IN list, after ``params``) over ``values`` in
    chunks."""
    for chunk in chunks(values):
        conn.execute(sql.format(marks=",".join("?" * len(chunk))), (*params, *chunk))


def select_ids(conn: Any, sql: str, *params: object) -> list[int]:
    """The first column of ``sql``'s rows, as ints."""
    return [int(r[0]) for r in conn.execute(sql, params)]


def clear_pointer(
    conn: Any,
    memories: MemoryStore,
    column: str,
    pointing: Sequence[int],
    doomed: set[int],
    *,
    now: datetime,
) -> None:
    """Clear ``column`` (``superseded_by`` or ``summary_ref``) of each memory of ``pointing``
    that survives the purge of ``doomed``, with a version row (its before-image holds the
    erased memory's key, never its text)."""
    for other in pointing:
        if other not in doomed:
            memories.versioned_update(
                conn,
                other,
                {column: None},
                now=now,
                change=VersionChange.UPDATE,
                changed_by=CHANGED_BY,
            )


def with_remainders(conn: Any, persona_id: int, ids: Sequence[int]) -> dict[int, str]:
    """The memories ``ids`` of the persona and, transitively, every memory evolution split off
    from one of them as the unchanged part of a closed compound (``source`` "evolution",
    ``source_ref`` the closed memory's key): a remainder holds part of its source's text.
    Returns each found memory's key by id, in id order (ids the persona does not hold are left
    out)."""

    def keys_where(column: str, values: Sequence[int | str]) -> dict[int, str]:
        rows: dict[int, str] = {}
        for chunk in chunks(values):
            rows.update(
                (int(r[0]), str(r[1]))
                for r in conn.execute(
                    f"SELECT id, key FROM memories WHERE persona_id = ? AND {column} IN "
                    f"({','.join('?' * len(chunk))})",
                    (persona_id, *chunk),
                )
            )
        return rows

    found = keys_where("id", sorted(set(ids)))
    fresh = found
    while fresh:
        fresh = {
            i: k
            for i, k in keys_where(
                "source = 'evolution' AND source_ref", sorted(fresh.values())
            ).items()
            if i not in found
        }
        found.update(fresh)
    return dict(sorted(found.items()))


def said_in(conn: Any, persona_id: int, ids: Sequence[int]) -> tuple[str, ...]:
    """The sessions (by id, sorted) whose turns the memories ``ids`` were drawn from, by
    provenance: their source events, and the episode a consolidation note was built from.
    A purge reports them: the words it erased may still be said there."""
    found: set[str] = set()
    for chunk in chunks(sorted(set(ids))):
        marks = ",".join("?" * len(chunk))
        found.update(
            str(r[0])
            for r in conn.execute(
                "SELECT DISTINCT ss.session_id FROM memory_sources s JOIN session_events e ON "
                "e.id = s.event_id JOIN sessions ss ON ss.id = e.session_pk WHERE ss.persona_id = "
                f"? AND s.memory_id IN ({marks})",
                (persona_id, *chunk),
            )
        )
        episodes = [
            int(r[0])
            for r in conn.execute(
                "SELECT source_ref FROM memories WHERE persona_id = ? AND source = "
                f"'consolidation' AND id IN ({marks})",
                (persona_id, *chunk),
            )
            if r[0] is not None and str(r[0]).isdigit()
        ]
        for part in chunks(episodes):
            found.update(
                str(r[0])
                for r in conn.execute(
                    "SELECT DISTINCT ss.session_id FROM episodes ep JOIN sessions ss ON ss.id = "
                    "ep.session_pk WHERE ss.persona_id = ? AND ep.id IN "
                    f"({','.join('?' * len(part))})",
                    (persona_id, *part),
                )
            )
    return tuple(sorted(found))


def take_back_evolution(
    conn: Any, memories: MemoryStore, keys: Sequence[str], doomed: set[int], *, now: datetime
) -> list[int]:
    """Undo what the memories ``keys`` (being purged) contributed to others by their evolution:
    the tags an EXTEND merged into an older memory, and the importance it raised. Returns the
    ids of the memories changed.

    The extend's version rows (they name their cause) are deleted, and the taken-back tags are
    scrubbed from every other image of that memory's history, so the purged memory's tags are
    nowhere afterwards. A tag stays when another change of the memory also added it (its own
    creation, a user's edit, another memory's extend). Importance goes back to its value before
    the extend only if that extend was the memory's last importance change. A supersede is not
    undone (the docstring of ``store/sqlite/erase.py`` says why).
    """
    rows: list[Any] = []
    for chunk in chunks(list(keys)):
        rows += conn.execute(
            "SELECT v.id, v.memory_id FROM memory_versions v JOIN memories m ON m.id = "
            "v.memory_id WHERE m.persona_id = ? AND v.change = ? AND v.cause IN "
            f"({','.join('?' * len(chunk))})",
            (memories.persona_id, VersionChange.EXTEND, *chunk),
        ).fetchall()
    caused: dict[int, set[int]] = {}
    for version_id, memory_id in rows:
        if int(memory_id) not in doomed:
            caused.setdefault(int(memory_id), set()).add(int(version_id))
    for memory_id, undone in caused.items():
        history = [
            (int(r[0]), json.loads(r[1]) if r[1] else None, json.loads(r[2] or "{}"))
            for r in conn.execute(
                "SELECT id, before, after FROM memory_versions "
                "WHERE memory_id = ? ORDER BY version",
                (memory_id,),
            )
        ]
        added: dict[bool, set[str]] = {True: set(), False: set()}
        for vid, before, after in history:
            added[vid in undone] |= set(after.get("tags", [])) - set((before or {}).get("tags", []))
        drop = added[True] - added[False]
        memory = memory_from_row(
            conn.execute(SELECT_MEMORY + " WHERE m.id = ?", (memory_id,)).fetchone(),
            memories.persona,
        )
        changes: dict[str, Any] = {}
        if drop:
            changes["tags"] = tuple(t for t in memory.tags if t not in drop)
        raised = [
            (vid, before, after)
            for vid, before, after in history
            if before is not None and before.get("importance") != after.get("importance")
        ]
        if (
            raised
            and raised[-1][0] in undone
            and memory.importance == raised[-1][2].get("importance")
        ):
            changes["importance"] = raised[-1][1]["importance"]
        if changes:
            memories.versioned_update(
                conn,
                memory_id,
                changes,
                now=now,
                change=VersionChange.UPDATE,
                changed_by=CHANGED_BY,
            )
        run_in(conn, "DELETE FROM memory_versions WHERE id IN ({marks})", sorted(undone))
        if drop:
            _scrub_tags(conn, memory_id, drop)
    return sorted(caused)


def _scrub_tags(conn: Any, memory_id: int, drop: set[str]) -> None:
    """Remove ``drop`` from the tags of every before/after image of one memory's history."""
    for vid, before, after in conn.execute(
        "SELECT id, before, after FROM memory_versions WHERE memory_id = ?", (memory_id,)
    ).fetchall():
        images = []
        for image in (before, after):
            if image is None:
                images.append(None)
                continue
            values = json.loads(image)
            values["tags"] = [t for t in values.get("tags", []) if t not in drop]
            images.append(json.dumps(values, ensure_ascii=False))
        if images != [before, after]:
            conn.execute(
                "UPDATE memory_versions SET before = ?, after = ? WHERE id = ?", (*images, vid)
            )


# An adapter's purge of memories already closed over their remainders (id → key); the keys.
PurgeFound = Callable[..., list[str]]


def purge_by_key(
    conn: Any, memories: MemoryStore, key: str, purge_found: PurgeFound, *, now: datetime
) -> Erased:
    """Erase one memory by key (active or tombstoned) and its remainders, inside an erasing
    transaction, reporting the sessions it was said in; NotFound for an unknown key."""
    found = with_remainders(conn, memories.persona_id, [memories.id_of(key)])
    sessions = said_in(conn, memories.persona_id, list(found))
    keys = purge_found(conn, memories, found, now=now)
    return Erased(memories=len(keys), keys=tuple(keys), said_in=sessions)

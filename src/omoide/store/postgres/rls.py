"""The persona wall in PostgreSQL: row-level security as a second wall behind the persona id
every query carries.

Every transaction and every autocommit read states whose rows it may see, in the setting
``omoide.persona``:

- a persona's id — what the per-persona handles (``PersonaDb``) bind: a statement sees and
  writes only that persona's rows, even one that forgot its ``WHERE persona_id = ?``;
- :data:`CROSS_PERSONA` (``*``) — the explicit bypass, held only by the components whose work
  is across personas by nature: the store's root (persona listing, counts, persona delete, bulk
  decay), API-key lookup (a key is checked before its persona is known), the job queue (claims,
  leases, the scheduler's sweeps), the admin overview, re-embedding, migrations and
  ``omoide migrate``;
- nothing (:data:`NO_PERSONA`) — what a connection that bound neither sees: no row of a walled
  table (the wall fails closed).

The policies (migration 15, :data:`PERSONA_WALLS`) cover every table holding a persona's rows:
those with a persona column, and their children through their parent row (a vector, version,
strength, tag, link or source row is visible when its memory is; a turn's vector when its turn
is; an episode's vector when its episode is). ``FORCE ROW LEVEL SECURITY`` applies them to the
tables' owner, the role Omoide connects as. A superuser or a ``BYPASSRLS`` role is never
subject to row-level security: connect as an ordinary role that owns the tables
(docs/deploy.md).

Not walled: the keyword index tables (``*_fts``, ``*_fts_tri``, derived from the rows above),
whose document frequencies keyword search reads over the whole table, as SQLite's FTS5 does,
so that scores mean the same on both stores; walling them would make those statistics per
persona (a ranking change). Their rows carry their persona (migration 17) so that search can
keep to one persona inside them; the wall does not use it.

Binding costs no extra round trip in the common case: a pooled connection remembers the scope
it last set for its session; a read sets it only when it differs and the statement names a
walled table (reads of ``personas`` alone, most of a search's statements, run in any scope);
a write transaction sets it locally (``SET LOCAL``), in the statement that takes the persona's
advisory lock when there is one.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

__all__ = [
    "CROSS_PERSONA",
    "NO_PERSONA",
    "PERSONA_WALLS",
    "WALLED_TABLES",
    "bind_session",
    "local_scope_sql",
    "scope_of",
    "touches_walled",
    "warn_if_unwalled",
]

logger = logging.getLogger(__name__)

CROSS_PERSONA = "*"
NO_PERSONA = ""
_SETTING = "omoide.persona"
_SEEN = "_omoide_scope"  # the scope a pooled connection's session holds (attribute on it)

# table → the condition (SQL) under which a row of it belongs to the bound persona
_OWN = "persona_id = omoide_persona()"
_BY_NAME = "persona = (SELECT p.name FROM personas p WHERE p.id = omoide_persona())"


def _child(parent: str, column: str, table: str) -> str:
    return (
        f"EXISTS (SELECT 1 FROM {parent} o WHERE o.id = {table}.{column} "
        "AND o.persona_id = omoide_persona())"
    )


WALLED_TABLES: dict[str, str] = {
    "memories": _OWN,
    "memory_blocks": _OWN,
    "memory_tags": _OWN,
    "sessions": _OWN,
    "session_events": _OWN,
    "episodes": _OWN,
    "jobs": _OWN,
    "api_keys": _OWN,
    "user_state_history": _BY_NAME,
    "persona_state_history": _BY_NAME,
    "memory_strength": _child("memories", "memory_id", "memory_strength"),
    "memory_versions": _child("memories", "memory_id", "memory_versions"),
    "memory_vectors": _child("memories", "memory_id", "memory_vectors"),
    "memory_sources": _child("memories", "memory_id", "memory_sources"),
    "memory_links": _child("memories", "a", "memory_links"),
    "event_vectors": _child("session_events", "event_id", "event_vectors"),
    "episode_vectors": _child("episodes", "episode_id", "episode_vectors"),
}


def _walls() -> str:
    # Single-expression SQL functions: the planner inlines them into each policy, so a policy
    # costs a setting lookup per row, not a function call.
    functions = f"""
CREATE FUNCTION omoide_cross_persona() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(current_setting('{_SETTING}', true), '') = '{CROSS_PERSONA}'
$$;
CREATE FUNCTION omoide_persona() RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT nullif(nullif(current_setting('{_SETTING}', true), ''), '{CROSS_PERSONA}')::bigint
$$"""
    tables = [
        f"""
ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE {table} FORCE ROW LEVEL SECURITY;
CREATE POLICY persona_wall ON {table} USING (omoide_cross_persona() OR {condition})"""
        for table, condition in WALLED_TABLES.items()
    ]
    return ";".join([functions, *tables])


PERSONA_WALLS = _walls()


def scope_of(persona_id: int | None) -> str:
    return NO_PERSONA if persona_id is None else str(int(persona_id))


_WALLED = re.compile(r"\b(" + "|".join(WALLED_TABLES) + r")\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def touches_walled(statement: str) -> bool:
    """Whether a statement names a walled table. One that does not reads the same rows in any
    scope, so a read may run on a pooled connection as its session is (no round trip to change
    the scope: most of a search's statements read ``personas``' revision and settings)."""
    return _WALLED.search(statement) is not None


def bind_session(raw: Any, scope: str) -> None:
    """Make a pooled connection's session see ``scope`` (autocommit, outside a transaction);
    nothing is sent when it already does."""
    if getattr(raw, _SEEN, None) == scope:
        return
    raw.execute("SELECT set_config(%s, %s, false)", (_SETTING, scope))
    setattr(raw, _SEEN, scope)


def local_scope_sql(raw: Any, scope: str) -> tuple[str, tuple[Any, ...]] | None:
    """The select-list item (and its parameters) that binds the open transaction to ``scope``,
    or None when the session already holds it."""
    if getattr(raw, _SEEN, None) == scope:
        return None
    return "set_config(%s, %s, true)", (_SETTING, scope)


def warn_if_unwalled(conn: Any) -> bool:
    """Log a warning when the role Omoide connects as is exempt from row-level security (a
    superuser or ``BYPASSRLS``): the first wall (every query's persona id) still holds, the
    second does not. Returns whether the wall applies."""
    row = conn.execute(
        "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    if row is not None and row[0]:
        logger.warning(
            "PostgreSQL role is a superuser or BYPASSRLS: the persona wall of "
            "row-level security does not apply to it; connect as an ordinary role "
            "owning the tables (docs/deploy.md)"
        )
        return False
    return True

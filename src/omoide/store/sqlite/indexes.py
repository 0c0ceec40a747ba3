"""The FTS indexes Omoide keeps: one for notes, one for episodes (2-tier retrieval)."""

from __future__ import annotations

from omoide.store.sqlite.fts_search import Fts5Index

__all__ = ["EPISODE_FTS", "EVENT_FTS", "MEMORY_FTS"]

# Persona-keyed (see store/sqlite/fts.py; migration 14): a search walks only its persona's rows.
# It holds active memories only: tombstoned ones are unindexed on delete, and a tombstoned
# memory's content is not indexed again; the filter states the rule (the PostgreSQL twin and
# the ``instr`` short path apply it).
MEMORY_FTS = Fts5Index(
    name="memories",
    base_table="memories",
    content_col="content",
    persona_col="persona_id",
    filter_sql="b.status = 'active'",
    persona_keyed=True,
)
EPISODE_FTS = Fts5Index(
    name="episodes", base_table="episodes", content_col="content", persona_col="persona_id"
)
# Turn-level index of the raw log: episode search finds the turns (of closed episodes and of
# sessions still open), then shows them with their neighbours.
EVENT_FTS = Fts5Index(
    name="session_events",
    base_table="session_events",
    content_col="content",
    persona_col="persona_id",
)

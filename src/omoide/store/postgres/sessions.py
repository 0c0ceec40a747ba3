"""The Episode tier of one persona in PostgreSQL: the SQLite adapter's queries, with keyword
search over turns run by :class:`~omoide.store.postgres.fts.PgFtsIndex`."""

from __future__ import annotations

from omoide.model import KeywordHit
from omoide.store.postgres.fts import pg_index
from omoide.store.sqlite.indexes import EPISODE_FTS, EVENT_FTS
from omoide.store.sqlite.sessions import SessionStore

__all__ = ["PG_EPISODE_FTS", "PG_EVENT_FTS", "PgSessionStore"]

PG_EVENT_FTS = pg_index(EVENT_FTS)
PG_EPISODE_FTS = pg_index(EPISODE_FTS)


class PgSessionStore(SessionStore):
    def keyword_events(self, query: str, *, limit: int) -> list[KeywordHit]:
        return PG_EVENT_FTS.search(
            self.db.conn(), persona_id=self.persona_id, query=query, limit=limit
        )

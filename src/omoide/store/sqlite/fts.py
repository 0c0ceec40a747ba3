"""An FTS index as both adapters declare and write it: its two tables, their DDL, the rows
written and removed, and the persona keying of the notes' index. Nothing here commits: the
caller owns the transaction. How an index is searched is each adapter's
(``fts_search.Fts5Index`` over SQLite's FTS5, ``store/postgres/fts.py``'s ``PgFtsIndex``).

Each indexed table gets two tables keyed by the base table's INTEGER PRIMARY KEY:
``{name}_fts`` (``unicode61`` with porter stemming in FTS5) and ``{name}_fts_tri``
(``trigram``), because Japanese has no spaces. The words table's text has a space at every
script change and holds every CJK run as character bigrams plus its last character
(``fts_terms.words_body``).

A *persona-keyed* index (``persona_keyed``; the notes' index) stores each row under the FTS
rowid ``persona_id << 32 | base rowid``, so a persona's rows are one rowid range that FTS5 walks
itself (see ``fts_search.py``). Such an index holds only rows that pass ``filter_sql``: its
writers index only those (the notes' writers index active memories and unindex a memory when
it is tombstoned). Base rowids must stay below 2**32. The keying is FTS5's (a SQLite
connection): the PostgreSQL adapter writes its twin tables through the same methods, unkeyed.
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from omoide.engine.lang import normalise
from omoide.model import KeywordHit
from omoide.store.sqlite.fts_terms import DEFAULT_TUNING, FtsTuning, words_body

__all__ = ["KEY_SPAN", "FtsIndex", "KeywordHit"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Base rowids per persona in a persona-keyed index: the low 32 bits of the FTS rowid.
KEY_SPAN = 1 << 32


@dataclass(frozen=True)
class FtsIndex(ABC):
    name: str
    base_table: str
    content_col: str
    persona_col: str
    # Trusted SQL from code, never user input: a condition on the base table, whose columns may
    # be written bare or as ``b.column`` ("status = 'active'").
    filter_sql: str = ""
    tuning: FtsTuning = field(default=DEFAULT_TUNING)
    # FTS rowid = persona_id << 32 | base rowid (see the module docstring); SQLite only
    persona_keyed: bool = False

    def __post_init__(self) -> None:
        for value in (self.name, self.base_table, self.content_col, self.persona_col):
            if not _IDENTIFIER.fullmatch(value):
                raise ValueError(f"not a plain SQL identifier: {value!r}")

    @property
    def words_table(self) -> str:
        return f"{self.name}_fts"

    @property
    def trigram_table(self) -> str:
        return f"{self.name}_fts_tri"

    def ddl(self) -> list[str]:
        return [_create(table, tokenizer) for table, tokenizer in self._tables()]

    def _tables(self) -> list[tuple[str, str]]:
        return [(self.words_table, self.tuning.word_tokenizer), (self.trigram_table, "trigram")]

    def key_by_persona(self, conn: sqlite3.Connection) -> None:
        """Rewrite both FTS tables with persona-keyed rowids (migration 14): each row moves to
        ``persona_id << 32 | rowid``; rows whose base row is gone or fails ``filter_sql`` are
        left out (no search could return them). Each table is rebuilt under a new name and
        renamed, which leaves no deleted rows' tokens behind in its segments."""
        if not self.keyed(conn):
            raise ValueError(f"{self.name}: not a persona-keyed FTS5 index")
        extra = f" AND ({self.filter_sql})" if self.filter_sql else ""
        for table, tokenizer in self._tables():
            fresh = f"{table}_keyed"
            conn.execute(_create(fresh, tokenizer))
            conn.execute(
                f"INSERT INTO {fresh}(rowid, body) SELECT b.{self.persona_col} << 32 | f.rowid, "
                f"f.body FROM {table} AS f JOIN {self.base_table} AS b ON b.rowid = f.rowid "
                f"WHERE f.rowid >= 0 AND f.rowid < {KEY_SPAN}{extra} ORDER BY 1"
            )
            conn.execute(f"DROP TABLE {table}")
            conn.execute(f"ALTER TABLE {fresh} RENAME TO {table}")

    # -- writes -------------------------------------------------------------------------------

    def keyed(self, conn: object) -> bool:
        """Whether rows on ``conn`` are persona-keyed: a keyed index on an FTS5 (SQLite)
        connection; the PostgreSQL twin tables written through these methods never are."""
        return self.persona_keyed and isinstance(conn, sqlite3.Connection)

    def fts_rowids(self, conn: object, ids: Iterable[int], persona_id: int | None) -> list[int]:
        """The FTS rowids of base rows ``ids`` of ``persona_id``."""
        if not self.keyed(conn):
            return list(ids)
        if persona_id is None:
            raise ValueError(f"{self.name}: a persona-keyed index needs the persona id")
        if not 0 <= persona_id < 1 << 31:
            raise ValueError(f"{self.name}: persona id {persona_id} does not fit a persona key")
        out = []
        for rowid in ids:
            if not 0 <= rowid < KEY_SPAN:
                raise ValueError(f"{self.name}: row id {rowid} does not fit a persona key")
            out.append(persona_id << 32 | rowid)
        return out

    def base_rowid_sql(self, column: str = "rowid") -> str:
        """SQL for the base rowid of an FTS row of this index's FTS5 tables."""
        return f"({column} & {KEY_SPAN - 1})" if self.persona_keyed else column

    def index(
        self,
        conn: sqlite3.Connection,
        rows: Iterable[tuple[int, str]],
        *,
        persona_id: int | None = None,
    ) -> None:
        """Insert or replace ``(base rowid, text)`` rows of ``persona_id`` in both FTS tables
        (the persona is needed by a persona-keyed index only)."""
        given = list(rows)
        if not given:
            return
        keys = self.fts_rowids(conn, [rowid for rowid, _ in given], persona_id)
        prepared = [(key, normalise(text)) for key, (_, text) in zip(keys, given, strict=True)]
        self._delete(conn, keys)
        conn.executemany(
            f"INSERT INTO {self.words_table}(rowid, body) VALUES (?, ?)",
            [(rowid, words_body(text)) for rowid, text in prepared],
        )
        conn.executemany(f"INSERT INTO {self.trigram_table}(rowid, body) VALUES (?, ?)", prepared)

    def unindex(
        self, conn: sqlite3.Connection, ids: Iterable[int], *, persona_id: int | None = None
    ) -> None:
        """Remove base rows ``ids`` (of ``persona_id``, for a persona-keyed index)."""
        self._delete(conn, self.fts_rowids(conn, ids, persona_id))

    def _delete(self, conn: sqlite3.Connection, keys: Sequence[int]) -> None:
        params = [(key,) for key in keys]
        for table in (self.words_table, self.trigram_table):
            conn.executemany(f"DELETE FROM {table} WHERE rowid = ?", params)

    def optimize(self, conn: sqlite3.Connection) -> None:
        """Merge every segment of both FTS tables into one (FTS5 ``optimize``).

        A delete in FTS5 only adds a tombstone; the deleted row's tokens stay in the older
        segments until they are merged. Erasing (``Database.erasing``) runs this so that the
        tokens of erased text are dropped too. It rewrites the whole index: keep it for erasure.
        """
        for table in (self.words_table, self.trigram_table):
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")

    @abstractmethod
    def search(self, conn: Any, *, persona_id: int, query: str, limit: int) -> list[KeywordHit]:
        """Rows of ``persona_id`` (passing ``filter_sql``) best matching ``query``, best first
        (``fts_search.Fts5Index`` in SQLite, ``postgres.fts.PgFtsIndex`` in PostgreSQL)."""

    @abstractmethod
    def held_by(
        self, conn: Any, *, persona_id: int, words: Sequence[str], share: float, least: int
    ) -> frozenset[str]:
        """The ``words`` that at least ``share`` of the persona's indexed rows hold, and at
        least ``least`` rows."""


def _create(table: str, tokenizer: str) -> str:
    return f"CREATE VIRTUAL TABLE IF NOT EXISTS {table} USING fts5(body, tokenize = '{tokenizer}')"

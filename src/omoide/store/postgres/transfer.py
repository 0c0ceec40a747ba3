"""Export and import of one persona in PostgreSQL: the SQLite adapter's dump and restore.

Both read and write with the shared SQL (``store/sqlite/transfer_dump.py`` and
``transfer_restore.py``), so a file exported from either store restores into the other row for
row. What differs:

- a dump reads inside one ``REPEATABLE READ, READ ONLY`` transaction on a pooled connection of
  its own (one consistent snapshot while the servers write, as SQLite's read transaction is),
  and every statement streams through a server-side cursor, so memory stays at one chunk
  however large the persona is;
- a restore writes through the persona's handle (its advisory write lock), and a row the
  database refuses (``psycopg.IntegrityError``) is a clear refusal of the file, as in SQLite.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg

from omoide.store.postgres.connection import Row, row_factory, translate
from omoide.store.postgres.db import CrossPersonaDb, PgDatabase
from omoide.store.postgres.rls import bind_session, scope_of
from omoide.store.sqlite.transfer_dump import PersonaDump
from omoide.store.sqlite.transfer_restore import PersonaRestore

__all__ = ["PgPersonaDump", "PgPersonaRestore"]

_FETCH = 500
_names = itertools.count(1)


class _Stream:
    """The rows of one statement read through a server-side cursor (``fetchmany`` and
    iteration pull :data:`_FETCH` rows at a time)."""

    def __init__(self, raw: psycopg.Connection[Any], statement: str, params: Sequence[Any]) -> None:
        text, _ = translate(statement)
        self._cur = raw.cursor(
            name=f"omoide_dump_{next(_names)}", row_factory=row_factory, binary=True
        )
        self._cur.itersize = _FETCH
        self._cur.execute(text.encode(), list(params))

    def fetchone(self) -> Row | None:
        return self._cur.fetchone()

    def fetchmany(self, size: int) -> list[Row]:
        rows = self._cur.fetchmany(size)
        if not rows:
            self._cur.close()
        return rows

    def fetchall(self) -> list[Row]:
        rows = self._cur.fetchall()
        self._cur.close()
        return rows

    def __iter__(self) -> Iterator[Row]:
        while rows := self.fetchmany(_FETCH):
            yield from rows


class _Snapshot:
    """A pooled connection inside one read-only snapshot transaction, held across the dump's
    calls: what fails while it is held (its statements' and fetches' errors, which the dump's
    ``with`` block sees) is handed to the pool's connection context on :meth:`close`, which
    says the server's refusals as Omoide's errors (``pool.py``)."""

    def __init__(self, db: PgDatabase, persona_id: int) -> None:
        self._lease = db.pool.connection()
        self.raw = self._lease.__enter__()
        try:
            bind_session(self.raw, scope_of(persona_id))  # the persona's rows only
            self.raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        except BaseException as exc:
            self._lease.__exit__(type(exc), exc, exc.__traceback__)
            raise

    def execute(self, statement: str, params: Sequence[Any] = ()) -> _Stream:
        return _Stream(self.raw, statement, params)

    def close(self, *exc: Any) -> None:
        """End the snapshot; ``exc``: what the dump's block raised (``__exit__``'s three)."""
        try:
            with contextlib.suppress(psycopg.Error):
                self.raw.execute("COMMIT")
        finally:
            self._lease.__exit__(*(exc or (None, None, None)))


class PgPersonaDump(PersonaDump):
    """:class:`PersonaDump` reading one PostgreSQL snapshot."""

    def __init__(self, db: PgDatabase, persona_id: int, persona: str) -> None:
        super().__init__(None, persona_id, persona)  # type: ignore[arg-type]
        self.db = db

    def __enter__(self) -> PgPersonaDump:
        self._conn = _Snapshot(self.db, self.persona_id)  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close(*exc)  # type: ignore[attr-defined]


class PgPersonaRestore(PersonaRestore):
    """:class:`PersonaRestore` writing under the persona's PostgreSQL write lock."""

    _refused = (psycopg.IntegrityError, ValueError)

    def keys_elsewhere(self, keys: Sequence[str]) -> set[str]:
        """Keys are unique across personas: which of ``keys`` other personas hold is read past
        the persona wall (only the keys asked about come back)."""
        cross = CrossPersonaDb(self.db)  # type: ignore[arg-type]
        return PersonaRestore(
            cross,
            self.persona_id,
            self.persona,
            self.model_id,  # type: ignore[arg-type]
            self.dim,
        ).keys_elsewhere(keys)

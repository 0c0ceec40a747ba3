"""PostgreSQL connections: a ``psycopg_pool`` pool, one transaction per write, vectors as bytes.

:class:`PgDatabase` offers the interface the store modules are written against (``conn()``,
``write()``, ``erasing()``), so statements in standard SQL are shared with the SQLite adapter:

- statements are written with ``?`` placeholders (translated to psycopg's ``%s`` once per text,
  cached) and ``INSERT OR IGNORE`` / ``IS ?`` are given their PostgreSQL spelling; a cursor's
  ``lastrowid`` is the ``id`` an ``INSERT`` returned, as in DB-API;
- a row answers to a column index and to a column name, like ``sqlite3.Row``;
- the schema's only binary values are embeddings: a ``bytes`` parameter (float32, native order)
  is sent as a pgvector ``vector`` and a ``vector`` column comes back as those bytes.

A write is one transaction on one pooled connection; a nested ``write()`` on the same thread
joins it, and reads on that thread see it. With ``lock`` (a persona id) the transaction first
takes a transaction-scoped advisory lock, so writes to one persona are serialised across every
process on the database, as SQLite's single writer serialises them on one file; writes to
different personas run in parallel.

Every read and transaction also states whose rows it may see (row-level security, ``rls.py``):
:class:`PersonaDb` binds one persona, :class:`CrossPersonaDb` is the explicit bypass of the
components that work across personas, and a bare :class:`PgDatabase` sees no persona's rows.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import psycopg
from psycopg import sql as pgsql
from psycopg.pq import ExecStatus
from psycopg_pool import ConnectionPool

from omoide.store.postgres.pgvector_bytes import configure_vectors
from omoide.store.postgres.refusals import disk_full_refused, nul_refused
from omoide.store.postgres.rls import (
    CROSS_PERSONA,
    NO_PERSONA,
    bind_session,
    local_scope_sql,
    scope_of,
    touches_walled,
)
from omoide.store.tracing import Traced, Tracer

__all__ = [
    "CrossPersonaDb",
    "PersonaDb",
    "PgConnection",
    "PgCursor",
    "PgDatabase",
    "Row",
    "translate",
]

# Tables whose INSERT reports the new row's id (DB-API ``lastrowid``).
_ID_TABLES = frozenset(
    {
        "personas",
        "api_keys",
        "memories",
        "memory_versions",
        "memory_blocks",
        "user_state_history",
        "persona_state_history",
        "jobs",
        "sessions",
        "session_events",
        "episodes",
    }
)
_INSERT = re.compile(r"^\s*INSERT\s+(OR\s+IGNORE\s+)?INTO\s+([A-Za-z_]+)", re.IGNORECASE)
_IS_PARAM = re.compile(r"\bIS\s+\?", re.IGNORECASE)
_ADVISORY_SPACE = 0x6F6D  # first key of every advisory lock Omoide takes ("om")


@lru_cache(maxsize=2048)
def translate(statement: str) -> tuple[str, bool]:
    """The PostgreSQL text of a statement written for the shared SQL, and whether it returns
    the inserted id. Quoted literals are left alone; ``%`` is escaped for psycopg."""
    match = _INSERT.match(statement)
    ignore = bool(match and match.group(1))
    returns_id = bool(
        match and match.group(2) in _ID_TABLES and "RETURNING" not in statement.upper()
    )
    if ignore:
        statement = statement[: match.start(1)] + statement[match.end(1) :]  # type: ignore[union-attr]
    parts = re.split(r"('(?:[^']|'')*')", statement)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part.replace("%", "%%"))
            continue
        part = _IS_PARAM.sub("IS NOT DISTINCT FROM ?", part)
        out.append(part.replace("%", "%%").replace("?", "%s"))
    text = _scalar_min_max("".join(out)).rstrip().rstrip(";")
    if ignore:
        text += " ON CONFLICT DO NOTHING"
    if returns_id:
        text += " RETURNING id"
    return text, returns_id


_MIN_MAX = re.compile(r"\b(MIN|MAX)\(", re.IGNORECASE)


def _scalar_min_max(text: str) -> str:
    """SQLite's two-argument ``MIN(a, b)``/``MAX(a, b)`` are ``LEAST``/``GREATEST`` here; the
    one-argument aggregates stay."""
    out, at = [], 0
    for match in _MIN_MAX.finditer(text):
        depth, i, comma = 1, match.end(), False
        while i < len(text) and depth:
            char = text[i]
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            elif char == "," and depth == 1:
                comma = True
            elif char == "'":
                i = text.index("'", i + 1)
            i += 1
        if comma:
            out.append(text[at : match.start()])
            out.append("LEAST(" if match.group(1).upper() == "MIN" else "GREATEST(")
            at = match.end()
    out.append(text[at:])
    return "".join(out)


class Row(tuple):
    """A result row: ``row[0]`` and ``row["name"]`` both work, and ``dict(row)``."""

    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


def _row_factory(cursor: psycopg.Cursor[Any]) -> Any:
    # the names from the result itself: ``cursor.description`` builds a typed Column for each
    # (and a search reads rows of 25 columns several times)
    return _row_class(_names(cursor.pgresult))


def _names(result: Any) -> tuple[str, ...]:
    # any result with fields: a named cursor's rows are described before they are fetched
    if result is None:
        return ()
    return tuple((result.fname(i) or b"").decode() for i in range(result.nfields))


def _has_rows(result: Any) -> bool:
    return result is not None and result.status == ExecStatus.TUPLES_OK


@lru_cache(maxsize=1024)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    return type("Row", (Row,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})


class PgCursor:
    """Buffered results of one statement (what the shared code reads from a cursor)."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._at = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchone(self) -> Row | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Row]:
        rows, self._at = self._rows[self._at :], len(self._rows)
        return rows

    def fetchmany(self, size: int) -> list[Row]:
        rows = self._rows[self._at : self._at + size]
        self._at += len(rows)
        return rows

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


class PgConnection:
    """One psycopg connection seen through the shared SQL's interface."""

    def __init__(
        self, raw: psycopg.Connection[Any], tracer: Tracer | None = None, scope: str = NO_PERSONA
    ) -> None:
        self.raw = raw
        self.tracer = tracer
        self.scope = scope  # whose rows the open transaction sees (rls.py)

    def execute(self, statement: str, params: Sequence[Any] | None = None) -> PgCursor:
        if self.tracer is not None:
            self.tracer(statement)
        text, returns_id = translate(statement)
        with (
            self.raw.cursor(row_factory=_row_factory, binary=True) as cur,
            nul_refused(),
            disk_full_refused(self.raw),
        ):
            cur.execute(text.encode(), list(params) if params is not None else [])
            rows = cur.fetchall() if _has_rows(cur.pgresult) else []
            lastrowid = None
            if returns_id:
                lastrowid = int(rows[0][0]) if rows else None
                rows = []
            return PgCursor(rows, cur.rowcount, lastrowid)

    def executemany(self, statement: str, params: Iterable[Sequence[Any]]) -> PgCursor:
        if self.tracer is not None:
            self.tracer(statement)
        text, returns_id = translate(statement)
        if returns_id:
            text = text[: -len(" RETURNING id")]
        batch = [list(p) for p in params]
        if not batch:
            return PgCursor([], 0, None)
        with self.raw.cursor() as cur, nul_refused(), disk_full_refused(self.raw):
            cur.executemany(text.encode(), batch)
            return PgCursor([], cur.rowcount, None)


class PgDatabase(Traced):
    """A PostgreSQL database: pooled connections, pgvector registered on each."""

    def __init__(
        self, url: str, *, min_size: int = 1, max_size: int = 16, migrate: bool = True
    ) -> None:
        from omoide.store.postgres.migrations import apply_migrations, prepare

        self.url = url
        prepare(url)  # the extensions exist before any connection registers their types
        self._local = threading.local()
        self.tracer: Tracer | None = None
        self.pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=True,
            configure=configure_vectors,
            kwargs={"autocommit": True},
            timeout=60.0,
        )
        if migrate:
            with self.pool.connection() as raw:
                bind_session(raw, CROSS_PERSONA)  # a migration may rewrite any persona's rows
                apply_migrations(raw)

    # -- the shared interface ----------------------------------------------------------------

    def conn(self, scope: str = NO_PERSONA) -> Any:
        """The thread's open transaction when inside :meth:`write`, else an autocommit reader
        seeing ``scope``'s rows."""
        current = getattr(self._local, "tx", None)
        return current if current is not None else _Reader(self, scope)

    @contextlib.contextmanager
    def write(self, lock: int | None = None, scope: str = NO_PERSONA) -> Iterator[PgConnection]:
        """One transaction seeing ``scope``'s rows: commit on success, roll back on any
        exception; nested use joins (seeing its own scope while inside)."""
        current = getattr(self._local, "tx", None)
        if current is not None:
            with _rescoped(current, scope):
                yield current
            return
        tracer = self.tracer
        with self.pool.connection() as raw:
            if tracer is not None:
                tracer("BEGIN")
            try:
                with disk_full_refused(raw), raw.transaction():
                    conn = PgConnection(raw, tracer, scope)
                    _begin(raw, lock, scope)
                    self._local.tx = conn
                    try:
                        yield conn
                    finally:
                        self._local.tx = None
            except BaseException:
                if tracer is not None:
                    tracer("ROLLBACK")
                raise
            if tracer is not None:
                tracer("COMMIT")

    def pipelined_write(
        self,
        statements: Sequence[tuple[str, Sequence[Any]]],
        lock: int | None = None,
        scope: str = NO_PERSONA,
        *,
        durable: bool = True,
    ) -> list[list[Any]]:
        """One transaction of ``statements`` (none reading another's result), sent with its
        BEGIN and COMMIT in one round trip (psycopg's pipeline mode) instead of one each;
        returns each statement's rows. Inside an open write it joins that write instead.

        ``durable=False`` (bookkeeping only) commits without waiting for the WAL flush
        (``synchronous_commit = off`` for this transaction): still atomic and never
        inconsistent, but a crash of the PostgreSQL server may lose it (the last fraction of
        a second of such writes); a crash of an Omoide server loses nothing committed."""
        if getattr(self._local, "tx", None) is not None:
            with self.write(lock, scope) as conn:
                return [conn.execute(text, params).fetchall() for text, params in statements]
        tracer = self.tracer
        for text in ("BEGIN", *(text for text, _ in statements), "COMMIT"):
            if tracer is not None:
                tracer(text)
        with self.pool.connection() as raw, nul_refused(), disk_full_refused(raw):
            with raw.pipeline(), raw.transaction():
                _begin(raw, lock, scope)
                if not durable:
                    raw.execute("SELECT set_config('synchronous_commit', 'off', true)")
                cursors = [
                    raw.cursor(binary=True).execute(translate(text)[0].encode(), list(params))
                    for text, params in statements
                ]
            return [cur.fetchall() if _has_rows(cur.pgresult) else [] for cur in cursors]

    @contextlib.contextmanager
    def erasing(
        self, lock: int | None = None, tables: Sequence[str] = (), scope: str = NO_PERSONA
    ) -> Iterator[PgConnection]:
        """A write for the user's "forget"; afterwards ``tables`` are vacuumed so the dead row
        versions holding the erased text are removed from the data files, not only hidden."""
        if getattr(self._local, "tx", None) is not None:
            raise RuntimeError("an erasing transaction cannot be nested in another write")
        with self.write(lock, scope) as conn:
            yield conn
        with self.pool.connection() as raw:
            for table in tables:
                raw.execute(pgsql.SQL("VACUUM {}").format(pgsql.Identifier(table)))

    @contextlib.contextmanager
    def raw(self, scope: str = NO_PERSONA) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection (autocommit, seeing ``scope``'s rows) for adapter code that
        streams or copies."""
        with self.pool.connection() as raw, disk_full_refused(raw):
            bind_session(raw, scope)
            yield raw

    def close(self) -> None:
        self.pool.close()


def _begin(raw: psycopg.Connection[Any], lock: int | None, scope: str) -> None:
    """A new transaction's first statement: the persona's advisory lock and the transaction's
    scope, whichever are needed, in one round trip."""
    items: list[str] = []
    params: list[Any] = []
    if lock is not None:
        items.append("pg_advisory_xact_lock(%s, %s)")
        params += [_ADVISORY_SPACE, lock]
    local = local_scope_sql(raw, scope)
    if local is not None:
        items.append(local[0])
        params += local[1]
    if items:
        raw.execute(("SELECT " + ", ".join(items)).encode(), params)


@contextlib.contextmanager
def _rescoped(conn: PgConnection, scope: str) -> Iterator[None]:
    """A write joining an open transaction of another scope sees its own while inside."""
    if scope == conn.scope:
        yield
        return
    outer = conn.scope
    conn.raw.execute("SELECT set_config('omoide.persona', %s, true)", (scope,))
    conn.scope = scope
    try:
        yield
    finally:
        conn.scope = outer
        if conn.raw.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS:
            conn.raw.execute("SELECT set_config('omoide.persona', %s, true)", (outer,))


class _Reader:
    """Autocommit reads, one pooled connection per statement (reads see the latest commit)."""

    def __init__(self, db: PgDatabase, scope: str) -> None:
        self._db = db
        self._scope = scope

    def execute(self, statement: str, params: Sequence[Any] | None = None) -> PgCursor:
        with self._db.pool.connection() as raw:
            if touches_walled(statement):
                bind_session(raw, self._scope)
            return PgConnection(raw, self._db.tracer).execute(statement, params)

    def executemany(self, statement: str, params: Iterable[Sequence[Any]]) -> PgCursor:
        with self._db.write(scope=self._scope) as conn:
            return conn.executemany(statement, params)


class _View:
    """A :class:`PgDatabase` seen with one scope (everything else is the database's)."""

    scope = NO_PERSONA

    def __init__(self, db: PgDatabase | _View) -> None:
        self.db: PgDatabase = db.db if isinstance(db, _View) else db

    def __getattr__(self, name: str) -> Any:  # pool, url, tracer, trace, close, …
        return getattr(self.db, name)

    def conn(self) -> Any:
        return self.db.conn(self.scope)

    @contextlib.contextmanager
    def raw(self) -> Iterator[psycopg.Connection[Any]]:
        with self.db.raw(self.scope) as raw:
            yield raw


class PersonaDb(_View):
    """One persona's view (the handles'): its rows only, and writes that take its advisory
    lock."""

    def __init__(self, db: PgDatabase | _View, persona_id: int) -> None:
        super().__init__(db)
        self.persona_id = persona_id
        self.scope = scope_of(persona_id)

    def write(self) -> contextlib.AbstractContextManager[PgConnection]:
        return self.db.write(self.persona_id, self.scope)

    def pipelined_write(
        self, statements: Sequence[tuple[str, Sequence[Any]]], *, durable: bool = True
    ) -> list[list[Any]]:
        return self.db.pipelined_write(statements, self.persona_id, self.scope, durable=durable)


class CrossPersonaDb(_View):
    """The explicit bypass of the persona wall, for the components whose work is across
    personas (listed in ``rls.py``)."""

    scope = CROSS_PERSONA

    def write(self, lock: int | None = None) -> contextlib.AbstractContextManager[PgConnection]:
        return self.db.write(lock, self.scope)

    def erasing(
        self, lock: int | None = None, tables: Sequence[str] = ()
    ) -> contextlib.AbstractContextManager[PgConnection]:
        return self.db.erasing(lock, tables, self.scope)

"""PostgreSQL connections: a ``psycopg_pool`` pool, one transaction per write, vectors as bytes.

:class:`PgDatabase` offers the interface the store modules are written against (``conn()``,
``write()``, ``erasing()``), so statements in standard SQL are shared with the SQLite adapter:
each pooled connection is seen through :class:`~omoide.store.postgres.connection.PgConnection`
(``?`` placeholders, rows like ``sqlite3.Row``), and the schema's only binary values,
embeddings, go as pgvector ``vector`` and come back as float32 bytes (``pgvector_bytes.py``).

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
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import psycopg

from omoide.errors import StorageUnavailable
from omoide.store.owed_scrub import OwedScrub
from omoide.store.postgres.connection import (
    PgConnection,
    PgCursor,
    has_rows,
    translate,
)
from omoide.store.postgres.owed_vacuums import OWE, SELECT_OWED, vacuum_owed
from omoide.store.postgres.pgvector_bytes import configure_vectors
from omoide.store.postgres.pool import PING_WAIT_S, POOL_WAIT_S, Pool
from omoide.store.postgres.rls import (
    CROSS_PERSONA,
    NO_PERSONA,
    bind_session,
    local_scope_sql,
    scope_of,
    touches_walled,
)
from omoide.store.tracing import Traced, Tracer

__all__ = ["CrossPersonaDb", "PersonaDb", "PgDatabase"]

_ADVISORY_SPACE = 0x6F6D  # first key of every advisory lock Omoide takes ("om")
VACUUM_LOCK_WAIT_MS = 2500  # an erase waits this long for a table's lock before owing its vacuum
SCRUB_EVERY_S = 1.0  # how often an owed vacuum is tried again

logger = logging.getLogger(__name__)


class PgDatabase(Traced):
    """A PostgreSQL database: pooled connections, pgvector registered on each."""

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 16,
        wait_s: float = POOL_WAIT_S,
        migrate: bool = True,
    ) -> None:
        from omoide.store.postgres.migrations import apply_migrations, prepare

        self.url = url
        prepare(url)  # the extensions exist before any connection registers their types
        self._local = threading.local()
        # the VACUUM erases owe, retried in the background (see :meth:`erasing`)
        self._scrub = OwedScrub(
            self._retried,
            every_s=SCRUB_EVERY_S,
            thread_name="omoide-erase-vacuum",
            done="the owed VACUUM after an erase is done: the erased rows left the files",
        )
        # The tables the last try (an erase's or the retry thread's) left owed, for close's log.
        self._last_owed: list[str] = []
        self._last_owed_lock = threading.Lock()
        self.tracer: Tracer | None = None
        self.pool = Pool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=True,
            configure=configure_vectors,
            kwargs={"autocommit": True},
            timeout=wait_s,  # then a 503 naming why no connection came (pool.py)
        )
        if migrate:
            try:
                with self.pool.connection() as raw:
                    # a migration may rewrite any persona's rows
                    bind_session(raw, CROSS_PERSONA)
                    apply_migrations(raw)
                    owed = [row[0] for row in raw.execute(SELECT_OWED)]
            except BaseException:  # a newer Omoide's schema (newer_schema.py), a failed one
                self.pool.close()
                raise
            if owed:  # an erase's VACUUM a process that stopped did not get to run
                logger.warning(
                    "the VACUUM an erase owes on %s is retried in the background",
                    ", ".join(owed),
                )
                self._scrub.owe()

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
                with raw.transaction():
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
        with self.pool.connection() as raw:
            with raw.pipeline(), raw.transaction():
                _begin(raw, lock, scope)
                if not durable:
                    raw.execute("SELECT set_config('synchronous_commit', 'off', true)")
                cursors = [
                    raw.cursor(binary=True).execute(translate(text)[0].encode(), list(params))
                    for text, params in statements
                ]
            return [cur.fetchall() if has_rows(cur.pgresult) else [] for cur in cursors]

    @contextlib.contextmanager
    def erasing(
        self, lock: int | None = None, tables: Sequence[str] = (), scope: str = NO_PERSONA
    ) -> Iterator[PgConnection]:
        """A write for the user's "forget"; afterwards ``tables`` are vacuumed so the dead row
        versions holding the erased text are removed from the data files, not only hidden.

        The transaction records that their VACUUM is owed (``owed_vacuums.py``), and the VACUUM
        runs after the commit. One the database refuses (the pool gives no connection, the
        server fails it) or that waits more than :data:`VACUUM_LOCK_WAIT_MS` for its table
        (another VACUUM, a ``CREATE INDEX CONCURRENTLY`` such as the HNSW build) does not undo
        the erase nor make it a failure: no read finds the rows, and a retried erase would find
        nothing. It stays owed (:attr:`scrub_pending`, said in the log) and is retried every
        :data:`SCRUB_EVERY_S` by a thread of this process
        (:class:`~omoide.store.owed_scrub.OwedScrub`) and by the next erase, only on the tables
        still owed, until it succeeds; a process opening the database retries what is owed
        there, so neither a restart nor a crash forgets it."""
        if getattr(self._local, "tx", None) is not None:
            raise RuntimeError("an erasing transaction cannot be nested in another write")
        with self.write(lock, scope) as conn:
            yield conn
            if tables:
                conn.execute(OWE, (list(tables),))
        still_owed = self._try_vacuums(logger.warning)
        if still_owed != []:
            self._scrub.owe()
            logger.warning(
                "the erased rows' old versions stay in the data files of %s until their "
                "VACUUM succeeds; it is retried in the background",
                ", ".join(still_owed or sorted(tables)),
            )

    @property
    def scrub_pending(self) -> bool:
        """Whether an erase's VACUUM is owed (SQLite's ``Database.scrub_pending``): the dead row
        versions holding erased text may still be in the data files until it succeeds."""
        return self._scrub.pending

    def _try_vacuums(self, say: Callable[..., None]) -> list[str] | None:
        """One try of every owed VACUUM, its failures said through ``say``: the tables still
        owed, or None when no working connection came (what is owed is not known)."""
        still_owed: list[str] | None = None
        try:
            with self.pool.connection() as raw:
                raw.execute(f"SET lock_timeout = {VACUUM_LOCK_WAIT_MS}")
                try:
                    still_owed = vacuum_owed(raw, say)
                finally:
                    if not raw.closed:
                        raw.execute("RESET lock_timeout")
        except (psycopg.Error, StorageUnavailable) as exc:
            say("the VACUUM after an erase found no working connection: %s", exc)
        with self._last_owed_lock:
            self._last_owed = still_owed or []
        return still_owed

    def _retried(self) -> bool:
        """The retry thread's try (:class:`OwedScrub`): whether nothing is owed any more. Its
        failures go to the debug log; the erase that owed the VACUUM said them."""
        return self._try_vacuums(logger.debug) == []

    @contextlib.contextmanager
    def raw(self, scope: str = NO_PERSONA) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection (autocommit, seeing ``scope``'s rows) for adapter code that
        streams or copies."""
        with self.pool.connection() as raw:
            bind_session(raw, scope)
            yield raw

    def ping(self, wait_s: float = PING_WAIT_S) -> None:
        """``SELECT 1`` on a pooled connection, waiting ``wait_s`` at most for one (the pool's
        own wait if shorter): the health check answers its 503 promptly, whatever
        ``OMOIDE_PG_POOL_WAIT`` requests are given."""
        with self.pool.connection(min(wait_s, self.pool.timeout)) as raw:
            raw.execute("SELECT 1")

    def close(self, *, scrub_wait_s: float = 0.0, give_up: threading.Event | None = None) -> None:
        """Close the pool. An owed VACUUM is tried first, this process's last chance: once, or
        for up to ``scrub_wait_s`` seconds (a command about to end: ``cli_common.holding``)
        unless ``give_up`` is set first; one still owed stays recorded for the next process to
        open the database. The pool is closed whatever that try raises (a Ctrl+C in its wait:
        before, the pool was left open), and closing again does nothing more; a connection
        checked out meanwhile (a write a stop no longer waited for) is closed as it comes back."""
        try:
            if not self._scrub.settle(scrub_wait_s, give_up=give_up):
                with self._last_owed_lock:
                    last_owed = self._last_owed
                logger.warning(
                    "the VACUUM owed after an erase on %s was not done; the next Omoide process "
                    "to open the database retries it, and autovacuum removes the erased rows' "
                    "old versions meanwhile (or run VACUUM on those tables)",
                    ", ".join(last_owed) or "its tables",
                )
        finally:
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

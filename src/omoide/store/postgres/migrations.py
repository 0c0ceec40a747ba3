"""The schema in PostgreSQL, as the SQLite adapter's numbered migrations (same numbers, names,
tables and columns): this module numbers them and applies them; their SQL text is data, in
``migration_sql.py`` (this dialect's) or, where both dialects run the same statements,
:mod:`omoide.store.sqlite.migration_sql`. Numbers 17 (the keyword index rows' persona,
``fts.py``), 18 (the trigrams in linear time), 19 (Latin diacritics folded in the words
bodies, ``fts.py``) and 25 (the VACUUMs erases owe, ``owed_vacuums.py``) exist here only.
Migrations run under an advisory lock, so servers starting together apply each one once.
Never edit a released migration: add the next one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from omoide.engine.errors import named
from omoide.errors import InvalidInput
from omoide.store.newer_schema import refuse_newer
from omoide.store.postgres.fts import FOLD_LATIN_BODIES, FTS_PERSONAS
from omoide.store.postgres.migration_sql import (
    CONTEXT,
    CORE,
    EPISODE_EVENT_FTS,
    FORGET_PROVENANCE,
    JOBS,
    LINEAR_TRIGRAMS,
    OPEN_TURNS,
    OWED_VACUUMS,
    SESSION_IDLE,
    SESSIONS,
    TAGS,
    TRIGRAMS,
)
from omoide.store.postgres.rls import PERSONA_WALLS
from omoide.store.sqlite.migration_sql import (
    DASHBOARD_INDEXES,
    EMBEDDER,
    EMPTY_UNSTARTED_WINDOWS,
    JOB_LEASES,
    KEY_FINGERPRINTS,
    SESSION_ENDED_BY,
    SUCCESSOR_STARTS,
    VECTOR_MODEL_INDEXES,
)

__all__ = ["MIGRATIONS", "Migration", "applied_migrations", "apply_migrations", "prepare"]

logger = logging.getLogger(__name__)

_LOCK = (0x6F6D, 0)  # advisory lock key while migrating


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core", CORE),
    Migration(2, "memory_fts", TRIGRAMS),
    Migration(3, "context_state_blocks", CONTEXT),
    Migration(4, "jobs", JOBS),
    Migration(5, "sessions_episodes", SESSIONS),
    Migration(6, "episode_event_fts", EPISODE_EVENT_FTS),
    Migration(7, "memory_tags", TAGS),
    Migration(8, "embedder", EMBEDDER),  # the SQLite adapter's SQL, as are 11-13 and 21-23
    Migration(9, "open_turns_fts", OPEN_TURNS),
    Migration(10, "session_idle", SESSION_IDLE),
    Migration(11, "dashboard_indexes", DASHBOARD_INDEXES),
    # Jobs claimed as leases: the worker holding a running job and when its lease ends; one
    # row per periodic duty saying when it is next due.
    Migration(12, "job_leases", JOB_LEASES),
    Migration(13, "key_fingerprints", KEY_FINGERPRINTS),
    Migration(15, "persona_walls", PERSONA_WALLS),  # row-level security (rls.py)
    Migration(16, "forget_provenance", FORGET_PROVENANCE),
    Migration(17, "fts_personas", FTS_PERSONAS),  # PostgreSQL only (fts.py)
    Migration(18, "linear_trigrams", LINEAR_TRIGRAMS),  # PostgreSQL only
    Migration(19, "fold_latin_words", FOLD_LATIN_BODIES),  # PostgreSQL only (fts.py)
    # SQLite's ids become AUTOINCREMENT (never reused after an erasure); identity columns
    # never reuse a value, so here the number is only kept in step.
    Migration(20, "autoincrement_ids", "SELECT 1"),
    # The start-up check for vectors of another model than the recorded one (index seeks).
    Migration(21, "vector_model_indexes", VECTOR_MODEL_INDEXES),
    # A successor fact starts when it closed its predecessor (SQLite's migration 22).
    Migration(22, "successor_starts", SUCCESSOR_STARTS),
    # How a session was ended (SQLite's migration 23).
    Migration(23, "session_ended_by", SESSION_ENDED_BY),
    # A fact closed before it began gets an empty window (SQLite's migration 24).
    Migration(24, "empty_unstarted_windows", EMPTY_UNSTARTED_WINDOWS),
    # The VACUUM an erase owes, recorded so that a restart retries it (owed_vacuums.py).
    Migration(25, "owed_vacuums", OWED_VACUUMS),  # PostgreSQL only
)


def prepare(url: str) -> None:
    """Create the extensions the schema uses (pgvector), once per database."""
    try:
        raw = psycopg.connect(url, autocommit=True)
    except psycopg.ProgrammingError as exc:  # a URL its parser refuses: psycopg's traceback
        reason = str(exc).strip().replace(url, _shown(url))
        raise InvalidInput(
            f"the PostgreSQL URL {_shown(url)} (OMOIDE_DATABASE_URL, or migrate --to) is not "
            f"one PostgreSQL reads: {reason}"
        ) from None
    except psycopg.OperationalError as exc:
        # a database down, a wrong host, port, user or password: every command stopped with
        # psycopg's traceback
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InvalidInput(
            f"cannot connect to the PostgreSQL database {_shown(url)}: {reason}; "
            "check the URL (OMOIDE_DATABASE_URL, or migrate --to) and that the "
            "server is running and reachable"
        ) from None
    with raw:
        raw.execute("SELECT pg_advisory_lock(%s, %s)", _LOCK)
        try:
            raw.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:  # every command stopped with psycopg's traceback
            raise InvalidInput(_no_vector_extension(url, exc)) from None
        finally:
            raw.execute("SELECT pg_advisory_unlock(%s, %s)", _LOCK)


def _no_vector_extension(url: str, exc: psycopg.Error) -> str:
    """Why the database lacks pgvector, in the server's words, and what to do: the role
    may not create it (not a trusted extension: a superuser creates it once, docs/deploy.md
    step 1), or the server has no pgvector installed."""
    words = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    remedy = "a superuser runs CREATE EXTENSION vector; in that database once"
    if not isinstance(exc, psycopg.errors.InsufficientPrivilege):  # none on the server
        remedy = f"install pgvector on the PostgreSQL server, then {remedy}"
    return (
        f"the PostgreSQL database {_shown(url)} has no vector extension (pgvector) and Omoide "
        f"cannot create it ({words}): {remedy} (docs/deploy.md, step 1)"
    )


def _shown(url: str) -> str:
    """``url`` with its password hidden (postgresql://ken:***@host/db)."""
    hidden = re.sub(r"(://[^:/@]*:)[^/]*@", r"\1***@", url)
    return re.sub(r"(?i)(password=)[^&]*", r"\1***", hidden)


def _statements(sql: str) -> list[str]:
    """Split on ``;`` outside dollar-quoted bodies."""
    out, buf, quoted = [], [], False
    for part in sql.split("$$"):
        if quoted:
            buf.append("$$" + part + "$$")
        else:
            pieces = part.split(";")
            buf.append(pieces[0])
            for piece in pieces[1:]:
                out.append("".join(buf))
                buf = [piece]
        quoted = not quoted
    out.append("".join(buf))
    return [s.strip() for s in out if s.strip()]


def applied_migrations(raw: psycopg.Connection[Any]) -> list[int]:
    raw.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return [r[0] for r in raw.execute("SELECT number FROM schema_migrations ORDER BY number")]


def apply_migrations(
    raw: psycopg.Connection[Any],
    *,
    upto: int | None = None,
    extra: Callable[[psycopg.Connection[Any]], None] | None = None,
) -> list[int]:
    """Apply every pending migration, each in its own transaction; returns the numbers. A
    database a newer Omoide migrated is refused before anything is written
    (:func:`~omoide.store.newer_schema.refuse_newer`)."""
    applied = []
    raw.execute("SELECT pg_advisory_lock(%s, %s)", _LOCK)
    try:
        done = set(applied_migrations(raw))
        recorded = dict(raw.execute("SELECT number, name FROM schema_migrations").fetchall())
        refuse_newer(
            recorded,
            (m.number for m in MIGRATIONS),
            where=f"the PostgreSQL database {named(raw.info.dbname)} on {raw.info.host}",
        )
        for migration in MIGRATIONS:
            if migration.number in done or (upto is not None and migration.number > upto):
                continue
            with raw.transaction():
                for statement in _statements(migration.sql):
                    raw.execute(statement.encode())
                raw.execute(
                    "INSERT INTO schema_migrations (number, name, applied_at) VALUES "
                    "(%s, %s, to_char(clock_timestamp() AT TIME ZONE 'UTC', "
                    '\'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"\'))',
                    (migration.number, migration.name),
                )
            logger.info("applied migration %04d_%s", migration.number, migration.name)
            applied.append(migration.number)
        if extra is not None:
            extra(raw)
    finally:
        raw.execute("SELECT pg_advisory_unlock(%s, %s)", _LOCK)
    return applied

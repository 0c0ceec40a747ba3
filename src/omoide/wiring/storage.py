"""Where the data lives: the SQLite file of the data folder, or a PostgreSQL database for a
``database_url``; the store and job queue on it, the folder's lock, and the commands that copy
a database (``migrate``, ``backup``, ``restore``). With :mod:`omoide.store`, the only code that
names an adapter."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from omoide.config import Settings
from omoide.embed import Embedder
from omoide.engine.errors import named
from omoide.errors import InvalidInput
from omoide.service.memories import EVOLVE_JOB
from omoide.service.reindex import FOLDER, Holder
from omoide.store.sqlite.jobs import JobStore
from omoide.store.sqlite.overview import OverviewStore
from omoide.store.sqlite.store import SqliteStore
from omoide.store.sqlite.vector_models import VectorModels


def database_url(settings: Settings) -> str | None:
    """``OMOIDE_DATABASE_URL`` when set (a PostgreSQL database), else None (the SQLite file in
    the data folder)."""
    url = settings.database_url
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput("OMOIDE_DATABASE_URL must be a postgresql:// URL")
    return url


def vectors_holder(settings: Settings) -> Holder:
    """What holds the vectors, as the embedder's refusal and ``omoide reindex`` name it: the
    data folder, or the PostgreSQL database (by its name; the URL may hold a password)."""
    url = database_url(settings)
    if url is None:
        return FOLDER
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(url).get("dbname")
    shown = f"the PostgreSQL database {named(name)}" if name else "the PostgreSQL database"
    return Holder(shown, "the database")


def open_store(settings: Settings, embedder: Embedder) -> SqliteStore:
    """The store the settings name: SQLite by default, PostgreSQL for a database URL."""
    url = database_url(settings)
    if url is None:
        return SqliteStore(settings.db_path, model_id=embedder.model_id, dim=embedder.dim)
    try:
        from omoide.store.postgres.store import PostgresStore
    except ImportError as exc:  # psycopg is the optional extra omoide[postgres]
        raise InvalidInput(
            "OMOIDE_DATABASE_URL needs the PostgreSQL driver: pip install 'omoide[postgres]'"
        ) from exc
    return PostgresStore(
        url,
        model_id=embedder.model_id,
        dim=embedder.dim,
        pool_size=settings.pg_pool_size,
        pool_wait_s=settings.pg_pool_wait_s,
        ann_rows=settings.pg_ann_rows,
    )


@contextlib.contextmanager
def hold_folder(settings: Settings, command: str, *, exclusive: bool = False) -> Iterator[None]:
    """Hold the data folder's lock (store/sqlite/folder_lock.py) inside the block for
    ``omoide <command>``: shared for a server or a command that writes (``serve``, ``mcp``,
    ``memory add``…), exclusive for ``reindex`` and ``restore``; none with a database URL,
    whose folder holds no data."""
    from omoide.store.sqlite.folder_lock import hold_exclusive, hold_shared

    if database_url(settings) is not None:
        yield
        return
    handle = (hold_exclusive if exclusive else hold_shared)(settings.data_dir, command)
    try:
        yield
    finally:
        if handle is not None:
            handle.close()


def open_vector_models(store: SqliteStore) -> VectorModels:
    """Which embedder made the stored vectors, on the store's database (the shared SQL runs on
    PgDatabase too)."""
    return VectorModels(store.db)


def open_overview(store: SqliteStore) -> OverviewStore:
    """The dashboard's read models on the store's database."""
    return OverviewStore(store.db)


def open_jobs(store: SqliteStore, settings: Settings) -> JobStore:
    """The job queue on the store's database (claims with ``SKIP LOCKED`` on PostgreSQL).

    Evolution runs one memory at a time per persona, in the order the memories were written:
    a new memory closes only the nearest older memory it contradicts, so moves posted together
    and evolved by several workers at once could otherwise each close a different one and leave
    two places current."""
    if database_url(settings) is None:
        return JobStore(store.db, lease_s=settings.job_lease_s, in_order=(EVOLVE_JOB,))
    from omoide.store.postgres.jobs import PgJobStore

    return PgJobStore(
        store.db,
        lease_s=settings.job_lease_s,  # type: ignore[arg-type]
        in_order=(EVOLVE_JOB,),
    )


def copy_folder_to_database(settings: Settings, url: str) -> dict[str, int]:
    """``omoide migrate``: copy the data folder's SQLite database into the PostgreSQL database
    at ``url`` (which must hold no persona); returns the rows copied per table."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput("--to must be a postgresql:// URL")
    try:
        from omoide.store.postgres.copy import copy_sqlite_to_postgres
    except ImportError as exc:
        raise InvalidInput(
            "migrating needs the PostgreSQL driver: pip install 'omoide[postgres]'"
        ) from exc
    return copy_sqlite_to_postgres(settings.db_path, url)


def _sqlite_only_command(settings: Settings, command: str) -> None:
    if settings.database_url:
        raise InvalidInput(
            f"omoide {command} copies the SQLite database of a data folder; with "
            "OMOIDE_DATABASE_URL set, back up PostgreSQL with pg_dump "
            "(docs/deploy.md)"
        )


def backup_database(settings: Settings, target: Path, *, overwrite: bool = False) -> Any:
    """``omoide backup``: an online copy of the store's database (SQLite's backup API)."""
    from omoide.store.sqlite.backup import backup

    _sqlite_only_command(settings, "backup")
    refuse_over_data_folder(settings, target)
    return backup(settings.db_path, target, overwrite=overwrite)


def refuse_over_data_folder(settings: Settings, path: Path) -> None:
    """Refuse (422) a file to write (``backup --to``, ``export --out``) that is one of the data
    folder's own files, however it is spelled. Why: ``omoide export --out data/omoide.db``
    wrote the export over the live database (its memories gone, the server answering from a
    JSON file); over ``admin_key`` it lost the admin key, over ``omoide.lock`` the folder's
    lock."""
    from omoide.store.sqlite.backup import is_database_file

    if is_database_file(path, settings.db_path):
        raise InvalidInput(
            f"{path} is the data folder's database (or one of its side files); writing over it "
            "would destroy every persona's memories: choose another file"
        )
    own = _own_file(settings.data_dir, path)
    if own is not None:
        where, needed = own
        raise InvalidInput(
            f"{path} is {where}; writing over it would break the server "
            f"({needed}): choose a file outside the data folder's own"
        )


def refuse_export_over(settings: Settings, path: Path) -> None:
    """Refuse (422) an export's ``--out`` that :func:`refuse_over_data_folder` refuses, or that
    is a SQLite database anywhere (a backup, a copy of a data folder's database, whole or
    damaged). Why: ``omoide export --out backup.db`` replaced the backup with JSON Lines without
    a word (``backup --to`` refuses any existing file unless ``--force``)."""
    from omoide.store.sqlite.backup import begins_as_database

    refuse_over_data_folder(settings, path)
    if begins_as_database(path):
        raise InvalidInput(
            f"{path} is a SQLite database (a backup, or a copy of a data folder's database); "
            "an export would replace it with JSON Lines: choose another file, or delete it "
            "first if it is no longer needed"
        )


def _own_file(folder: Path, path: Path) -> tuple[str, str] | None:
    """What of the data folder's own files (besides the database) ``path`` is, and what the
    server keeps in it, or None. The names are those in docs/operations.md; ``dashboard_secret``
    and ``uploads`` are named by the HTTP layer above this one (``api.http.dashboard.session``,
    ``api.http.uploads``)."""
    from omoide.embed.calibration_store import FILE as CALIBRATIONS
    from omoide.service.auth import ADMIN_KEY_FILE
    from omoide.store.sqlite.folder_lock import LOCK_NAME

    kept = {  # each named by what it keeps (all four were 'admin key, sign-ins or lock')
        ADMIN_KEY_FILE: "its admin key",
        "dashboard_secret": "the key of its dashboard sign-ins",
        LOCK_NAME: "the folder's lock",
        CALIBRATIONS: "its embedder's calibration",
    }
    for name, needed in kept.items():
        if _same_file(path, folder / name):
            return f"the data folder's {name} file", needed
    if path.resolve().parent == (folder / "uploads").resolve():
        return "in the data folder's uploads folder", "where it receives an HTTP import's file"
    return None


def _same_file(path: Path, own: Path) -> bool:
    if path.resolve() == own.resolve():
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(path, own)
    return False


def restore_database(settings: Settings, source: Path, *, force: bool = False) -> Any:
    """``omoide restore``: the data folder's database replaced by a backup."""
    from omoide.store.sqlite.backup import restore

    _sqlite_only_command(settings, "restore")
    return restore(source, settings.db_path, force=force)

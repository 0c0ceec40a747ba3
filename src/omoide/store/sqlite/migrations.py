"""Numbered schema migrations, applied in order on open and recorded in ``schema_migrations``.

A migration is a name plus a function of the connection (so DDL that is generated, like the FTS
tables, stays in one place). Never edit a released migration: add the next one.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from omoide.engine.attachments import turn_text
from omoide.store.sqlite.indexes import EPISODE_FTS, EVENT_FTS, MEMORY_FTS

__all__ = ["MIGRATIONS", "Migration", "applied_migrations", "apply_migrations"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    apply: Callable[[sqlite3.Connection], None]
    # Rebuilds a table other tables refer to: foreign keys are off while it runs (they cannot
    # be switched inside a transaction) and checked before it commits (sqlite.org/lang_altertable).
    rebuilds: bool = False


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        for statement in _split(sql):
            conn.execute(statement)

    return run


def _split(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]


_CORE = """
CREATE TABLE personas (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    settings    TEXT NOT NULL DEFAULT '{}',
    revision    INTEGER NOT NULL DEFAULT 0,
    event_revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    key_hash     TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    persona_id   INTEGER REFERENCES personas(id),
    is_admin     INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);
CREATE TABLE memories (
    id                INTEGER PRIMARY KEY,
    key               TEXT NOT NULL UNIQUE,
    persona_id        INTEGER NOT NULL REFERENCES personas(id),
    content           TEXT NOT NULL,
    kind              TEXT NOT NULL DEFAULT 'note',
    importance        REAL NOT NULL,
    tags              TEXT NOT NULL DEFAULT '[]',
    emotion_type      TEXT,
    emotion_intensity REAL NOT NULL DEFAULT 0,
    source            TEXT NOT NULL DEFAULT 'user',
    source_ref        TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    access_count      INTEGER NOT NULL DEFAULT 0,
    last_accessed     TEXT,
    valid_from        TEXT,
    valid_until       TEXT,
    superseded_by     TEXT,
    summary_ref       TEXT,
    status            TEXT NOT NULL DEFAULT 'active',
    metadata          TEXT NOT NULL DEFAULT '{}',
    evolved_at        TEXT
);
CREATE INDEX memories_persona_created ON memories(persona_id, created_at);
CREATE INDEX memories_persona_status ON memories(persona_id, status);
CREATE TABLE memory_strength (
    memory_id     INTEGER PRIMARY KEY REFERENCES memories(id),
    strength      REAL NOT NULL,
    stability     REAL NOT NULL,
    last_decay_at TEXT
);
CREATE TABLE memory_versions (
    id          INTEGER PRIMARY KEY,
    memory_id   INTEGER NOT NULL REFERENCES memories(id),
    version     INTEGER NOT NULL,
    change      TEXT NOT NULL,
    changed_by  TEXT NOT NULL,
    changed_at  TEXT NOT NULL,
    before      TEXT,
    after       TEXT,
    UNIQUE (memory_id, version)
);
CREATE TABLE memory_links (
    a                   INTEGER NOT NULL REFERENCES memories(id),
    b                   INTEGER NOT NULL REFERENCES memories(id),
    link_type           TEXT NOT NULL,
    weight              REAL NOT NULL,
    co_activation_count INTEGER NOT NULL DEFAULT 1,
    last_activated      TEXT,
    PRIMARY KEY (a, b, link_type)
);
CREATE TABLE memory_vectors (
    memory_id INTEGER PRIMARY KEY REFERENCES memories(id),
    model_id  TEXT NOT NULL,
    dim       INTEGER NOT NULL,
    vector    BLOB NOT NULL
);
"""

_CONTEXT = """
CREATE TABLE memory_blocks (
    id          INTEGER PRIMARY KEY,
    persona_id  INTEGER NOT NULL REFERENCES personas(id),
    block_name  TEXT NOT NULL,
    content     TEXT NOT NULL,
    block_type  TEXT NOT NULL DEFAULT 'custom',
    max_tokens  INTEGER NOT NULL DEFAULT 500,
    priority    INTEGER NOT NULL DEFAULT 0,
    metadata    TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    UNIQUE (persona_id, block_name)
);
CREATE TABLE user_state_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    persona     TEXT NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    valid_from  TEXT NOT NULL,
    valid_until TEXT DEFAULT NULL,
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX user_state_current ON user_state_history(persona, key)
    WHERE valid_until IS NULL;
CREATE INDEX user_state_key ON user_state_history(persona, key, valid_from);
CREATE TABLE persona_state_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    persona     TEXT NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    valid_from  TEXT NOT NULL,
    valid_until TEXT DEFAULT NULL,
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX persona_state_current ON persona_state_history(persona, key)
    WHERE valid_until IS NULL;
CREATE INDEX persona_state_key ON persona_state_history(persona, key, valid_from)
"""

_JOBS = """
CREATE TABLE jobs (
    id           INTEGER PRIMARY KEY,
    persona_id   INTEGER REFERENCES personas(id),
    kind         TEXT NOT NULL,
    payload      TEXT NOT NULL DEFAULT '{}',
    status       TEXT NOT NULL DEFAULT 'pending',
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 5,
    run_after    TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    started_at   TEXT,
    finished_at  TEXT,
    last_error   TEXT,
    claimed_by   INTEGER
);
CREATE INDEX jobs_ready ON jobs(status, run_after);
CREATE INDEX jobs_persona ON jobs(persona_id, status)
"""

_SESSIONS = """
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    persona_id  INTEGER NOT NULL REFERENCES personas(id),
    session_id  TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    ended_at    TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    segmented_upto_seq INTEGER NOT NULL DEFAULT 0,
    open_reason TEXT NOT NULL DEFAULT 'start',
    open_surprise REAL NOT NULL DEFAULT 0,
    UNIQUE (persona_id, session_id)
);
CREATE TABLE session_events (
    id          INTEGER PRIMARY KEY,
    session_pk  INTEGER NOT NULL REFERENCES sessions(id),
    persona_id  INTEGER NOT NULL REFERENCES personas(id),
    seq         INTEGER NOT NULL,
    speaker     TEXT NOT NULL,
    role        TEXT NOT NULL,
    content     TEXT NOT NULL,
    timestamp   TEXT NOT NULL,
    external_id TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL,
    episode_id  INTEGER,
    UNIQUE (session_pk, seq)
);
CREATE INDEX session_events_episode ON session_events(episode_id);
CREATE TABLE event_vectors (
    event_id  INTEGER PRIMARY KEY REFERENCES session_events(id),
    model_id  TEXT NOT NULL,
    dim       INTEGER NOT NULL,
    vector    BLOB NOT NULL
);
CREATE UNIQUE INDEX session_events_external ON session_events(session_pk, external_id)
    WHERE external_id IS NOT NULL;
CREATE TABLE episodes (
    id               INTEGER PRIMARY KEY,
    session_pk       INTEGER NOT NULL REFERENCES sessions(id),
    persona_id       INTEGER NOT NULL REFERENCES personas(id),
    first_event_id   INTEGER NOT NULL REFERENCES session_events(id),
    last_event_id    INTEGER NOT NULL REFERENCES session_events(id),
    first_seq        INTEGER NOT NULL,
    last_seq         INTEGER NOT NULL,
    content          TEXT NOT NULL,
    topic            TEXT NOT NULL DEFAULT '',
    surprise         REAL NOT NULL DEFAULT 0,
    boundary_reason  TEXT NOT NULL DEFAULT 'start',
    started_at       TEXT NOT NULL,
    ended_at         TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    consolidated_at  TEXT
);
CREATE INDEX episodes_session ON episodes(session_pk, first_seq);
CREATE TABLE episode_vectors (
    episode_id INTEGER PRIMARY KEY REFERENCES episodes(id),
    model_id   TEXT NOT NULL,
    dim        INTEGER NOT NULL,
    vector     BLOB NOT NULL
);
CREATE TABLE memory_sources (
    memory_id INTEGER NOT NULL REFERENCES memories(id),
    event_id  INTEGER NOT NULL REFERENCES session_events(id),
    PRIMARY KEY (memory_id, event_id)
)
"""


def _fts(conn: sqlite3.Connection) -> None:
    for statement in MEMORY_FTS.ddl():
        conn.execute(statement)


def _episode_fts(conn: sqlite3.Connection) -> None:
    for statement in (*EPISODE_FTS.ddl(), *EVENT_FTS.ddl()):
        conn.execute(statement)


_TAGS = """
CREATE TABLE memory_tags (
    memory_id  INTEGER NOT NULL REFERENCES memories(id),
    persona_id INTEGER NOT NULL REFERENCES personas(id),
    tag        TEXT NOT NULL,
    PRIMARY KEY (memory_id, tag)
);
CREATE INDEX memory_tags_lookup ON memory_tags(persona_id, tag, memory_id);
INSERT INTO memory_tags (memory_id, persona_id, tag)
    SELECT m.id, m.persona_id, j.value FROM memories m, json_each(m.tags) j
"""

# The embedder whose vectors the folder holds (one row): another model is refused until
# ``omoide reindex`` (vectors of two models in one folder cannot be compared).
_EMBEDDER = """
CREATE TABLE embedder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    model_id    TEXT NOT NULL,
    dim         INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
)
"""


def _open_turns_fts(conn: sqlite3.Connection) -> None:
    """Turns used to enter the keyword index only when their episode closed; now every turn is
    indexed when posted, so index the turns of segments that were still open."""
    rows = conn.execute("SELECT id, content, metadata FROM session_events WHERE episode_id IS NULL")
    EVENT_FTS.index(conn, [(r[0], turn_text(r[1], json.loads(r[2] or "{}"))) for r in rows])


# When a session last heard a turn, so the scheduler can end idle sessions with one indexed
# query (the partial index holds open sessions only; the expression is the sweep's own).
_SESSION_IDLE = """
ALTER TABLE sessions ADD COLUMN last_event_at TEXT;
UPDATE sessions SET last_event_at = (
    SELECT MAX(MAX(e.timestamp), MAX(e.created_at)) FROM session_events e
    WHERE e.session_pk = sessions.id);
CREATE INDEX sessions_open_idle ON sessions(persona_id, COALESCE(last_event_at, started_at))
    WHERE ended_at IS NULL
"""


# Two partial indexes, both small (only the rows they describe), measured at 100k memories by
# bench/dashboard.py:
# - closed facts (superseded or past their validity) per persona: the count read every row of
#   the persona (134 ms). Its WHERE must stay identical to COUNT_CLOSED in store/sqlite/overview.py.
# - the notes consolidated from an episode (SessionStore.notes_of_episode, source_ref = episode):
#   each lookup read every row of the persona (~40 ms per episode; a session page of 11 episodes
#   took 0.9 s).
_DASHBOARD_INDEXES = """
CREATE INDEX memories_closed ON memories(persona_id)
    WHERE status = 'active' AND (superseded_by IS NOT NULL OR valid_until IS NOT NULL);
CREATE INDEX memories_source_ref ON memories(persona_id, source_ref)
    WHERE source_ref IS NOT NULL
"""


# api_keys.prefix held the first 12 characters of each key in plain text; it now holds a
# fingerprint, the first 8 hex digits of the key's SHA-256 (store/sqlite/keys.py).
_KEY_FINGERPRINTS = """
UPDATE api_keys SET prefix = substr(key_hash, 1, 8)
"""


# Job leases (docs/jobs.md): a claim names its worker and holds until ``lease_until`` (wall
# time, renewed by the worker's heartbeat); any process takes back a job whose lease expired.
# ``periodic_claims`` lets one process per interval run the scheduler's duties.
_JOB_LEASES = """
ALTER TABLE jobs ADD COLUMN worker TEXT;
ALTER TABLE jobs ADD COLUMN lease_until TEXT;
CREATE INDEX jobs_leases ON jobs(lease_until) WHERE status = 'running';
CREATE TABLE periodic_claims (
    name     TEXT PRIMARY KEY,
    next_due TEXT NOT NULL,
    worker   TEXT NOT NULL
)
"""


# Provenance for forgetting: a state value names the session it was learned from, and an
# evolution's version row names the memory that caused it (store/sqlite/erase.py). Older rows:
# state keeps no source (kept when a session is deleted); a cause is filled in where exact (a
# supersede's after-image; an extend written with the only memory evolved at that instant).
_FORGET_PROVENANCE = """
ALTER TABLE user_state_history ADD COLUMN source_session TEXT;
ALTER TABLE persona_state_history ADD COLUMN source_session TEXT;
CREATE INDEX user_state_session ON user_state_history(persona, source_session)
    WHERE source_session IS NOT NULL;
CREATE INDEX persona_state_session ON persona_state_history(persona, source_session)
    WHERE source_session IS NOT NULL;
ALTER TABLE memory_versions ADD COLUMN cause TEXT;
UPDATE memory_versions SET cause = json_extract(after, '$.superseded_by')
    WHERE change = 'supersede' AND changed_by = 'evolution';
UPDATE memory_versions SET cause = (
    SELECT m.key FROM memories m JOIN memories o ON o.persona_id = m.persona_id
    WHERE o.id = memory_versions.memory_id AND m.evolved_at = memory_versions.changed_at)
    WHERE change = 'extend' AND changed_by = 'evolution' AND (
        SELECT COUNT(*) FROM memories m JOIN memories o ON o.persona_id = m.persona_id
        WHERE o.id = memory_versions.memory_id AND m.evolved_at = memory_versions.changed_at
    ) = 1;
CREATE INDEX memory_versions_cause ON memory_versions(cause) WHERE cause IS NOT NULL
"""


# Ids a client sees (a turn's ``event_id`` in search sources, an episode's id, a job's id, an API
# key's id) must never name another row later. A plain ``INTEGER PRIMARY KEY`` takes the
# largest id in the table + 1, so after a purge erased the newest rows their ids went to the
# next rows written; AUTOINCREMENT never hands out an id again. SQLite cannot add it to a
# table, so each is rebuilt from its own current definition (columns added by later
# migrations included) and its indexes recreated. The ids a purge erased before this
# migration are not known any more: numbering continues after the largest id still stored.
_AUTOINCREMENT_TABLES = ("session_events", "episodes", "jobs", "api_keys")
_ROWID_KEY = re.compile(r"\bid(\s+)INTEGER PRIMARY KEY\b(?!\s+AUTOINCREMENT)")


def _autoincrement_ids(conn: sqlite3.Connection) -> None:
    for table in _AUTOINCREMENT_TABLES:
        ddl = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()[0]
        rebuilt, found = _ROWID_KEY.subn(r"id\1INTEGER PRIMARY KEY AUTOINCREMENT", ddl, count=1)
        if not found:
            continue  # already AUTOINCREMENT
        temp = f"{table}__autoincrement"
        rebuilt = re.sub(rf"^CREATE TABLE\s+\"?{table}\"?", f"CREATE TABLE {temp}", rebuilt)
        indexes = [
            r[0]
            for r in conn.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                "AND sql IS NOT NULL",
                (table,),
            )
        ]
        columns = ", ".join(f'"{r[1]}"' for r in conn.execute(f'PRAGMA table_info("{table}")'))
        conn.execute(rebuilt)
        conn.execute(f"INSERT INTO {temp} ({columns}) SELECT {columns} FROM {table}")
        conn.execute(f"DROP TABLE {table}")
        conn.execute(f"ALTER TABLE {temp} RENAME TO {table}")
        for index in indexes:
            conn.execute(index)
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"foreign keys broken after the rebuild: {broken[:5]}")


# Which model made each stored vector, found without reading the vectors: a start-up check
# (service/reindex.check_embedder) seeks any vector not of the recorded model in three index
# lookups, so a folder written by two embedders (a server left running through an earlier
# reindex) is refused at once instead of comparing two models in its searches.
_VECTOR_MODEL_INDEXES = """
CREATE INDEX memory_vectors_model ON memory_vectors(model_id);
CREATE INDEX event_vectors_model ON event_vectors(model_id);
CREATE INDEX episode_vectors_model ON episode_vectors(model_id)
"""


# A fact that closed another by contradiction (``superseded_by``) is valid from the moment it
# closed it: evolution now gives a successor without a start of its own that start
# (store/sqlite/memory_evolution.py); older successors get the earliest ``valid_until`` of the
# facts they closed, unless their own end is not after it. Timestamps are ISO text in UTC, so
# text order is time order. The same statement runs on PostgreSQL (its migration 22).
SUCCESSOR_STARTS = """
UPDATE memories SET valid_from = closed.start
FROM (SELECT superseded_by AS successor, MIN(valid_until) AS start FROM memories
      WHERE superseded_by IS NOT NULL AND valid_until IS NOT NULL
      GROUP BY superseded_by) AS closed
WHERE memories.key = closed.successor AND memories.valid_from IS NULL
    AND (memories.valid_until IS NULL OR memories.valid_until > closed.start)
"""


# How a session was ended (model.SessionEnd: client, new_session, idle, import), written in the
# transaction that ends it. Sessions ended before this was recorded keep NULL (shown as
# unknown): nothing tells the three ends apart afterwards. The same statement runs on
# PostgreSQL (its migration 23).
SESSION_ENDED_BY = """
ALTER TABLE sessions ADD COLUMN ended_by TEXT
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core", _script(_CORE)),
    Migration(2, "memory_fts", _fts),
    Migration(3, "context_state_blocks", _script(_CONTEXT)),
    Migration(4, "jobs", _script(_JOBS)),
    Migration(5, "sessions_episodes", _script(_SESSIONS)),
    Migration(6, "episode_event_fts", _episode_fts),
    # A tag filter scanned json_each over every row of the persona (86 ms at 100k).
    Migration(7, "memory_tags", _script(_TAGS)),
    Migration(8, "embedder", _script(_EMBEDDER)),
    Migration(9, "open_turns_fts", _open_turns_fts),
    Migration(10, "session_idle", _script(_SESSION_IDLE)),
    Migration(11, "dashboard_indexes", _script(_DASHBOARD_INDEXES)),
    Migration(12, "job_leases", _script(_JOB_LEASES)),
    Migration(13, "key_fingerprints", _script(_KEY_FINGERPRINTS)),
    # The notes' keyword index keyed by persona (store/sqlite/fts.py): a search walks only its
    # persona's rows instead of joining every matching row of every persona.
    Migration(14, "persona_keyed_fts", MEMORY_FTS.key_by_persona),
    # PostgreSQL's row-level security (store/postgres/rls.py); one SQLite file has no roles to
    # wall, so here the number is only kept in step.
    Migration(15, "persona_walls", _script("SELECT 1")),
    Migration(16, "forget_provenance", _script(_FORGET_PROVENANCE)),
    # 17-19 are PostgreSQL's own (store/postgres/migrations.py).
    Migration(20, "autoincrement_ids", _autoincrement_ids, rebuilds=True),
    Migration(21, "vector_model_indexes", _script(_VECTOR_MODEL_INDEXES)),
    Migration(22, "successor_starts", _script(SUCCESSOR_STARTS)),
    Migration(23, "session_ended_by", _script(SESSION_ENDED_BY)),
)


def applied_migrations(conn: sqlite3.Connection) -> list[int]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return [row[0] for row in conn.execute("SELECT number FROM schema_migrations ORDER BY number")]


def apply_migrations(conn: sqlite3.Connection, *, upto: int | None = None) -> list[int]:
    """Apply every pending migration (each in its own transaction); returns the numbers applied."""
    done = set(applied_migrations(conn))
    applied = []
    for migration in MIGRATIONS:
        if migration.number in done or (upto is not None and migration.number > upto):
            continue
        if migration.rebuilds:
            conn.execute("PRAGMA foreign_keys = OFF")
        try:
            if _apply(conn, migration):
                applied.append(migration.number)
        finally:
            if migration.rebuilds:
                conn.execute("PRAGMA foreign_keys = ON")
    return applied


def _apply(conn: sqlite3.Connection, migration: Migration) -> bool:
    """One migration in its own transaction; False when another process applied it first."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute(
            "SELECT 1 FROM schema_migrations WHERE number = ?", (migration.number,)
        ).fetchone():  # another process applied it
            conn.execute("COMMIT")
            return False
        migration.apply(conn)
        conn.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) "
            "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))",
            (migration.number, migration.name),
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    logger.info("applied migration %04d_%s", migration.number, migration.name)
    return True

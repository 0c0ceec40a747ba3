"""The SQL text of the numbered schema migrations (data: ``migrations.py`` numbers and runs
them). Never edit a released migration's text: add the next one. Where PostgreSQL runs the
same statements, its migrations import them from here."""

from __future__ import annotations

CORE = """
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

CONTEXT = """
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

JOBS = """
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

SESSIONS = """
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


TAGS = """
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
EMBEDDER = """
CREATE TABLE embedder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    model_id    TEXT NOT NULL,
    dim         INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
)
"""


# When a session last heard a turn, so the scheduler can end idle sessions with one indexed
# query (the partial index holds open sessions only; the expression is the sweep's own).
SESSION_IDLE = """
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
DASHBOARD_INDEXES = """
CREATE INDEX memories_closed ON memories(persona_id)
    WHERE status = 'active' AND (superseded_by IS NOT NULL OR valid_until IS NOT NULL);
CREATE INDEX memories_source_ref ON memories(persona_id, source_ref)
    WHERE source_ref IS NOT NULL
"""


# api_keys.prefix held the first 12 characters of each key in plain text; it now holds a
# fingerprint, the first 8 hex digits of the key's SHA-256 (store/sqlite/keys.py).
KEY_FINGERPRINTS = """
UPDATE api_keys SET prefix = substr(key_hash, 1, 8)
"""


# Job leases (docs/jobs.md): a claim names its worker and holds until ``lease_until`` (wall
# time, renewed by the worker's heartbeat); any process takes back a job whose lease expired.
# ``periodic_claims`` lets one process per interval run the scheduler's duties.
JOB_LEASES = """
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
FORGET_PROVENANCE = """
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


# Which model made each stored vector, found without reading the vectors: a start-up check
# (service/reindex.check_embedder) seeks any vector not of the recorded model in three index
# lookups, so a folder written by two embedders (a server left running through an earlier
# reindex) is refused at once instead of comparing two models in its searches.
VECTOR_MODEL_INDEXES = """
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


# A fact contradicted before it began was closed at its successor's created_at, before its own
# valid_from (an inverted window, which the API and import refuse): it never held, and is now
# closed where it would have begun (service/evolution._close_time). Rows stored before are
# given that empty window, so an export of them imports. Times are fixed-width UTC text on
# both stores. The same statement runs on PostgreSQL (its migration 24).
EMPTY_UNSTARTED_WINDOWS = """
UPDATE memories SET valid_until = valid_from
WHERE valid_from IS NOT NULL AND valid_until IS NOT NULL AND valid_until < valid_from
"""

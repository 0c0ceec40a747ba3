"""The rows a persona's use leaves in a PostgreSQL database at an older schema, written with
plain SQL as the code of that version wrote them (today's store expects the latest schema), for
the upgrade tests (tests/integration/test_postgres_upgrades*.py; what the upgrade must leave of
them: pg_upgrade_checks.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import psycopg

from omoide.embed.hashing import HashEmbedder
from omoide.engine.lang import normalise
from omoide.service.auth import hash_key
from omoide.store.postgres.migrations import MIGRATIONS
from omoide.store.postgres.rls import CROSS_PERSONA, bind_session
from omoide.store.sqlite import fts_terms
from omoide.store.sqlite.fts_terms import words_body

NUMBERS = [m.number for m in MIGRATIONS]
START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
T0, T1, T2 = ("2026-01-02T09:00:00+00:00", "2026-01-03T09:00:00+00:00", "2026-01-04T09:00:00+00:00")
RIN_KEY = "omo_rin_upgrade-test-key-0123456789"
OLD_RIN_KEY = "omo_rin_upgrade-test-key-revoked"
HARU_KEY = "omo_haru_upgrade-test-key-0123456789"
EMBEDDER = HashEmbedder()

# (key, persona, content, tags, valid_until, superseded_by, status)
MEMORIES = (
    (
        "mem_osaka",
        "rin",
        "Rin lives in Osaka near the river",
        ["home", "travel"],
        None,
        None,
        "active",
    ),
    ("mem_tokyo", "rin", "Rin lives in Tokyo", ["home"], T1, "mem_osaka", "active"),
    ("mem_cafe", "rin", "Rin drinks café au lait every morning", ["food"], None, None, "active"),
    ("mem_ja", "rin", "らうらうは大阪の川の近くに住んでいる", [], None, None, "active"),
    ("mem_cat", "rin", "Rin had a cat named Tama", ["pets"], None, None, "tombstoned"),
    ("mem_haru", "haru", "Haru lives in Osaka too", ["home"], None, None, "active"),
)
TURNS = (
    (1, "Ken", "user", "We went hiking on Mount Rokko and saw the whole bay"),
    (2, "Rin", "assistant", "The view over the bay from Rokko must have been lovely"),
)
EPISODE = "Ken told Rin about a hike on Mount Rokko with a view over the bay"


@dataclass(frozen=True)
class Rewrite:
    """A column of rows written before migration ``number`` that the migration rewrites."""

    number: int
    table: str
    column: str


# What the migrations document changing in rows that exist (each checked on its own); columns a
# migration adds are not compared, they did not exist before it. A new migration that rewrites
# stored values adds its entry here, and its check to pg_upgrade_checks.check_rewrites.
REWRITES = (
    Rewrite(13, "api_keys", "prefix"),  # the key's fingerprint
    Rewrite(19, "memories_fts", "body"),  # Latin diacritics folded
    Rewrite(19, "memories_fts", "words"),  # generated from body
    Rewrite(22, "memories", "valid_from"),  # a successor starts when it closed its predecessor
)


@contextmanager
def owner(url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(url, autocommit=True) as raw:
        bind_session(raw, CROSS_PERSONA)
        yield raw


def _insert(raw: psycopg.Connection[Any], sql: str, params: tuple[Any, ...]) -> int:
    """Runs one ``INSERT`` and returns the new row's id."""
    return raw.execute(sql + " RETURNING id", params).fetchone()[0]


def _embed(raw: psycopg.Connection[Any], owner: str, rowid: int, text: str) -> None:
    """The vector row of one ``owner`` row (a memory, event or episode): ``{owner}_vectors``,
    keyed by ``{owner}_id``, as the embedder wrote it."""
    vector = "[" + ",".join(repr(float(x)) for x in EMBEDDER.embed_passages([text])[0]) + "]"
    raw.execute(
        f"INSERT INTO {owner}_vectors ({owner}_id, model_id, dim, vector) "
        "VALUES (%s, %s, %s, %s::vector)",
        (rowid, EMBEDDER.model_id, EMBEDDER.dim, vector),
    )


def _words(text: str, upto: int) -> str:
    """The words table's body as the code at schema ``upto`` wrote it: Latin diacritics kept
    before migration 19 (which folds the rows written before it)."""
    if upto >= 19:
        return words_body(normalise(text))
    with mock.patch.object(fts_terms, "fold_latin", lambda run: run):
        return words_body(normalise(text))


def _index(raw: psycopg.Connection[Any], name: str, rowid: int, text: str, upto: int) -> None:
    """Both keyword index rows of one row (``FtsIndex.index``: rowid and body only; from
    migration 17 a trigger fills their persona)."""
    raw.execute(
        f"INSERT INTO {name}_fts (rowid, body) VALUES (%s, %s)", (rowid, _words(text, upto))
    )
    raw.execute(
        f"INSERT INTO {name}_fts_tri (rowid, body) VALUES (%s, %s)", (rowid, normalise(text))
    )


def write_rows(raw: psycopg.Connection[Any], upto: int) -> None:
    """What two personas' use leaves in a database at schema ``upto``: memories with their
    strength, versions, links, vectors, tags and keyword rows; API keys; then, as far as the
    tables exist, blocks and state, a job, a session with turns and an episode, the
    embedder's record and a periodic claim."""

    def at(number: int) -> bool:
        return upto >= number

    persona = {
        name: _insert(raw, "INSERT INTO personas (name, created_at) VALUES (%s, %s)", (name, T0))
        for name in ("rin", "haru")
    }
    for key, name, revoked in (
        (RIN_KEY, "rin", None),
        (OLD_RIN_KEY, "rin", T1),
        (HARU_KEY, "haru", None),
    ):
        raw.execute(
            "INSERT INTO api_keys (key_hash, prefix, persona_id, is_admin, created_at, "
            "revoked_at) VALUES (%s, %s, %s, 0, %s, %s)",
            (hash_key(key), hash_key(key)[:8] if at(13) else key[:12], persona[name], T0, revoked),
        )
    memory: dict[str, int] = {}
    for key, name, content, tags, until, successor, status in MEMORIES:
        pid = persona[name]
        memory[key] = mid = _insert(
            raw,
            "INSERT INTO memories (key, persona_id, content, kind, importance, tags, "
            "created_at, updated_at, valid_until, superseded_by, status) "
            "VALUES (%s, %s, %s, 'fact', 0.6, %s, %s, %s, %s, %s, %s)",
            (key, pid, content, json.dumps(tags), T0, T0, until, successor, status),
        )
        raw.execute(
            "INSERT INTO memory_strength (memory_id, strength, stability, last_decay_at) "
            "VALUES (%s, 1.0, 2.5, %s)",
            (mid, T0),
        )
        raw.execute(
            "INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, "
            "before, after) VALUES (%s, 1, 'create', 'user', %s, NULL, %s)",
            (mid, T0, json.dumps({"content": content, "tags": tags}, ensure_ascii=False)),
        )
        _embed(raw, "memory", mid, content)
        if at(2) and status == "active":  # a tombstone leaves the keyword index
            _index(raw, "memories", mid, content, upto)
        if at(7):  # before, migration 7 fills the table from the tags column
            for tag in tags:
                raw.execute(
                    "INSERT INTO memory_tags (memory_id, persona_id, tag) VALUES (%s, %s, %s)",
                    (mid, pid, tag),
                )
    # evolution closed Tokyo with Osaka (its version row names its cause from migration 16)
    raw.execute(
        "INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, "
        "before, after" + (", cause" if at(16) else "") + ") VALUES (%s, 2, 'supersede', "
        "'evolution', %s, '{}', %s" + (", 'mem_osaka'" if at(16) else "") + ")",
        (memory["mem_tokyo"], T1, json.dumps({"superseded_by": "mem_osaka", "valid_until": T1})),
    )
    raw.execute(
        "INSERT INTO memory_links (a, b, link_type, weight, co_activation_count, last_activated) "
        "VALUES (%s, %s, 'SEMANTIC', 0.4, 2, %s)",
        (memory["mem_osaka"], memory["mem_ja"], T1),
    )
    if at(22):  # before, migration 22 gives the successor this start
        raw.execute("UPDATE memories SET valid_from = %s WHERE key = 'mem_osaka'", (T1,))
    if at(3):
        raw.execute(
            "INSERT INTO memory_blocks (persona_id, block_name, content, block_type, "
            "max_tokens, priority, metadata, created_at, updated_at) "
            "VALUES (%s, 'user_model', 'Ken likes green tea', 'custom', 500, 0, '{}', %s, %s)",
            (persona["rin"], T0, T0),
        )
        for table, key, old, new in (
            ("user_state_history", "city", "Tokyo", "Osaka"),
            ("persona_state_history", "mood", "calm", "cheerful"),
        ):
            raw.execute(
                f"INSERT INTO {table} (persona, key, value, valid_from, valid_until, created_at) "
                "VALUES ('rin', %s, %s, %s, %s, %s)",
                (key, old, T0, T1, T0),
            )
            raw.execute(
                f"INSERT INTO {table} (persona, key, value, valid_from, created_at"
                + (", source_session" if at(16) else "")
                + ") VALUES ('rin', %s, %s, %s, %s"
                + (", 's1'" if at(16) else "")
                + ")",
                (key, new, T1, T1),
            )
    if at(4):
        raw.execute(
            "INSERT INTO jobs (persona_id, kind, payload, status, max_attempts, run_after, "
            "created_at) VALUES (%s, 'evolve', %s, 'pending', 5, %s, %s)",
            (persona["rin"], json.dumps({"key": "mem_cafe"}), T0, T0),
        )
    if at(5):
        _write_session(raw, persona["rin"], memory["mem_osaka"], upto)
    if at(8):
        raw.execute(
            "INSERT INTO embedder (id, model_id, dim, recorded_at) VALUES (1, %s, %s, %s)",
            (EMBEDDER.model_id, EMBEDDER.dim, T0),
        )
    if at(12):
        raw.execute(
            "INSERT INTO periodic_claims (name, next_due, worker) VALUES ('decay', %s, 'w1')",
            (T2,),
        )


def _write_session(raw: psycopg.Connection[Any], pid: int, source: int, upto: int) -> None:
    """Session ``s1``, ended, with two turns segmented into one episode (the source of
    ``mem_osaka``), and session ``s2``, still open with no turn."""

    session = _insert(
        raw,
        "INSERT INTO sessions (persona_id, session_id, started_at, ended_at, metadata, "
        "segmented_upto_seq) VALUES (%s, 's1', %s, %s, '{}', 2)",
        (pid, T0, T1),
    )
    raw.execute(
        "INSERT INTO sessions (persona_id, session_id, started_at, metadata) "
        "VALUES (%s, 's2', %s, '{}')",
        (pid, T2),
    )
    if upto >= 10:
        raw.execute("UPDATE sessions SET last_event_at = %s WHERE id = %s", (T0, session))
    if upto >= 23:
        raw.execute("UPDATE sessions SET ended_by = 'client' WHERE id = %s", (session,))
    events = []
    for seq, speaker, role, content in TURNS:
        event = _insert(
            raw,
            "INSERT INTO session_events (session_pk, persona_id, seq, speaker, role, content, "
            "timestamp, metadata, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, '{}', %s)",
            (session, pid, seq, speaker, role, content, T0, T0),
        )
        events.append(event)
        _embed(raw, "event", event, content)
        if upto >= 6:
            _index(raw, "session_events", event, content, upto)
    episode = _insert(
        raw,
        "INSERT INTO episodes (session_pk, persona_id, first_event_id, last_event_id, "
        "first_seq, last_seq, content, topic, started_at, ended_at, created_at, "
        "consolidated_at) VALUES (%s, %s, %s, %s, 1, 2, %s, 'hiking', %s, %s, %s, %s)",
        (session, pid, events[0], events[-1], EPISODE, T0, T0, T0, T1),
    )
    raw.execute(
        "UPDATE session_events SET episode_id = %s WHERE session_pk = %s", (episode, session)
    )
    _embed(raw, "episode", episode, EPISODE)
    if upto >= 6:
        _index(raw, "episodes", episode, EPISODE, upto)
    raw.execute(
        "INSERT INTO memory_sources (memory_id, event_id) VALUES (%s, %s)", (source, events[0])
    )
    raw.execute(  # the note consolidated from the episode
        "UPDATE memories SET source = 'consolidation', source_ref = %s WHERE id = %s",
        (str(episode), source),
    )

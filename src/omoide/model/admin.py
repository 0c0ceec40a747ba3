"""Personas, API keys, erasures, dashboard summaries and the embedder record."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from omoide.errors import InvalidInput
from omoide.model.episodes import SessionEnd

__all__ = [
    "MAX_NAME_CHARS",
    "NAME_PATTERN",
    "NAME_RULE",
    "PERSONA_NAME",
    "SCRUB_PENDING_MEANS",
    "ApiKeyRecord",
    "Erased",
    "KeyInfo",
    "KeywordHit",
    "PersonaSummary",
    "RecordedEmbedder",
    "SessionRow",
    "StaleRow",
    "check_persona_name",
]

# A name a caller chooses: a persona, a block, a memory key (an import checks one as a name).
# Defined here, the lowest layer, because the store checks a persona name too; the services'
# patterns (service/validate/patterns.py) and the HTTP schemas take these, never a copy.
MAX_NAME_CHARS = 64
NAME_PATTERN = f"^[A-Za-z0-9_-]{{1,{MAX_NAME_CHARS}}}$"
NAME_RULE = f"1-{MAX_NAME_CHARS} ASCII letters, digits, '_' or '-'"
PERSONA_NAME = re.compile(NAME_PATTERN)


def check_persona_name(name: str) -> str:
    """The one persona-name check: :data:`NAME_PATTERN`. The refused name is shown as every
    refusal echoes what was sent (``engine.errors.quoted``: JSON's quotes, cut at
    ``ECHO_CHARS``), not in Python's repr whole: ``omoide stats --persona`` with 300
    characters echoed all of them; the error's ``persona`` field holds it bare
    (``engine.errors.spelled``)."""
    if not isinstance(name, str) or not PERSONA_NAME.fullmatch(name):  # "ab\n" too
        from omoide.engine.errors import quoted, spelled  # stdlib only; late: model is a leaf

        raise InvalidInput(
            f"invalid persona name {quoted(name)}: use {NAME_RULE}",
            persona=spelled(name) if isinstance(name, str) else None,
        )
    return name


class ApiKeyRecord:
    __slots__ = ("id", "is_admin", "key_hash", "persona")

    def __init__(self, id: int, key_hash: str, persona: str | None, is_admin: bool) -> None:
        self.id, self.key_hash, self.persona, self.is_admin = id, key_hash, persona, is_admin


@dataclass(frozen=True)
class KeyInfo:
    """One API key as a list shows it: never the key, only its id and non-secret fingerprint."""

    id: int
    fingerprint: str
    persona: str | None
    is_admin: bool
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


# what ``scrub_pending`` means, in the one wording every reader gets (the CLI's output and
# stderr, the HTTP schema, MCP's text, the dashboard), each adding who scrubs the files next
SCRUB_PENDING_MEANS = (
    "no read finds its text any more, but it is still in the data folder's files (a read of an "
    "older snapshot holds them, or the folder refused writes; with PostgreSQL, the VACUUM of "
    "its tables could not run yet)"
)


@dataclass(frozen=True)
class Erased:
    """What an erasure removed: counts, and the keys of the memories purged by name. A
    memory's purge also names the sessions whose turns it was drawn from (``said_in``): the
    conversations, not erased, that may still hold its words."""

    memories: int = 0
    keys: tuple[str, ...] = ()
    sessions: int = 0
    events: int = 0
    episodes: int = 0
    jobs: int = 0  # background jobs queued or running for it, dropped (a persona's erasure)
    said_in: tuple[str, ...] = ()
    # committed (no read finds the text), but the text may still be in the data folder's
    # files: their scrub is retried in the background until it succeeds
    scrub_pending: bool = False


@dataclass(frozen=True)
class Purged:
    """A memory's purge: the remainders erased with it (``also``: evolution's split-off parts,
    holding part of its text) and the sessions whose turns it was drawn from (``said_in``),
    kept: the words may still be there, erased only by erasing the session."""

    also: tuple[str, ...] = ()
    said_in: tuple[str, ...] = ()
    scrub_pending: bool = False  # as :attr:`Erased.scrub_pending`


@dataclass(frozen=True)
class KeywordHit:
    rowid: int
    score: float  # coverage: the row's summed BM25 over the query's total idf; higher is better


@dataclass(frozen=True)
class PersonaSummary:
    name: str
    created_at: datetime
    active: int
    closed: int  # active but superseded or past their validity
    tombstoned: int
    episodes: int
    queue: int  # pending + running jobs (periodic maintenance excluded)
    last_activity: datetime | None


@dataclass(frozen=True)
class SessionRow:
    session_id: str
    started_at: datetime
    ended_at: datetime | None
    turns: int
    episodes: int
    ended_by: SessionEnd | None = None  # None while open or when unknown


@dataclass(frozen=True)
class RecordedEmbedder:
    model_id: str
    dim: int
    recorded_at: str


@dataclass(frozen=True)
class StaleRow:
    """A row whose vector is missing or from another model: its id and what was embedded."""

    id: int
    content: str
    speaker: str
    metadata: dict[str, Any]

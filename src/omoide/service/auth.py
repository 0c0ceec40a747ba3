"""API keys: generation, hashing, lookup and the persona check (DESIGN §Auth).

Keys are 32 random bytes shown once; only their SHA-256 is stored (a key has full entropy, so
a slow hash adds nothing) and the stored hash is compared in constant time. A persona may hold
several keys (issued and revoked over the API or the CLI); every request looks its key up, so a
revocation takes effect on the next request of every transport. There is one admin key: the
one the server started with (``OMOIDE_ADMIN_KEY`` or ``<data>/admin_key``); any other is revoked
at start. The admin key is never logged.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from omoide.clock import Clock
from omoide.engine.counts import how_many
from omoide.engine.errors import named
from omoide.errors import Forbidden, InvalidInput, Unauthorized
from omoide.model import KeyInfo, Persona
from omoide.stopping import DaemonWrite
from omoide.store.port import Store

__all__ = ["MIN_ADMIN_KEY_CHARS", "AuthService", "IssuedKey", "Principal", "hash_key"]

logger = logging.getLogger(__name__)

ADMIN_KEY_FILE = "admin_key"
MIN_ADMIN_KEY_CHARS = 16
LAST_USE_EVERY = timedelta(minutes=1)
"""``last_used_at`` is written at most this often per key (a read-mostly API stays read-only)."""
KEY_USE_WAIT_S = 2.0
"""How long a stop waits for the key uses noted but not written yet (:meth:`AuthService.flush`)."""


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _new_key(kind: str) -> str:
    return f"omo_{kind}_{secrets.token_urlsafe(32)}"


@dataclass(frozen=True)
class Principal:
    """Who a request is: the admin, or one persona."""

    is_admin: bool
    persona: str | None

    def require_persona(self, persona: str) -> None:
        """403 unless this key may act for ``persona`` (the admin may act for any)."""
        if not self.is_admin and self.persona != persona:
            raise Forbidden(
                f"this API key does not grant access to persona {named(persona)}", persona=persona
            )

    def require_admin(self) -> None:
        if not self.is_admin:
            raise Forbidden("this action needs the admin key")


@dataclass(frozen=True)
class IssuedKey:
    """A key just issued: the only time ``api_key`` is visible."""

    api_key: str
    info: KeyInfo


class AuthService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._touched: dict[int, datetime] = {}  # key id → when this process last wrote it
        self._touched_lock = threading.Lock()
        # The write happens off the request's path: a request never waits for the write lock
        # (a background job may hold it) just to note that a key was used. The uses noted and
        # not written yet, written by one daemon thread that ends once none is left
        # (``stopping.DaemonWrite``: a write waiting for the lock never holds up the exit).
        self._unwritten: dict[int, datetime] = {}
        self._recorder: DaemonWrite | None = None

    def ensure_admin_key(self, data_dir: Path, configured: str | None) -> Path | None:
        """Make this start's admin key the only valid one; returns the file of a newly
        generated key (its path is shown, never the key), else None.

        ``OMOIDE_ADMIN_KEY`` wins when set (at least :data:`MIN_ADMIN_KEY_CHARS` characters).
        Otherwise a key is generated on first start and written to ``<data>/admin_key`` with
        mode 0600. Every other admin key (a replaced ``OMOIDE_ADMIN_KEY``) is revoked.
        """
        if configured is not None:
            configured = configured.strip()
            if len(configured) < MIN_ADMIN_KEY_CHARS:
                raise InvalidInput(
                    f"OMOIDE_ADMIN_KEY must be at least {MIN_ADMIN_KEY_CHARS} characters "
                    "(e.g. the output of `openssl rand -base64 32`)"
                )
            self._sole_admin(configured)
            return None
        path = data_dir / ADMIN_KEY_FILE
        if path.exists():
            self._sole_admin(_key_in_file(path))
            return None
        key = _new_key("admin")
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key + "\n")
        self._sole_admin(key)
        return path

    def _sole_admin(self, key: str) -> None:
        revoked = self.store.keys.make_sole_admin(hash_key(key), now=self.clock.now())
        if revoked:
            logger.info(
                "revoked %s: the server runs with a new one", how_many(revoked, "earlier admin key")
            )

    def create_persona(self, name: str) -> tuple[Persona, str]:
        """A new persona and its API key (the only time the key is visible)."""
        key = _new_key("p")
        persona = self.store.create_persona(name, now=self.clock.now(), key_hash=hash_key(key))
        logger.info("created persona %s", name)
        return persona, key

    def create_keyless_persona(self, name: str) -> Persona:
        """A new persona with no key yet: ``omoide import`` issues it (:meth:`issue_key`) once
        the file is in, so a key is printed only for a persona that holds its data, and an
        import killed half-way (a persona with no key at all) is told apart on its re-run."""
        persona = self.store.create_persona(name, now=self.clock.now())
        logger.info("created persona %s", name)
        return persona

    # -- key lifecycle -------------------------------------------------------------------

    def issue_key(self, persona: str) -> IssuedKey:
        """Another key for ``persona`` (its other keys keep working)."""
        persona_id = self.store.get_persona(persona).id
        key = _new_key("p")
        info = self.store.keys.add(
            key_hash=hash_key(key), persona_id=persona_id, is_admin=False, now=self.clock.now()
        )
        logger.info("issued key %d for persona %s", info.id, persona)
        return IssuedKey(api_key=key, info=info)

    def list_keys(self, persona: str) -> list[KeyInfo]:
        return self.store.keys.of_persona(self.store.get_persona(persona).id)

    def revoke_key(self, persona: str, key_id: int) -> KeyInfo:
        """Revoke one key of ``persona``; the next request made with it gets a 401."""
        info = self.store.keys.revoke(
            self.store.get_persona(persona).id, key_id, now=self.clock.now()
        )
        logger.info("revoked key %d of persona %s", key_id, persona)
        return info

    def _used(self, key_id: int) -> None:
        """Record the key's use, at most once per :data:`LAST_USE_EVERY` (in this process
        without touching the database; across processes by the UPDATE's own condition)."""
        now = self.clock.now()
        with self._touched_lock:
            last = self._touched.get(key_id)
            if last is not None and now - last < LAST_USE_EVERY:
                return
            self._touched[key_id] = now
            self._unwritten[key_id] = now
            if self._recorder is None:
                self._recorder = DaemonWrite(self._record_uses, name="omoide-key-use")

    def _record_uses(self) -> None:
        """Write the uses noted, one at a time, until none is left."""
        while True:
            with self._touched_lock:
                if not self._unwritten:
                    self._recorder = None
                    return
                key_id, now = next(iter(self._unwritten.items()))
            self._record_use(key_id, now)
            with self._touched_lock:  # (unless a later use was noted meanwhile)
                if self._unwritten.get(key_id) == now:
                    del self._unwritten[key_id]

    def _record_use(self, key_id: int, now: datetime) -> None:
        try:
            self.store.keys.touch(key_id, now=now, every=LAST_USE_EVERY)
        except Exception:  # a closed or busy database: the next use records it
            with self._touched_lock:
                self._touched.pop(key_id, None)
            logger.warning("could not record the use of key %d", key_id, exc_info=True)

    def flush(self, wait_s: float = 10.0) -> bool:
        """Wait until every key use noted is written (a stop: for :data:`KEY_USE_WAIT_S`;
        tests), for ``wait_s`` seconds at most; whether they were. A use not written by then
        (the database's write lock held all along: a job's handler a stop left, another
        process) is said and not kept: the key's ``last_used_at`` stays the time written
        before, as after any use a busy or closed database refused (before: the wait raised a
        TimeoutError after 10 s, and the close of the store behind it never ran)."""
        with self._touched_lock:
            recorder = self._recorder
        return recorder is None or recorder.wait(wait_s, late=lambda: self._say_unwritten(wait_s))

    def _say_unwritten(self, wait_s: float) -> None:
        """One line for the key uses :meth:`flush` did not see written in ``wait_s``."""
        with self._touched_lock:
            left = len(self._unwritten)
        logger.warning(
            "the last use of %s was not written within %g s (the database's write lock "
            "stayed held): its last_used_at keeps the time written before",
            how_many(left, "key"),
            wait_s,
        )

    def sign_in(self, key: str) -> tuple[Principal, int]:
        """A raw key (the dashboard's sign-in form) → its principal and key id (401 if unknown).

        The dashboard's session cookie keeps only the id, never the key.
        """
        digest = hash_key(key.strip())
        record = self.store.find_api_key(digest) if key.strip() else None
        if record is None or not hmac.compare_digest(record.key_hash, digest):
            raise Unauthorized("unknown or revoked key")
        self._used(record.id)
        return Principal(is_admin=record.is_admin, persona=record.persona), record.id

    def principal_for_key_id(self, key_id: int) -> Principal:
        """The principal of a signed-in session's key (401 once the key is revoked)."""
        record = self.store.find_api_key_by_id(key_id)
        if record is None:
            raise Unauthorized("the key of this session is no longer valid; sign in again")
        return Principal(is_admin=record.is_admin, persona=record.persona)

    def authenticate(self, authorization: str | None) -> Principal:
        """Resolve an ``Authorization: Bearer <key>`` header (401 when missing or unknown)."""
        if not authorization:
            raise Unauthorized("missing Authorization header; send 'Authorization: Bearer <key>'")
        scheme, _, key = authorization.partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise Unauthorized("Authorization must be 'Bearer <key>'")
        digest = hash_key(key.strip())
        record = self.store.find_api_key(digest)
        if record is None or not hmac.compare_digest(record.key_hash, digest):
            raise Unauthorized("unknown or revoked API key")
        self._used(record.id)
        return Principal(is_admin=record.is_admin, persona=record.persona)


def _key_in_file(path: Path) -> str:
    """The admin key ``<data>/admin_key`` holds, held to ``OMOIDE_ADMIN_KEY``'s rule. Why: a
    file edited to a short password ("x"), or left empty, was the admin key as it stood (an
    empty one too), where the variable refuses fewer than :data:`MIN_ADMIN_KEY_CHARS`
    characters; one that is no UTF-8 text (a file copied over it) stopped start-up with a
    traceback."""
    try:
        key = path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        key = ""
    if len(key) < MIN_ADMIN_KEY_CHARS:
        raise InvalidInput(
            f"{path} holds no admin key of at least {MIN_ADMIN_KEY_CHARS} characters of text; "
            "delete the file to have a new key generated at the next start, or write a "
            "longer one in it (e.g. the output of `openssl rand -base64 32`)"
        )
    return key

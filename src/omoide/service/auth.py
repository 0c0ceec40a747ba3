"""API keys: generation, hashing, lookup and the persona check (DESIGN §Auth).

Keys are 32 random bytes shown once; only their SHA-256 is stored (a key has full entropy, so
a slow hash adds nothing) and the stored hash is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from omoide.clock import Clock
from omoide.errors import Forbidden, Unauthorized
from omoide.model import Persona
from omoide.store.port import Store

__all__ = ["AuthService", "Principal", "hash_key"]

logger = logging.getLogger(__name__)

ADMIN_KEY_FILE = "admin_key"


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
            raise Forbidden(f"this API key does not grant access to persona {persona!r}",
                            persona=persona)

    def require_admin(self) -> None:
        if not self.is_admin:
            raise Forbidden("this action needs the admin key")


class AuthService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def ensure_admin_key(self, data_dir: Path, configured: str | None) -> str | None:
        """Make sure an admin key exists; returns a newly generated key (to print once) or None.

        ``OMOIDE_ADMIN_KEY`` wins when set. Otherwise a key is generated on first start and
        written to ``<data>/admin_key`` with mode 0600.
        """
        if configured:
            if self.store.find_api_key(hash_key(configured)) is None:
                self._store_admin(configured)
            return None
        path = data_dir / ADMIN_KEY_FILE
        if path.exists():
            key = path.read_text(encoding="utf-8").strip()
            if self.store.find_api_key(hash_key(key)) is None:
                self._store_admin(key)
            return None
        key = _new_key("admin")
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key + "\n")
        self._store_admin(key)
        return key

    def _store_admin(self, key: str) -> None:
        self.store.add_api_key(key_hash=hash_key(key), prefix=key[:12], persona=None,
                               is_admin=True, now=self.clock.now())

    def create_persona(self, name: str) -> tuple[Persona, str]:
        """A new persona and its API key (the only time the key is visible)."""
        persona = self.store.create_persona(name, now=self.clock.now())
        key = _new_key("p")
        self.store.add_api_key(key_hash=hash_key(key), prefix=key[:12], persona=name,
                               is_admin=False, now=self.clock.now())
        logger.info("created persona %s", name)
        return persona, key

    def sign_in(self, key: str) -> tuple[Principal, int]:
        """A raw key (the dashboard's sign-in form) → its principal and key id (401 if unknown).

        The dashboard's session cookie keeps only the id, never the key.
        """
        digest = hash_key(key.strip())
        record = self.store.find_api_key(digest) if key.strip() else None
        if record is None or not hmac.compare_digest(record.key_hash, digest):
            raise Unauthorized("unknown or revoked key")
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
        return Principal(is_admin=record.is_admin, persona=record.persona)

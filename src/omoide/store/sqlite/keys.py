"""API keys after creation: list, issue, revoke, last use, and the one admin key.

A key row stores the SHA-256 of the key and a *fingerprint* (the first 8 hex digits of that
hash) in ``prefix``: enough to tell keys apart in a list, nothing of the key itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from omoide.clock import iso
from omoide.errors import InvalidInput, NotFound
from omoide.model import KeyInfo
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt, dt_or_none

__all__ = ["FINGERPRINT_HEX", "KeyStore", "fingerprint"]

FINGERPRINT_HEX = 8


def fingerprint(key_hash: str) -> str:
    """The non-secret identifier shown for a key: the head of its SHA-256 (hex)."""
    return key_hash[:FINGERPRINT_HEX]


_SELECT = (
    "SELECT k.id, k.prefix, k.is_admin, k.created_at, k.last_used_at, k.revoked_at, "
    "p.name FROM api_keys k LEFT JOIN personas p ON p.id = k.persona_id "
)


def _info(row: tuple) -> KeyInfo:
    return KeyInfo(
        id=row[0],
        fingerprint=row[1],
        is_admin=bool(row[2]),
        created_at=dt(row[3]),
        last_used_at=dt_or_none(row[4]),
        revoked_at=dt_or_none(row[5]),
        persona=row[6],
    )


class KeyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(
        self, *, key_hash: str, persona_id: int | None, is_admin: bool, now: datetime
    ) -> KeyInfo:
        with self.db.write() as conn:
            cur = conn.execute(
                "INSERT INTO api_keys (key_hash, prefix, persona_id, is_admin, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (key_hash, fingerprint(key_hash), persona_id, int(is_admin), iso(now)),
            )
            row = conn.execute(_SELECT + "WHERE k.id = ?", (cur.lastrowid,)).fetchone()
        return _info(row)

    def of_persona(self, persona_id: int) -> list[KeyInfo]:
        """Every key of a persona, revoked ones included, oldest first."""
        rows = (
            self.db.conn()
            .execute(_SELECT + "WHERE k.persona_id = ? ORDER BY k.id", (persona_id,))
            .fetchall()
        )
        return [_info(r) for r in rows]

    def revoke(self, persona_id: int, key_id: int, *, now: datetime) -> KeyInfo:
        """Revoke one key of the persona (a key already revoked keeps its first date)."""
        with self.db.write() as conn:
            found = conn.execute(
                "SELECT 1 FROM api_keys WHERE id = ? AND persona_id = ?", (key_id, persona_id)
            ).fetchone()
            if found is None:
                raise NotFound(f"this persona has no key {key_id}", key_id=key_id)
            conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (iso(now), key_id),
            )
            row = conn.execute(_SELECT + "WHERE k.id = ?", (key_id,)).fetchone()
        return _info(row)

    def touch(self, key_id: int, *, now: datetime, every: timedelta) -> bool:
        """Record a use of the key unless one was recorded less than ``every`` ago."""
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND "
                "(last_used_at IS NULL OR last_used_at <= ?)",
                (iso(now), key_id, iso(now - every)),
            )
        return cur.rowcount > 0

    def make_sole_admin(self, key_hash: str, *, now: datetime) -> int:
        """Make ``key_hash`` the one valid admin key: add it (or lift its revocation) and
        revoke every other admin key. Returns how many keys were revoked."""
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT id, is_admin FROM api_keys WHERE key_hash = ?", (key_hash,)
            ).fetchone()
            if row is None:  # OR IGNORE: servers sharing a database may start together
                conn.execute(
                    "INSERT OR IGNORE INTO api_keys (key_hash, prefix, persona_id, is_admin, "
                    "created_at) VALUES (?, ?, NULL, 1, ?)",
                    (key_hash, fingerprint(key_hash), iso(now)),
                )
            elif not row[1]:
                raise InvalidInput("OMOIDE_ADMIN_KEY is the key of a persona; choose another")
            else:
                conn.execute("UPDATE api_keys SET revoked_at = NULL WHERE id = ?", (row[0],))
            cur = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE is_admin = 1 "
                "AND key_hash != ? AND revoked_at IS NULL",
                (iso(now), key_hash),
            )
        return max(cur.rowcount, 0)

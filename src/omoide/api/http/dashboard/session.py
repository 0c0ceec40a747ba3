"""Signed dashboard sessions and CSRF tokens (stdlib HMAC-SHA256, no key in the cookie).

A session cookie is ``<key id>.<nonce>.<expires>.<signature>``: the id of the API key that
signed in (so revoking the key ends its sessions), a random nonce, the expiry as Unix seconds,
and an HMAC over the three with the server secret. The secret is 32 random bytes kept in
``<data>/dashboard_secret`` (mode 0600), so sessions survive a restart, unless
``OMOIDE_DASHBOARD_SECRET`` gives one (the same on every server behind a load balancer). The
CSRF token of a session is an HMAC of its nonce; the sign-in form gets one bound to a
short-lived nonce cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

__all__ = ["SECRET_FILE", "SESSION_SECONDS", "SessionSigner", "WebSession", "load_secret"]

SECRET_FILE = "dashboard_secret"
SESSION_SECONDS = 12 * 3600


def load_secret(data_dir: Path, configured: str | None = None) -> bytes:
    """The server secret: ``configured`` (``OMOIDE_DASHBOARD_SECRET``, shared by servers behind
    one load balancer; no file is written), else ``<data>/dashboard_secret``, created (mode
    0600) on first use."""
    if configured:
        return configured.encode("utf-8")
    path = data_dir / SECRET_FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    secret = secrets.token_bytes(32)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(secret.hex() + "\n")
    return secret


@dataclass(frozen=True)
class WebSession:
    key_id: int
    nonce: str
    expires: int  # Unix seconds


class SessionSigner:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _mac(self, purpose: str, text: str) -> str:
        return hmac.new(self._secret, f"{purpose}:{text}".encode(), hashlib.sha256).hexdigest()

    def issue(self, key_id: int, *, now: datetime) -> tuple[str, WebSession]:
        """A new session for ``key_id``: the cookie value and what it carries."""
        session = WebSession(
            key_id=key_id,
            nonce=secrets.token_urlsafe(18),
            expires=int(now.timestamp()) + SESSION_SECONDS,
        )
        body = f"{session.key_id}.{session.nonce}.{session.expires}"
        return f"{body}.{self._mac('session', body)}", session

    def read(self, value: str | None, *, now: datetime) -> WebSession | None:
        """The session in a cookie, or None when it is missing, forged or expired."""
        if not value or value.count(".") != 3:
            return None
        body, _, signature = value.rpartition(".")
        if not _same(signature, self._mac("session", body)):
            return None
        key_id, nonce, expires = body.split(".")
        if not (key_id.isdigit() and expires.isdigit()) or int(expires) <= now.timestamp():
            return None
        return WebSession(key_id=int(key_id), nonce=nonce, expires=int(expires))

    def csrf_token(self, nonce: str) -> str:
        return self._mac("csrf", nonce)

    def csrf_ok(self, nonce: str, token: str | None) -> bool:
        return bool(token) and _same(str(token), self.csrf_token(nonce))


def _same(given: str, expected: str) -> bool:
    """A constant-time comparison of a text a client sent with the one expected, as UTF-8
    bytes: ``hmac.compare_digest`` refuses two ``str`` with a non-ASCII character in either
    (a TypeError, a 500), and a cookie, form field or header may hold any character."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())

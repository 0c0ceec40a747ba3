"""API keys: finding one by its hash or id, and the handle that issues and revokes them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from omoide.model import ApiKeyRecord, KeyInfo


class KeyHandle(Protocol):
    """API keys after creation: issue, list, revoke, last use, the one admin key."""

    def add(
        self, *, key_hash: str, persona_id: int | None, is_admin: bool, now: datetime
    ) -> KeyInfo: ...
    def of_persona(self, persona_id: int) -> list[KeyInfo]: ...
    def revoke(self, persona_id: int, key_id: int, *, now: datetime) -> KeyInfo: ...
    def touch(self, key_id: int, *, now: datetime, every: timedelta) -> bool: ...
    def make_sole_admin(self, key_hash: str, *, now: datetime) -> int: ...


class ApiKeyStore(Protocol):
    def find_api_key(self, key_hash: str) -> ApiKeyRecord | None: ...
    def find_api_key_by_id(self, key_id: int) -> ApiKeyRecord | None: ...
    @property
    def keys(self) -> KeyHandle: ...

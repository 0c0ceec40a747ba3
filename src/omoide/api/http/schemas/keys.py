"""A persona's API keys as the key routes answer them (never the key itself, except once)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

__all__ = ["IssuedKeyOut", "KeyList", "KeyOut"]


class KeyOut(BaseModel):
    """One key, without the key: its id, fingerprint and dates."""

    key_id: int = Field(description="Id used to revoke the key.")
    fingerprint: str = Field(
        description="First 8 hex digits of the key's SHA-256: tells keys "
        "apart without revealing them."
    )
    created_at: datetime
    last_used_at: datetime | None = Field(
        description="Last request made with the key (updated at most once a minute)."
    )
    revoked_at: datetime | None


class KeyList(BaseModel):
    persona: str
    keys: list[KeyOut]


class IssuedKeyOut(KeyOut):
    persona: str
    api_key: str = Field(description="The new key: shown only in this reply.")

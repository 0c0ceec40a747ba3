"""Names and ids a caller chooses: persona, block and state-key names, session ids, external
ids, a mem0 import's user_id."""

from __future__ import annotations

import unicodedata
from typing import Any

from omoide.engine.errors import named, too_long
from omoide.errors import InvalidInput
from omoide.service.validate.patterns import (
    EXTERNAL_ID_PATTERN,
    EXTERNAL_ID_RULE,
    MAX_INT,
    MAX_STATE_KEY_CHARS,
    MAX_USER_ID_CHARS,
    MIN_INT,
    NAME_PATTERN,
    NAME_RULE,
    NON_BLANK_RULE,
    SESSION_ID_PATTERN,
    STATE_KEY_PATTERN,
    matches,
)
from omoide.service.validate.text import check_text, is_blank


def check_name(value: Any, field: str, what: str) -> str:
    """A persona name, block name or state key: 1–64 ASCII letters, digits, ``_`` or ``-``."""
    if not isinstance(value, str) or not matches(NAME_PATTERN, value):
        raise InvalidInput(
            f"{what} {named(value)} is invalid: use {NAME_RULE}",
            field=field,
        )
    return value


def check_state_key(value: Any, field: str = "key") -> str:
    """A user- or persona-state key (``STATE_KEY_PATTERN``: ``name``, ``名前``, ``prénom``), in
    NFC as every text the API reads. Keys were ASCII only, so every stored key is still one;
    case matters as before (``Name`` and ``name`` are two keys: folding them would merge keys a
    persona may already hold apart)."""
    if isinstance(value, str):
        value = unicodedata.normalize("NFC", value)
    if not isinstance(value, str) or not matches(STATE_KEY_PATTERN, value):
        raise InvalidInput(f"state key {named(value)} is invalid: {STATE_KEY_RULE}", field=field)
    return check_text(value, field)


STATE_KEY_RULE = (
    f"use 1-{MAX_STATE_KEY_CHARS} characters of any script (e.g. name or 名前) without spaces, "
    "control or invisible characters, or ASCII punctuation other than '_' and '-'"
)


def check_session_id(value: Any, field: str = "session_id") -> str:
    """A new session's id (opened, recorded by the chat proxy, imported): the pattern, and not
    '.' or '..', the dot segments every URL-normalising client rewrites (…/sessions/p/../x is
    read as …/sessions/x), so such a session could not be named in a path."""
    if not isinstance(value, str) or not matches(SESSION_ID_PATTERN, value):
        raise InvalidInput(
            f"{field} {named(value)} is invalid: use 1-128 ASCII letters, digits or _ . : @ -",
            field=field,
        )
    if value in (".", ".."):
        raise InvalidInput(
            f"{field} {named(value)} is a URL path's dot segment, which clients "
            "rewrite (…/sessions/p/../episodes is read as another path); give "
            "an id with another character",
            field=field,
        )
    return value


def check_external_id(value: Any, field: str) -> str | None:
    """A string (or an integer, kept as its text) of 1–200 characters, no control characters,
    not blank (only whitespace or invisible characters: refused as any blank text is; an
    import reads one in an older export as no id, ``transfer.records``)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and MIN_INT <= value <= MAX_INT:
        value = str(value)
    if not isinstance(value, str) or not matches(EXTERNAL_ID_PATTERN, value):
        raise InvalidInput(f"{field} must be a string of {EXTERNAL_ID_RULE}", field=field)
    if is_blank(value):
        raise InvalidInput(f"{field} {NON_BLANK_RULE}", field=field)
    return check_text(value, field)


def check_user_id(value: str | None, where: str = "user_id") -> None:
    """A mem0 import's ``user_id`` (None: every user's): 1 to :data:`MAX_USER_ID_CHARS`
    characters, refused alike over HTTP and by the CLI; ``where`` names it as the user gave
    it (``--user-id`` for the CLI)."""
    if value == "":
        raise InvalidInput(f'{where} must not be empty, got ""', field="user_id")
    if value is not None and len(value) > MAX_USER_ID_CHARS:
        raise InvalidInput(too_long(where, MAX_USER_ID_CHARS, value), field="user_id")

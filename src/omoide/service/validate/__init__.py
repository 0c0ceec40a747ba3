"""Validation of user-supplied fields: one rule per field, one clear message per mistake (422).

Every rule is defined here once, as a pattern or a bound, and used twice: by the services (for
MCP and CLI callers) and by the HTTP request models in ``api/http/schemas`` (which publish the
same patterns in the OpenAPI document). Patterns are written so that Python's ``re.fullmatch``
and an ECMA-262 ``^…$`` match read them alike: explicit character classes, never ``\\s``, whose
meaning differs between the two.

Bounds (docs/api.md lists them):

- timestamps: ISO-8601 dates (00:00 UTC), or times with their UTC offset (a time of day
  without one is refused, :func:`check_timestamp`), years 1900–9999 once normalised to UTC;
  the time something happened (a turn said, a session started, a row of an import written)
  at most ``MAX_AHEAD`` (24 hours) after the server's clock (:func:`check_happened`); a
  validity window (``valid_from``/``valid_until``) describes the world and may lie in any
  future year;
- text: kept in Unicode NFC (:func:`nfc`, applied where user text enters: the HTTP body
  guard, the MCP tool call, the import's records); no NUL (U+0000; PostgreSQL cannot store
  it) and no lone surrogate; text that must not be blank holds a character that shows (not
  only whitespace or invisible format characters);
- integers a caller sends are within ±(2^53 − 1), exact in any JSON parser; floats are finite;
- persona names and block names: 1–64 of ``A-Z a-z 0-9 _ -``; state keys: 1–64 characters
  of any script but whitespace, controls, invisibles and the ASCII punctuation other than ``_``
  and ``-`` (case matters: ``Name`` and ``name`` are two);
- session ids: 1–128 of ``A-Z a-z 0-9 _ . : @ -``;
- tags: 1–64 characters without a comma (surrounding whitespace is trimmed), at most 20;
- tags and emotion labels hold no control character (C0, tab and newline included; DEL; C1;
  the bidirectional embeddings, overrides and isolates), state values none but tab and line
  breaks (:func:`check_controls`); an import replaces each with a space
  (:func:`replace_controls`) and counts them in its report;
- external ids: 1–200 characters, no control characters; a mem0 import's ``user_id``: 1–200
  characters;
- metadata: a JSON object of at most 10,000 characters as JSON, nested at most 8 deep.

Also the one place where the engine's errors meet the caller: :func:`engine_input`.

The rules live in modules by what they check: ``patterns`` (the bounds and patterns), ``text``
(storable, not blank), ``names`` (names and ids), ``page`` (a list's limit and offset),
``memory_fields`` (content, kind, tags, emotion, weights), ``times`` (timestamps, windows),
``metadata`` (JSON values) and ``engine_input``; this package re-exports them all.
"""

from __future__ import annotations

from omoide.service.validate.engine_input import (
    engine_input,
)
from omoide.service.validate.memory_fields import (
    check_content,
    check_emotion_type,
    check_kind,
    check_tags,
    check_unit_interval,
    split_search_tags,
)
from omoide.service.validate.metadata import (
    check_metadata,
    holds_nul,
    non_finite_at,
    nul_at,
)
from omoide.service.validate.names import (
    check_external_id,
    check_name,
    check_session_id,
    check_state_key,
    check_user_id,
)
from omoide.service.validate.page import MAX_LIST_LIMIT, check_page
from omoide.service.validate.patterns import (
    BEYOND_C0_CONTROLS,
    CONTROLS,
    EMOTION_PATTERN,
    EXTERNAL_ID_PATTERN,
    EXTERNAL_ID_RULE,
    INVISIBLE,
    MAX_AHEAD,
    MAX_DATE_RANGE_CHARS,
    MAX_EMOTION_CHARS,
    MAX_EXTERNAL_ID_CHARS,
    MAX_FILTER_TAGS,
    MAX_INT,
    MAX_METADATA_CHARS,
    MAX_METADATA_DEPTH,
    MAX_NAME_CHARS,
    MAX_STATE_KEY_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TIMESTAMP_CHARS,
    MAX_USER_ID_CHARS,
    MAX_YEAR,
    MIN_INT,
    MIN_YEAR,
    NAME_PATTERN,
    NAME_RULE,
    NON_BLANK_PATTERN,
    NON_BLANK_RULE,
    SESSION_ID_PATTERN,
    STATE_KEY_PATTERN,
    TAG_PATTERN,
    TAGS_QUERY_PATTERN,
    TEXT_CONTROLS,
    TIMESTAMP_PATTERN,
    WHITESPACE,
    matches,
)
from omoide.service.validate.text import (
    check_controls,
    check_non_blank,
    check_text,
    is_blank,
    nfc,
    replace_controls,
    replace_unstorable,
)
from omoide.service.validate.times import (
    check_happened,
    check_timestamp,
    check_window,
    check_window_fits,
)

__all__ = [
    "BEYOND_C0_CONTROLS",
    "CONTROLS",
    "EMOTION_PATTERN",
    "EXTERNAL_ID_PATTERN",
    "EXTERNAL_ID_RULE",
    "INVISIBLE",
    "MAX_AHEAD",
    "MAX_DATE_RANGE_CHARS",
    "MAX_EMOTION_CHARS",
    "MAX_EXTERNAL_ID_CHARS",
    "MAX_FILTER_TAGS",
    "MAX_INT",
    "MAX_LIST_LIMIT",
    "MAX_METADATA_CHARS",
    "MAX_METADATA_DEPTH",
    "MAX_NAME_CHARS",
    "MAX_STATE_KEY_CHARS",
    "MAX_TAGS",
    "MAX_TAG_CHARS",
    "MAX_TIMESTAMP_CHARS",
    "MAX_USER_ID_CHARS",
    "MAX_YEAR",
    "MIN_INT",
    "MIN_YEAR",
    "NAME_PATTERN",
    "NAME_RULE",
    "NON_BLANK_PATTERN",
    "NON_BLANK_RULE",
    "SESSION_ID_PATTERN",
    "STATE_KEY_PATTERN",
    "TAGS_QUERY_PATTERN",
    "TAG_PATTERN",
    "TEXT_CONTROLS",
    "TIMESTAMP_PATTERN",
    "WHITESPACE",
    "check_content",
    "check_controls",
    "check_emotion_type",
    "check_external_id",
    "check_happened",
    "check_kind",
    "check_metadata",
    "check_name",
    "check_non_blank",
    "check_page",
    "check_session_id",
    "check_state_key",
    "check_tags",
    "check_text",
    "check_timestamp",
    "check_unit_interval",
    "check_user_id",
    "check_window",
    "check_window_fits",
    "engine_input",
    "holds_nul",
    "is_blank",
    "matches",
    "nfc",
    "non_finite_at",
    "nul_at",
    "replace_controls",
    "replace_unstorable",
    "split_search_tags",
]

"""Shared pieces of the HTTP contract: the one error body, the documented error statuses, and
the constrained string types every request model reuses.

The patterns come from ``service/validate/patterns.py`` (one definition per rule, used by the
services too); models are strict (no coercion of ``"1"`` to 1 or of ``1`` to ``true``) and refuse
unknown fields, so the OpenAPI document describes exactly what the server accepts.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, with_config
from typing_extensions import TypeAliasType

from omoide.model import SCRUB_PENDING_MEANS
from omoide.service.validate import (
    EXTERNAL_ID_PATTERN,
    EXTERNAL_ID_RULE,
    MAX_INT,
    MAX_METADATA_CHARS,
    MAX_METADATA_DEPTH,
    MAX_TAG_CHARS,
    MAX_TIMESTAMP_CHARS,
    MIN_INT,
    NAME_PATTERN,
    NAME_RULE,
    NON_BLANK_PATTERN,
    SESSION_ID_PATTERN,
    STATE_KEY_PATTERN,
    TAG_PATTERN,
)

__all__ = [
    "METADATA_DESCRIPTION",
    "STORAGE_MEANING",
    "TIMESTAMP_DESCRIPTION",
    "BlockName",
    "ErrorBody",
    "ExternalId",
    "Int64",
    "JsonValue",
    "Metadata",
    "NonBlank",
    "Number",
    "PersonaName",
    "Request",
    "Response",
    "ScrubPending",
    "SessionId",
    "StateKey",
    "Tag",
    "Timestamp",
    "UnitInterval",
    "bounded_int",
    "errors",
    "reply_shape",
]


class Request(BaseModel):
    """Base of request bodies: strict types, unknown fields refused. Patterns run on pydantic's
    Rust engine, where ``$`` is the end of the string as in JSON Schema (Python's ``re`` would
    also let a trailing newline through); the services check the same patterns with
    ``re.fullmatch``."""

    model_config = ConfigDict(strict=True, extra="forbid")


class Response(BaseModel):
    """Base of documented replies (documentation only: routes return the rendered dicts)."""

    model_config = ConfigDict(extra="allow")


def reply_shape(cls: Any) -> Any:
    """A ``TypedDict`` as a documented object inside a reply: the client
    (:mod:`omoide.client`) parses it to a plain ``dict``, as it did while the document said
    only "an object"; keys a newer server adds are kept (as :class:`Response` keeps them)."""
    return with_config(ConfigDict(extra="allow"))(cls)


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")

    code: str = Field(description="Stable machine-readable code, e.g. invalid_input.")
    message: str = Field(description="What is wrong and how to fix it.")
    field: str | None = Field(None, description="The offending field, when there is one.")


class ErrorBody(BaseModel):
    """The only error shape: ``{"error": {"code", "message", ...}}``."""

    error: ErrorDetail


_MEANING = {
    401: "No API key, or an unknown or revoked one.",
    403: "The key does not grant this persona (or this admin action).",
    404: "Unknown persona, memory, session, block … (for this persona).",
    409: "Conflicts with existing state (e.g. the persona name is taken, or a value that does not "
    "hold together with one stored: a settings pair, a memory's validity), or what the write "
    "refers to was erased by a concurrent request (nothing was written).",
    413: "The request body is larger than the server's limit (OMOIDE_MAX_BODY_BYTES; for a "
    "file import, OMOIDE_MAX_IMPORT_BYTES).",
    422: "A field or parameter is invalid, or two of the request's own values do not hold "
    "together; error.field names it.",
    429: "The chat proxy's upstream LLM is rate limiting; wait the Retry-After it gave, then "
    "retry.",
    502: "The upstream LLM failed.",
    503: "The upstream LLM is unreachable or not configured.",
    504: "The upstream LLM did not answer in time.",
}

# The statuses the storage gives, declared on every operation by the app (``app._declare``):
# every route reads the database (a key is looked up, /health pings it), and every route but
# /health may write (a recall recorded, a key's use) or spill a large sort to a temporary file.
STORAGE_MEANING = {
    503: "The database cannot serve the request now (error.code storage_unavailable): it "
    "cannot be reached or gave no connection in time, refused the statement for a reason of "
    "its own (out of memory, a timeout, a concurrent write, a read-only server), is kept "
    "locked by another program, or is damaged; the message names the cause and what to do, "
    "Retry-After when sending it again soon is likely to succeed. Nothing of it was stored.",
    507: "The disk (the data folder's or the database server's) has no room for the write "
    "(error.code storage_full); nothing of it was stored.",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` entries for the error statuses an operation can return (the storage's
    503 and 507 are declared on every operation by the app, not here)."""
    return {status: {"model": ErrorBody, "description": _MEANING[status]} for status in statuses}


PersonaName = Annotated[
    str,
    Field(pattern=NAME_PATTERN, description=f"Persona name: {NAME_RULE}."),
]
BLOCK_NAME_DESCRIPTION = f"Block name: {NAME_RULE}."
BlockName = Annotated[str, Field(pattern=NAME_PATTERN, description=BLOCK_NAME_DESCRIPTION)]
StateKey = Annotated[str, Field(pattern=STATE_KEY_PATTERN)]
SessionId = Annotated[
    str,
    Field(
        pattern=SESSION_ID_PATTERN,
        description=(
            "Session id: 1-128 ASCII letters, digits or _ . : @ -; a new session's id is not '.' "
            "or '..' "
            "(the server refuses those dot segments, which URL-normalising clients rewrite)."
        ),
    ),
]
Tag = Annotated[
    str,
    Field(
        pattern=TAG_PATTERN,
        description=(
            f"A tag: 1-{MAX_TAG_CHARS} characters without a comma; surrounding whitespace is "
            "trimmed."
        ),
    ),
]
ExternalId = Annotated[
    str,
    Field(
        pattern=EXTERNAL_ID_PATTERN,
        description=f"The caller's id of an event: {EXTERNAL_ID_RULE}, not blank.",
    ),
]
NonBlank = Annotated[str, Field(pattern=NON_BLANK_PATTERN)]
# The syntax is service/validate/patterns.py's TIMESTAMP_PATTERN; the schema names the format
# (with the range and calendar, which no pattern can state) instead of publishing a pattern that
# admits "2026-02-31".
TIMESTAMP_DESCRIPTION = (
    "ISO-8601 date or time: YYYY-MM-DD (that day at 00:00 UTC), or "
    "YYYY-MM-DD, T (or a space), HH:MM[:SS[.ffffff]] and its UTC offset, "
    "Z or ±HH:MM (t and z may be lower-case; a time of day without an "
    "offset is refused; full-width digits and signs read as ASCII), "
    "e.g. "
    "2026-03-01 or 2026-03-01T09:30:00+09:00; a real calendar day, years "
    "1900-9999 once normalised to UTC."
)
Timestamp = Annotated[
    str,
    Field(
        max_length=MAX_TIMESTAMP_CHARS,
        json_schema_extra={"format": "timestamp"},
        description=TIMESTAMP_DESCRIPTION,
    ),
]
UnitInterval = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
# an erasing reply's: the erase is committed either way (never undone, never a 503)
ScrubPending = Annotated[
    bool,
    Field(
        description=(
            "false: the erased text is nowhere in the data folder. true: the erase is "
            f"committed and {SCRUB_PENDING_MEANS}; the server retries the scrub until it "
            "succeeds. (The folder refused writes: it stopped taking them, or its disk is "
            "full. With PostgreSQL, the VACUUM of the touched tables waited for another VACUUM "
            "or index build, or the server refused it: their old row versions stay in its data "
            "files until the server's retry, or autovacuum, removes them.)"
        )
    ),
]


def _integral(value: Any) -> Any:
    """A JSON number such as ``3.0`` is the integer 3 (as JSON Schema's ``integer`` says)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def bounded_int(low: int = MIN_INT, high: int = MAX_INT) -> Any:
    """An integer from ``low`` to ``high`` (``3.0`` counts as 3)."""
    return Annotated[int, Field(ge=low, le=high), BeforeValidator(_integral)]


Int64 = bounded_int()
Number = Annotated[float, Field(ge=MIN_INT, le=MAX_INT, allow_inf_nan=False)]
# Any JSON value as the API reads it (json_body.py): numbers finite and within ±(2^53 − 1).
JsonValue = TypeAliasType(
    "JsonValue", "str | bool | Int64 | Number | list[JsonValue] | dict[str, JsonValue] | None"
)
METADATA_DESCRIPTION = (
    f"Free-form (the caller's own): any JSON object, at most {MAX_METADATA_CHARS:,} "
    f"characters as JSON, nested at most {MAX_METADATA_DEPTH} levels, finite numbers only."
)
Metadata = Annotated[dict[str, JsonValue], Field(description=METADATA_DESCRIPTION)]

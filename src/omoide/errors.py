"""One error hierarchy for the whole package.

Each error carries its HTTP status, a stable machine-readable ``code`` and structured fields.
:func:`error_body` builds the one JSON error shape, for these errors and for the few the web
framework raises; the HTTP layer and the MCP layer map errors in one place each
(``api/errors.py``); nothing below the API picks a message by inspecting error text.

The engine raises none of these: it is pure and raises ``engine.errors.EngineValueError``
(a ``ValueError``), which the service that passed the caller's value maps to ``InvalidInput``.

    OmoideError
    ├── InvalidInput        422  bad argument a user can fix
    ├── Unauthorized        401  missing or unknown API key
    ├── Forbidden           403  key does not grant this persona
    ├── NotFound            404  unknown persona / memory / block / session
    ├── Conflict            409  e.g. persona already exists
    │   └── EmbedderMismatch     the folder's vectors come from another embedding model
    ├── PayloadTooLarge     413
    ├── StorageFull         507  the disk has no room for the write
    ├── StorageUnavailable  503  the database cannot serve it now (Retry-After when soon)
    └── UpstreamUnavailable 502  a configured LLM / embedding endpoint failed
        ├── LLMOutputError      502  the LLM answered, but not in the shape asked for
        ├── UpstreamUnreachable 503  the chat proxy could not connect
        │   └── LLMNotConfigured 503  the chat proxy has no upstream LLM at all
        └── UpstreamTimeout     504  the chat proxy's upstream did not answer in time
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Conflict",
    "EmbedderMismatch",
    "Forbidden",
    "InvalidInput",
    "LLMNotConfigured",
    "LLMOutputError",
    "NotFound",
    "OmoideError",
    "PayloadTooLarge",
    "StorageFull",
    "StorageUnavailable",
    "Unauthorized",
    "UpstreamRejectedRequest",
    "UpstreamTimeout",
    "UpstreamUnavailable",
    "UpstreamUnreachable",
    "error_body",
]


def error_body(code: str, message: str, **fields: Any) -> dict[str, Any]:
    """The only JSON error shape: ``{"error": {"code", "message", ...fields}}`` (a field that
    is ``None`` is left out)."""
    return {
        "error": {
            "code": code,
            "message": message,
            **{k: v for k, v in fields.items() if v is not None},
        }
    }


class OmoideError(Exception):
    """Base of every error Omoide raises on purpose."""

    status: int = 500
    code: str = "internal"

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self.fields = {k: v for k, v in fields.items() if v is not None}

    def to_dict(self) -> dict[str, Any]:
        """This error as the one JSON error body (:func:`error_body`)."""
        return error_body(self.code, self.message, **self.fields)


class InvalidInput(OmoideError):
    """A value the caller sent is not acceptable; the message says which and why."""

    status = 422
    code = "invalid_input"


class Unauthorized(OmoideError):
    """No API key, or one that is unknown or revoked."""

    status = 401
    code = "unauthorized"


class Forbidden(OmoideError):
    """The key is valid but does not grant access to this persona or action."""

    status = 403
    code = "forbidden"


class NotFound(OmoideError):
    """The persona, memory, block, session … does not exist (for this persona)."""

    status = 404
    code = "not_found"


class Conflict(OmoideError):
    """The request conflicts with existing state (e.g. a persona name already taken)."""

    status = 409
    code = "conflict"


class EmbedderMismatch(Conflict):
    """The data folder was embedded by another model than the configured one; the message
    names both and says to run ``omoide reindex``."""

    code = "embedder_mismatch"


class PayloadTooLarge(OmoideError):
    """The request body is larger than Omoide accepts."""

    status = 413
    code = "payload_too_large"


class StorageFull(OmoideError):
    """The disk has no room for the write: the data folder's (SQLite's ``SQLITE_FULL``) or the
    PostgreSQL server's (SQLSTATE 53100 ``disk_full``); the write was rolled back, nothing of
    it is stored."""

    status = 507
    code = "storage_full"


class StorageUnavailable(OmoideError):
    """The database cannot serve the request now: a SQLite database another program kept
    locked in a write for the whole busy wait or found damaged, a SQLite data folder that
    stopped taking writes under the process (remounted read-only, a disk failing writes), no
    PostgreSQL connection within the pool's wait (the server down or refusing, or the pool
    busy), or a PostgreSQL server refusing the statement for a reason of its own, not the request's:
    out of memory, the statement cancelled (``statement_timeout``, an administrator), a write
    that conflicted with a concurrent one (serialization failure, deadlock), a read-only
    server (a standby), a privilege the database role lacks. The transaction was rolled back,
    nothing of it is stored; the message says which and what to do. ``retry_after`` (seconds,
    passed on as that header) when the same request is likely to succeed at once."""

    status = 503
    code = "storage_unavailable"

    def __init__(self, message: str, *, retry_after: str | None = None, **fields: Any) -> None:
        super().__init__(message, retry_after=retry_after, **fields)
        self.retry_after = retry_after


class UpstreamUnavailable(OmoideError):
    """A configured remote service (LLM, embedding endpoint) failed or timed out."""

    status = 502
    code = "upstream_unavailable"


class UpstreamRejectedRequest(OmoideError):
    """The chat proxy's upstream refused the relayed request as invalid (HTTP 400 or 422): a
    field relayed as the client sent it (``temperature``, ``n``, a tool …) or content the model
    cannot take. The client's to fix, so a 4xx with the upstream's message, not a 502."""

    status = 422
    code = "upstream_rejected_request"


class UpstreamRequestTooLarge(UpstreamRejectedRequest):
    """The chat proxy's upstream refused the relayed request as too large (HTTP 413): the
    client's conversation or prompt, the client's to shorten."""

    status = 413
    code = "upstream_request_too_large"


class UpstreamRateLimited(OmoideError):
    """The chat proxy's upstream is rate limiting (HTTP 429): the client should wait and retry,
    not treat it as a server failure. ``retry_after``: the upstream's ``Retry-After`` (seconds
    or an HTTP date), passed on as that header, when it sent one."""

    status = 429
    code = "upstream_rate_limited"

    def __init__(self, message: str, *, retry_after: str | None = None, **fields: Any) -> None:
        super().__init__(message, retry_after=retry_after, **fields)
        self.retry_after = retry_after


class LLMOutputError(UpstreamUnavailable):
    """The model answered, but not in the shape we asked for (e.g. no JSON in the text)."""

    code = "llm_bad_output"


class UpstreamUnreachable(UpstreamUnavailable):
    """The chat proxy's upstream LLM could not be reached, or none is configured."""

    status = 503
    code = "upstream_unreachable"


class LLMNotConfigured(UpstreamUnreachable):
    """The chat proxy was called, but no ``OMOIDE_LLM_*`` endpoint is configured."""

    code = "llm_not_configured"


class UpstreamTimeout(UpstreamUnavailable):
    """The chat proxy's upstream LLM did not answer within ``OMOIDE_LLM_TIMEOUT``."""

    status = 504
    code = "upstream_timeout"

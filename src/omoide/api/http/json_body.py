"""What the API reads as a JSON body, strictly: :func:`strict_json` refuses what Python's
``json`` would let through to a route (NaN, numbers beyond ±(2^53 − 1), lone surrogates, deep
nesting, NUL, a key twice), naming where; :func:`is_json_media` and :func:`encoding_refusal`
say which bodies are read as JSON at all. The guard (``guard.py``) checks every API body with
them; the streamed import checks its own."""

from __future__ import annotations

from typing import Any

from omoide.engine import json_text
from omoide.engine.errors import quoted, spelled
from omoide.service.validate import nul_at

__all__ = ["MAX_JSON_DEPTH", "JsonRefused", "encoding_refusal", "is_json_media", "strict_json"]


MAX_JSON_DEPTH = json_text.BODY_DEPTH


class JsonRefused(ValueError):
    """A JSON text that the API refuses; the message says why (``field``: where, when known)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def strict_json(raw: bytes) -> Any:
    """Parse ``raw`` as the API reads JSON (:func:`omoide.engine.json_text.loads`, nested at
    most :data:`MAX_JSON_DEPTH` deep, no NUL), or raise :class:`JsonRefused`."""
    try:
        value = json_text.loads(raw, max_depth=MAX_JSON_DEPTH)
    except json_text.JsonTextError as exc:
        raise JsonRefused(f"request body: {exc.message}", field=exc.field) from None
    if b"\\u0000" in raw:  # only an escape can put NUL in a JSON string
        _refuse_nul(value)
    return value


def _refuse_nul(value: Any) -> None:
    """Refuse the first key or string holding U+0000, named by its path (``events[0].content``)."""
    path = nul_at(value)
    if path is not None:
        raise JsonRefused(
            f"{spelled(path) if path else 'request body'} holds a NUL character (\\u0000), "
            "which text "
            "cannot hold; remove it",
            field=path or None,
        )


def is_json_media(content_type: str | None) -> bool:
    """Whether a body of this content type is read as JSON (FastAPI reads one without a
    content type as JSON)."""
    if content_type is None:
        return True
    media = content_type.split(";")[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


def encoding_refusal(coding: str | None) -> str | None:
    """Why a body sent with ``Content-Encoding: coding`` is refused, or None (none, or
    ``identity``): the server reads bodies as sent, and a gzip body was refused as "not UTF-8
    (byte 1)", which did not say why."""
    if coding is None or coding.strip().lower() in ("", "identity"):
        return None
    return (
        f"the request body is sent with Content-Encoding {quoted(coding.strip())}, which "
        "this server does not decode: send it uncompressed, without that header"
    )

"""What the chat proxy says of its upstream's failures, written once: an error status as the
error whose HTTP status the client gets (:func:`rejected`), and httpx's failures (no
connection, no answer in time) as Omoide's (:class:`Translated`). Messages never carry the key
or the prompt."""

from __future__ import annotations

from typing import Any

import httpx

from omoide.errors import (
    OmoideError,
    UpstreamRateLimited,
    UpstreamRejectedRequest,
    UpstreamRequestTooLarge,
    UpstreamTimeout,
    UpstreamUnavailable,
    UpstreamUnreachable,
)
from omoide.llm._http import own_message
from omoide.llm.chat_reply import retry_after_header, status_words

__all__ = ["Translated", "rejected"]


def rejected(provider: str, shown_url: str, response: httpx.Response) -> OmoideError:
    """The error for an upstream's error status: what the status means, then the
    upstream's own words when it gave some (an empty ``{}``, an empty body or an HTML page
    add nothing: they were shown as they came, "(HTTP 429): {}")."""
    status = response.status_code
    said = own_message(response)

    def message(meaning: str, advice: str = "") -> str:
        words = f": {said}" if said else ""
        shown = status_words(status)
        return f"{provider} at {shown_url} {meaning} ({shown}){words}{advice}"

    if status == 429:
        retry_after = retry_after_header(response.headers)
        wait = (
            f"; retry after {retry_after}" + (" s" if retry_after.isdigit() else "")
            if retry_after
            else "; wait before retrying"
        )
        return UpstreamRateLimited(
            message("is rate limiting requests", wait),
            retry_after=retry_after,
            provider=provider,
            upstream_status=status,
        )
    if status == 413:
        return UpstreamRequestTooLarge(
            message("refused the request as too large", "; shorten the conversation or the prompt"),
            provider=provider,
            upstream_status=status,
        )
    if status in (408, 504):
        return UpstreamTimeout(
            message("timed out"),
            provider=provider,
            url=shown_url,
            upstream_status=status,
        )
    if status in (400, 422):
        return UpstreamRejectedRequest(
            message("refused the request as invalid", "; fix the request"),
            provider=provider,
            upstream_status=status,
        )
    meaning, advice = _OTHER_STATUSES.get(status) or (
        ("failed", "") if status >= 500 else ("refused the request", "")
    )
    return UpstreamUnavailable(
        message(meaning, advice),
        provider=provider,
        url=shown_url,
        upstream_status=status,
    )


# What an upstream's other error statuses mean for the proxy, and what to do (401, 403 and 404
# say Omoide's own upstream settings are wrong, not the client's request).
_OTHER_STATUSES = {
    401: ("refused Omoide's API key for it", "; check OMOIDE_LLM_API_KEY"),
    403: ("refused Omoide's API key for it", "; check OMOIDE_LLM_API_KEY"),
    404: ("does not know the model or path", "; check OMOIDE_LLM_BASE_URL and OMOIDE_LLM_MODEL"),
    500: ("failed with an internal error", ""),
    502: ("is unavailable (its own gateway failed)", ""),
    503: ("is unavailable or overloaded", "; try again later"),
    529: ("is overloaded", "; try again later"),
}


class Translated:
    """``async with``: httpx failures become our 503 / 504 / 502 errors."""

    def __init__(self, provider: str, shown_url: str, timeout_s: float) -> None:
        self.provider = provider
        self.shown_url = shown_url
        self.timeout_s = timeout_s

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        up = self
        fields = {"provider": up.provider, "url": up.shown_url}
        if isinstance(exc, httpx.TimeoutException):
            raise UpstreamTimeout(
                f"{up.provider} at {up.shown_url} did not answer within "
                f"{up.timeout_s:g}s (OMOIDE_LLM_TIMEOUT)",
                **fields,
            ) from exc
        if isinstance(exc, httpx.TransportError):
            raise UpstreamUnreachable(
                f"{up.provider} at {up.shown_url} is unreachable ({type(exc).__name__})", **fields
            ) from exc
        if isinstance(exc, httpx.HTTPError):
            raise UpstreamUnavailable(
                f"{up.provider} at {up.shown_url}: {type(exc).__name__}", **fields
            ) from exc
        return False

"""One JSON POST endpoint with retries: the transport half shared by the LLM adapters.

Retries 429, 5xx, connection errors and timeouts with exponential backoff (honouring a capped
``Retry-After``) and translates every httpx failure into UpstreamUnavailable here, once. Messages
name the provider, the URL (without credentials or query) and the attempts; they never carry the
API key or the prompt, and nothing here logs request or response text.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

import httpx

from omoide.engine.counts import how_many
from omoide.engine.json_text import loads_upstream
from omoide.errors import UpstreamUnavailable
from omoide.tls import shared_ssl_context

if TYPE_CHECKING:
    from omoide.llm.base import LLMConfig

__all__ = ["Channel", "Exchange", "llm_channel", "own_message", "server_message"]

logger = logging.getLogger(__name__)

RETRY_AFTER_CAP_S = 30.0  # a server asking for minutes would stall a worker; we give up sooner
BACKOFF_CAP_S = 30.0
JITTER = 0.1  # up to +10% so parallel workers do not retry in lockstep
MESSAGE_LIMIT = 300  # characters of a server's error text kept in our message
HINTS = {
    401: "check OMOIDE_LLM_API_KEY",
    403: "check OMOIDE_LLM_API_KEY",
    404: "check OMOIDE_LLM_BASE_URL and OMOIDE_LLM_MODEL",
}


@dataclass(frozen=True)
class Exchange:
    """The final, non-retryable response of a POST (2xx or a 4xx other than 429)."""

    response: httpx.Response
    attempts: int

    @property
    def status(self) -> int:
        return self.response.status_code


@dataclass(frozen=True)
class _Failure:
    """A failed attempt: what went wrong, the HTTP status if any, the server's wait."""

    text: str
    status: int | None = None
    wait_s: float | None = None
    retryable: bool = True
    cause: Exception | None = None  # the httpx exception, chained onto ours


class Channel:
    """POSTs JSON to one URL for one provider/model, with retries and error translation."""

    def __init__(
        self,
        *,
        provider: str,
        model: str,
        url: str,
        headers: Mapping[str, str],
        timeout_s: float,
        max_retries: int,
        backoff_s: float,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.provider = provider
        self.model = model
        self.url = url
        self.shown_url = public_url(url)
        self._timeout_s = timeout_s
        self._max_retries = max_retries
        self._backoff_s = backoff_s
        self._sleep = sleep
        self._client = httpx.Client(
            headers=dict(headers),
            timeout=httpx.Timeout(timeout_s),
            transport=transport,
            verify=shared_ssl_context(),
        )

    def close(self) -> None:
        self._client.close()

    def post(self, body: Mapping[str, Any]) -> Exchange:
        """POST until a non-retryable answer; UpstreamUnavailable when attempts run out."""
        started = time.monotonic()
        attempts = 0
        while True:
            attempts += 1
            outcome = self._attempt(body)
            if isinstance(outcome, httpx.Response):
                self._log(started, str(outcome.status_code), attempts)
                return Exchange(outcome, attempts)
            if attempts > self._max_retries or not outcome.retryable:
                self._log(started, str(outcome.status or "error"), attempts)
                raise UpstreamUnavailable(
                    f"{self.provider} at {self.shown_url} is unavailable after "
                    f"{how_many(attempts, 'attempt')}: {outcome.text}",
                    provider=self.provider,
                    url=self.shown_url,
                    status=outcome.status,
                    attempts=attempts,
                ) from outcome.cause
            delay = self._delay(attempts, outcome.wait_s)
            logger.debug("%s retry %d in %.2fs: %s", self.provider, attempts, delay, outcome.text)
            self._sleep(delay)

    def _attempt(self, body: Mapping[str, Any]) -> httpx.Response | _Failure:
        """One request: the final response, or why it is worth another try."""
        try:
            response = self._client.post(self.url, json=body)
        except httpx.TimeoutException as exc:
            return _Failure(
                f"timed out after {self._timeout_s:g}s ({type(exc).__name__})", cause=exc
            )
        except httpx.TransportError as exc:
            return _Failure(f"connection failed ({type(exc).__name__}: {exc})", cause=exc)
        except httpx.HTTPError as exc:  # decoding, redirects: the same request fails the same way
            return _Failure(f"{type(exc).__name__}: {exc}", retryable=False, cause=exc)
        code = response.status_code
        if code == 429 or code >= 500:
            return _Failure(
                f"HTTP {code}: {server_message(response)}",
                status=code,
                wait_s=retry_after(response.headers.get("retry-after")),
            )
        return response

    def _delay(self, attempt: int, server_wait: float | None) -> float:
        if server_wait is not None:
            return min(server_wait, RETRY_AFTER_CAP_S)
        base = min(self._backoff_s * 2 ** (attempt - 1), BACKOFF_CAP_S)
        return base * (1.0 + JITTER * random.random())

    def _log(self, started: float, status: str, attempts: int) -> None:
        logger.info(
            "llm call provider=%s model=%s status=%s attempts=%d duration_ms=%d",
            self.provider,
            self.model,
            status,
            attempts,
            round((time.monotonic() - started) * 1000),
        )

    def rejected(self, exchange: Exchange) -> UpstreamUnavailable:
        """The error for a 4xx answer (bad key, unknown model …), with the server's own words."""
        hint = HINTS.get(exchange.status, "")
        message = (
            f"{self.provider} at {self.shown_url} rejected the request: HTTP {exchange.status}: "
            f"{server_message(exchange.response)}"
        )
        return UpstreamUnavailable(
            message + (f" ({hint})" if hint else ""),
            provider=self.provider,
            url=self.shown_url,
            status=exchange.status,
            attempts=exchange.attempts,
        )

    def json_of(self, exchange: Exchange) -> dict[str, Any]:
        """The 2xx body as a JSON object, or UpstreamUnavailable when it is not one."""
        try:
            data = loads_upstream(exchange.response.content)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's reach
            data = None
        if not isinstance(data, dict):
            raise UpstreamUnavailable(
                f"{self.provider} at {self.shown_url} answered HTTP {exchange.status} "
                "with a body that is not a JSON object",
                provider=self.provider,
                url=self.shown_url,
                status=exchange.status,
            )
        return data


def server_message(response: httpx.Response) -> str:
    """The error text a server sent: its own message (:func:`own_message`) or the raw body."""
    text = own_message(response)
    if text is None:
        text = " ".join((response.text.strip() or response.reason_phrase or "no details").split())
    return text[:MESSAGE_LIMIT]


def own_message(response: httpx.Response) -> str | None:
    """The words a server gave for its error, or None when it gave none: ``error.message`` (or
    ``error.type``) of the OpenAI and Anthropic shape, a JSON ``error`` string, ``message`` or
    ``detail``; else a short plain-text body. An empty object, ``{}``, a JSON body holding no
    text, an HTML page or a longer body are no message (they read as noise, e.g. "(HTTP 429):
    {}")."""
    try:
        data = loads_upstream(response.content)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's reach
        return _plain_text(response.text)
    text: Any = None
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            text = error.get("message") or error.get("type")
        elif isinstance(error, str):
            text = error
        if not text:
            text = data.get("message") or data.get("detail")
    if not isinstance(text, str):
        return None
    text = " ".join(text.split())
    return text[:MESSAGE_LIMIT] or None


_PLAIN_TEXT_LIMIT = 200  # a longer body without structure is a page, not a message


def _plain_text(body: str) -> str | None:
    """A body that is not JSON, when it reads as a message: short, printable, no markup."""
    text = " ".join(body.split())
    if (
        not text
        or len(text) > _PLAIN_TEXT_LIMIT
        or not text.isprintable()
        or "<" in text
        or text[0] in "{["
    ):
        return None
    return text


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def public_url(url: str) -> str:
    """The URL safe to show: no user:password, query or fragment (they may hold a key)."""
    parsed = httpx.URL(url)
    return str(parsed.copy_with(username=None, password=None, query=None, fragment=None))


def llm_channel(
    cfg: LLMConfig,
    *,
    provider: str,
    path: str,
    headers: Mapping[str, str],
    transport: httpx.BaseTransport | None,
    sleep: Callable[[float], None],
) -> Channel:
    """The channel of a chat adapter: ``path`` under the configured base URL, for the
    configured model, with the configured timeout and retries."""
    return Channel(
        provider=provider,
        model=cfg.model or "",
        url=f"{cfg.resolved_base_url()}{path}",
        headers=headers,
        timeout_s=cfg.timeout_s,
        max_retries=cfg.max_retries,
        backoff_s=cfg.backoff_s,
        transport=transport,
        sleep=sleep,
    )

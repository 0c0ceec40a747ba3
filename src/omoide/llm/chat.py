"""The chat proxy's upstream: OpenAI chat-completions requests relayed to the configured LLM.

``openai`` endpoints get the request as it came (only ``model`` is set to ``OMOIDE_LLM_MODEL``);
``anthropic`` ones get it translated to the Messages API and their answers translated back
(:mod:`omoide.llm.anthropic_chat`), streamed or not. Async (httpx), one connection pool per
upstream, no retries (the client decides whether to retry a chat turn).

Failures are translated here, once: no connection → :class:`UpstreamUnreachable` (503), no
answer in ``OMOIDE_LLM_TIMEOUT`` (or the upstream's own 408 / 504) → :class:`UpstreamTimeout`
(504). Of the upstream's statuses, those the client caused stay the client's: 429 (rate
limited) → :class:`UpstreamRateLimited` (429, with the upstream's ``Retry-After``), 413 (the
request too large) → :class:`UpstreamRequestTooLarge` (413), 400 or 422 (the request as the
client sent it is invalid for the model) → :class:`UpstreamRejectedRequest` (422). Another error
status (a 5xx; a 401, 403 or 404, which say Omoide's own upstream key or model is wrong) or a
body that is not the API's → :class:`UpstreamUnavailable` (502). Messages never carry the key
or the prompt.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import AsyncIterator
from http import HTTPStatus
from typing import Any, Protocol

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
from omoide.llm._http import own_message, public_url
from omoide.llm.anthropic_chat import (
    API_VERSION,
    StreamTranslator,
    completion_from_anthropic,
    request_to_anthropic,
)
from omoide.llm.base import LLMConfig
from omoide.tls import shared_ssl_context

__all__ = ["ChatStream", "ChatUpstream", "make_chat_upstream", "sse_events"]

logger = logging.getLogger(__name__)


class ChatStream:
    """An upstream stream whose headers arrived with a 2xx: ``chat.completion.chunk`` dicts."""

    def __init__(
        self, response: httpx.Response, chunks: AsyncIterator[dict[str, Any]], upstream: _Upstream
    ) -> None:
        self._response = response
        self._chunks = chunks
        self._upstream = upstream

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[dict[str, Any]]:
        async with self._upstream.translated():
            async for chunk in self._chunks:
                yield chunk

    async def aclose(self) -> None:
        """Close the upstream connection (also how a client disconnect cancels the call)."""
        await self._response.aclose()


class ChatUpstream(Protocol):
    name: str  # "<provider>:<model>"
    model: str

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """A ``chat.completion`` object for an OpenAI request body (``stream`` false)."""
        ...

    async def open_stream(self, body: dict[str, Any]) -> ChatStream:
        """Send a streaming request; returns once the upstream answered with a 2xx."""
        ...

    async def aclose(self) -> None: ...


class _Upstream:
    provider = ""
    path = ""

    def __init__(
        self, cfg: LLMConfig, *, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.model = cfg.model or ""
        self.name = f"{self.provider}:{self.model}"
        self.url = f"{cfg.resolved_base_url()}{self.path}"
        self.shown_url = public_url(self.url)
        self._timeout_s = cfg.timeout_s
        self._headers = self._auth_headers(cfg)
        self._transport = transport
        self._client: httpx.AsyncClient | None = None

    def _auth_headers(self, cfg: LLMConfig) -> dict[str, str]:
        raise NotImplementedError

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                headers=self._headers,
                transport=self._transport,
                timeout=httpx.Timeout(self._timeout_s),
                verify=shared_ssl_context(),
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def translated(self) -> _Translate:
        return _Translate(self)

    async def _send(self, body: dict[str, Any], *, stream: bool) -> httpx.Response:
        """POST; a non-2xx answer is read and raised as a 502 here."""
        request = self._http().build_request("POST", self.url, json=body)
        async with self.translated():
            response = await self._http().send(request, stream=stream)
            if response.status_code >= 400:
                await response.aread()
                await response.aclose()
                raise self.rejected(response)
        return response

    def rejected(self, response: httpx.Response) -> OmoideError:
        """The error for an upstream's error status: what the status means, then the
        upstream's own words when it gave some (an empty ``{}``, an empty body or an HTML page
        add nothing: they were shown as they came, "(HTTP 429): {}")."""
        status = response.status_code
        said = own_message(response)

        def message(meaning: str, advice: str = "") -> str:
            words = f": {said}" if said else ""
            return (
                f"{self.provider} at {self.shown_url} {meaning} ({_status(status)}){words}{advice}"
            )

        if status == 429:
            retry_after = _retry_after(response.headers)
            wait = (
                f"; retry after {retry_after}" + (" s" if retry_after.isdigit() else "")
                if retry_after
                else "; wait before retrying"
            )
            return UpstreamRateLimited(
                message("is rate limiting requests", wait),
                retry_after=retry_after,
                provider=self.provider,
                upstream_status=status,
            )
        if status == 413:
            return UpstreamRequestTooLarge(
                message(
                    "refused the request as too large", "; shorten the conversation or the prompt"
                ),
                provider=self.provider,
                upstream_status=status,
            )
        if status in (408, 504):
            return UpstreamTimeout(
                message("timed out"),
                provider=self.provider,
                url=self.shown_url,
                upstream_status=status,
            )
        if status in (400, 422):
            return UpstreamRejectedRequest(
                message("refused the request as invalid", "; fix the request"),
                provider=self.provider,
                upstream_status=status,
            )
        meaning, advice = _OTHER_STATUSES.get(status) or (
            ("failed", "") if status >= 500 else ("refused the request", "")
        )
        return UpstreamUnavailable(
            message(meaning, advice),
            provider=self.provider,
            url=self.shown_url,
            upstream_status=status,
        )

    def bad_reply(self, what: str) -> UpstreamUnavailable:
        return UpstreamUnavailable(
            f"{self.provider} at {self.shown_url} sent {what}",
            provider=self.provider,
            url=self.shown_url,
        )

    async def _json(self, body: dict[str, Any]) -> dict[str, Any]:
        response = await self._send(body, stream=False)
        try:
            data = response.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise self.bad_reply("a body that is not a JSON object")
        return data


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


def _status(status: int) -> str:
    """``HTTP 429 Too Many Requests`` (the standard phrase, not the upstream's)."""
    try:
        return f"HTTP {status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"HTTP {status}"


def _retry_after(headers: httpx.Headers) -> str | None:
    """The upstream's ``Retry-After`` (delay seconds or an HTTP date) as a header value safe to
    pass on, else its ``retry-after-ms`` (OpenAI) rounded up to seconds, else None."""
    value = headers.get("retry-after", "").strip()
    if value and len(value) <= 64 and value.isascii() and value.isprintable():
        return value
    millis = headers.get("retry-after-ms", "").strip()
    try:
        seconds = math.ceil(float(millis) / 1000)
    except (ValueError, OverflowError):  # not a number, nan, inf
        return None
    return str(seconds) if 0 <= seconds <= 86_400 else None


class _Translate:
    """``async with``: httpx failures become our 503 / 504 / 502 errors."""

    def __init__(self, upstream: _Upstream) -> None:
        self.upstream = upstream

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        up = self.upstream
        fields = {"provider": up.provider, "url": up.shown_url}
        if isinstance(exc, httpx.TimeoutException):
            raise UpstreamTimeout(
                f"{up.provider} at {up.shown_url} did not answer within "
                f"{up._timeout_s:g}s (OMOIDE_LLM_TIMEOUT)",
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


async def sse_events(response: httpx.Response) -> AsyncIterator[tuple[str, str]]:
    """(event name, data) of each server-sent event; the name is "" when none was given."""
    event, data = "", []
    async for line in response.aiter_lines():
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "", []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line.startswith("event:"):
            event = line[6:].strip()
    if data:
        yield event, "\n".join(data)


class OpenAIChat(_Upstream):
    provider = "openai"
    path = "/chat/completions"

    def _auth_headers(self, cfg: LLMConfig) -> dict[str, str]:
        return {"Authorization": f"Bearer {cfg.api_key}"} if cfg.api_key else {}

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        plain = {k: v for k, v in body.items() if k != "stream_options"}  # streams only
        data = await self._json({**plain, "model": self.model, "stream": False})
        if not isinstance(data.get("choices"), list) or not data["choices"]:
            # An empty list too: relayed as a 200, it broke every client reading choices[0]
            # and recorded the user's turn with no reply.
            raise self.bad_reply("an answer without choices")
        return data

    async def open_stream(self, body: dict[str, Any]) -> ChatStream:
        response = await self._send({**body, "model": self.model, "stream": True}, stream=True)
        return ChatStream(response, self._chunks(response), self)

    async def _chunks(self, response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
        if response.headers.get("content-type", "").startswith("application/json"):
            # Trigger: a server that ignores ``stream``. Outcome: its whole answer, one chunk.
            data = _object((await response.aread()).decode("utf-8", "replace"))
            if data is None or not isinstance(data.get("choices"), list):
                raise self.bad_reply("an answer without choices")
            yield _as_chunk(data)
            return
        finished = False
        async for _, data in sse_events(response):
            if data.strip() == "[DONE]":
                return
            chunk = _object(data)
            if chunk is None:
                raise self.bad_reply("a stream event that is not a JSON object")
            if "error" in chunk and "choices" not in chunk:
                raise self.bad_reply(f"an error mid-stream: {_error_text(chunk)}")
            finished = finished or any(
                isinstance(c, dict) and c.get("finish_reason") for c in chunk.get("choices") or ()
            )
            yield chunk
        if not finished:
            # Trigger: the connection closed mid-answer. Outcome: an error event, not [DONE]
            # after half a reply (which would also be recorded as the persona's turn).
            raise self.bad_reply(
                "a stream that ended before its answer did (no finish_reason, no [DONE])"
            )


class AnthropicChat(_Upstream):
    provider = "anthropic"
    path = "/v1/messages"

    def _auth_headers(self, cfg: LLMConfig) -> dict[str, str]:
        return {"x-api-key": cfg.api_key or "", "anthropic-version": API_VERSION}

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        data = await self._json(request_to_anthropic(body, self.model, stream=False))
        if not isinstance(data.get("content"), list):
            raise self.bad_reply("an answer without content")
        return completion_from_anthropic(data)

    async def open_stream(self, body: dict[str, Any]) -> ChatStream:
        response = await self._send(
            request_to_anthropic(body, self.model, stream=True), stream=True
        )
        return ChatStream(response, self._chunks(response, body), self)

    async def _chunks(
        self, response: httpx.Response, body: dict[str, Any]
    ) -> AsyncIterator[dict[str, Any]]:
        translator = StreamTranslator(
            model=self.model,
            include_usage=bool((body.get("stream_options") or {}).get("include_usage")),
        )
        async for event, data in sse_events(response):
            payload = _object(data)
            if payload is None:
                raise self.bad_reply("a stream event that is not a JSON object")
            if (event or payload.get("type")) == "error":
                raise self.bad_reply(f"an error mid-stream: {_error_text(payload)}")
            for chunk in translator.feed(payload):
                yield chunk
            if translator.done:
                return
        raise self.bad_reply("a stream that ended before its answer did (no message_stop)")


def _as_chunk(completion: dict[str, Any]) -> dict[str, Any]:
    """A whole ``chat.completion`` as one ``chat.completion.chunk``."""
    choices = [
        {
            "index": c.get("index", 0),
            "delta": c.get("message") or {},
            "finish_reason": c.get("finish_reason"),
        }
        for c in completion["choices"]
        if isinstance(c, dict)
    ]
    return {**completion, "object": "chat.completion.chunk", "choices": choices}


def _object(data: str) -> dict[str, Any] | None:
    try:
        value = json.loads(data)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _error_text(payload: dict[str, Any]) -> str:
    error = payload.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or error.get("type") or "unknown error")[:300]
    return str(error)[:300]


def make_chat_upstream(
    cfg: LLMConfig, *, transport: httpx.AsyncBaseTransport | None = None
) -> OpenAIChat | AnthropicChat | None:
    """The upstream for ``cfg.provider`` (None for "none"); ``cfg`` is checked by make_llm."""
    if cfg.provider == "openai":
        return OpenAIChat(cfg, transport=transport)
    if cfg.provider == "anthropic":
        return AnthropicChat(cfg, transport=transport)
    return None

"""The chat proxy's upstream: OpenAI chat-completions requests relayed to the configured LLM.

``openai`` endpoints get the request as it came (only ``model`` is set to ``OMOIDE_LLM_MODEL``);
``anthropic`` ones get it translated to the Messages API and their answers translated back
(:mod:`omoide.llm.anthropic_chat`), streamed or not; a field the Messages API cannot do is
refused first (:mod:`omoide.llm.anthropic_fields`), never dropped. Async (httpx), one
connection pool per upstream, no retries (the client decides whether to retry a chat turn).

Failures are translated once (``chat_failures.py``): no connection →
:class:`UpstreamUnreachable` (503), no answer in ``OMOIDE_LLM_TIMEOUT`` (or the upstream's own
408 / 504) → :class:`UpstreamTimeout` (504). Of the upstream's statuses, those the client
caused stay the client's: 429 (rate
limited) → :class:`UpstreamRateLimited` (429, with the upstream's ``Retry-After``), 413 (the
request too large) → :class:`UpstreamRequestTooLarge` (413), 400 or 422 (the request as the
client sent it is invalid for the model) → :class:`UpstreamRejectedRequest` (422). Another error
status (a 5xx; a 401, 403 or 404, which say Omoide's own upstream key or model is wrong) or a
body that is not the API's → :class:`UpstreamUnavailable` (502). Messages never carry the key
or the prompt.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol, TypeVar

import httpx

from omoide.errors import (
    OmoideError,
    UpstreamUnavailable,
)
from omoide.llm._http import public_url
from omoide.llm.anthropic_chat import (
    API_VERSION,
    StreamTranslator,
    check_turns,
    completion_from_anthropic,
    request_to_anthropic,
)
from omoide.llm.anthropic_fields import check_for_anthropic
from omoide.llm.base import LLMConfig
from omoide.llm.chat_failures import Translated, rejected
from omoide.llm.chat_reply import (
    NotAnObject,
    as_chunk,
    choices_problem,
    error_text,
    json_object,
    sse_events,
    status_words,
)
from omoide.tls import shared_ssl_context

__all__ = ["ChatStream", "ChatUpstream", "make_chat_upstream"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


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

    def check(self, body: dict[str, Any]) -> None:
        """Refuse (InvalidInput) what of an OpenAI request body this upstream cannot carry;
        called before the memory step, so nothing runs for a request that cannot go."""
        ...

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

    def check(self, body: dict[str, Any]) -> None:
        """Nothing to refuse: an ``openai`` endpoint gets every field as sent and judges it."""

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

    def translated(self) -> Translated:
        """``async with``: httpx failures as Omoide's errors (``chat_failures.py``)."""
        return Translated(self.provider, self.shown_url, self._timeout_s)

    async def _send(self, body: dict[str, Any], *, stream: bool) -> httpx.Response:
        """POST; a non-2xx answer, or a 2xx HTML page (a proxy's or a portal's, read as a
        stream that "ended before its answer did"), is read and raised as a 502 here."""
        request = self._http().build_request("POST", self.url, json=body)
        async with self.translated():
            response = await self._http().send(request, stream=stream)
            page = response.headers.get("content-type", "").startswith("text/html")
            if response.status_code >= 400 or page:
                await response.aread()
                await response.aclose()
                if response.status_code < 400:
                    raise self.bad_reply(
                        f"an HTML page, not an answer ({status_words(response.status_code)})"
                    )
                raise self.rejected(response)
        return response

    def rejected(self, response: httpx.Response) -> OmoideError:
        """The error for an upstream's error status (``chat_failures.py``)."""
        return rejected(self.provider, self.shown_url, response)

    def bad_reply(self, what: str) -> UpstreamUnavailable:
        return UpstreamUnavailable(
            f"{self.provider} at {self.shown_url} sent {what}",
            provider=self.provider,
            url=self.shown_url,
        )

    def parsed(self, data: str | bytes, what: str) -> dict[str, Any]:
        """The JSON object ``data`` (``what``: "a body", "a stream event") holds, else a 502
        naming why it is none."""
        try:
            return json_object(data)
        except NotAnObject as exc:
            raise self.bad_reply(f"{what} {exc}") from None

    async def _json(self, body: dict[str, Any]) -> dict[str, Any]:
        response = await self._send(body, stream=False)
        return self.parsed(response.content, "a body")

    def answer(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data``, a ``chat.completion`` whose choices are the API's, else a 502: a list of
        one or more objects, each ``message`` an object. An empty list, relayed as a 200,
        broke every client reading ``choices[0]`` and recorded the user's turn with no reply;
        an item or a message of another type was a 500 (the reply's text could not be read)."""
        if not isinstance(data.get("choices"), list) or not data["choices"]:
            raise self.bad_reply("an answer without choices")
        problem = choices_problem(data["choices"], "message")
        if problem is not None:
            raise self.bad_reply(f"an answer whose {problem}")
        return data

    def chunk(self, chunk: dict[str, Any]) -> dict[str, Any]:
        """One stream event, a ``chat.completion.chunk`` with the API's choices (none, as a
        usage chunk has; or a list of objects, each ``delta`` an object), else a 502: relayed
        as it came, an event of another shape broke the relay mid-stream (no error event, no
        ``[DONE]``) and the client's SDK. An ``error`` in it is the upstream's failure."""
        if chunk.get("error"):
            raise self.bad_reply(f"an error mid-stream: {error_text(chunk)}")
        problem = choices_problem(chunk.get("choices") or [], "delta")
        if problem is not None:
            raise self.bad_reply(f"a stream event whose {problem}")
        return chunk


class OpenAIChat(_Upstream):
    provider = "openai"
    path = "/chat/completions"

    def _auth_headers(self, cfg: LLMConfig) -> dict[str, str]:
        return {"Authorization": f"Bearer {cfg.api_key}"} if cfg.api_key else {}

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        plain = {k: v for k, v in body.items() if k != "stream_options"}  # streams only
        return self.answer(await self._json({**plain, "model": self.model, "stream": False}))

    async def open_stream(self, body: dict[str, Any]) -> ChatStream:
        response = await self._send({**body, "model": self.model, "stream": True}, stream=True)
        return ChatStream(response, self._chunks(response), self)

    async def _chunks(self, response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
        if response.headers.get("content-type", "").startswith("application/json"):
            # Trigger: a server that ignores ``stream``. Outcome: its whole answer, one chunk.
            data = self.parsed((await response.aread()).decode("utf-8", "replace"), "a body")
            yield as_chunk(self.answer(data))
            return
        chosen = finished = False
        async for _, data in sse_events(response):
            if data.strip() == "[DONE]":
                if not chosen:
                    # Trigger: [DONE] after events without a choice (or none). Outcome: an error
                    # event, as for an answer without choices, not an empty reply.
                    raise self.bad_reply("a stream without choices")
                return
            chunk = self.chunk(self.parsed(data, "a stream event"))
            chosen = chosen or bool(chunk.get("choices"))
            finished = finished or any(c.get("finish_reason") for c in chunk.get("choices") or ())
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

    def check(self, body: dict[str, Any]) -> None:
        """A field the Messages API cannot do is refused, never dropped (``anthropic_fields``),
        and so is a request with no turn to send."""
        check_for_anthropic(body)
        check_turns(body)

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        data = await self._json(request_to_anthropic(body, self.model, stream=False))
        if not isinstance(data.get("content"), list):
            raise self.bad_reply("an answer without content")
        return self.answer(self._translated(completion_from_anthropic, data, "an answer"))

    def _translated(
        self, translate: Callable[[dict[str, Any]], T], data: dict[str, Any], what: str
    ) -> T:
        """``translate(data)``, or a 502 when ``data`` is not in the Messages API's shape: the
        translation reads the fields the API defines, and one of another type (a text where
        an object belongs, a count that is no number) raised there, a 500 (or, streamed, a
        stream cut with no end)."""
        try:
            return translate(data)
        except (AttributeError, TypeError, ValueError) as exc:
            logger.info("anthropic reply not translated: %s", exc)
            raise self.bad_reply(f"{what} not in the Messages API's shape") from None

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
            payload = self.parsed(data, "a stream event")
            if (event or payload.get("type")) == "error":
                raise self.bad_reply(f"an error mid-stream: {error_text(payload)}")
            for chunk in self._translated(translator.feed, payload, "a stream event"):
                yield self.chunk(chunk)
            if translator.done:
                return
        raise self.bad_reply("a stream that ended before its answer did (no message_stop)")


def make_chat_upstream(
    cfg: LLMConfig, *, transport: httpx.AsyncBaseTransport | None = None
) -> OpenAIChat | AnthropicChat | None:
    """The upstream for ``cfg.provider`` (None for "none"); ``cfg`` is checked by make_llm."""
    if cfg.provider == "openai":
        return OpenAIChat(cfg, transport=transport)
    if cfg.provider == "anthropic":
        return AnthropicChat(cfg, transport=transport)
    return None

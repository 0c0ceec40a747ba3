"""Anthropic Messages API adapter.

POSTs ``{base_url}/v1/messages`` with ``x-api-key`` and ``anthropic-version`` and returns the
text blocks of the answer joined together. The API has no JSON mode, so ``json_mode`` adds one
sentence to the system prompt instead. No prompt text is logged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from omoide.llm._http import Exchange, llm_channel
from omoide.llm.base import LLMConfig, LLMOutputError, Message, check_messages

__all__ = ["AnthropicLLM"]

PROVIDER = "anthropic"
API_VERSION = "2023-06-01"
JSON_ONLY = "Reply with JSON only: no prose and no code fences."


class AnthropicLLM:
    """An :class:`~omoide.llm.base.LLM` speaking Anthropic's Messages API."""

    def __init__(
        self,
        cfg: LLMConfig,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        model = cfg.model or ""
        self.name = f"{PROVIDER}:{model}"
        self._model = model
        self._channel = llm_channel(
            cfg,
            provider=PROVIDER,
            path="/v1/messages",
            headers={"x-api-key": cfg.api_key or "", "anthropic-version": API_VERSION},
            transport=transport,
            sleep=sleep,
        )

    def close(self) -> None:
        self._channel.close()

    def complete(
        self,
        messages: Sequence[Message],
        *,
        system: str | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        json_mode: bool = False,
    ) -> str:
        check_messages(messages)
        if json_mode:
            system = f"{system}\n\n{JSON_ONLY}" if system else JSON_ONLY
        body: dict[str, Any] = {
            "model": self._model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        if system:
            body["system"] = system
        return self._text(self._channel.post(body))

    def _text(self, exchange: Exchange) -> str:
        if exchange.status >= 400:
            raise self._channel.rejected(exchange)
        data = self._channel.json_of(exchange)
        blocks = data.get("content")
        texts = [
            block["text"]
            for block in (blocks if isinstance(blocks, list) else [])
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ]
        text = "".join(texts)
        if not text.strip():
            raise LLMOutputError(
                f"{self.name} returned no text (stop_reason={data.get('stop_reason')})",
                provider=PROVIDER,
            )
        return text

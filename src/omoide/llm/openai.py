"""OpenAI-compatible chat adapter: OpenAI, OpenRouter, Ollama, vLLM, llama.cpp server, LM Studio.

POSTs ``{base_url}/chat/completions`` and returns ``choices[0].message.content``. JSON mode asks
for ``response_format: {"type": "json_object"}``; servers that refuse that field (several local
ones do) get the same request once more without it, and this adapter stops sending it. No
prompt text is logged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from omoide.llm._http import Exchange, llm_channel
from omoide.llm.base import LLMConfig, LLMOutputError, Message, check_messages

__all__ = ["OpenAILLM"]

logger = logging.getLogger(__name__)

PROVIDER = "openai"
JSON_MODE = {"type": "json_object"}


class OpenAILLM:
    """An :class:`~omoide.llm.base.LLM` speaking the OpenAI chat-completions API."""

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
        # Local servers (Ollama, llama.cpp) need no key; hosted ones answer 401 without it.
        headers = {"Authorization": f"Bearer {cfg.api_key}"} if cfg.api_key else {}
        self._channel = llm_channel(
            cfg,
            provider=PROVIDER,
            path="/chat/completions",
            headers=headers,
            transport=transport,
            sleep=sleep,
        )
        self._json_mode_supported = True

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
        body = self._body(messages, system, max_tokens, temperature)
        if json_mode and self._json_mode_supported:
            exchange = self._channel.post({**body, "response_format": JSON_MODE})
            if not _rejects_json_mode(exchange):
                return self._text(exchange)
            # Trigger: a 400/422 naming response_format. Why: llama.cpp, older Ollama and some
            # proxies do not know the field. Outcome: plain request; the prompt asks for JSON.
            logger.warning(
                "%s does not accept response_format; asking for JSON in the prompt only",
                self._channel.shown_url,
            )
            self._json_mode_supported = False
        return self._text(self._channel.post(body))

    def _body(
        self, messages: Sequence[Message], system: str | None, max_tokens: int, temperature: float
    ) -> dict[str, Any]:
        chat = [{"role": "system", "content": system}] if system else []
        chat += [{"role": m.role, "content": m.content} for m in messages]
        return {
            "model": self._model,
            "messages": chat,
            "max_tokens": max_tokens,
            "temperature": temperature,
        }

    def _text(self, exchange: Exchange) -> str:
        if exchange.status >= 400:
            raise self._channel.rejected(exchange)
        data = self._channel.json_of(exchange)
        choices = data.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str) or not content.strip():
            reason = first.get("finish_reason") if isinstance(first, dict) else None
            raise LLMOutputError(
                f"{self.name} returned no text (finish_reason={reason})", provider=PROVIDER
            )
        return content


def _rejects_json_mode(exchange: Exchange) -> bool:
    return exchange.status in (400, 422) and "response_format" in exchange.response.text

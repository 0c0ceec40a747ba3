"""The LLM port: chat messages in, text out, plus the configuration that picks an adapter.

Adapters (``openai.py``, ``anthropic.py``) translate every transport failure into
:class:`~omoide.errors.UpstreamUnavailable` at their edge; a model that answers but not in the
shape we asked for raises :class:`LLMOutputError`. Nothing here reads the environment: the
configuration is a typed field of :class:`omoide.config.Settings` (``Settings.llm``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from omoide.engine.errors import named
from omoide.errors import InvalidInput, LLMOutputError

__all__ = [
    "DEFAULT_BASE_URLS",
    "LLM",
    "PROVIDERS",
    "LLMConfig",
    "LLMOutputError",
    "Message",
    "check_messages",
    "complete_json",
]

PROVIDERS = ("none", "openai", "anthropic")
DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
ROLES = ("user", "assistant")


@dataclass(frozen=True)
class Message:
    role: str  # "user" | "assistant"; the system prompt travels separately
    content: str


@runtime_checkable
class LLM(Protocol):
    name: str  # "<provider>:<model>", e.g. "openai:gpt-4o-mini"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        system: str | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        json_mode: bool = False,
    ) -> str:
        """The model's answer as text; raises UpstreamUnavailable when it cannot be had."""
        ...


@dataclass(frozen=True)
class LLMConfig:
    provider: str = "none"  # one of PROVIDERS
    base_url: str | None = None  # None: the provider's public endpoint
    api_key: str | None = field(default=None, repr=False)  # never printed, never logged
    model: str | None = None
    timeout_s: float = 30.0
    max_retries: int = 3  # extra attempts after the first, on 429 / 5xx / network errors
    backoff_s: float = 0.5  # first retry delay; doubles each attempt

    def resolved_base_url(self) -> str:
        """``base_url`` without a trailing slash, or the provider's default."""
        url = self.base_url or DEFAULT_BASE_URLS.get(self.provider, "")
        return url.rstrip("/")


def complete_json(
    llm: LLM,
    messages: Sequence[Message],
    *,
    system: str | None = None,
    max_tokens: int = 512,
) -> Any:
    """Ask for JSON (json_mode, temperature 0) and return the parsed value.

    Raises LLMOutputError when the answer holds no JSON, UpstreamUnavailable when the call fails.
    """
    # Imported here because jsonx raises LLMOutputError, which this module defines.
    from omoide.llm.jsonx import extract_json

    text = llm.complete(
        messages, system=system, max_tokens=max_tokens, temperature=0.0, json_mode=True
    )
    return extract_json(text)


def check_messages(messages: Sequence[Message]) -> None:
    """Reject what no provider accepts, before spending a request on it."""
    if not messages:
        raise InvalidInput("an LLM call needs at least one message", field="messages")
    for message in messages:
        if message.role not in ROLES:
            raise InvalidInput(
                f"message role must be one of {', '.join(ROLES)}, not {named(message.role)}",
                field="messages",
            )

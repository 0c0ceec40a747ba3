"""LLM adapters behind the :class:`LLM` port, and the configuration that chooses one.

The configuration is read from the environment by :mod:`omoide.config` (``Settings.llm``).
``provider = "none"`` (the default) means no LLM: ``make_llm`` returns None and every feature
uses its offline engine. Configuration errors are raised when the adapter is built, naming the
environment variable to fix, so a bad setting fails at start-up rather than at the first call.
"""

from __future__ import annotations

import httpx

from omoide.engine.errors import quoted
from omoide.errors import InvalidInput
from omoide.llm.base import (
    DEFAULT_BASE_URLS,
    LLM,
    PROVIDERS,
    LLMConfig,
    LLMOutputError,
    Message,
    complete_json,
)

__all__ = [
    "DEFAULT_BASE_URLS",
    "LLM",
    "LLMConfig",
    "LLMOutputError",
    "Message",
    "check_llm_config",
    "complete_json",
    "is_http_url",
    "make_llm",
]

MAX_RETRIES_LIMIT = 10


def make_llm(cfg: LLMConfig, *, transport: httpx.BaseTransport | None = None) -> LLM | None:
    """The adapter for ``cfg.provider``, or None for ``"none"``; InvalidInput when incomplete."""
    check_llm_config(cfg)
    if cfg.provider == "none":
        return None
    _check_complete(cfg)
    if cfg.provider == "openai":
        from omoide.llm.openai import OpenAILLM

        return OpenAILLM(cfg, transport=transport)
    from omoide.llm.anthropic import AnthropicLLM

    return AnthropicLLM(cfg, transport=transport)


def check_llm_config(cfg: LLMConfig) -> None:
    """Each value on its own (provider, timeout, retries, URL); InvalidInput names the variable."""
    if cfg.provider not in PROVIDERS:
        raise _invalid(
            "OMOIDE_LLM_PROVIDER",
            f"must be one of {', '.join(PROVIDERS)}, not {quoted(cfg.provider)}",
        )
    if cfg.timeout_s <= 0:
        raise _invalid("OMOIDE_LLM_TIMEOUT", f"must be above 0 seconds, not {cfg.timeout_s:g}")
    if not 0 <= cfg.max_retries <= MAX_RETRIES_LIMIT:
        raise _invalid(
            "OMOIDE_LLM_MAX_RETRIES",
            f"must be between 0 and {MAX_RETRIES_LIMIT}, not {cfg.max_retries}",
        )
    if cfg.base_url and not is_http_url(cfg.base_url):
        # Shown without the value: a URL may carry credentials.
        raise _invalid("OMOIDE_LLM_BASE_URL", "must be an http:// or https:// URL")


def is_http_url(url: str) -> bool:
    """An http:// or https:// URL with a host (an endpoint an HTTP client can reach)."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return False
    return parsed.scheme in ("http", "https") and bool(parsed.host)


def _check_complete(cfg: LLMConfig) -> None:
    if not cfg.model:
        raise _invalid("OMOIDE_LLM_MODEL", f"is required when OMOIDE_LLM_PROVIDER={cfg.provider}")
    url = cfg.resolved_base_url()
    # Only the public endpoints are known to need a key; local servers usually take none.
    if not cfg.api_key and (cfg.provider == "anthropic" or url == DEFAULT_BASE_URLS["openai"]):
        raise _invalid("OMOIDE_LLM_API_KEY", f"is required for {cfg.provider} at {url}")


def _invalid(variable: str, problem: str) -> InvalidInput:
    return InvalidInput(f"{variable} {problem}", field=variable)

"""Every outgoing HTTP client of the server (LLM adapters, the embeddings client, the chat
upstream) and of ``omoide.client`` shares one TLS context per process: the CA bundle is read
once, not once per client. The tests' own sharing (tests/support/tls_once.py) is switched off
here, so what is counted is what a production process does."""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import pytest
from httpx import _config as httpx_config
from httpx._transports import default as httpx_transports

from omoide import tls
from omoide.client import AsyncClient, Client
from omoide.llm import LLMConfig
from omoide.llm._http import Channel
from omoide.llm.anthropic import AnthropicLLM
from omoide.llm.chat import make_chat_upstream
from omoide.llm.openai import OpenAILLM

BASE = "http://127.0.0.1:9"  # nothing is sent


@pytest.fixture
def ca_reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each default context httpx builds (one CA bundle read each), from a fresh process state."""
    monkeypatch.setattr(httpx_transports, "create_ssl_context", httpx_config.create_ssl_context)
    monkeypatch.setattr(tls, "_context", None)
    built: list[Any] = []
    real = ssl.create_default_context

    def counting(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        built.append(kwargs.get("cafile") or kwargs.get("capath"))
        return real(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counting)
    return built


def test_clients_share_one_tls_context(ca_reads: list[Any]) -> None:
    openai_cfg = LLMConfig(provider="openai", base_url=f"{BASE}/v1", model="m", api_key="k")
    anthropic_cfg = LLMConfig(provider="anthropic", base_url=BASE, model="m", api_key="k")
    closers = [
        OpenAILLM(openai_cfg),
        OpenAILLM(openai_cfg),
        AnthropicLLM(anthropic_cfg),
        Channel(
            provider="embeddings",
            model="e",
            url=f"{BASE}/v1/embeddings",
            headers={},
            timeout_s=1,
            max_retries=0,
            backoff_s=0,
        ),  # the embeddings client's
        Client(BASE),
        Client(BASE),
    ]
    upstream = make_chat_upstream(openai_cfg)
    assert upstream is not None
    upstream._http()
    aio = AsyncClient(BASE)
    assert len(ca_reads) == 1, ca_reads  # 9 clients, one CA bundle read
    assert tls.shared_ssl_context() is tls.shared_ssl_context()
    assert tls.shared_ssl_context().verify_mode == ssl.CERT_REQUIRED
    for closer in closers:
        closer.close()
    asyncio.run(upstream.aclose())
    asyncio.run(aio.aclose())

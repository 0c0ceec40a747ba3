"""Fixtures for the LLM adapter tests: a scripted fake API server and adapters pointed at it."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from llm_fakes import API_KEY, FakeAPI

from omoide.llm import LLMConfig
from omoide.llm.anthropic import AnthropicLLM
from omoide.llm.openai import OpenAILLM


@pytest.fixture
def closed_port_url() -> str:
    """A URL on which nothing listens (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def sleeps() -> list[float]:
    """Backoff delays the adapters asked for; nothing actually sleeps."""
    return []


@pytest.fixture
def make_openai(fake_api: FakeAPI, sleeps: list[float]) -> Iterator[Callable[..., OpenAILLM]]:
    made: list[OpenAILLM] = []

    def build(**overrides: Any) -> OpenAILLM:
        fields: dict[str, Any] = {
            "provider": "openai",
            "base_url": f"{fake_api.base}/v1",
            "api_key": API_KEY,
            "model": "gpt-test",
            "timeout_s": 3.0,  # as fake_llm_config's (a test of a hang gives its own)
            "max_retries": 2,
            **overrides,
        }
        llm = OpenAILLM(LLMConfig(**fields), sleep=sleeps.append)
        made.append(llm)
        return llm

    yield build
    for llm in made:
        llm.close()


@pytest.fixture
def make_anthropic(fake_api: FakeAPI, sleeps: list[float]) -> Iterator[Callable[..., AnthropicLLM]]:
    made: list[AnthropicLLM] = []

    def build(**overrides: Any) -> AnthropicLLM:
        fields: dict[str, Any] = {
            "provider": "anthropic",
            "base_url": fake_api.base,
            "api_key": API_KEY,
            "model": "claude-test",
            "timeout_s": 3.0,  # as fake_llm_config's (a test of a hang gives its own)
            "max_retries": 2,
            **overrides,
        }
        llm = AnthropicLLM(LLMConfig(**fields), sleep=sleeps.append)
        made.append(llm)
        return llm

    yield build
    for llm in made:
        llm.close()

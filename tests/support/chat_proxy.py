"""The chat proxy's tests' live servers (a pytest plugin: ``tests/conftest.py`` loads it).

:func:`fake_llm_config` is the configuration of an LLM at the local fake API
(``llm_fakes.FakeAPI``), :func:`chat_server` the fixture that serves an app with a chat upstream
(and a summary LLM) over real HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from omoide_testing import LiveServer, served

from omoide.llm import LLMConfig
from omoide.wiring import Omoide

__all__ = ["CHAT_ADMIN", "chat_server", "fake_llm_config"]

CHAT_ADMIN = "omo_admin_test-key"


def fake_llm_config(
    base: str, provider: str = "openai", *, timeout_s: float = 3.0, **overrides: Any
) -> LLMConfig:
    """An LLM at the fake API served at ``base`` (``FakeAPI.base``), no retries: OpenAI's
    ``/v1`` routes with ``gpt-test``, or Anthropic's with ``claude-test``; ``overrides``
    replace or add fields. ``timeout_s`` is what a hanging reply costs a test, and must stay
    well above what a loaded machine takes to answer one (1 s was not: a 504 in a test that
    expected an answer, with two suites sharing two cores)."""
    fields: dict[str, Any] = {
        "provider": provider,
        "base_url": f"{base}/v1" if provider == "openai" else base,
        "api_key": "sk-test",
        "model": "gpt-test" if provider == "openai" else "claude-test",
        "timeout_s": timeout_s,
        "max_retries": 0,
    }
    return LLMConfig(**{**fields, **overrides})


@pytest.fixture
def chat_server(
    make_app: Callable[..., Omoide], data_dir: Path
) -> Iterator[Callable[..., LiveServer]]:
    """Start a live server (admin key ``CHAT_ADMIN``) whose app has the given chat
    ``upstream`` (``make_chat_upstream(...)``, None, or "from-env"), summary ``llm`` and
    settings ``environ``. Each server stops at the end of the test, then the LLM it was given
    is closed."""
    with ExitStack() as stack:

        def go(
            *, upstream: Any = None, llm: Any = None, environ: dict[str, str] | None = None
        ) -> LiveServer:
            if hasattr(llm, "close"):
                stack.callback(llm.close)
            app = make_app(environ, llm=llm, chat_upstream=upstream)
            return stack.enter_context(served(app, data_dir, CHAT_ADMIN))

        yield go

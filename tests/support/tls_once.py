"""One default TLS context per test run instead of one per HTTP client.

Every ``httpx.Client()`` (and every client the ``openai`` SDK builds on httpx) reads the whole
CA bundle into a new SSL context: about 0.1-0.2 s each, and the tests build several clients per
test (the admin's, the persona's, an SDK's), all to talk plain HTTP to 127.0.0.1. Omoide's own
clients already share the process's context (``omoide.tls.shared_ssl_context``); this hands
that same context to every other client asking httpx for the default one (verify on, no client
certificate, the environment's CA settings). Any other ``verify``/``cert`` still gets its own.
Nothing in the tests speaks TLS, so no assertion depends on the context.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from typing import Any

from omoide.tls import shared_ssl_context

__all__ = ["share_default_tls_context"]


def share_default_tls_context() -> None:
    """Make httpx's transports reuse Omoide's shared default SSL context."""
    from httpx._transports import default as transports

    build: Callable[..., ssl.SSLContext] = transports.create_ssl_context
    if getattr(build, "shared", False):
        return

    def shared(verify: Any = True, cert: Any = None, trust_env: bool = True) -> ssl.SSLContext:
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        return shared_ssl_context()

    shared.shared = True  # type: ignore[attr-defined]
    transports.create_ssl_context = shared

"""One default TLS context per test run instead of one per HTTP client.

Every ``httpx.Client()`` (and every client the ``openai`` SDK or Omoide's own LLM and
embedding clients build on httpx) reads the whole CA bundle into a new SSL context: about
0.1-0.2 s each, and the tests build several clients per test (the admin's, the persona's, an
SDK's), all to talk plain HTTP to 127.0.0.1. The default context (verify on, no client
certificate, the environment's CA settings) is built once and shared instead; it holds no
connection state, and any other ``verify``/``cert`` still gets its own. Nothing in the tests
speaks TLS, so no assertion depends on the context.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable
from typing import Any

__all__ = ["share_default_tls_context"]


def share_default_tls_context() -> None:
    """Make httpx's transports reuse one default SSL context (per CA setting of the env)."""
    from httpx._transports import default as transports

    build: Callable[..., ssl.SSLContext] = transports.create_ssl_context
    if getattr(build, "shared", False):
        return
    made: dict[tuple[str | None, str | None], ssl.SSLContext] = {}

    def shared(verify: Any = True, cert: Any = None, trust_env: bool = True) -> ssl.SSLContext:
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        key = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
        if key not in made:
            made[key] = build(verify=verify, cert=cert, trust_env=trust_env)
        return made[key]

    shared.shared = True  # type: ignore[attr-defined]
    transports.create_ssl_context = shared

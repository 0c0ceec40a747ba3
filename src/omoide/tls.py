"""One TLS context per process for every outgoing HTTP client.

``httpx.Client()`` builds a new SSL context each time, reading the whole CA bundle (about
0.1-0.2 s of CPU). Omoide makes a client per LLM adapter, per embedder, per chat upstream, and
users of :mod:`omoide.client` make one per connection; they all verify servers the same way
(httpx's default: the ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` environment when set, else certifi's
bundle), so they share one context, built on first use. A context holds settings and trusted
certificates, no connection state, and may be shared by threads and event loops. The CA
settings are read once per process: a change to them is seen after a restart.
"""

from __future__ import annotations

import ssl
import threading

import httpx

__all__ = ["shared_ssl_context"]

_lock = threading.Lock()
_context: ssl.SSLContext | None = None


def shared_ssl_context() -> ssl.SSLContext:
    """The process's default client TLS context (verification on), built once."""
    global _context
    with _lock:
        if _context is None:
            _context = httpx.create_ssl_context()
        return _context

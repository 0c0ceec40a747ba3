"""The bundled real embedders (e5, USE) for the tests, each loaded once per test run.

Loading one costs seconds (USE ~3 s, e5 ~1 s on an idle core); a test module or case that
loaded its own paid that again each time. An embedder keeps nothing between calls (the same
texts give the same vectors, whoever asked before), so tests sharing one see nothing of each
other. Tests that count or control how an embedder is built still call their own factory,
which may return the shared instance.
"""

from __future__ import annotations

from omoide.embed import Embedder
from omoide.wiring import bundled_embedder

__all__ = ["bundled"]


def bundled(name: str) -> Embedder:
    """The bundled embedder ``name`` ("e5" or "use"), built on first use: the same instance
    the servers the tests wire use for their judges (``wiring.bundled_embedder``)."""
    return bundled_embedder(name)

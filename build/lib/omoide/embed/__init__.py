"""Embedding adapters behind the :class:`Embedder` port."""

from __future__ import annotations

from typing import Any

from omoide.embed.base import Embedder, normalise
from omoide.errors import InvalidInput

__all__ = ["EMBEDDERS", "Embedder", "make_embedder", "normalise"]

EMBEDDERS = ("e5", "use", "hash")


def make_embedder(name: str, *, threads: int = 1, **options: Any) -> Embedder:
    """Build an embedder by its setting name (``OMOIDE_EMBEDDER``, ``OMOIDE_EMBED_THREADS``;
    ``options``: an external embedder's settings, see ``embed/external.py``)."""
    if name == "openai" or name.startswith("sentence-transformers:"):
        from omoide.embed.external import make_external

        return make_external(name, threads=threads, **options)
    if name == "e5":
        from omoide.embed.e5 import E5Embedder

        return E5Embedder(threads=threads)
    if name == "use":
        from omoide.embed.use import USEEmbedder

        return USEEmbedder(threads=threads)
    if name == "hash":
        from omoide.embed.hashing import HashEmbedder

        return HashEmbedder()
    raise InvalidInput(f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}, "
                       "openai or sentence-transformers:<folder>")

"""Embedding adapters behind the :class:`Embedder` port."""

from __future__ import annotations

from omoide.embed.base import Embedder, normalise
from omoide.errors import InvalidInput

__all__ = ["EMBEDDERS", "Embedder", "make_embedder", "normalise"]

EMBEDDERS = ("e5", "use", "hash")


def make_embedder(name: str) -> Embedder:
    """Build an embedder by its setting name (``OMOIDE_EMBEDDER``)."""
    if name == "e5":
        from omoide.embed.e5 import E5Embedder

        return E5Embedder()
    if name == "use":
        from omoide.embed.use import USEEmbedder

        return USEEmbedder()
    if name == "hash":
        from omoide.embed.hashing import HashEmbedder

        return HashEmbedder()
    raise InvalidInput(f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}")

"""Embedding adapters behind the :class:`Embedder` port."""

from __future__ import annotations

from typing import Any

from omoide.embed.base import Embedder, normalise
from omoide.engine.errors import quoted
from omoide.errors import InvalidInput

__all__ = ["EMBEDDERS", "Embedder", "fair", "make_embedder", "make_fair_embedder", "normalise"]

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
    raise InvalidInput(  # named as the setting it comes from, as every process setting is
        f"OMOIDE_EMBEDDER must be one of {', '.join(EMBEDDERS)}, openai or "
        f"sentence-transformers:<folder>, got {quoted(name)}"
    )


def fair(embedder: Embedder) -> Embedder:
    """``embedder`` behind a :class:`~omoide.embed.fair.FairEmbedder` (one shared instance)."""
    from omoide.embed.fair import FairEmbedder

    return embedder if isinstance(embedder, FairEmbedder) else FairEmbedder(embedder)


def make_fair_embedder(name: str, *, threads: int = 1, **options: Any) -> Embedder:
    """The server's embedder: interactive calls ahead of background work (embed/fair.py).

    e5 gets a second instance for background work (its weights are memory-mapped, so the
    second costs only scratch buffers); USE would load its weights twice, so it shares one
    instance and relies on small background slices.
    """
    from omoide.embed.fair import FairEmbedder

    interactive = make_embedder(name, threads=threads, **options)
    background = make_embedder(name, threads=threads, **options) if name == "e5" else None
    return FairEmbedder(interactive, background)

"""Embedders Omoide does not ship: an OpenAI-compatible endpoint or a local
sentence-transformers folder, chosen by ``OMOIDE_EMBEDDER``."""

from __future__ import annotations

from typing import Any

from omoide.embed.base import Embedder

__all__ = ["make_external"]


def make_external(
    name: str,
    *,
    threads: int = 1,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    batch: int = 64,
    timeout_s: float = 30.0,
    **_: Any,
) -> Embedder:
    if name == "openai":
        from omoide.embed.openai_http import OpenAIEmbedder

        return OpenAIEmbedder(
            base_url=base_url, model=model, api_key=api_key, batch=batch, timeout_s=timeout_s
        )
    from omoide.embed.st_local import PREFIX, SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(name[len(PREFIX) :], threads=threads)

"""The Embedder port: text in, L2-normalised float32 vectors out.

Every adapter carries its ``model_id`` and ``dim`` (stored with every vector, so a model change
is detected and ``omoide reindex`` can re-embed) and the :class:`Calibration` of its cosine scale.
Queries and passages are embedded separately because asymmetric models (e5) prefix them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from omoide.engine.calibration import Calibration

__all__ = ["Embedder", "cut_to_tokens", "normalise"]


@runtime_checkable
class Embedder(Protocol):
    model_id: str
    dim: int
    calibration: Calibration

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Embed stored texts; returns shape ``(len(texts), dim)``, float32, unit rows."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query; returns shape ``(dim,)``, float32, unit norm."""
        ...


def normalise(matrix: np.ndarray) -> np.ndarray:
    """Row-wise L2 normalisation (zero rows stay zero), as float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


def cut_to_tokens(text: str, count: Callable[[str], int], max_tokens: int) -> str:
    """The longest prefix found of ``text`` that ``count`` (a model's own tokenizer) puts at
    ``max_tokens`` or fewer; ``text`` unchanged when it fits. A token is at least one UTF-8
    byte, so a short text is returned without tokenizing; a long one is first cut to 16
    characters per token (a prefix of ``max_tokens`` tokens is shorter unless tokens average
    more), then shrunk in proportion until it fits, aiming just under the limit."""
    if len(text.encode("utf-8")) + 16 <= max_tokens:
        return text
    head = text[: 16 * max_tokens]
    size, tokens = len(head), count(head)
    while tokens > max_tokens:
        size = max(1, min(size - 1, size * (max_tokens - 8) // tokens))
        tokens = count(head[:size])
    return head[:size]

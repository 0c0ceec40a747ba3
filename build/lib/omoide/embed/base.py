"""The Embedder port: text in, L2-normalised float32 vectors out.

Every adapter carries its ``model_id`` and ``dim`` (stored with every vector, so a model change
is detected and ``omoide reindex`` can re-embed) and the :class:`Calibration` of its cosine scale.
Queries and passages are embedded separately because asymmetric models (e5) prefix them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from omoide.engine.calibration import Calibration

__all__ = ["Embedder", "normalise"]


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

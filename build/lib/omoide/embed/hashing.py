"""A deterministic, dependency-free embedder for tests and quick experiments.

Character n-gram feature hashing: similar strings get similar vectors, unrelated strings
near-orthogonal ones. Not a semantic model; never the default.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from omoide.embed.base import normalise
from omoide.engine.calibration import IDENTITY

__all__ = ["HashEmbedder"]


class HashEmbedder:
    calibration = IDENTITY

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.model_id = f"hash-ngram-{dim}"

    def _one(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        norm = "".join(text.lower().split())
        grams = [norm[i : i + 3] for i in range(max(1, len(norm) - 2))]
        for gram in grams:
            digest = hashlib.blake2b(gram.encode(), digest_size=8).digest()
            idx = int.from_bytes(digest[:4], "little") % self.dim
            sign = 1.0 if digest[4] & 1 else -1.0
            vec[idx] += sign
        return vec

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(np.stack([self._one(t) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self._one(text)[None, :])[0]

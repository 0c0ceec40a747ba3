"""One bounded LRU of embedded vectors, shared by every service that embeds the same texts again.

Trigger: the learned 3-op judge, dedup (its part embedder and its notation cosines) and the
search companion each embed texts they have often embedded before: a memory judged as new is a
candidate of the next memories, a note is searched again and again, and on an e5 server the
judge, dedup's parts and the companion all read with the bundled USE. Outcome: one cache per
server (the wiring builds it, ``OMOIDE_VECTOR_CACHE`` entries), keyed by (embedder model id,
text): a text any of them embedded is not embedded again by another, and every miss of one call
is embedded in one batch.

A vector is that of the text as the model reads it: cut to the model's input length when the
embedder can cut (``cut``, as the server's own embedder always does), so the same model gives
one vector per text whoever asks. A vector costs 4 × dim bytes (USE 2 KiB, e5 1.5 KiB) plus its
text: the default 10,000 entries take about 25–40 MB. Thread-safe: the map is guarded by a lock,
the embedding runs outside it (each embedder guards its model with its own lock; two threads
missing one text may both embed it, with the same result).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

import numpy as np

__all__ = ["DEFAULT_SIZE", "TextEmbedder", "VectorCache"]

DEFAULT_SIZE = 10_000  # OMOIDE_VECTOR_CACHE


class TextEmbedder(Protocol):
    """What the cache needs of an embedder (an ``Embedder``, or one built on first use)."""

    model_id: str

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


_Key = tuple[str, bool, str]  # (model id, is a query, text)


class VectorCache:
    """Passage and query vectors by (model id, text), the least recently used dropped first."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = max(0, size)
        self._held: OrderedDict[_Key, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def clear(self) -> None:
        """Forget every vector (the benchmarks' cold searches)."""
        with self._lock:
            self._held.clear()

    def passages(self, embedder: TextEmbedder, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The passage vector of each distinct text: the ones held, the rest embedded now in
        one call of ``embedder``."""
        wanted = list(dict.fromkeys(texts))
        found = self._get(embedder.model_id, False, wanted)
        missing = [text for text in wanted if text not in found]
        if missing:
            cut = _cut(embedder)
            fresh = dict(
                zip(missing, embedder.embed_passages([cut(t) for t in missing]), strict=True)
            )
            self._put(embedder.model_id, False, fresh)
            found.update(fresh)
        return found

    def query(self, embedder: TextEmbedder, text: str) -> np.ndarray:
        """The query vector of ``text`` (held, or embedded now)."""
        vector = self._get(embedder.model_id, True, [text]).get(text)
        if vector is None:
            vector = embedder.embed_query(_cut(embedder)(text))
            self._put(embedder.model_id, True, {text: vector})
        return vector

    def _get(self, model_id: str, is_query: bool, texts: list[str]) -> dict[str, np.ndarray]:
        found = {}
        with self._lock:
            for text in texts:
                key = (model_id, is_query, text)
                vector = self._held.get(key)
                if vector is not None:
                    self._held.move_to_end(key)
                    found[text] = vector
        return found

    def _put(self, model_id: str, is_query: bool, vectors: Mapping[str, np.ndarray]) -> None:
        with self._lock:
            for text, vector in vectors.items():
                key = (model_id, is_query, text)
                self._held[key] = vector
                self._held.move_to_end(key)
            while len(self._held) > self.size:
                self._held.popitem(last=False)


def _cut(embedder: TextEmbedder) -> Callable[[str], str]:
    return getattr(embedder, "cut", _whole)


def _whole(text: str) -> str:
    return text

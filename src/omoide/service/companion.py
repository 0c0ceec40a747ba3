"""The search companion: a second bundled embedder's raw cosine of a query and its candidates.

The model is loaded on the first search that needs it (once per process, shared with dedup's
and the judges' bundled instances through the loader wiring passes in), and candidate vectors
come from a bounded LRU cache keyed by (model id, text): a warm search embeds only the query
(one call) and the candidates it has not seen (one batched call). A vector costs 4 × dim bytes
(USE 2 KiB, e5 1.5 KiB) plus its text, so the default 10,000 entries take about 25–40 MB.
Thread-safe: the cache is guarded by a lock, the embedding runs outside it (each embedder
guards its model with its own lock). A companion that fails to load is logged once and then
left out (search falls back to the primary ranking).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.companion import blend_companion, companion_head
from omoide.engine.fusion import Scored

__all__ = ["DEFAULT_CACHE_SIZE", "Companion"]

logger = logging.getLogger(__name__)

DEFAULT_CACHE_SIZE = 10_000  # OMOIDE_SEARCH_COMPANION_CACHE
_QUERIES = 64  # recent query vectors: the note and excerpt tiers of one search share one


class Companion:
    """Raw cosines on a lazily loaded companion embedder, with an LRU cache of passage vectors."""

    def __init__(self, name: str, load: Callable[[], Embedder], *,
                 cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        self.name = name
        self._load = load
        self._embedder: Embedder | None = None
        self._failed = False
        self._cache_size = max(0, cache_size)
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._loading = threading.Lock()

    def embedder(self) -> Embedder | None:
        """The companion model, loaded on first use (None when it could not be loaded)."""
        if self._embedder is None and not self._failed:
            with self._loading:
                if self._embedder is None and not self._failed:
                    try:
                        self._embedder = self._load()
                    except Exception:
                        logger.exception("search companion %r could not be loaded; searching "
                                         "without it", self.name)
                        self._failed = True
        return self._embedder

    @property
    def cached(self) -> int:
        return len(self._vectors)

    def clear(self) -> None:
        """Forget every cached vector (the benchmarks' cold searches)."""
        with self._lock:
            self._vectors.clear()
            self._queries.clear()

    def rescore(self, query: str, ranked: list[Scored],
                texts: Callable[[list[int]], Mapping[int, str]], *, weight: float,
                pool: int) -> list[Scored]:
        """``ranked`` with its head of ``pool`` re-scored by this companion's cosines at
        ``weight`` (``engine.companion.blend_companion``); ``texts`` reads the head's texts by
        id. Unchanged at weight 0 or with fewer than two candidates."""
        if weight == 0.0 or len(ranked) < 2:
            return ranked
        head = companion_head(ranked, pool)
        cosines = self.cosines(query, texts([s.id for s in head]))
        return blend_companion(ranked, cosines, weight=weight, top_n=pool)

    def cosines(self, query: str, texts: Mapping[int, str]) -> dict[int, float]:
        """Raw cosine of ``query`` with each candidate's text (id → cosine); empty when the
        companion is unavailable."""
        embedder = self.embedder()
        if embedder is None or not texts:
            return {}
        cut: Callable[[str], str] = getattr(embedder, "cut", lambda text: text)
        query_vector = self._query(embedder, query)
        keys = {row_id: (embedder.model_id, text) for row_id, text in texts.items()}
        found: dict[tuple[str, str], np.ndarray] = {}
        with self._lock:
            for key in keys.values():
                vector = self._vectors.get(key)
                if vector is not None:
                    self._vectors.move_to_end(key)
                    found[key] = vector
        missing = list(dict.fromkeys(key for key in keys.values() if key not in found))
        if missing:
            fresh = embedder.embed_passages([cut(text) for _, text in missing])
            found.update(zip(missing, fresh, strict=True))
            with self._lock:
                for key in missing:
                    self._vectors[key] = found[key]
                    self._vectors.move_to_end(key)
                while len(self._vectors) > self._cache_size:
                    self._vectors.popitem(last=False)
        return {row_id: float(np.dot(query_vector, found[key])) for row_id, key in keys.items()}

    def _query(self, embedder: Embedder, query: str) -> np.ndarray:
        with self._lock:
            vector = self._queries.get(query)
            if vector is not None:
                self._queries.move_to_end(query)
                return vector
        vector = embedder.embed_query(query)
        with self._lock:
            self._queries[query] = vector
            while len(self._queries) > _QUERIES:
                self._queries.popitem(last=False)
        return vector

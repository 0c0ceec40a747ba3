"""The search companion: a second bundled embedder's raw cosine of a query and its candidates.

The model is loaded on the first search that needs it (once per process, shared with dedup's
and the judges' bundled instances through the loader wiring passes in), and the query and
candidate vectors come from the server's shared vector cache (``service.vector_cache``): a warm
search embeds only the query (one call) and the candidates it has not seen (one batched call).
A companion that fails to load is logged once and then left out (search falls back to the
primary ranking).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping

import numpy as np

from omoide.embed.base import Embedder
from omoide.engine.companion import blend_companion, companion_head
from omoide.engine.fusion import Scored
from omoide.service.vector_cache import VectorCache

__all__ = ["Companion"]

logger = logging.getLogger(__name__)


class Companion:
    """Raw cosines on a lazily loaded companion embedder, its vectors kept in ``vectors``
    (the server's shared cache; a cache of its own when none is given)."""

    def __init__(
        self, name: str, load: Callable[[], Embedder], *, vectors: VectorCache | None = None
    ) -> None:
        self.name = name
        self._load = load
        self._embedder: Embedder | None = None
        self._failed = False
        self.vectors = vectors if vectors is not None else VectorCache()
        self._loading = threading.Lock()

    def embedder(self) -> Embedder | None:
        """The companion model, loaded on first use (None when it could not be loaded)."""
        if self._embedder is None and not self._failed:
            with self._loading:
                if self._embedder is None and not self._failed:
                    try:
                        self._embedder = self._load()
                    except Exception:
                        logger.exception(
                            "search companion %r could not be loaded; searching without it",
                            self.name,
                        )
                        self._failed = True
        return self._embedder

    def rescore(
        self,
        query: str,
        ranked: list[Scored],
        texts: Callable[[list[int]], Mapping[int, str]],
        *,
        weight: float,
        pool: int,
    ) -> list[Scored]:
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
        query_vector = self.vectors.query(embedder, query)
        found = self.vectors.passages(embedder, texts.values())
        return {row_id: float(np.dot(query_vector, found[text])) for row_id, text in texts.items()}

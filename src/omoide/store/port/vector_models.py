"""Which embedder made the stored vectors, and the rows ``omoide reindex`` rewrites."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from omoide.model import RecordedEmbedder, StaleRow


class VectorTableRef(Protocol):
    """One kind of stored vector: ``name`` is "memories", "events" or "episodes"."""

    @property
    def name(self) -> str: ...


class VectorModelStore(Protocol):
    """Which embedder made the stored vectors, and the rows ``omoide reindex`` rewrites."""

    @property
    def tables(self) -> Sequence[VectorTableRef]: ...

    def recorded(self) -> RecordedEmbedder | None: ...
    def record(self, model_id: str, dim: int, *, now: datetime) -> None: ...
    def stored_models(self) -> dict[str, int]: ...
    def other_models(self, model_id: str) -> list[str]: ...
    def stale(self, spec: Any, persona_id: int, model_id: str) -> list[StaleRow]: ...
    def save(
        self, spec: Any, persona_id: int, ids: Sequence[int], vectors: np.ndarray, *, model_id: str
    ) -> None: ...

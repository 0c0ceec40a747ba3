"""The segmentation port: one interface for the offline engine and the LLM judge (pure).

:class:`OfflineSegmenter` is :func:`segment_offline` behind the port; ``omoide.llm.segment``
implements the same port with an LLM judging each adjacent turn pair. The session service is
handed one per persona by the composition root (``OMOIDE_SEGMENTER``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from omoide.engine.segment.boundaries import Segment, SegmentParams, Turn, segment_offline

__all__ = ["OfflineSegmenter", "Segmenter"]


class Segmenter(Protocol):
    """Splits turns into segments; every engine returns what :func:`segment_offline` does."""

    def segment(
        self, turns: Sequence[Turn], vectors: np.ndarray, *, params: SegmentParams, final: bool
    ) -> list[Segment]:
        """Segments covering ``turns`` in order; ``vectors`` are the turns' passage vectors."""
        ...


class OfflineSegmenter:
    """:func:`segment_offline` behind the :class:`Segmenter` port."""

    def segment(
        self, turns: Sequence[Turn], vectors: np.ndarray, *, params: SegmentParams, final: bool
    ) -> list[Segment]:
        return segment_offline(turns, vectors, params=params, final=final)

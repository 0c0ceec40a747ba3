"""Episode segmentation: a stream of conversation turns → episodes (pure).

The public face: the turn and segment types, the :class:`Segmenter` port with its offline
engine (:class:`OfflineSegmenter`, :func:`segment_offline`), and :func:`segment_judged`, which
applies the same rules to per-pair judgements from elsewhere (an LLM). Private modules inside:
``boundaries`` (the rules) over ``signals`` (surprise and cohesion signals).
"""

from omoide.engine.segment.boundaries import (
    BoundaryReason,
    PairJudgement,
    Segment,
    SegmentParams,
    Turn,
    segment_judged,
    segment_offline,
)
from omoide.engine.segment.segmenter import OfflineSegmenter, Segmenter

__all__ = [
    "BoundaryReason",
    "OfflineSegmenter",
    "PairJudgement",
    "Segment",
    "SegmentParams",
    "Segmenter",
    "Turn",
    "segment_judged",
    "segment_offline",
]

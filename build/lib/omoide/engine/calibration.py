"""Map the spec's similarity thresholds onto one embedder's raw cosine scale (pure).

The spec's thresholds (dedup 0.85, evolution 0.8) were written for a model whose unrelated
pairs score near 0 and paraphrases near 0.9. Embedders spread cosine very differently
(e5-small scores unrelated pairs ~0.78), so each embedder carries anchors measured on
labelled pairs: ``(spec_value, raw_cosine)`` points, increasing in both, joined linearly.
Thresholds stay *raw cosine* (DESIGN principle 4); only where they sit moves.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass

__all__ = ["IDENTITY", "Calibration"]


@dataclass(frozen=True)
class Calibration:
    """Monotone piecewise-linear map between the spec's scale and an embedder's raw cosine."""

    anchors: tuple[tuple[float, float], ...]
    note: str = ""

    def __post_init__(self) -> None:
        if len(self.anchors) < 2:
            raise ValueError("a calibration needs at least two anchors")
        if not all(math.isfinite(v) for anchor in self.anchors for v in anchor):
            raise ValueError("calibration anchors must be finite numbers")
        for (s0, r0), (s1, r1) in zip(self.anchors, self.anchors[1:], strict=False):
            if not (s1 > s0 and r1 > r0):
                raise ValueError("calibration anchors must increase in both coordinates")

    def to_raw(self, spec_value: float) -> float:
        """The raw cosine on this embedder that means ``spec_value`` on the spec's scale."""
        return _interp(spec_value, self.anchors)

    def to_spec(self, raw: float) -> float:
        """Inverse of :meth:`to_raw`: where a raw cosine sits on the spec's scale."""
        return _interp(raw, tuple((r, s) for s, r in self.anchors))


def _interp(x: float, points: tuple[tuple[float, float], ...]) -> float:
    """Join ``points`` linearly, extending the end segments past the first and last point."""
    if math.isnan(x):
        raise ValueError("cannot calibrate NaN")
    xs = [px for px, _ in points]
    i = bisect_right(xs, x)
    # A threshold asked for at an anchor must be that anchor exactly, not a rounding of it.
    if i > 0 and xs[i - 1] == x:
        return points[i - 1][1]
    if i == 0:
        (x0, y0), (x1, y1) = points[0], points[1]
        return min(_lerp(x, x0, y0, x1, y1), y0)
    if i == len(points):
        (x0, y0), (x1, y1) = points[-2], points[-1]
        return max(_lerp(x, x0, y0, x1, y1), y1)
    (x0, y0), (x1, y1) = points[i - 1], points[i]
    # Rounding can land a hair past the segment's end anchor; clamping keeps the map monotone
    # across anchors.
    return min(max(_lerp(x, x0, y0, x1, y1), y0), y1)


def _lerp(x: float, x0: float, y0: float, x1: float, y1: float) -> float:
    return y0 + (x - x0) / (x1 - x0) * (y1 - y0)


IDENTITY = Calibration(anchors=((0.0, 0.0), (1.0, 1.0)), note="raw cosine is the spec's scale")

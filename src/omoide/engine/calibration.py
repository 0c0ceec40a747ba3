"""Map the spec's similarity thresholds onto one embedder's raw cosine scale (pure).

The spec's thresholds (dedup 0.85, evolution 0.8) were written for a model whose unrelated
pairs score near 0 and paraphrases near 0.9. Embedders spread cosine very differently
(e5-small scores unrelated pairs ~0.78), so each embedder carries anchors measured on
labelled pairs: ``(spec_value, raw_cosine)`` points, increasing in both, joined linearly.
Thresholds stay *raw cosine* (DESIGN principle 4); only where they sit moves.
"""

from __future__ import annotations

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
    if x <= points[0][0]:
        (x0, y0), (x1, y1) = points[0], points[1]
    elif x >= points[-1][0]:
        (x0, y0), (x1, y1) = points[-2], points[-1]
    else:
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            if x0 <= x <= x1:
                break
    return y0 + (x - x0) * (y1 - y0) / (x1 - x0)


IDENTITY = Calibration(anchors=((0.0, 0.0), (1.0, 1.0)), note="raw cosine is the spec's scale")

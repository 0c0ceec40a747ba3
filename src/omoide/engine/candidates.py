"""Which current memories a new memory is classified against (write path step 4; pure).

The evolution job ranks the persona's current memories by raw cosine with the new one (best
first) and judges only those from the classification band's lower edge up, at most a fixed
number of them (settings ``classify_band_low`` through the embedder's calibration, and
``classify_max_candidates``). The service (``service.evolution``) and the end-to-end benchmark
(``bench/classify_store.py``) both choose through this function, so the benchmark measures the
choice the server makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

__all__ = ["select_candidates"]

T = TypeVar("T")


def select_candidates(
    ranked: Sequence[tuple[T, float]], band: float, cap: int
) -> list[tuple[T, float]]:
    """The first ``cap`` of ``ranked`` (items with their raw cosine, best first) whose cosine
    is at least ``band``: a memory ranked below the cap is never judged, however close.

    >>> select_candidates([("a", 0.95), ("b", 0.9), ("c", 0.8)], band=0.85, cap=5)
    [('a', 0.95), ('b', 0.9)]
    >>> select_candidates([("a", 0.95), ("b", 0.9), ("c", 0.8)], band=0.0, cap=1)
    [('a', 0.95)]
    """
    return [(item, score) for item, score in ranked if score >= band][: max(cap, 0)]

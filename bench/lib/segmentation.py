"""Segmentation metrics: boundaries (turn indices where a new segment starts) against gold."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["boundary_matches", "pk"]


def boundary_matches(predicted: Sequence[int], gold: Sequence[int], tolerance: int) -> int:
    """One-to-one matches of boundaries within ``tolerance`` turns, closest pairs first."""
    pairs = sorted((abs(p - g), p, g) for p in predicted for g in gold if abs(p - g) <= tolerance)
    used_p: set[int] = set()
    used_g: set[int] = set()
    for _, p, g in pairs:
        if p not in used_p and g not in used_g:
            used_p.add(p)
            used_g.add(g)
    return len(used_p)


def pk(predicted: Sequence[int], gold: list[int], n: int) -> float:
    """Beeferman's Pk: how often a probe k turns wide disagrees on 'same segment'."""
    k = max(1, round(n / (len(gold) + 1) / 2))
    if n <= k:
        return 0.0
    ref = np.searchsorted(np.array(sorted(gold)), np.arange(n), side="right")
    hyp = np.searchsorted(np.array(sorted(predicted)), np.arange(n), side="right")
    same_ref = ref[:-k] == ref[k:]
    same_hyp = hyp[:-k] == hyp[k:]
    return float(np.mean(same_ref != same_hyp))

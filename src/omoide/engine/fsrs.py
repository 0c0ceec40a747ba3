"""The FSRS v6 power-law forgetting curve (spec §"FSRS v6 Power-Law Forgetting Curve").

Pure: no I/O, no clock; ``now`` comes in as an argument. The same formula serves the bulk decay
job (``strengths``, vectorised) and on-the-fly ranking (``strength``), so a search never depends on
when the job last ran.

Note: with the spec's constant 19 and exponent -0.5, R(S) = 20^-0.5 ≈ 0.224, so S is the time to
fall to ~22% retrievability, not to 90% as in canonical FSRS. We follow the spec.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypeVar

import numpy as np

from omoide.engine.errors import ParameterError

__all__ = [
    "DECAY",
    "FACTOR",
    "RECALL_FACTOR",
    "STABILITY_CAP_DAYS",
    "current_strength",
    "elapsed_days",
    "initial_stability",
    "recall_anchor",
    "recall_counts",
    "recalled_stability",
    "retrievability",
    "strength",
    "strengths",
]

DECAY = -0.5
FACTOR = 19.0
RECALL_FACTOR = 1.5
STABILITY_CAP_DAYS = 365.0
_HOURS_PER_DAY = 24.0

When = TypeVar("When", datetime, float)


def retrievability(elapsed_days: float, stability_days: float) -> float:
    """R(t) = (1 + 19·t/S)^-0.5 (spec §FSRS); 1.0 at t=0, falling towards 0; t<0 counts as 0."""
    _check_stability(stability_days)
    t = max(elapsed_days, 0.0)
    return (1.0 + FACTOR * t / stability_days) ** DECAY


def strength(importance: float, elapsed_days: float, stability_days: float) -> float:
    """strength = importance × R(t) (spec §FSRS: the effective search score)."""
    return importance * retrievability(elapsed_days, stability_days)


def initial_stability(emotion_intensity: float | None) -> float:
    """S at creation (spec §FSRS step 1): intensity > 0.7 → 10 days, > 0.5 → 5, else 1."""
    if emotion_intensity is not None and emotion_intensity > 0.7:
        return 10.0
    if emotion_intensity is not None and emotion_intensity > 0.5:
        return 5.0
    return 1.0


def recalled_stability(
    stability_days: float,
    *,
    factor: float = RECALL_FACTOR,
    cap_days: float = STABILITY_CAP_DAYS,
) -> float:
    """S after a recall = min(S × 1.5, 365) (spec §FSRS step 3: the spacing effect)."""
    return min(stability_days * factor, cap_days)


def recall_counts(
    last_accessed: datetime | None, now: datetime, *, min_interval_hours: float = 1.0
) -> bool:
    """Whether a recall at ``now`` strengthens the memory: at most once per memory per interval.

    True when the memory was never accessed or was last accessed at least ``min_interval_hours``
    ago, so a client polling the same search does not inflate stability. A ``last_accessed`` in
    the future (clock skew) does not count as elapsed.
    """
    if last_accessed is None:
        return True
    return now - last_accessed >= timedelta(hours=min_interval_hours)


def elapsed_days(since: datetime, now: datetime) -> float:
    """t for R(t): days from ``since`` to ``now`` (from hours, spec §FSRS), never below 0."""
    hours = (now - since).total_seconds() / 3600.0
    return max(hours, 0.0) / _HOURS_PER_DAY


def recall_anchor(last_accessed: When | None, created_at: When) -> When:
    """Where t of R(t) starts: the last recall, or the creation for a memory never recalled.

    The one statement of "time since last access": the decay job (on Julian days, in SQL),
    live strength in search and context, and the dashboard's forgetting curve all count from
    here. Any time type works (datetime, or a number of days) as long as both are the same.
    """
    return created_at if last_accessed is None else last_accessed


def current_strength(
    importance: float,
    stability_days: float,
    *,
    last_accessed: datetime | None,
    created_at: datetime,
    now: datetime,
) -> float:
    """strength at ``now``, t counted from :func:`recall_anchor` (never below 0)."""
    since = recall_anchor(last_accessed, created_at)
    return strength(importance, elapsed_days(since, now), stability_days)


def strengths(
    importance: np.ndarray, stability: np.ndarray, elapsed_hours: np.ndarray
) -> np.ndarray:
    """importance × (1 + 19·t/S)^-0.5 with t = max(hours, 0)/24, row by row (the decay job).

    Float64 arrays of one shape (or broadcastable); returns a new float64 array.
    """
    stability = np.asarray(stability, dtype=np.float64)
    if not np.all(stability > 0.0):  # also rejects NaN, like retrievability()
        raise ParameterError("stability must be positive", field="stability")
    days = np.maximum(np.asarray(elapsed_hours, dtype=np.float64), 0.0) / _HOURS_PER_DAY
    return np.asarray(importance, dtype=np.float64) * (1.0 + FACTOR * days / stability) ** DECAY


def _check_stability(stability_days: float) -> None:
    if not stability_days > 0.0:
        raise ParameterError(f"stability must be positive, got {stability_days}", field="stability")

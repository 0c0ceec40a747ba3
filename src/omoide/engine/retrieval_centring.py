"""Re-score a semantic candidate pool after removing what the pool shares (pure).

Inside one persona's store every memory is about the same few people, so a query's cosine to
each candidate carries a component they all share (the names, the persona's usual topics). The
store already removes each language's centroid over the whole persona (``store.vectors``); this
removes, in addition, ``weight`` × the mean of the query's own best candidates, so what is left
of the query is what sets it apart from its neighbourhood, and each candidate is scored on
that. A ranking signal only: thresholds keep the raw cosine (DESIGN principle 4). No I/O.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pool_centred_scores"]


def pool_centred_scores(query: np.ndarray, rows: np.ndarray, *, weight: float,
                        top: int) -> np.ndarray:
    """cos(q − w·m, p − w·m) for every row p, where m is the mean of the first ``top`` rows
    (the pool in its current rank order). ``query`` (d,) and ``rows`` (n, d) are the vectors
    the scores are computed on (language-centred ones); ``weight`` 0 gives their plain cosine."""
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.float64)
    rows = np.asarray(rows, dtype=np.float64)
    centre = weight * rows[: max(1, top)].mean(axis=0)
    q = np.asarray(query, dtype=np.float64) - centre
    p = rows - centre
    norms = np.linalg.norm(p, axis=1) * max(float(np.linalg.norm(q)), 1e-12)
    return (p @ q) / np.maximum(norms, 1e-12)

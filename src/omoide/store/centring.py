"""Language centring of a persona's vectors: script groups, centroids and centred cosines
(pure numpy, no state; ``store.vectors`` keeps the sums, counts and snapshot).

The ``centred`` score is the cosine after removing each text's *language centroid* (the mean
vector of this persona's texts in the same script, shrunk towards zero while there are few:
:func:`language_centroids`). Multilingual embedders put a large shared component on every text
of one language, so an English query scores English memories above the Japanese memory that
answers it; centring removes that component. Measured on retrieval_ja (semantic only, MRR): e5
0.62 → 0.83, USE 0.78 → 0.89; on an English-only LoCoMo conversation it costs nothing (R@10 USE
0.263 → 0.263, e5 0.572 → 0.618). It is a ranking signal only: every threshold (dedup,
evolution, classification band) uses the raw cosine (DESIGN principle 4).
"""

from __future__ import annotations

import numpy as np

from omoide.engine.lang import has_cjk

__all__ = ["LANGUAGES", "centred_cosines", "centred_norms", "language_centroids", "language_of"]

LANGUAGES = 2  # 0: Latin and other scripts, 1: CJK
# A language's centroid is its rows' sum over its count plus _SHRINK: shrunk towards zero, so
# a language with few texts is hardly centred. Small stores (bench/small_store.py, which
# measures other weights and a pooled prior; bench/results/small_store19.md): a prior of the
# mean of every row with 2 pseudo-rows gains on stores mixing both scripts (MRR@10 0.921 →
# 0.939) but loses where one note is alone in its script (0.926 → 0.922), the shape new
# personas have, so the zero prior stays.
_SHRINK = 10.0


def language_of(text: str) -> int:
    """The script group a text's centroid is kept for."""
    return 1 if has_cjk(text) else 0


def language_centroids(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """One centroid per language, μ_l = sum_l / (count_l + _SHRINK): the mean of the
    language's rows (``sums``, ``counts``) shrunk towards zero while they are few."""
    sums = np.asarray(sums, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    return (sums / (counts[:, None] + _SHRINK)).astype(np.float32)


def centred_norms(pmu: np.ndarray, langs: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """|p − μ_p| for unit rows p, from their ``pmu`` = p·μ_l for every language l and their
    languages ``langs`` (μ: one centroid per language)."""
    own = pmu[np.arange(len(langs)), langs]  # p·μ_p
    mu_sq = np.einsum("ij,ij->i", mu, mu)
    return np.sqrt(np.maximum(1.0 - 2.0 * own + mu_sq[langs], 1e-12))


def centred_cosines(
    raw: np.ndarray,
    pmu: np.ndarray,
    langs: np.ndarray,
    query: np.ndarray,
    query_lang: int,
    mu: np.ndarray,
) -> np.ndarray:
    """cos(q − μ_q, p − μ_p) for unit rows p, from their raw cosines ``raw`` = p·q, their
    ``pmu`` = p·μ_l for every language l, and their languages ``langs`` (μ: one centroid per
    language)."""
    q_c = query - mu[query_lang]
    q_dot_mu = mu @ q_c  # (q − μ_q)·μ_l for each language l
    numerator = raw - pmu[:, query_lang] - q_dot_mu[langs]
    p_norm = centred_norms(pmu, langs, mu)
    return numerator / (max(float(np.linalg.norm(q_c)), 1e-12) * p_norm)

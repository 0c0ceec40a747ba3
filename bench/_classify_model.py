"""The learned judge's model, for its training (``bench/train_classifier.py``): a logistic
regression over the named features and a few directions of each embedding block.

``project`` reads each vector block along a few directions (towards each class's mean:
"centroid"; or its top principal directions: "pcaK"); ``fold_projection`` rewrites the fitted
model over whole blocks (the projection is linear), so the stored judge is read by plain numpy;
``fit_logistic`` fits and ``probabilities`` applies the model as ``learned.py`` does at run time.
"""

from __future__ import annotations

import sys

import numpy as np

from _classify_data import CLASSES


def sklearn_parts():
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedGroupKFold
    except ImportError:
        sys.exit("scikit-learn is needed for training: .venv/bin/pip install -e '.[bench]'")
    return LogisticRegression, StratifiedGroupKFold


Projection = list[tuple[np.ndarray, np.ndarray]]  # per block: (mean, directions dim × k)


def project(blocks: list[np.ndarray], reduce: str, y: np.ndarray | None = None,
            fitted: Projection | None = None) -> tuple[np.ndarray, Projection]:
    """Each block's coordinates along a few directions, side by side. ``reduce`` is "none",
    "centroid" (the direction from the block's mean to each class's mean, unit length: how
    much a pair's block looks like each class's) or "pcaK" (the top K principal directions).
    The directions are fitted on these rows (labels ``y``) unless ``fitted`` is given."""
    if reduce == "none" or not blocks:
        return np.zeros((len(blocks[0]) if blocks else 0, 0)), []
    if fitted is None:
        fitted = []
        for b in blocks:
            mu = b.mean(axis=0)
            if reduce == "centroid":
                assert y is not None
                directions = np.stack([b[y == k].mean(axis=0) - mu
                                       for k in range(len(CLASSES))])
                directions /= np.maximum(np.linalg.norm(directions, axis=1, keepdims=True),
                                         1e-12)
            else:
                _, _, vt = np.linalg.svd(b - mu, full_matrices=False)
                directions = vt[:int(reduce.removeprefix("pca"))]
            fitted.append((mu, directions.T))
    return np.hstack([(b - mu) @ p for b, (mu, p) in zip(blocks, fitted, strict=True)]), fitted


def fold_projection(params, n_named: int, fitted: Projection):
    """Rewrite a model over [named features, projected blocks] as one over [named features,
    whole blocks]: the projection is linear, so each block gets one weight row per class."""
    mean, scale, w, b = params
    if not fitted:
        return params
    w_named, w_proj = w[:, :n_named], w[:, n_named:] / scale[n_named:]
    bias = b - w_proj @ mean[n_named:]
    rows, start = [], 0
    for mu, p in fitted:
        part = w_proj[:, start:start + p.shape[1]]
        rows.append(part @ p.T)  # classes × dim
        bias = bias - (part @ p.T) @ mu
        start += p.shape[1]
    dim = fitted[0][0].shape[0]
    return (np.concatenate([mean[:n_named], np.zeros(dim * len(fitted))]),
            np.concatenate([scale[:n_named], np.ones(dim * len(fitted))]),
            np.hstack([w_named, *rows]), bias)


def fit_logistic(x: np.ndarray, y: np.ndarray, c: float):
    logistic, _ = sklearn_parts()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = logistic(C=c, max_iter=5000)
    model.fit((x - mean) / scale, y)
    order = [list(model.classes_).index(i) for i in range(len(CLASSES))]
    return mean, scale, model.coef_[order], model.intercept_[order]


def probabilities(params, x: np.ndarray) -> np.ndarray:
    mean, scale, w, b = params
    z = ((x - mean) / scale) @ w.T + b
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)

"""The learned judge's model, for its training (``bench/train_classifier.py``): a logistic
regression over the named features and a few directions of each embedding block.

``project`` reads each vector block along a few directions (towards each class's mean:
"centroid"; or its top principal directions: "pcaK"); ``fold_projection`` rewrites the fitted
model over whole blocks (the projection is linear), so the stored judge is read by plain numpy;
``fit_logistic`` fits and ``probabilities`` applies the model as ``learned.py`` does at run time.
``fit_net`` fits a net of one hidden layer instead (``Config.head`` "net", round 28) as the
arrays the package reads (``engine/classify/hidden.py``), so the benchmark scores what a server
would; ``fit_trees`` (boosted trees, "trees") was compared with it and is not shipped.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from _classify_data import CLASSES
from omoide.engine.classify import BlockProjection, HiddenLayer

# The heads of round 28's train → choose split (``bench/classify_split.py --head``,
# ``bench/results/classify_round28.md``): boosted trees (compared only) and the net.
TREES = {
    "max_iter": 200,
    "learning_rate": 0.05,
    "max_leaf_nodes": 15,
    "min_samples_leaf": 40,
    "l2_regularization": 1.0,
}
NET = {"units": 32, "alpha": 1.0, "max_iter": 300, "seed": 0}


class Net(NamedTuple):
    """A fitted net (``fit_net``): standardisation, the hidden layer, the class scores."""

    mean: np.ndarray
    scale: np.ndarray
    hidden: HiddenLayer
    weights: np.ndarray
    bias: np.ndarray


@contextmanager
def one_thread() -> Iterator[None]:
    """Numeric libraries on one thread while fitting: a sum split over threads may round
    otherwise, and a net fitted on another thread count is not the same bytes
    (``train_classifier``: one command, one judge file). threadpoolctl comes with
    scikit-learn; without it training stops at ``sklearn_parts`` anyway."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=1):
        yield


def sklearn_parts():
    try:
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import StratifiedGroupKFold
    except ImportError:
        sys.exit("scikit-learn is needed for training: .venv/bin/pip install -e '.[bench]'")
    return LogisticRegression, StratifiedGroupKFold


Projection = list[tuple[np.ndarray, np.ndarray]]  # per block: (mean, directions dim × k)


def project(
    blocks: list[np.ndarray],
    reduce: str,
    y: np.ndarray | None = None,
    fitted: Projection | None = None,
) -> tuple[np.ndarray, Projection]:
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
                directions = np.stack([b[y == k].mean(axis=0) - mu for k in range(len(CLASSES))])
                directions /= np.maximum(np.linalg.norm(directions, axis=1, keepdims=True), 1e-12)
            else:
                _, _, vt = np.linalg.svd(b - mu, full_matrices=False)
                directions = vt[: int(reduce.removeprefix("pca"))]
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
        part = w_proj[:, start : start + p.shape[1]]
        rows.append(part @ p.T)  # classes × dim
        bias = bias - (part @ p.T) @ mu
        start += p.shape[1]
    dim = fitted[0][0].shape[0]
    return (
        np.concatenate([mean[:n_named], np.zeros(dim * len(fitted))]),
        np.concatenate([scale[:n_named], np.ones(dim * len(fitted))]),
        np.hstack([w_named, *rows]),
        bias,
    )


def head_fields(params, n_named: int, fitted: Projection) -> dict[str, object]:
    """The ``JudgeModel`` fields of a fitted head: a linear one rewritten over whole blocks
    (``fold_projection``); trees with the blocks' projection stored beside them."""
    if not isinstance(params, Net):
        mean, scale, weights, bias = fold_projection(params, n_named, fitted)
        return {"mean": mean, "scale": scale, "weights": weights, "bias": bias}
    projection = (
        BlockProjection(
            directions=np.stack([p for _, p in fitted]),
            offset=np.stack([mu @ p for mu, p in fitted]),
        )
        if fitted
        else None
    )
    return {
        "mean": params.mean,
        "scale": params.scale,
        "weights": params.weights,
        "bias": params.bias,
        "hidden": params.hidden,
        "projection": projection,
    }


def fit_logistic(x: np.ndarray, y: np.ndarray, c: float, weight: np.ndarray | None = None):
    logistic, _ = sklearn_parts()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = logistic(C=c, max_iter=5000)
    model.fit((x - mean) / scale, y, sample_weight=weight)
    order = [list(model.classes_).index(i) for i in range(len(CLASSES))]
    return mean, scale, model.coef_[order], model.intercept_[order]


def fit_trees(x: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None):
    """Gradient-boosted trees (scikit-learn's histogram booster, ``TREES``) on ``x``, for the
    comparison of round 28 only: no server reads trees (the net won, ``fit_net``)."""
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
    except ImportError:
        sys.exit("scikit-learn is needed for training: .venv/bin/pip install -e '.[bench]'")
    return HistGradientBoostingClassifier(**TREES, random_state=0).fit(x, y, sample_weight=weight)


def fit_net(
    x: np.ndarray,
    y: np.ndarray,
    weight: np.ndarray | None = None,
    units: int = NET["units"],
    alpha: float = NET["alpha"],
) -> Net:
    """A net of one hidden layer of ``units`` rectified units (``NET``'s by default) and L2
    penalty ``alpha`` on standardised ``x``, each row weighing ``weight`` (1 when not given), as
    the arrays ``learned.JudgeModel`` reads (``hidden``)."""
    try:
        from sklearn.neural_network import MLPClassifier
    except ImportError:
        sys.exit("scikit-learn is needed for training: .venv/bin/pip install -e '.[bench]'")
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = MLPClassifier(
        hidden_layer_sizes=(units,),
        alpha=alpha,
        max_iter=NET["max_iter"],
        random_state=NET["seed"],
    )
    model.fit((x - mean) / scale, y, sample_weight=weight)
    assert list(model.classes_) == list(range(len(CLASSES)))
    return Net(
        mean,
        scale,
        HiddenLayer(weights=model.coefs_[0].T, bias=model.intercepts_[0]),
        model.coefs_[1].T,
        model.intercepts_[1],
    )


def probabilities(params, x: np.ndarray) -> np.ndarray:
    if not isinstance(params, tuple):  # trees (``fit_trees``): scikit-learn's own reading
        return params.predict_proba(x)
    if isinstance(params, Net):
        z = params.hidden.apply((x - params.mean) / params.scale) @ params.weights.T + params.bias
    else:
        mean, scale, w, b = params
        z = ((x - mean) / scale) @ w.T + b
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)

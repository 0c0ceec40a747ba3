"""Text-only judge models for tests: their probabilities are their bias alone, whatever the
pair, so a test sees only what the rules, caps, vetoes and thresholds make of them."""

from __future__ import annotations

from typing import Any

import numpy as np

from omoide.engine.classify import Relation
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import JudgeModel

_CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)


def bias_only(bias: Any, *, threshold: float, **fields: Any) -> JudgeModel:
    """A text-only judge whose probabilities are the softmax of ``bias`` (INDEPENDENT,
    EXTENDABLE, CONTRADICTORY) for every pair, ``threshold`` its contradiction threshold;
    ``fields`` set the rest (language, related or replaced thresholds)."""
    d = len(TEXT_FEATURES)
    return JudgeModel(
        embedder="",
        features=TEXT_FEATURES,
        classes=_CLASSES,
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=np.zeros((3, d)),
        bias=np.asarray(bias, dtype=float),
        contradiction_threshold=threshold,
        **fields,
    )


def sure_of_change() -> JudgeModel:
    """A model that reads every pair as CONTRADICTORY (its bias alone), so a test sees only
    what the caps and vetoes let through."""
    return bias_only([0.0, 0.0, 9.0], threshold=0.5)

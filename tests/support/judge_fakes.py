"""A judge model for tests of what may stop a close: it reads every pair as CONTRADICTORY."""

from __future__ import annotations

import numpy as np

from omoide.engine.classify import Relation
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import JudgeModel

_CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)


def sure_of_change() -> JudgeModel:
    """A model that reads every pair as CONTRADICTORY (its bias alone), so a test sees only
    what the caps and vetoes let through."""
    d = len(TEXT_FEATURES)
    return JudgeModel(
        embedder="",
        features=TEXT_FEATURES,
        classes=_CLASSES,
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=np.zeros((3, d)),
        bias=np.array([0.0, 0.0, 9.0]),
        contradiction_threshold=0.5,
    )

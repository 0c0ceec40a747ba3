"""The learned judge as a net of one hidden layer over projected vector blocks (round 28)."""

from __future__ import annotations

import numpy as np
import pytest

from omoide.engine.classify import BlockProjection, HiddenLayer, JudgeModel, Relation
from omoide.engine.errors import ModelDataError

CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)
FEATURES = ("coverage", "negation_flip")
BLOCKS = ("diff", "new_part")
DIM, K, UNITS = 4, 3, 5


def _net(seed: int = 0) -> JudgeModel:
    rng = np.random.default_rng(seed)
    width = len(FEATURES) + len(BLOCKS) * K
    return JudgeModel(
        embedder="test-embedder",
        features=FEATURES,
        classes=CLASSES,
        mean=rng.normal(size=width),
        scale=rng.uniform(0.5, 2.0, size=width),
        weights=rng.normal(size=(3, UNITS)),
        bias=rng.normal(size=3),
        contradiction_threshold=0.9,
        blocks=BLOCKS,
        block_dim=DIM,
        projection=BlockProjection(
            directions=rng.normal(size=(len(BLOCKS), DIM, K)),
            offset=rng.normal(size=(len(BLOCKS), K)),
        ),
        hidden=HiddenLayer(weights=rng.normal(size=(UNITS, width)), bias=rng.normal(size=UNITS)),
    )


def _by_hand(model: JudgeModel, row: np.ndarray) -> np.ndarray:
    """The net's probabilities written out step by step."""
    assert model.projection is not None and model.hidden is not None
    named, rest = row[: len(FEATURES)], row[len(FEATURES) :]
    coords = [
        rest[j * DIM : (j + 1) * DIM] @ model.projection.directions[j] - model.projection.offset[j]
        for j in range(len(BLOCKS))
    ]
    x = (np.concatenate([named, *coords]) - model.mean) / model.scale
    h = np.maximum(model.hidden.weights @ x + model.hidden.bias, 0.0)
    z = model.weights @ h + model.bias
    return np.exp(z - z.max()) / np.exp(z - z.max()).sum()


def test_a_net_reads_projected_blocks_through_rectified_units() -> None:
    model = _net()
    rows = np.random.default_rng(1).normal(size=(6, len(FEATURES) + len(BLOCKS) * DIM))
    got = model.probabilities(rows)
    assert got.shape == (6, 3)
    for row, probs in zip(rows, got, strict=True):
        np.testing.assert_allclose(probs, _by_hand(model, row), atol=1e-12)
        np.testing.assert_allclose(model.probabilities(row), probs, atol=1e-12)


def test_a_net_survives_its_file_form() -> None:
    model = _net()
    again = JudgeModel.from_dict(model.to_dict())
    rows = np.random.default_rng(2).normal(size=(4, len(FEATURES) + len(BLOCKS) * DIM))
    np.testing.assert_allclose(again.probabilities(rows), model.probabilities(rows))
    assert again.hidden is not None and again.projection is not None


@pytest.mark.parametrize("broken", ["hidden_inputs", "class_weights", "projection_dim"])
def test_a_net_that_does_not_fit_its_inputs_is_refused(broken: str) -> None:
    data = _net().to_dict()
    if broken == "hidden_inputs":
        data["hidden"]["weights"] = [row[:-1] for row in data["hidden"]["weights"]]
    elif broken == "class_weights":
        data["weights"] = [row[:-1] for row in data["weights"]]
    else:
        data["block_dim"] = DIM + 1
    with pytest.raises(ModelDataError):
        JudgeModel.from_dict(data)


def test_a_linear_judge_needs_no_hidden_layer() -> None:
    width = len(FEATURES)
    model = JudgeModel(
        embedder="",
        features=FEATURES,
        classes=CLASSES,
        mean=np.zeros(width),
        scale=np.ones(width),
        weights=np.eye(3, width),
        bias=np.zeros(3),
        contradiction_threshold=0.9,
    )
    assert model.hidden is None and "hidden" not in model.to_dict()
    np.testing.assert_allclose(
        JudgeModel.from_dict(model.to_dict()).probabilities(np.array([1.0, 0.0])),
        model.probabilities(np.array([1.0, 0.0])),
    )

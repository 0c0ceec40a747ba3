"""A hidden layer for the learned judge, and the block projection it reads (pure).

A judge may put one layer of rectified units between its standardised inputs and its class
scores (``HiddenLayer``): each unit weighs every input, keeps its sum when positive, and the
classes weigh the units. Its inputs are the named features and a few coordinates of each
vector block (``BlockProjection``: the block's lean towards each class's mean block on the
training pairs), so the file stays small (a linear judge folds the projection into its
weights instead). Trained by ``bench/train_classifier.py --head mlp``; read by
``learned.JudgeModel``. No I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from omoide.engine.errors import ModelDataError

__all__ = ["BlockProjection", "HiddenLayer"]


@dataclass(frozen=True)
class BlockProjection:
    """Each vector block read along ``k`` directions: ``directions`` (blocks, dim, k) and
    ``offset`` (blocks, k), so a block ``b`` becomes ``b @ directions[j] - offset[j]``."""

    directions: np.ndarray
    offset: np.ndarray

    @property
    def width(self) -> int:
        """How many coordinates it gives (blocks × k)."""
        return int(self.offset.size)

    def apply(self, blocks: np.ndarray) -> np.ndarray:
        """``blocks`` (rows, blocks × dim) → (rows, blocks × k)."""
        n_blocks, dim, _ = self.directions.shape
        parts = blocks.reshape(len(blocks), n_blocks, dim)
        coords = np.einsum("rbd,bdk->rbk", parts, self.directions) - self.offset
        return coords.reshape(len(blocks), -1)

    def to_dict(self) -> dict[str, Any]:
        return {"directions": self.directions.tolist(), "offset": self.offset.tolist()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlockProjection:
        directions = np.asarray(data["directions"], dtype=np.float64)
        offset = np.asarray(data["offset"], dtype=np.float64)
        if directions.ndim != 3 or offset.shape != (directions.shape[0], directions.shape[2]):
            raise ModelDataError("the judge model's block projection is malformed")
        return cls(directions=directions, offset=offset)


@dataclass(frozen=True)
class HiddenLayer:
    """``weights`` (units, inputs) and ``bias`` (units,): max(0, x @ weights.T + bias)."""

    weights: np.ndarray
    bias: np.ndarray

    def apply(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(x @ self.weights.T + self.bias, 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {"weights": self.weights.tolist(), "bias": self.bias.tolist()}

    @classmethod
    def from_dict(cls, data: dict[str, Any], inputs: int) -> HiddenLayer:
        weights = np.asarray(data["weights"], dtype=np.float64)
        bias = np.asarray(data["bias"], dtype=np.float64)
        if weights.ndim != 2 or weights.shape[1] != inputs or bias.shape != weights.shape[:1]:
            raise ModelDataError("the judge model's hidden layer does not match its inputs")
        return cls(weights=weights, bias=bias)

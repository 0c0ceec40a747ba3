"""The learned 3-op judge's weights (pure): one model (:class:`JudgeModel`, a multinomial
logistic regression or a net of one hidden layer, with its CONTRADICTORY thresholds per
language), or one model per language (:class:`LanguageJudge`, ``bench/train_classifier.py
--by-language``: each fitted and given its thresholds on its own language's pairs).

Both are read from ``judge.json`` by :func:`judge_from_dict` and answer :meth:`for_text`: the
model that judges one pair (a :class:`JudgeModel` judges every pair itself; a
:class:`LanguageJudge` hands a pair to its language's model, ``pair_lang``). ``learned.judge``
and the rest take either. No I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from omoide.engine.classify.base import Relation
from omoide.engine.classify.features import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    VECTOR_BLOCKS,
    PairText,
)
from omoide.engine.classify.hidden import BlockProjection, HiddenLayer
from omoide.engine.classify.judge_signals import pair_lang, value_replaced
from omoide.engine.classify.offline import UNRELATED
from omoide.engine.errors import ModelDataError

__all__ = [
    "Judge",
    "JudgeModel",
    "LanguageJudge",
    "LanguageThresholds",
    "judge_from_dict",
    "judge_models",
]


@dataclass(frozen=True)
class LanguageThresholds:
    """One language's CONTRADICTORY thresholds: its own (``language_thresholds``, else the
    model's ``contradiction_threshold``) and, when set, its related and replaced-value ones."""

    own: float
    related: float | None = None
    replaced: float | None = None


@dataclass(frozen=True)
class JudgeModel:
    """Weights of one trained judge; ``embedder`` is the model id its cosines come from
    (empty for a text-only model)."""

    embedder: str
    features: tuple[str, ...]
    classes: tuple[Relation, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (len(classes), len(features)), or (len(classes), hidden units)
    bias: np.ndarray  # (len(classes),)
    contradiction_threshold: float
    rule_overrides: tuple[str, ...] = ()
    blocks: tuple[str, ...] = ()  # VECTOR_BLOCKS read whole, after the named features
    block_dim: int = 0
    language_thresholds: tuple[tuple[str, float], ...] = ()  # ("en", t), ("ja", t)
    # A lower threshold of a language for a pair the rules read as related (their reading is
    # not ``unrelated``, ``threshold_for``); chosen for the packaged judge by
    # ``bench/classify_related.py``, none for a freshly trained one.
    related_thresholds: tuple[tuple[str, float], ...] = ()
    # A lower threshold still of a language for a pair the judge reads as EXTENDABLE where the
    # rules read a value of the old memory replaced in a related pair (``replaced_threshold_for``,
    # ``judge_signals.value_replaced``); chosen by ``bench/classify_replaced.py``.
    replaced_thresholds: tuple[tuple[str, float], ...] = ()
    # A new memory of several sentences closes the old one when one of its sentences, read
    # alone, is CONTRADICTORY with at least this probability (inf: never; ``judge_note``).
    sentence_threshold: float = float("inf")
    # A net (round 28): the blocks read along a few directions each (``projection``; mean and
    # scale then standardise the named features and those coordinates), then ``hidden``.
    projection: BlockProjection | None = None
    hidden: HiddenLayer | None = None
    # The three threshold tables read per language, made once from the fields above
    # (``_language``); a language none of them names has only ``contradiction_threshold``
    # (``_unnamed``).
    _by_lang: dict[str, LanguageThresholds] = field(init=False, repr=False, compare=False)
    _unnamed: LanguageThresholds = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        own, related = dict(self.language_thresholds), dict(self.related_thresholds)
        replaced = dict(self.replaced_thresholds)
        by_lang = {
            lang: LanguageThresholds(
                own.get(lang, self.contradiction_threshold), related.get(lang), replaced.get(lang)
            )
            for lang in {**own, **related, **replaced}
        }
        object.__setattr__(self, "_by_lang", by_lang)
        object.__setattr__(self, "_unnamed", LanguageThresholds(self.contradiction_threshold))

    def _language(self, text: PairText) -> LanguageThresholds:
        """The thresholds of the pair's language (``pair_lang``)."""
        return self._by_lang.get(pair_lang(text), self._unnamed)

    def threshold_for(self, text: PairText) -> float:
        """The CONTRADICTORY threshold of the pair's language (the pair is Japanese when its
        ``lang_ja`` text feature is set); the language's ``related_thresholds`` when lower and
        the rules read the two memories as related. A pair the rules find nothing between
        (``unrelated``: no shared topic, no change cue) keeps the language's own threshold: in
        a store, the nearest memory the judge leans to closing with the rules saying
        ``unrelated`` is often another fact of the same kind ("walks to work" against "cycles
        to the gym"), not the one the new memory changes."""
        thresholds = self._language(text)
        if thresholds.related is None or text.rule == UNRELATED:
            return thresholds.own
        return min(thresholds.own, thresholds.related)

    def replaced_threshold_for(self, text: PairText) -> float:
        """The CONTRADICTORY threshold under which an EXTENDABLE reading of the judge still
        closes: the language's ``replaced_thresholds`` entry when the rules read the pair as
        related and a value of the old memory replaced ("first Sunday" → "last Sunday", 50mm →
        35mm, 週1 → 月2: ``value_replaced``); else never (inf). The judge often reads such a
        restatement as adding detail."""
        replaced = self._language(text).replaced
        if replaced is None or text.rule == UNRELATED or not value_replaced(text):
            return math.inf
        return replaced

    def for_text(self, text: PairText) -> JudgeModel:
        """The model that judges ``text``: this one, whatever the language."""
        return self

    @property
    def uses_embeddings(self) -> bool:
        return bool(self.blocks) or any(f in EMBEDDING_FEATURES for f in self.features)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities (softmax) for one feature row or a matrix of rows."""
        x = np.asarray(x, dtype=np.float64)
        if self.projection is not None:
            rows = np.atleast_2d(x)
            named = len(self.features)
            rows = np.hstack([rows[:, :named], self.projection.apply(rows[:, named:])])
            x = rows[0] if x.ndim == 1 else rows
        x = (x - self.mean) / self.scale
        if self.hidden is not None:
            x = self.hidden.apply(x)
        z = x @ self.weights.T + self.bias
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=-1, keepdims=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "features": list(self.features),
            "classes": [c.value for c in self.classes],
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "weights": self.weights.tolist(),
            "bias": self.bias.tolist(),
            "contradiction_threshold": self.contradiction_threshold,
            "rule_overrides": list(self.rule_overrides),
            "blocks": list(self.blocks),
            "block_dim": self.block_dim,
            "language_thresholds": dict(self.language_thresholds),
            **(
                {"related_thresholds": dict(self.related_thresholds)}
                if self.related_thresholds
                else {}
            ),
            **(
                {"replaced_thresholds": dict(self.replaced_thresholds)}
                if self.replaced_thresholds
                else {}
            ),
            "sentence_threshold": (
                None if math.isinf(self.sentence_threshold) else self.sentence_threshold
            ),
            **({"projection": self.projection.to_dict()} if self.projection is not None else {}),
            **({"hidden": self.hidden.to_dict()} if self.hidden is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JudgeModel:
        features = tuple(data["features"])
        unknown = set(features) - set(TEXT_FEATURES) - set(EMBEDDING_FEATURES)
        if unknown:
            raise ModelDataError(f"the judge model names unknown features: {sorted(unknown)}")
        blocks = tuple(data.get("blocks", ()))
        if set(blocks) - set(VECTOR_BLOCKS):
            raise ModelDataError(f"the judge model names unknown vector blocks: {blocks}")
        block_dim = int(data.get("block_dim", 0))
        width = len(features) + len(blocks) * block_dim
        projection = BlockProjection.from_dict(data["projection"]) if "projection" in data else None
        if projection is not None:
            if projection.directions.shape[:2] != (len(blocks), block_dim):
                raise ModelDataError("the judge model's projection does not match its blocks")
            width = len(features) + projection.width
        hidden = HiddenLayer.from_dict(data["hidden"], width) if "hidden" in data else None
        weights = np.asarray(data["weights"], dtype=np.float64)
        if len(data["mean"]) != width or weights.shape != (
            len(data["classes"]),
            width if hidden is None else len(hidden.bias),
        ):
            raise ModelDataError("the judge model's weights do not match its features")
        return cls(
            embedder=str(data["embedder"]),
            features=features,
            classes=tuple(Relation(c) for c in data["classes"]),
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            weights=weights,
            bias=np.asarray(data["bias"], dtype=np.float64),
            contradiction_threshold=float(data["contradiction_threshold"]),
            rule_overrides=tuple(data.get("rule_overrides", ())),
            blocks=blocks,
            block_dim=block_dim,
            language_thresholds=tuple(
                (str(k), float(v)) for k, v in data.get("language_thresholds", {}).items()
            ),
            related_thresholds=tuple(
                (str(k), float(v)) for k, v in data.get("related_thresholds", {}).items()
            ),
            replaced_thresholds=tuple(
                (str(k), float(v)) for k, v in data.get("replaced_thresholds", {}).items()
            ),
            sentence_threshold=float(data.get("sentence_threshold") or math.inf),
            projection=projection,
            hidden=hidden,
        )


@dataclass(frozen=True)
class LanguageJudge:
    """One judge per language (``bench/train_classifier.py --by-language``): a pair is judged
    by its language's model (``pair_lang``), thresholds and all; every model reads the same
    embedder's vectors."""

    models: tuple[tuple[str, JudgeModel], ...]  # ("en", model), ("ja", model)
    _by_lang: dict[str, JudgeModel] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_lang = dict(self.models)
        if not by_lang:
            raise ModelDataError("a judge per language names no language")
        if len({m.embedder for m in by_lang.values() if m.uses_embeddings}) > 1:
            raise ModelDataError("the judge's languages read different embedders")
        object.__setattr__(self, "_by_lang", by_lang)

    def for_text(self, text: PairText) -> JudgeModel:
        """The model of the pair's language (the first one named for a language none names)."""
        return self._by_lang.get(pair_lang(text), self.models[0][1])

    @property
    def embedder(self) -> str:
        """The embedder the models read (empty when none reads vectors)."""
        return next((m.embedder for _, m in self.models if m.uses_embeddings), "")

    @property
    def uses_embeddings(self) -> bool:
        return any(m.uses_embeddings for _, m in self.models)

    @property
    def sentence_threshold(self) -> float:
        """The lowest of the languages' sentence thresholds (inf: no note ever closes through
        one sentence, so its sentences need not be read)."""
        return min(m.sentence_threshold for _, m in self.models)

    def to_dict(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "languages": {lang: m.to_dict() for lang, m in self.models},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LanguageJudge:
        return cls(
            tuple((str(lang), JudgeModel.from_dict(m)) for lang, m in data["languages"].items())
        )


Judge = JudgeModel | LanguageJudge


def judge_from_dict(data: dict[str, Any]) -> Judge:
    """A judge as ``judge.json`` stores it: one model, or one per language (``languages``)."""
    return LanguageJudge.from_dict(data) if "languages" in data else JudgeModel.from_dict(data)


def judge_models(judge: Judge) -> tuple[JudgeModel, ...]:
    """The models a judge holds: itself, or its languages' in their order."""
    return tuple(m for _, m in judge.models) if isinstance(judge, LanguageJudge) else (judge,)

"""The learned 3-op judge: a multinomial logistic regression, or a net of one hidden layer, in
plain numpy (pure).

Trained offline by ``bench/train_classifier.py`` on the pairs in ``bench/data``, one model per
embedder (its cosines live on the embedder's own scale), and stored as plain arrays in
``judge.json``; the service loads the file and hands the :class:`JudgeModel` in.
Inference is one standardisation and one 3×d matrix-vector product; a model with a ``hidden``
layer (``engine/classify/hidden.py``) reads the named features and a few coordinates of each
vector block (``projection``), standardises them, and puts rectified units between them and
the class scores.

Precision first (issue 9): a false CONTRADICTORY closes a memory that is still true, so the
judge says CONTRADICTORY only when its probability reaches the threshold of the pair's language
(``language_thresholds``, else ``contradiction_threshold``; a lower ``related_thresholds`` entry
for a pair the rules read as related, chosen by ``bench/classify_related.py``), chosen by
``bench/train_classifier.py`` for CONTRADICTORY precision ≥ 0.95 on pairs of writers the model
was not fitted on (their calls pooled; nested leave-one-source-out, ``bench/classify_nested.py``,
measures the rule). Below it the pair is whichever of INDEPENDENT / EXTENDABLE is more likely
(falling back to EXTENDABLE when CONTRADICTORY is the likeliest was measured and did not win on
leave-one-source-out), and EXTENDABLE when the new memory is about a thing the old one names
(``extends``). An EXTENDABLE reading still closes at a lower ``replaced_thresholds`` entry when
the rules read the pair as related and a value of the old memory replaced (``value_replaced``;
chosen by ``bench/classify_replaced.py``). The rules decide alone where they are sure
(``rule_overrides``: rules whose verdicts were right on every training pair where they fired
about one subject) and the memories share their subject. No I/O.
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
    Similarities,
    embedding_features,
)
from omoide.engine.classify.hidden import BlockProjection, HiddenLayer
from omoide.engine.classify.judge_signals import (
    EXTEND_ONLY,
    JUDGE_CAPS,
    NOTE_NEAREST_GUARDS,
    SURE_ONLY,
    VETO_FEATURES,
    VETO_ONLY,
    amount_left_alone,
    another_persons_fact,
    extends,
    judge_capped,
    nothing_differs,
    pair_lang,
    rule_decides,
    sure_close,
    sure_reason,
    value_replaced,
    vetoed,
)
from omoide.engine.classify.offline import UNRELATED
from omoide.engine.errors import ModelDataError

__all__ = [
    "EXTEND_ONLY",
    "JUDGE_CAPS",
    "NOTE_NEAREST_GUARDS",
    "SURE_ONLY",
    "VETO_FEATURES",
    "VETO_ONLY",
    "JudgeModel",
    "Judgement",
    "amount_left_alone",
    "another_persons_fact",
    "decide_relation",
    "extends",
    "judge",
    "judge_note",
    "nothing_differs",
    "pair_vector",
    "rule_decides",
    "sentence_score",
    "sure_close",
    "vetoed",
]


@dataclass(frozen=True)
class Judgement:
    relation: Relation
    confidence: float
    reason: str


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


def pair_vector(
    text: PairText,
    sims: Similarities | None,
    features: tuple[str, ...],
    blocks: tuple[str, ...] = (),
    block_dim: int = 0,
) -> np.ndarray:
    """The feature row: ``features`` by name (text features, plus cosines when ``sims`` is
    given), then each vector block whole (zeros for an empty part)."""
    values = dict(zip(TEXT_FEATURES, text.features, strict=True))
    if sims is not None:
        values.update(zip(EMBEDDING_FEATURES, embedding_features(sims, text), strict=True))
    row = [np.asarray([values[f] for f in features], dtype=np.float64)]
    vectors = sims.vectors if sims is not None else {}
    for block in blocks:
        vec = vectors.get(block)
        row.append(np.zeros(block_dim) if vec is None else np.asarray(vec, dtype=np.float64))
    return np.concatenate(row)


def judge(
    text: PairText, sims: Similarities | None, model: JudgeModel, *, may_contradict: bool = True
) -> Judgement:
    """The verdict for one pair: a sure rule, else the model under the precision threshold.
    ``may_contradict`` False: never CONTRADICTORY (the likelier of the other two); nor when
    nothing but wording differs (``nothing_differs``) or the new memory is another person's
    own fact (``another_persons_fact``) or leaves the old amount as it was
    (``amount_left_alone``)."""
    may_contradict = may_contradict and not nothing_differs(text) and not vetoed(text)
    if may_contradict and sure_close(text):
        return Judgement(Relation.CONTRADICTORY, 1.0, f"rule: {sure_reason(text)}")
    sure = rule_decides(text, model.rule_overrides)
    if sure and (may_contradict or text.finding.relation is not Relation.CONTRADICTORY):
        f = text.finding
        return Judgement(f.relation, f.confidence, f"rule: {f.reason}")
    probs = model.probabilities(
        pair_vector(text, sims, model.features, model.blocks, model.block_dim)
    )
    may_contradict = may_contradict and not judge_capped(text)
    threshold = model.threshold_for(text) if may_contradict else float("inf")
    relation, confidence = decide_relation(probs, model.classes, threshold)
    shown = ", ".join(f"{c.value[0]}={p:.2f}" for c, p in zip(model.classes, probs, strict=True))
    said = f"judge ({shown}); rule said {text.rule}"
    if relation is Relation.INDEPENDENT and extends(text):
        relation, confidence = Relation.EXTENDABLE, round(1.0 - confidence, 4)
        said += "; about a thing the old names"
    contradicted = float(probs[model.classes.index(Relation.CONTRADICTORY)])
    if (
        relation is Relation.EXTENDABLE
        and may_contradict
        and contradicted >= model.replaced_threshold_for(text)
    ):
        return Judgement(
            Relation.CONTRADICTORY, round(contradicted, 4), f"{said}; a value replaced"
        )
    return Judgement(relation, confidence, said)


def sentence_score(text: PairText, sims: Similarities | None, model: JudgeModel) -> float:
    """How surely one sentence of a new note, read alone against the old memory, changes it:
    0 for a vetoed pair (``vetoed``), a sure rule's verdict (1 when CONTRADICTORY, else 0),
    else the model's CONTRADICTORY probability."""
    if vetoed(text):
        return 0.0
    if sure_close(text):
        return 1.0
    if rule_decides(text, model.rule_overrides):
        return float(text.finding.relation is Relation.CONTRADICTORY)
    if judge_capped(text):
        return 0.0
    probs = model.probabilities(
        pair_vector(text, sims, model.features, model.blocks, model.block_dim)
    )
    return float(probs[model.classes.index(Relation.CONTRADICTORY)])


def judge_note(
    whole: Judgement, sentences: list[tuple[PairText, Similarities | None]], model: JudgeModel
) -> Judgement:
    """The verdict for a new memory of several sentences: ``whole`` (the note judged as one,
    never CONTRADICTORY) unless one sentence, read alone, scores at least the model's
    ``sentence_threshold`` (``sentence_score``): then the note closes the old memory. A false
    close loses a true fact, so the threshold is chosen for precision (by default, never)."""
    if math.isinf(model.sentence_threshold) or not sentences:
        return whole
    scored = [(sentence_score(t, s, model), t) for t, s in sentences]
    best, text = max(scored, key=lambda x: x[0])
    if best < model.sentence_threshold:
        return whole
    return Judgement(
        Relation.CONTRADICTORY,
        round(best, 4),
        f"one sentence changes it (C={best:.2f}); rule said {text.rule}",
    )


def decide_relation(
    probs: np.ndarray, classes: tuple[Relation, ...], threshold: float
) -> tuple[Relation, float]:
    """CONTRADICTORY at or above ``threshold``, else the likelier of the other two classes."""
    p = dict(zip(classes, (float(v) for v in probs), strict=True))
    if p[Relation.CONTRADICTORY] >= threshold:
        return Relation.CONTRADICTORY, round(p[Relation.CONTRADICTORY], 4)
    rest = {c: v for c, v in p.items() if c is not Relation.CONTRADICTORY}
    best = max(rest, key=lambda c: rest[c])
    return best, round(rest[best] / (sum(rest.values()) or 1.0), 4)

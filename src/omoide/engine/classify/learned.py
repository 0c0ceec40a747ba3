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
(``extends``). The rules decide alone where they are sure (``rule_overrides``: rules whose
verdicts were right on every training pair where they fired about one subject) and the memories
share their subject. No I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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
from omoide.engine.classify.offline import UNRELATED
from omoide.engine.errors import ModelDataError

__all__ = ["EXTEND_ONLY", "JUDGE_CAPS", "SURE_ONLY", "VETO_FEATURES", "VETO_ONLY", "JudgeModel",
           "Judgement", "amount_left_alone", "another_persons_fact", "decide_relation", "extends",
           "judge", "judge_note", "nothing_differs", "pair_vector", "rule_decides",
           "sentence_score", "sure_close", "vetoed"]


@dataclass(frozen=True)
class Judgement:
    relation: Relation
    confidence: float
    reason: str


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
    # A new memory of several sentences closes the old one when one of its sentences, read
    # alone, is CONTRADICTORY with at least this probability (inf: never; ``judge_note``).
    sentence_threshold: float = float("inf")
    # A net (round 28): the blocks read along a few directions each (``projection``; mean and
    # scale then standardise the named features and those coordinates), then ``hidden``.
    projection: BlockProjection | None = None
    hidden: HiddenLayer | None = None

    def threshold_for(self, text: PairText) -> float:
        """The CONTRADICTORY threshold of the pair's language (the pair is Japanese when its
        ``lang_ja`` text feature is set); the language's ``related_thresholds`` when lower and
        the rules read the two memories as related. A pair the rules find nothing between
        (``unrelated``: no shared topic, no change cue) keeps the language's own threshold: in
        a store, the nearest memory the judge leans to closing with the rules saying
        ``unrelated`` is often another fact of the same kind ("walks to work" against "cycles
        to the gym"), not the one the new memory changes."""
        lang = "ja" if text.features[TEXT_FEATURES.index("lang_ja")] else "en"
        own = dict(self.language_thresholds).get(lang, self.contradiction_threshold)
        related = dict(self.related_thresholds).get(lang)
        if related is None or text.rule == UNRELATED:
            return own
        return min(own, related)

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
            "embedder": self.embedder, "features": list(self.features),
            "classes": [c.value for c in self.classes], "mean": self.mean.tolist(),
            "scale": self.scale.tolist(), "weights": self.weights.tolist(),
            "bias": self.bias.tolist(), "contradiction_threshold": self.contradiction_threshold,
            "rule_overrides": list(self.rule_overrides), "blocks": list(self.blocks),
            "block_dim": self.block_dim,
            "language_thresholds": dict(self.language_thresholds),
            **({"related_thresholds": dict(self.related_thresholds)}
               if self.related_thresholds else {}),
            "sentence_threshold": (None if math.isinf(self.sentence_threshold)
                                   else self.sentence_threshold),
            **({"projection": self.projection.to_dict()} if self.projection is not None
               else {}),
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
        projection = (BlockProjection.from_dict(data["projection"]) if "projection" in data
                      else None)
        if projection is not None:
            if projection.directions.shape[:2] != (len(blocks), block_dim):
                raise ModelDataError("the judge model's projection does not match its blocks")
            width = len(features) + projection.width
        hidden = HiddenLayer.from_dict(data["hidden"], width) if "hidden" in data else None
        weights = np.asarray(data["weights"], dtype=np.float64)
        if len(data["mean"]) != width or weights.shape != (
                len(data["classes"]), width if hidden is None else len(hidden.bias)):
            raise ModelDataError("the judge model's weights do not match its features")
        return cls(
            embedder=str(data["embedder"]), features=features,
            classes=tuple(Relation(c) for c in data["classes"]),
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64), weights=weights,
            bias=np.asarray(data["bias"], dtype=np.float64),
            contradiction_threshold=float(data["contradiction_threshold"]),
            rule_overrides=tuple(data.get("rule_overrides", ())), blocks=blocks,
            block_dim=block_dim,
            language_thresholds=tuple((str(k), float(v)) for k, v in
                                      data.get("language_thresholds", {}).items()),
            related_thresholds=tuple((str(k), float(v)) for k, v in
                                     data.get("related_thresholds", {}).items()),
            sentence_threshold=float(data.get("sentence_threshold") or math.inf),
            projection=projection, hidden=hidden)


def pair_vector(text: PairText, sims: Similarities | None, features: tuple[str, ...],
                blocks: tuple[str, ...] = (), block_dim: int = 0) -> np.ndarray:
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


def judge(text: PairText, sims: Similarities | None, model: JudgeModel, *,
          may_contradict: bool = True) -> Judgement:
    """The verdict for one pair: a sure rule, else the model under the precision threshold.
    ``may_contradict`` False: never CONTRADICTORY (the likelier of the other two); nor when
    nothing but wording differs (``nothing_differs``) or the new memory is another person's
    own fact (``another_persons_fact``) or leaves the old amount as it was
    (``amount_left_alone``)."""
    may_contradict = may_contradict and not nothing_differs(text) and not vetoed(text)
    if may_contradict and sure_close(text):
        return Judgement(Relation.CONTRADICTORY, 1.0, f"rule: {_sure_reason(text)}")
    sure = rule_decides(text, model.rule_overrides)
    if sure and (may_contradict or text.finding.relation is not Relation.CONTRADICTORY):
        f = text.finding
        return Judgement(f.relation, f.confidence, f"rule: {f.reason}")
    probs = model.probabilities(pair_vector(text, sims, model.features, model.blocks,
                                            model.block_dim))
    may_contradict = may_contradict and not judge_capped(text)
    threshold = model.threshold_for(text) if may_contradict else float("inf")
    relation, confidence = decide_relation(probs, model.classes, threshold)
    shown = ", ".join(f"{c.value[0]}={p:.2f}" for c, p in zip(model.classes, probs, strict=True))
    if relation is Relation.INDEPENDENT and extends(text):
        return Judgement(Relation.EXTENDABLE, round(1.0 - confidence, 4),
                         f"judge ({shown}); rule said {text.rule}; about a thing the old names")
    return Judgement(relation, confidence, f"judge ({shown}); rule said {text.rule}")


def nothing_differs(text: PairText) -> bool:
    """Whether the two memories differ in wording only: neither says a content word the other
    lacks (``PairText.old_part`` / ``new_part``), no written value changed and no negation
    flipped ("User lives in Tokyo." saved again, or as "The user lives in Tokyo."). Such a pair
    cannot contradict, whatever the model's probability: no training pair is one, and the
    judge read them as CONTRADICTORY at 0.73–0.94."""
    return (not text.old_part and not text.new_part and text.values_changed == 0
            and not text.features[_NEGATION_FLIP])


def another_persons_fact(text: PairText) -> bool:
    """Whether the new memory is another person's own fact told beside the old one: a person
    the old memory does not name, added to its subject ("The user runs a bakery" / "The user's
    former colleague runs a bakery in Lisbon", ユーザーの元部下は…), saying nothing back about
    the old memory's subject (``subject.other_person_alone``). It cannot close the old memory,
    whatever the model's probability: on the training writers 3 of the judge's false closes
    were of this shape, and of the 311 training pairs of it 5 were CONTRADICTORY, none of them
    closed by the judge."""
    return bool(text.features[_OTHER_PERSON_ALONE])


def amount_left_alone(text: PairText) -> bool:
    """Whether the new memory repeats the old one but its amount, in one clause, adds a place,
    a companion or a manner and says nothing of how often, how much or how long ("walks the
    dog 4 times a day" → "walks the dog along the river", ``quantity.amount_untouched``). It
    cannot close the old memory: the amount is left as it was. Of the training pairs of this
    shape none is CONTRADICTORY (the four of the sixteenth round's wider reading each told the
    change in a second clause or sentence, which the reading now leaves out)."""
    return bool(text.features[_AMOUNT_UNTOUCHED])


def vetoed(text: PairText) -> bool:
    """Whether the pair never closes, whatever the model says: one of the ``VETO_FEATURES``
    is set (another person's own fact, ``another_persons_fact``; an amount left alone,
    ``amount_left_alone``; and the ``VETO_ONLY`` signals). Training caps the same pairs by the
    same list."""
    return any(text.features[i] for i in _VETO_COLUMNS)


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
    probs = model.probabilities(pair_vector(text, sims, model.features, model.blocks,
                                            model.block_dim))
    return float(probs[model.classes.index(Relation.CONTRADICTORY)])


def judge_note(whole: Judgement, sentences: list[tuple[PairText, Similarities | None]],
               model: JudgeModel) -> Judgement:
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
    return Judgement(Relation.CONTRADICTORY, round(best, 4),
                     f"one sentence changes it (C={best:.2f}); rule said {text.rule}")


_SUBJECT_DIFFERS = TEXT_FEATURES.index("subject_differs")
_NEGATION_FLIP = TEXT_FEATURES.index("negation_flip")
_OTHER_PERSON_ALONE = TEXT_FEATURES.index("other_person_alone")
_AMOUNT_UNTOUCHED = TEXT_FEATURES.index("amount_untouched")
# Text features that only veto: the judge does not weigh them (training leaves them out of
# every feature set): a cleft that presupposes the old fact and tells why
# (``backstory.reason_presupposed``); two things of one kind named by identifiers in the
# subject (``ident.two_identified_things``); another value told in an earlier period of life
# beside the old present fact (``earlier_period.earlier_period_other_value``).
# The old memory's negated act told in the new one only of another person ("doesn't drink" /
# "booked a table for a friend who drinks", ``others_act.negated_act_of_other``, round 26):
# the judge and the note reader's diet turn both closed such pairs.
VETO_ONLY: tuple[str, ...] = ("reason_presupposed", "two_identified_things",
                              "earlier_period_other_value", "negated_act_of_other")
# Text features that only close: a change told from a value the old memory states to one it
# does not (``from_to.changed_from_old``). The judge does not weigh them either; on the seen
# training sources (session 18: the pairs, 26 writers, 10 notes sets, each sentence of a note
# also read alone) it fires on 21 pairs, all CONTRADICTORY
# (``bench/classify_veto_fires.py --signal changed_from_old``). The old memory's present
# value said again as a former state, "used to smoke" / "no longer smokes" against "smokes"
# (``former_state.former_same_value``, round 23c): 18 seen pairs, all CONTRADICTORY. A change
# the note path is sure of, read on a one-statement pair: an end, a plan called off or done, a
# "never" turned round, a state with another value (``note_shapes.note_shape_close``, round
# 24); the old present fact said again with a no (``negation_turn.now_negated``); the old
# fact told ended later in the sentence (``habit_end.habit_ended``). On round 23's nested
# leave-one-writer-out the three fire on 555 writers' pairs, all CONTRADICTORY. The old
# statement said again with one single-valued slot's value swapped
# (``value_swap.value_swapped``, round 25): 317 seen pairs (whole or a note's sentence),
# all CONTRADICTORY (``bench/results/classify_round25.md``). The old statement said again with
# its one amount changed (``amount_swap.amount_swapped``, session 26;
# ``bench/results/classify_val26.md``).
SURE_ONLY: tuple[str, ...] = ("changed_from_old", "former_same_value", "note_shape_close",
                              "now_negated", "habit_ended", "value_swapped", "amount_swapped")
# Text features that cap the judge only: a sure rule still closes, the model may not. One
# occasion told beside a habit (``one_off.one_off_beside_habit``, round 25b); round 26's, each
# kept for removing more false closes than true ones on sources it was not written from
# (``bench/results/classify_prec26.md``): one occasion counted once beside a present fact,
# an occasion years back beside a present fact or plan (``one_off``), one more of a kind told
# as an addition (``addition.another_added``), the old fact said again with a reason, or how
# long the old state has held (``reason_told``).
JUDGE_CAPS: tuple[str, ...] = ("one_off_beside_habit", "once_beside_state",
                               "long_ago_beside_present", "another_added",
                               "reason_for_old_fact", "duration_of_old_state")
_CAP_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in JUDGE_CAPS)


# Text features that only move the judge's INDEPENDENT to EXTENDABLE: the new memory is about
# a thing the old one names (``subject.subject_named_before``, session 32). The judge does not
# weigh them; they never close and never keep a close from happening, and a sure or deciding
# rule's verdict stands.
EXTEND_ONLY: tuple[str, ...] = ("new_subject_named",)
_EXTEND_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in EXTEND_ONLY)


def extends(text: PairText) -> bool:
    """Whether a pair the judge calls INDEPENDENT is EXTENDABLE all the same (an
    ``EXTEND_ONLY`` signal is set)."""
    return any(text.features[i] for i in _EXTEND_COLUMNS)


def judge_capped(text: PairText) -> bool:
    """Whether the model may not close the pair (a ``JUDGE_CAPS`` signal is set); a sure rule
    and a deciding rule still may."""
    return any(text.features[i] for i in _CAP_COLUMNS)


# The text features that each veto a close (``vetoed``), one list for the server and training.
VETO_FEATURES: tuple[str, ...] = ("other_person_alone", "amount_untouched", *VETO_ONLY)
_VETO_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in VETO_FEATURES)
_SURE_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in SURE_ONLY)


def sure_close(text: PairText) -> bool:
    """Whether the pair closes whatever the model says: a ``SURE_ONLY`` signal is set and both
    memories are about one subject ("Ken switched from tea to coffee" does not close "Yumi
    drinks tea"). Vetoes still win (``judge``)."""
    return any(text.features[i] for i in _SURE_COLUMNS) and not text.features[_SUBJECT_DIFFERS]


_SURE_REASONS = {"changed_from_old": "changed from the old value to another",
                 "former_same_value": "the old value said as a former state",
                 "note_shape_close": "a change the note reader is sure of",
                 "now_negated": "the old fact said again with a no",
                 "habit_ended": "the old fact told ended",
                 "value_swapped": "the old statement again with one value swapped",
                 "amount_swapped": "the old statement again with its amount changed"}


def _sure_reason(text: PairText) -> str:
    """The reason a sure close gives: the first ``SURE_ONLY`` signal set."""
    name = next(n for n, i in zip(SURE_ONLY, _SURE_COLUMNS, strict=True) if text.features[i])
    return _SURE_REASONS[name]


def rule_decides(text: PairText, overrides: tuple[str, ...]) -> bool:
    """Whether the rules' verdict stands without the model: a rule in ``overrides`` decided
    about one subject (when the memories are about two subjects, "Ken lives in Tokyo" / "Yumi
    moved to Osaka", the model weighs it), or only a measured number changed."""
    if _only_a_number_changed(text):
        return True
    return text.rule in overrides and not text.features[_SUBJECT_DIFFERS]


def _only_a_number_changed(text: PairText) -> bool:
    """The same statement with another value of the same measured unit ("has 2 dogs" → "has
    3 dogs"): nothing else differs, not even a number the quantity reader does not parse, so
    there is nothing for the model to weigh. (An id such as an order number is no measured
    unit, so two orders never get here.)"""
    if text.rule != "quantity_changed":
        return False
    values = dict(zip(TEXT_FEATURES, text.features, strict=True))
    return (values["coverage"] == 1.0 and values["reverse_coverage"] == 1.0
            and text.values_changed <= 1)


def decide_relation(probs: np.ndarray, classes: tuple[Relation, ...], threshold: float
                    ) -> tuple[Relation, float]:
    """CONTRADICTORY at or above ``threshold``, else the likelier of the other two classes."""
    p = dict(zip(classes, (float(v) for v in probs), strict=True))
    if p[Relation.CONTRADICTORY] >= threshold:
        return Relation.CONTRADICTORY, round(p[Relation.CONTRADICTORY], 4)
    rest = {c: v for c, v in p.items() if c is not Relation.CONTRADICTORY}
    best = max(rest, key=lambda c: rest[c])
    return best, round(rest[best] / (sum(rest.values()) or 1.0), 4)

"""The learned 3-op judge: a multinomial logistic regression, or a net of one hidden layer, in
plain numpy (pure).

Trained offline by ``bench/train_classifier.py`` on the pairs in ``bench/data``, one model per
embedder (its cosines live on the embedder's own scale), and stored as plain arrays in
``judge.json``; the service loads the file and hands the judge in: one model
(:class:`JudgeModel`) or one per language (:class:`LanguageJudge`, each pair judged by its
language's model; both in ``judge_model.py``). Inference is one standardisation and one 3×d
matrix-vector product; a model with a ``hidden`` layer (``engine/classify/hidden.py``) reads
the named features and a few coordinates of each vector block (``projection``), standardises
them, and puts rectified units between them and the class scores.

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
from dataclasses import dataclass

import numpy as np

from omoide.engine.classify.base import Relation
from omoide.engine.classify.features import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    PairText,
    Similarities,
    embedding_features,
)
from omoide.engine.classify.judge_model import Judge, JudgeModel, LanguageJudge, judge_from_dict
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
    rule_decides,
    sure_close,
    sure_reason,
    vetoed,
)

__all__ = [
    "EXTEND_ONLY",
    "JUDGE_CAPS",
    "NOTE_NEAREST_GUARDS",
    "SURE_ONLY",
    "VETO_FEATURES",
    "VETO_ONLY",
    "Judge",
    "JudgeModel",
    "Judgement",
    "LanguageJudge",
    "amount_left_alone",
    "another_persons_fact",
    "decide_relation",
    "extends",
    "judge",
    "judge_capped",
    "judge_from_dict",
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
    text: PairText, sims: Similarities | None, judges: Judge, *, may_contradict: bool = True
) -> Judgement:
    """The verdict for one pair: a sure rule, else the model of the pair's language
    (``Judge.for_text``) under the precision threshold.
    ``may_contradict`` False: never CONTRADICTORY (the likelier of the other two); nor when
    nothing but wording differs (``nothing_differs``) or the new memory is another person's
    own fact (``another_persons_fact``) or leaves the old amount as it was
    (``amount_left_alone``)."""
    model = judges.for_text(text)
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


def sentence_score(text: PairText, sims: Similarities | None, judges: Judge) -> float:
    """How surely one sentence of a new note, read alone against the old memory, changes it:
    0 for a vetoed pair (``vetoed``), a sure rule's verdict (1 when CONTRADICTORY, else 0),
    else the CONTRADICTORY probability of the model of the pair's language."""
    model = judges.for_text(text)
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
    whole: Judgement, sentences: list[tuple[PairText, Similarities | None]], judges: Judge
) -> Judgement:
    """The verdict for a new memory of several sentences: ``whole`` (the note judged as one,
    never CONTRADICTORY) unless one sentence, read alone, scores at least the
    ``sentence_threshold`` of its language's model (``sentence_score``): then the note closes
    the old memory. A false close loses a true fact, so the threshold is chosen for precision
    (by default, never)."""
    if math.isinf(judges.sentence_threshold) or not sentences:
        return whole
    scored = [(sentence_score(t, s, judges), t) for t, s in sentences]
    reached = [(v, t) for v, t in scored if v >= judges.for_text(t).sentence_threshold]
    if not reached:
        return whole
    best, text = max(reached, key=lambda x: x[0])
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

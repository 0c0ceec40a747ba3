"""A value said again with another value: the judge's EXTENDABLE reading closes at the
language's lower replaced-value threshold (``JudgeModel.replaced_thresholds``)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from judge_fakes import bias_only

from omoide.engine.classify import JudgeModel, Relation, judge, judge_models
from omoide.engine.classify.features import read_pair
from omoide.engine.classify.judge_signals import value_replaced
from omoide.engine.classify.offline import UNRELATED
from omoide.service.classify_judge import load_judge_models


def _model(bias: tuple[float, float, float]) -> JudgeModel:
    """A text-only judge whose probabilities are its bias alone, thresholds 0.9, replaced-value
    thresholds 0.65 (English) and 0.6 (Japanese), read back through its dict."""
    model = bias_only(
        np.log(np.array(bias)),
        threshold=0.9,
        language_thresholds=(("en", 0.9), ("ja", 0.9)),
        replaced_thresholds=(("en", 0.65), ("ja", 0.6)),
    )
    return JudgeModel.from_dict(model.to_dict())


# I 0.1, E 0.2, C 0.7: under the threshold, the judge reads EXTENDABLE
LEANS_EXTENDABLE = _model((1.0, 2.0, 7.0))
# I 0.2, E 0.1, C 0.7: under the threshold, the judge reads INDEPENDENT
LEANS_INDEPENDENT = _model((2.0, 1.0, 7.0))

# a place said again with another, in other words (no one-slot swap a sure rule reads)
REPLACED = read_pair(
    "The user's book club meets at Waterstones on Fridays.",
    "The user's book club has its meetings in the Red Lion pub.",
)
ADDED = read_pair("The user plays tennis.", "The user plays tennis at the club with her sister.")
UNRELATED_PAIR = read_pair("ユーザーはギターを習っている", "ユーザーは毎週末に登山をする")


def test_a_replaced_value_is_read_off_the_slots() -> None:
    assert value_replaced(REPLACED)
    assert value_replaced(
        read_pair("ユーザーはジムに週1回通っている", "ユーザーはジムに月2回通っている")
    )
    assert not value_replaced(ADDED)  # a place and a companion added, nothing replaced


def test_an_extendable_reading_of_a_replaced_value_closes_at_the_lower_threshold() -> None:
    assert REPLACED.rule != UNRELATED
    assert LEANS_EXTENDABLE.replaced_threshold_for(REPLACED) == 0.65
    verdict = judge(REPLACED, None, LEANS_EXTENDABLE)
    assert verdict.relation is Relation.CONTRADICTORY
    assert verdict.reason.endswith("a value replaced") and math.isclose(verdict.confidence, 0.7)
    # above the probability, or with no threshold for the language, it stays EXTENDABLE
    higher = replace(LEANS_EXTENDABLE, replaced_thresholds=(("en", 0.75),))
    assert judge(REPLACED, None, higher).relation is Relation.EXTENDABLE
    unset = replace(LEANS_EXTENDABLE, replaced_thresholds=(("ja", 0.6),))
    assert math.isinf(unset.replaced_threshold_for(REPLACED))
    assert judge(REPLACED, None, unset).relation is Relation.EXTENDABLE


def test_nothing_replaced_an_unrelated_pair_or_an_independent_reading_never_closes() -> None:
    assert math.isinf(LEANS_EXTENDABLE.replaced_threshold_for(ADDED))
    assert judge(ADDED, None, LEANS_EXTENDABLE).relation is not Relation.CONTRADICTORY
    # another fact of the same kind: the rules read the pair as unrelated
    assert value_replaced(UNRELATED_PAIR) and UNRELATED_PAIR.rule == UNRELATED
    assert math.isinf(LEANS_EXTENDABLE.replaced_threshold_for(UNRELATED_PAIR))
    assert judge(UNRELATED_PAIR, None, LEANS_EXTENDABLE).relation is not Relation.CONTRADICTORY
    # the judge's own INDEPENDENT reading is not a changed value read as an extension
    assert judge(REPLACED, None, LEANS_INDEPENDENT).relation is Relation.INDEPENDENT
    # and a pair the caller may not close stays open
    kept = judge(REPLACED, None, LEANS_EXTENDABLE, may_contradict=False)
    assert kept.relation is Relation.EXTENDABLE


def test_replaced_thresholds_are_written_only_when_set_and_only_lower() -> None:
    assert "replaced_thresholds" not in replace(LEANS_EXTENDABLE, replaced_thresholds=()).to_dict()
    for model in (m for j in load_judge_models().values() for m in judge_models(j)):
        own = dict(model.language_thresholds)
        for lang, threshold in model.replaced_thresholds:
            assert 0.3 <= threshold < own[lang]

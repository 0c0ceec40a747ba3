"""A judge per language (``LanguageJudge``, ``bench/train_classifier.py --by-language``): each
pair is judged by its language's model, thresholds and sentence threshold included, and the file
form round-trips. Examples written for these tests."""

from __future__ import annotations

import math

import numpy as np
import pytest

from omoide.engine.classify import (
    JudgeModel,
    LanguageJudge,
    Relation,
    judge,
    judge_from_dict,
    judge_note,
    read_pair,
    sentence_score,
)
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import Judgement
from omoide.engine.errors import ModelDataError

CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)
# pairs no sure rule, veto or cap settles: the model's probability decides
EN = ("The user drinks coffee every morning.", "The user goes hiking at weekends.")
JA = ("ユーザーは紅茶が好きだ。", "ユーザーは紅茶を毎朝淹れている。")


def _model(contradicts: float, *, embedder: str = "", sentence: float = math.inf) -> JudgeModel:
    """A judge that says the same probabilities for every pair: CONTRADICTORY's logit
    ``contradicts``, the other two 0."""
    d = len(TEXT_FEATURES)
    return JudgeModel(
        embedder=embedder,
        features=TEXT_FEATURES,
        classes=CLASSES,
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=np.zeros((3, d)),
        bias=np.asarray([0.0, 0.0, contradicts]),
        contradiction_threshold=0.9,
        sentence_threshold=sentence,
    )


def _per_language(en: JudgeModel, ja: JudgeModel) -> LanguageJudge:
    return LanguageJudge((("en", en), ("ja", ja)))


def test_each_pair_is_judged_by_its_languages_model() -> None:
    judges = _per_language(_model(8.0), _model(-8.0))
    en, ja = read_pair(*EN), read_pair(*JA)
    assert judges.for_text(en) is judges.models[0][1]
    assert judges.for_text(ja) is judges.models[1][1]
    assert sentence_score(en, None, judges) > 0.99
    assert sentence_score(ja, None, judges) < 0.01
    # the same pairs through one model: its one answer for both
    one = _model(8.0)
    assert one.for_text(ja) is one
    assert sentence_score(ja, None, one) > 0.99


def test_the_verdict_follows_the_languages_model_and_its_threshold() -> None:
    en, ja = read_pair(*EN), read_pair(*JA)
    closing, holding = _model(8.0), _model(-8.0)
    assert judge(en, None, _per_language(closing, holding)).relation is Relation.CONTRADICTORY
    assert judge(ja, None, _per_language(closing, holding)).relation is not Relation.CONTRADICTORY
    assert judge(ja, None, _per_language(holding, closing)).relation is Relation.CONTRADICTORY


def test_a_note_closes_through_one_sentence_only_at_its_languages_sentence_threshold() -> None:
    whole = Judgement(Relation.EXTENDABLE, 0.6, "judge")
    en = [(read_pair(EN[0], EN[1]), None)]
    ja = [(read_pair(JA[0], JA[1]), None)]
    judges = _per_language(_model(8.0, sentence=0.98), _model(8.0))  # ja: never
    assert judges.sentence_threshold == 0.98
    assert judge_note(whole, en, judges).relation is Relation.CONTRADICTORY
    assert judge_note(whole, ja, judges) is whole
    never = _per_language(_model(8.0), _model(8.0))
    assert math.isinf(never.sentence_threshold) and judge_note(whole, en, never) is whole


def test_the_file_form_round_trips_and_names_which_judge_it_holds() -> None:
    judges = _per_language(_model(1.0, sentence=0.97), _model(-1.0))
    data = judges.to_dict()
    assert set(data["languages"]) == {"en", "ja"}
    again = judge_from_dict(data)
    assert isinstance(again, LanguageJudge)
    assert again.to_dict() == data
    one = judge_from_dict(_model(1.0).to_dict())
    assert isinstance(one, JudgeModel)


def test_the_languages_must_read_one_embedder() -> None:
    d = len(TEXT_FEATURES)

    def reading(embedder: str) -> JudgeModel:
        return JudgeModel(
            embedder=embedder,
            features=(*TEXT_FEATURES, "sim_whole"),
            classes=CLASSES,
            mean=np.zeros(d + 1),
            scale=np.ones(d + 1),
            weights=np.zeros((3, d + 1)),
            bias=np.zeros(3),
            contradiction_threshold=0.9,
        )

    with pytest.raises(ModelDataError):
        _per_language(reading("a"), reading("b"))
    with pytest.raises(ModelDataError):
        LanguageJudge(())
    both = _per_language(reading("a"), reading("a"))
    assert both.embedder == "a" and both.uses_embeddings

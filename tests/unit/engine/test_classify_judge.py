"""The learned 3-op judge: features, the precision-first decision, the packaged models."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.embed.hashing import HashEmbedder
from omoide.engine.classify import (
    VETO_FEATURES,
    Candidate,
    JudgeModel,
    LanguageJudge,
    OfflineClassifier,
    Relation,
    decide_relation,
    judge,
    judge_note,
    pair_vector,
    rule_decides,
    sentence_score,
)
from omoide.engine.classify.features import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    Similarities,
    differing_parts,
    read_pair,
)
from omoide.engine.classify.learned import vetoed
from omoide.engine.classify.offline import UNRELATED
from omoide.engine.classify.text import parse
from omoide.service.classify_judge import load_judge_models, offline_classifier_for

CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)


def _model(
    weights: np.ndarray, *, threshold: float = 0.9, features: tuple[str, ...] = TEXT_FEATURES
) -> JudgeModel:
    d = len(features)
    return JudgeModel(
        embedder="",
        features=features,
        classes=CLASSES,
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=weights,
        bias=np.zeros(3),
        contradiction_threshold=threshold,
    )


@pytest.mark.parametrize(
    ("old", "new", "old_part", "new_part"),
    [
        pytest.param(
            "User lives in Tokyo with her two cats.",
            "User moved from Tokyo to Osaka.",
            "lives two cats",
            "moved Osaka",
            id="en",
        ),
        pytest.param("User likes tea.", "User likes tea.", "", "", id="en-same"),
        pytest.param(
            "ユーザーは札幌に住んでいる", "ユーザーは仙台に住んでいる", "札幌", "仙台", id="ja"
        ),
    ],
)
def test_differing_parts_keep_what_only_one_memory_says(
    old: str, new: str, old_part: str, new_part: str
) -> None:
    old_s, new_s = parse(old), parse(new)
    got = differing_parts(old_s, new_s)
    assert (got[0].lower(), got[1].lower()) == (old_part.lower(), new_part.lower())


def test_read_pair_gives_one_value_per_text_feature_and_the_rules_verdict() -> None:
    text = read_pair("User lives in Tokyo.", "User moved to Osaka last month.")
    assert text.features.shape == (len(TEXT_FEATURES),)
    assert text.rule == "moved" and text.finding.relation is Relation.CONTRADICTORY
    row = pair_vector(text, Similarities(0.9, 0.5, None, 0.4), TEXT_FEATURES + EMBEDDING_FEATURES)
    assert row.shape == (len(TEXT_FEATURES) + len(EMBEDDING_FEATURES),)


@given(
    st.lists(st.floats(0.0, 1.0), min_size=3, max_size=3).filter(lambda p: sum(p) > 0),
    st.floats(0.3, 0.99),
)
def test_contradictory_only_at_or_above_the_threshold(raw: list[float], threshold: float) -> None:
    probs = np.asarray(raw) / sum(raw)
    relation, confidence = decide_relation(probs, CLASSES, threshold)
    assert (relation is Relation.CONTRADICTORY) == (probs[2] >= threshold)
    assert 0.0 <= confidence <= 1.0
    if relation is not Relation.CONTRADICTORY:
        assert relation is (Relation.INDEPENDENT if probs[0] >= probs[1] else Relation.EXTENDABLE)


def test_a_confident_model_below_the_threshold_does_not_close() -> None:
    weights = np.zeros((3, len(TEXT_FEATURES)))
    weights[2, TEXT_FEATURES.index("lost_share")] = 3.0  # leans CONTRADICTORY, not enough
    text = read_pair("User's favourite colour is green.", "User's favourite colour is red.")
    verdict = judge(text, None, _model(weights, threshold=0.99))
    assert verdict.relation is not Relation.CONTRADICTORY


def test_each_language_is_judged_under_its_own_threshold() -> None:
    # A model that puts P(CONTRADICTORY) at about 0.8 for every pair: it closes the English
    # pair (threshold 0.7) and not the Japanese one (0.9); the round trip keeps both.
    weights = np.zeros((3, len(TEXT_FEATURES)))
    model = replace(
        _model(weights, threshold=0.99),
        bias=np.array([0.0, 0.0, np.log(8.0)]),
        language_thresholds=(("en", 0.7), ("ja", 0.9)),
    )
    model = JudgeModel.from_dict(model.to_dict())
    en = read_pair("User's locker is number 12.", "User's locker is number 40.")
    # (no sure rule may decide the Japanese pair: a changed number would close it whatever
    # the model says, ``amount_swap``)
    ja = read_pair("ユーザーのロッカーは12番だ", "ユーザーのロッカーは更衣室の奥にある")
    assert model.threshold_for(en) == 0.7 and model.threshold_for(ja) == 0.9
    assert judge(en, None, model).relation is Relation.CONTRADICTORY
    assert judge(ja, None, model).relation is not Relation.CONTRADICTORY


def test_a_related_pair_is_judged_under_its_languages_related_threshold() -> None:
    # P(CONTRADICTORY) about 0.8 for every pair, Japanese threshold 0.9, related one 0.75: a
    # pair the rules read as related closes, one they read as unrelated (another fact of the
    # same kind) keeps the language's own threshold; English has no related threshold.
    weights = np.zeros((3, len(TEXT_FEATURES)))
    model = replace(
        _model(weights, threshold=0.99),
        bias=np.array([0.0, 0.0, np.log(8.0)]),
        language_thresholds=(("en", 0.9), ("ja", 0.9)),
        related_thresholds=(("ja", 0.75),),
    )
    model = JudgeModel.from_dict(model.to_dict())
    related = read_pair(
        "ユーザーは赤い自転車で通勤している", "ユーザーは通勤に電車を使うようになった"
    )
    unrelated = read_pair("ユーザーはギターを習っている", "ユーザーは毎週末に登山をする")
    english = read_pair("User walks to work.", "User cycles to work now.")
    assert related.rule != UNRELATED and unrelated.rule == UNRELATED != english.rule
    assert model.threshold_for(related) == 0.75
    assert model.threshold_for(unrelated) == model.threshold_for(english) == 0.9
    assert judge(related, None, model).relation is Relation.CONTRADICTORY
    assert judge(unrelated, None, model).relation is not Relation.CONTRADICTORY
    assert judge(english, None, model).relation is not Relation.CONTRADICTORY
    # a related threshold above the language's never raises it; none is written when unset
    higher = replace(model, related_thresholds=(("ja", 0.95),))
    assert higher.threshold_for(related) == 0.9
    assert "related_thresholds" not in replace(model, related_thresholds=()).to_dict()


def test_a_language_without_its_own_threshold_falls_back_to_the_models() -> None:
    # The per-language thresholds are made once from the three tables: Japanese, named only
    # in related_thresholds, keeps contradiction_threshold as its own; a model naming no
    # language reads every pair under contradiction_threshold.
    model = replace(
        _model(np.zeros((3, len(TEXT_FEATURES))), threshold=0.99),
        language_thresholds=(("en", 0.7),),
        related_thresholds=(("ja", 0.75),),
    )
    related = read_pair(
        "ユーザーは赤い自転車で通勤している", "ユーザーは通勤に電車を使うようになった"
    )
    unrelated = read_pair("ユーザーはギターを習っている", "ユーザーは毎週末に登山をする")
    assert model.threshold_for(related) == 0.75 and model.threshold_for(unrelated) == 0.99
    bare = replace(model, language_thresholds=(), related_thresholds=())
    assert bare.threshold_for(related) == bare.threshold_for(unrelated) == 0.99


def test_a_same_frame_number_change_is_decided_by_the_rule() -> None:
    text = read_pair("私は犬を2匹飼っています", "私は犬を3匹飼っています")
    verdict = judge(text, None, _model(np.zeros((3, len(TEXT_FEATURES))), threshold=0.99))
    assert verdict.relation is Relation.CONTRADICTORY and verdict.reason.startswith("rule:")


def test_a_second_changed_number_leaves_the_pair_to_the_model() -> None:
    # The quantity reader sees one changed distance; the time beside it changed too, and the
    # distance names which record it is: not "only a number changed".
    two = read_pair("Ollie (15): 800 m PB 2:08.", "Ollie: 1500 m PB 4:31.", lang="en")
    one = read_pair("Ollie runs 20 km a week.", "Ollie runs 30 km a week.", lang="en")
    assert two.rule == one.rule == "quantity_changed"
    assert not rule_decides(two, ())
    assert rule_decides(one, ())


def test_model_round_trips_through_its_dict_and_rejects_unknown_features() -> None:
    model = _model(np.arange(3 * len(TEXT_FEATURES), dtype=float).reshape(3, -1) / 100)
    again = JudgeModel.from_dict(model.to_dict())
    x = np.linspace(0, 1, len(TEXT_FEATURES))
    assert np.allclose(again.probabilities(x), model.probabilities(x))
    assert np.isclose(model.probabilities(x).sum(), 1.0)
    bad = {**model.to_dict(), "features": ["no_such_feature", *TEXT_FEATURES[1:]]}
    with pytest.raises(ValueError, match="unknown features"):
        JudgeModel.from_dict(bad)


def test_packaged_judges_exist_for_both_bundled_embedders() -> None:
    models = load_judge_models()
    assert {m.split("@")[0] for m in models} == {"multilingual-e5-small-q4", "use-multilingual-v3"}
    for packaged in models.values():
        assert packaged.uses_embeddings
        # one model for both languages, or one per language (bench/train_classifier.py
        # --by-language): either way English and Japanese each have a threshold of their own
        per_language = packaged.models if isinstance(packaged, LanguageJudge) else (("", packaged),)
        named = set()
        for lang, model in per_language:
            assert 0.5 <= model.contradiction_threshold <= 0.99
            own = dict(model.language_thresholds)
            assert not lang or lang in own
            named |= set(own) if not lang else {lang}
            # a related threshold only ever lowers its language's (bench/classify_related.py)
            for related_lang, threshold in model.related_thresholds:
                assert 0.5 <= threshold <= own[related_lang]
        assert named == {"en", "ja"}


def test_an_embedder_without_a_judge_gets_the_rules() -> None:
    classifier = offline_classifier_for(HashEmbedder())
    assert isinstance(classifier, OfflineClassifier)
    (verdict,) = classifier.classify(
        "User moved to Osaka.", [Candidate("k", "User lives in Tokyo.", 0.9)]
    )
    assert verdict.relation is Relation.CONTRADICTORY


def test_a_sure_rule_leaves_a_pair_about_two_subjects_to_the_model() -> None:
    two = read_pair("Ken lives in Tokyo.", "Yumi moved to Osaka last month.")
    one = read_pair("Ken lives in Tokyo.", "Ken moved to Osaka last month.")
    assert two.rule == one.rule == "moved"
    assert not rule_decides(two, ("moved",))
    assert rule_decides(one, ("moved",))


@pytest.mark.parametrize(
    "new",
    [
        "Marcus's ex Aisha lives in Evanston now.",
        "Marcus's wife moved to Evanston.",
        "Marcus's roommate moved to Evanston.",
    ],
)
def test_a_sure_rule_leaves_a_relative_in_the_subject_chain_to_the_model(new: str) -> None:
    # The chain holds lemmas ("wife" → "wif"); a relation word is still another person.
    pair = read_pair("Marcus lives in Logan Square.", new)
    assert pair.rule == "moved"
    assert not rule_decides(pair, ("moved",))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Rosa avoids white rice.", "Rosa cut white rice because her blood sugar was high."),
        ("美咲は吹奏楽部", "美咲が吹奏楽部に入ったのは、トランペットを吹きたかったから。"),
        ("猫は療法食を食べている", "猫は腎臓が悪いので療法食になった。"),
        # The copula after から / ため is still a reason clause (…のは、…からだ。 / …ためです。).
        ("小林さんは合唱団で歌っている", "小林さんが合唱団に入ったのは、友人に誘われたからだ。"),
        ("父は毎朝薬を飲んでいる", "父が薬を飲み始めたのは、健康診断で言われたためです。"),
    ],
)
def test_a_reason_given_in_the_new_memory_is_a_feature(old: str, new: str) -> None:
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    assert values["new_reason"] == 1.0 and values["old_reason"] == 0.0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Olivia does Pilates.", "Olivia started Pilates to get back in shape after the twins."),
        ("Ines goes to the library book club.", "Ines joined the book club when she retired."),
        ("美咲は吹奏楽部", "美咲が吹奏楽部に入ったのは、先輩に誘われたから。"),
        ("田村さんとは毎日話す仲", "田村さんとは当番表を一緒に作ったのがきっかけで仲良くなった。"),
    ],
)
def test_how_a_fact_began_is_an_origin_feature(old: str, new: str) -> None:
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    assert values["new_origin"] == 1.0 and values["old_origin"] == 0.0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Olivia does Pilates.", "Olivia quit Pilates in March."),  # started / after missing
        ("ユーザーは猫を飼っている", "ユーザーは猫を手放した"),
    ],
)
def test_a_change_without_an_origin_clause_is_no_origin(old: str, new: str) -> None:
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    assert values["new_origin"] == 0.0


def _note_model(sentence_threshold: float) -> JudgeModel:
    # P(CONTRADICTORY) rises with how much of the old memory the sentence drops.
    weights = np.zeros((3, len(TEXT_FEATURES)))
    weights[2, TEXT_FEATURES.index("lost_share")] = 6.0
    return replace(_model(weights, threshold=0.99), sentence_threshold=sentence_threshold)


def test_a_note_closes_only_when_one_sentence_reaches_the_sentence_threshold() -> None:
    old = "User works at the bakery."
    parts = ["User now works at the library.", "User walks there every morning."]
    sentences = [(read_pair(old, p), None) for p in parts]
    whole = judge(read_pair(old, " ".join(parts)), None, _note_model(0.5), may_contradict=False)
    assert whole.relation is not Relation.CONTRADICTORY
    scores = [sentence_score(t, None, _note_model(0.5)) for t, _ in sentences]
    low, high = min(scores) / 2, max(scores)
    assert judge_note(whole, sentences, _note_model(low)).relation is Relation.CONTRADICTORY
    assert judge_note(whole, sentences, _note_model(high + 1e-6)) == whole
    assert judge_note(whole, sentences, _note_model(float("inf"))) == whole  # the guard


def test_the_sentence_threshold_round_trips_and_defaults_to_never() -> None:
    model = _note_model(0.97)
    assert JudgeModel.from_dict(model.to_dict()).sentence_threshold == 0.97
    never = _note_model(float("inf")).to_dict()
    assert never["sentence_threshold"] is None
    assert JudgeModel.from_dict(never).sentence_threshold == float("inf")
    del never["sentence_threshold"]  # a file written before sentences were read
    assert JudgeModel.from_dict(never).sentence_threshold == float("inf")


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("User lives in Tokyo.", "User lives in Tokyo.", True),
        ("User lives in Tokyo.", "The user lives in Tokyo.", True),
        ("User lives in Tokyo.", "User lives in Osaka.", False),
        ("User eats meat.", "User no longer eats meat.", False),  # a negation flipped
        ("ユーザーは週に2回泳ぐ", "ユーザーは週に5回泳ぐ", False),  # a value changed
    ],
)
def test_a_pair_that_differs_in_wording_only_never_contradicts(
    old: str, new: str, same: bool
) -> None:
    from omoide.engine.classify.learned import nothing_differs

    text = read_pair(old, new, lang="auto")
    assert nothing_differs(text) is same
    # a model that calls everything CONTRADICTORY with certainty
    weights = np.zeros((3, len(TEXT_FEATURES)))
    model = replace(_model(weights, threshold=0.5), bias=np.array([-9.0, -9.0, 9.0]))
    verdict = judge(text, None, model)
    if same:
        assert verdict.relation is not Relation.CONTRADICTORY
    elif not rule_decides(text, model.rule_overrides):
        assert verdict.relation is Relation.CONTRADICTORY


@pytest.mark.parametrize(
    ("old", "new", "vetoed"),
    [
        (
            "The user runs a bakery in Porto.",
            "The user's former colleague runs a bakery in Lisbon.",
            True,
        ),
        ("ユーザーは横浜で英語を教えている。", "ユーザーの元同僚は神戸で英語を教えている。", True),
        (
            "The user pays 800 euros a month for her flat.",
            "The user's landlord raised her rent to 900 euros a month.",
            False,
        ),  # acts on her rent
        (
            "ユーザーは犬と猫を飼っている。",
            "ユーザーの猫が先週死んだ。",
            False,
        ),  # the old one names it
    ],
)
def test_another_persons_own_fact_never_contradicts(old: str, new: str, vetoed: bool) -> None:
    from omoide.engine.classify.learned import another_persons_fact

    text = read_pair(old, new, lang="auto")
    assert another_persons_fact(text) is vetoed
    weights = np.zeros((3, len(TEXT_FEATURES)))  # a model sure of CONTRADICTORY everywhere
    model = replace(_model(weights, threshold=0.5), bias=np.array([-9.0, -9.0, 9.0]))
    verdict = judge(text, None, model)
    assert (verdict.relation is not Relation.CONTRADICTORY) is vetoed or rule_decides(
        text, model.rule_overrides
    )
    assert (sentence_score(text, None, model) == 0.0) is vetoed or rule_decides(
        text, model.rule_overrides
    )


@pytest.mark.parametrize("name", ["other_person_alone", "amount_untouched"])
def test_each_veto_feature_alone_vetoes_a_close(name: str) -> None:
    text = read_pair("User likes tea.", "User likes green tea.")
    values = np.zeros(len(TEXT_FEATURES))
    assert not vetoed(replace(text, features=values))
    values[TEXT_FEATURES.index(name)] = 1.0
    assert name in VETO_FEATURES
    assert vetoed(replace(text, features=values))

"""Transitions the judge weighs: "not yet" → it happened, and a plan called off or moved."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.text import parse
from omoide.engine.classify.transition import TRANSITION_FEATURES, transition_features

EN_WORDS = st.sampled_from(
    [
        "never",
        "not",
        "yet",
        "first",
        "time",
        "plans",
        "to",
        "will",
        "cancelled",
        "postponed",
        "the",
        "trip",
        "went",
        "skiing",
    ]
)
JA_CHARS = st.sampled_from(list("まだ一度もしたことがない初めて予定延期中止を旅行行った。"))
SENTENCES = st.one_of(
    st.lists(EN_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w) + "."),
    st.text(JA_CHARS, min_size=1, max_size=16),
)


def _features(old: str, new: str, lang: str) -> dict[str, float]:
    return dict(
        zip(
            TRANSITION_FEATURES,
            transition_features(parse(old, lang), parse(new, lang)),
            strict=True,
        )
    )


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        ("Aisha has never seen snow.", "Aisha built her first snowman in February.", "en"),
        ("I have never owned a car.", "I picked up my first car on Saturday.", "en"),
        ("Caroline hasn't applied anywhere yet.", "Caroline applied to two agencies.", "en"),
        (
            "私はスキーをしたことがありません。",
            "私はこの冬、長野で初めてスキーを滑りました。",
            "ja",
        ),
        ("ユーザーは海外に行ったことがない", "ユーザーは先月、台湾に行った", "ja"),
    ],
)
def test_not_yet_then_it_happened(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["never_then_did"] == 1.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # still not: the new memory is negated and says nothing of a first time
        ("Aisha has never seen snow.", "Aisha still has not seen snow.", "en"),
        ("私はスキーをしたことがない", "私は今年もスキーをしていない", "ja"),
        # "never again" ends something, it is no "not yet"
        ("The user said never again to camping.", "The user went camping in May.", "en"),
        # no "not yet" in the old memory
        ("Raj likes snow.", "Raj built his first snowman.", "en"),
    ],
)
def test_no_not_yet_transition(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["never_then_did"] == 0.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        (
            "The user plans to run the Berlin Marathon.",
            "The user withdrew from the Berlin Marathon.",
            "en",
        ),
        ("We're going to Osaka in April.", "We've called off the Osaka trip.", "en"),
        (
            "Caroline will show her paintings in August.",
            "Caroline's show was pushed back to September.",
            "en",
        ),
        ("Ravi is training for the Boston Marathon.", "Ravi deferred Boston to next year.", "en"),
        ("加藤さんは来年法人化するつもりだ。", "加藤さんは法人化を見送ることにした。", "ja"),
        ("夏休みに北海道へ旅行する予定", "台風で北海道旅行は延期になった", "ja"),
    ],
)
def test_plan_called_off_or_moved(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["plan_undone"] == 1.0


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # no plan in the old memory: a cancelled thing is not a plan undone
        ("The user has a gym membership.", "The user cancelled her gym membership.", "en"),
        # a plan, and the new memory keeps it
        (
            "The user plans to run the Berlin Marathon.",
            "The user is training hard for Berlin.",
            "en",
        ),
        ("来月京都に行く予定だ", "京都では金閣寺を見たい", "ja"),
    ],
)
def test_no_plan_transition(old: str, new: str, lang: str) -> None:
    assert _features(old, new, lang)["plan_undone"] == 0.0


def test_first_time_and_not_yet_cues_read_each_side() -> None:
    f = _features(
        "Hannah has never performed a solo.", "Hannah played a solo for the first time.", "en"
    )
    assert f["old_not_yet"] == 1.0 and f["new_first_time"] == 1.0
    reverse = _features(
        "Hannah played a solo for the first time.", "Hannah has never performed a solo.", "en"
    )
    assert reverse["old_not_yet"] == 0.0 and reverse["new_first_time"] == 0.0


def test_the_transitions_are_text_features_of_a_pair() -> None:
    pair = read_pair(
        "ユーザーは富士山に登ったことがない", "ユーザーは夏休みに富士山の山頂まで登った", lang="ja"
    )
    values = dict(zip(TEXT_FEATURES, pair.features, strict=True))
    assert set(TRANSITION_FEATURES) <= set(TEXT_FEATURES)
    assert values["old_not_yet"] == 1.0 and values["never_then_did"] == 1.0


@given(SENTENCES, SENTENCES)
def test_transition_features_are_flags(old: str, new: str) -> None:
    values = transition_features(parse(old), parse(new))
    assert len(values) == len(TRANSITION_FEATURES)
    assert all(v in (0.0, 1.0) for v in values)
    named = dict(zip(TRANSITION_FEATURES, values, strict=True))
    # a transition needs its side's cue
    assert named["never_then_did"] <= named["old_not_yet"]

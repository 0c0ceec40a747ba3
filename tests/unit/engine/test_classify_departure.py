"""Leaving what the old memory names: a role or place ended by its own filler."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.departure import DEPARTURE_FEATURES, left_old_filler
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.text import parse

EN_WORDS = st.sampled_from(
    [
        "left",
        "quit",
        "sold",
        "the",
        "her",
        "bank",
        "job",
        "not",
        "will",
        "works",
        "at",
        "knee",
        "Acme",
        "to",
        "join",
    ]
)
JA_CHARS = st.sampled_from(list("会社を辞めた退職してないつもり大学から引っ越し。"))
SENTENCES = st.one_of(
    st.lists(EN_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w) + "."),
    st.text(JA_CHARS, min_size=1, max_size=16),
)


def _left(old: str, new: str, lang: str) -> bool:
    return left_old_filler(parse(old, lang), parse(new, lang))


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        (
            "Dana works as an engineer at Vantor Labs.",
            "Dana left Vantor Labs to join a startup.",
            "en",
        ),
        ("My brother studies law at Keele.", "My brother dropped out of Keele in March.", "en"),
        (
            "Omar rents a room in a flat on Quay Street.",
            "Omar moved out of the Quay Street flat.",
            "en",
        ),
        ("Priya drives a red Fiat Panda.", "Priya sold the Panda last week.", "en"),
        ("ユーザーは駅前の歯科医院に勤めている。", "ユーザーは駅前の歯科医院を辞めた。", "ja"),
        ("弟は北海道の大学に通っている。", "弟は北海道の大学を中退した。", "ja"),
    ],
)
def test_leaving_the_old_filler_is_the_cue(old: str, new: str, lang: str) -> None:
    assert _left(old, new, lang)


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # the old memory does not name what was left
        ("Dana works as an engineer at Vantor Labs.", "Dana left the party early.", "en"),
        # the old memory already tells the leaving: the new one adds a reason
        ("Dana quit her job at the bank.", "Dana left the bank after nine years.", "en"),
        # negated or only intended
        ("Dana works at Vantor Labs.", "Dana is not going to quit Vantor Labs.", "en"),
        ("Dana works at Vantor Labs.", "Dana will never leave Vantor Labs.", "en"),
        ("ユーザーは歯科医院に勤めている。", "ユーザーは歯科医院を辞めるつもりはない。", "ja"),
        ("ユーザーは歯科医院に勤めている。", "ユーザーは歯科医院を辞めたいと言っている。", "ja"),
        # "left" as a side or a remainder
        ("Sam hurt his knee running.", "Sam's left knee needs surgery.", "en"),
        ("Our mortgage is fixed until 2027.", "We have 210,000 left on the mortgage.", "en"),
    ],
)
def test_other_leavings_are_not_the_cue(old: str, new: str, lang: str) -> None:
    assert not _left(old, new, lang)


def test_the_feature_is_in_the_judge_s_row() -> None:
    text = read_pair(
        "Dana works as an engineer at Vantor Labs.",
        "Dana left Vantor Labs to join a startup.",
        lang="en",
    )
    row = dict(zip(TEXT_FEATURES, text.features, strict=True))
    assert set(DEPARTURE_FEATURES) <= set(TEXT_FEATURES)
    assert row["left_old_filler"] == 1.0


@given(SENTENCES, SENTENCES)
def test_departure_never_raises_and_is_a_flag(old: str, new: str) -> None:
    for lang in ("en", "ja"):
        assert _left(old, new, lang) in (True, False)

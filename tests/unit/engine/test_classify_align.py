"""Weekday and level slots and the one-aligned-span-replaced features of the learned judge."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify.align import (
    ALIGN_FEATURES,
    align_features,
    levels,
    span_type,
    weekdays,
)
from omoide.engine.classify.features import TEXT_FEATURES, read_pair

EN_WORDS = st.sampled_from(
    [
        "Tuesdays",
        "Wednesday",
        "level",
        "2",
        "3",
        "also",
        "swims",
        "NordVPN",
        "the",
        "user",
        "grade",
        "on",
        "weekends",
        "Maya",
    ]
)
JA_CHARS = st.sampled_from(list("月火水木金土日曜（）初二段級ユーザーはプールに通うも3"))
SENTENCES = st.one_of(
    st.lists(EN_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w) + "."),
    st.text(JA_CHARS, min_size=1, max_size=16),
)


def _align(old: str, new: str, lang: str = "en") -> dict[str, float]:
    return dict(zip(ALIGN_FEATURES, align_features(old, new, lang), strict=True))


@given(SENTENCES, SENTENCES)
def test_every_feature_lies_in_the_unit_interval(old: str, new: str) -> None:
    lang = "en" if old.isascii() else "ja"
    row = align_features(old, new, lang)
    assert len(row) == len(ALIGN_FEATURES)
    assert all(0.0 <= v <= 1.0 for v in row)


@given(SENTENCES)
def test_a_statement_against_itself_replaces_nothing(text: str) -> None:
    lang = "en" if text.isascii() else "ja"
    f = _align(text, text, lang)
    assert f["span_replaced"] == f["weekday_changed"] == f["level_changed"] == 0.0


@pytest.mark.parametrize(
    ("text", "lang", "days"),
    [
        ("Maya has swimming on Tuesdays at 5:30.", "en", {"tue"}),
        ("Gym on Monday and Wednesday, rest at weekends.", "en", {"mon", "wed", "weekend"}),
        ("塾は週3回（月水金）", "ja", {"mon", "wed", "fri"}),
        ("火曜と土曜にジムへ行く", "ja", {"tue", "sat"}),
        ("平日は在宅勤務", "ja", {"weekdays"}),
        ("月20万円を仕送りしている", "ja", set()),  # 月 alone is a month, not Monday
    ],
)
def test_weekdays_are_read_in_both_languages(text: str, lang: str, days: set[str]) -> None:
    assert weekdays(text, lang) == days


@pytest.mark.parametrize(
    ("text", "lang", "found"),
    [
        ("Hannah is taking her level 2 BSL exam.", "en", {"level 2"}),
        ("Sam holds a 3rd dan in judo and a B2 in German.", "en", {"3rd dan", "b2"}),
        ("剣道は初段", "ja", {"初段"}),
        ("TOPIK 3級を持っている", "ja", {"3級"}),
        ("The user has two dogs.", "en", set()),
    ],
)
def test_levels_are_read_with_their_rank_word(text: str, lang: str, found: set[str]) -> None:
    assert levels(text, lang) == found


def test_one_weekday_swapped_is_one_typed_span_replaced() -> None:
    f = _align("Maya has swimming on Tuesdays at 5:30.", "Maya has swimming on Wednesdays at 5:30.")
    assert f["span_replaced"] == f["span_replaced_typed"] == f["weekday_changed"] == 1.0
    f = _align("悠真の塾は週3回（月水金）", "悠真の塾は週3回（火木土）", "ja")
    assert f["span_replaced"] == f["span_replaced_typed"] == f["weekday_changed"] == 1.0


def test_a_level_or_a_name_swapped_is_typed_too() -> None:
    assert _align("剣道は初段", "剣道は二段になった", "ja")["level_changed"] == 1.0
    f = _align("Ken uses NordVPN on his laptop.", "Ken uses ExpressVPN on his laptop.")
    assert f["span_replaced"] == f["span_replaced_typed"] == 1.0


def test_an_addition_marker_or_an_added_day_is_no_replacement() -> None:
    f = _align("Ken uses NordVPN on his laptop.", "Ken also uses ExpressVPN on his laptop.")
    assert f["span_replaced"] == 0.0
    f = _align("Maya swims on Tuesdays.", "Maya swims on Tuesdays and Thursdays.")
    assert f["weekday_changed"] == 0.0


def test_a_name_for_a_word_of_another_kind_is_not_typed() -> None:
    f = _align("The user jogs every morning.", "The user swims every morning.")
    assert f["span_replaced"] == 1.0 and f["span_replaced_typed"] == 0.0
    assert span_type(["Tuesdays"], "en") == "weekday"
    assert span_type(["The"], "en", starts_sentence=True) == "other"


def test_read_pair_carries_the_align_features() -> None:
    values = dict(zip(TEXT_FEATURES, read_pair("剣道は初段", "剣道は二段").features, strict=True))
    assert values["level_changed"] == 1.0


def test_a_name_in_any_latin_alphabet_is_one_name() -> None:
    # The tokens come from engine.lang's normalising and script runs: an accented name is one
    # name, not a name cut at its accent, and full-width letters read as their half-width form.
    f = _align("Sophie lives with Zoë in Lyon.", "Sophie lives with Chloé in Lyon.")
    assert f["span_replaced"] == f["span_replaced_typed"] == 1.0
    f = _align("ユーザーはＮｏｒｄＶＰＮを使っている", "ユーザーはExpressVPNを使っている", "ja")
    assert f["span_replaced"] == f["span_replaced_typed"] == 1.0

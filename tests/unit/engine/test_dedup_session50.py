"""Session 50: dedup's notation reads a few more spellings of one fact alike: a kanji's
readings from IPADIC's one-kanji words (浸かる / つかる), the user's present verb after "I" in
the third person ("I run" as "I runs", as "the user runs" is), a unit word hyphenated or
singular, and a bare "degrees" as °C; and the status rule still reads the user's present
against the past ("I live" / "I lived")."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, status_changed
from omoide.service.dedup import kanji_readings


@pytest.mark.parametrize(
    ("kanji", "kana"),
    [
        ("毎朝シャワーの後に湯船に浸かる。", "毎朝シャワーの後に湯船につかる。"),
        ("玄関の電気を点けたまま出かけた。", "玄関の電気をつけたまま出かけた。"),
        ("小銭が貯まったら寄付する。", "小銭がたまったら寄付する。"),
        ("段ボールを潰して出す。", "段ボールをつぶして出す。"),
    ],
)
def test_a_kana_spelling_read_through_ipadic_readings(kanji: str, kana: str) -> None:
    a, b = pair_notation(kanji, kana, kanji=kanji_readings())
    assert a == b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("毎朝湯船に浸かる。", "毎朝湯船に入る。"),  # another verb
        ("電気を点けた。", "電気を消した。"),
    ],
)
def test_another_word_in_kana_stays_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second, kanji=kanji_readings())
    assert a != b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user walks the dog before work.", "I walk the dog before work."),
        (
            "The user always studies late and watches films.",
            "I always study late and watches films.",
        ),
        ("The user goes swimming on Sundays.", "I go swimming on Sundays."),
        ("The user fixes bikes for friends.", "I fix bikes for friends."),
        ("The user has a cat called Miso.", "I have a cat called Miso."),
        ("The user keeps the flat at 20°C.", "The user keeps the flat at twenty degrees."),
        (
            "The user bought a 25cm frying pan.",
            "The user bought a twenty-five-centimetre frying pan.",
        ),
        ("The user has a 3kW heater.", "The user has a three-kilowatt heater."),
        ("The user uses a 6 mm drill bit.", "The user uses a 6-millimetre drill bit."),
    ],
)
def test_one_fact_in_english_reads_alike(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user was a nurse.", "I am a nurse."),  # "was" is no present
        ("The user walked to work.", "I walk to work."),
        ("The user keeps the flat at 20°C.", "The user keeps the flat at 20°F."),
        ("The user bought a 25cm pan.", "The user bought a 25mm pan."),
        ("Tom told me this.", "Tom told me that."),
    ],
)
def test_other_values_or_words_stay_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b


def test_the_users_present_against_the_past_is_still_a_status() -> None:
    a, b = pair_notation("The user lives in halls.", "The user lived in halls.")
    assert a == "I lives in halls."
    assert status_changed(a, b)
    a, b = pair_notation("I study law.", "The user studied law.")
    assert a == "I studies law."
    assert status_changed(a, b)

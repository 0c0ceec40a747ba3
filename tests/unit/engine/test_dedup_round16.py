"""Dedup's sixteenth round, on probes of our own: a clock, a rate and an amount said in words or
in another unit; a common Japanese word in kanji or hiragana, or said with its everyday
synonym; a negation said with a word of opposite meaning; a study towards a qualification
and the qualification obtained."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation, status_changed
from omoide.engine.classify.dedup_ja_synonyms import ja_synonyms


def _change(first: str, second: str):  # type: ignore[no-untyped-def]
    return find_dedup_change(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noor's shop opens at 8:30 am.", "Noor's shop opens at half eight."),
        ("Noor's train leaves at 21:45.", "Noor's train leaves at quarter to ten at night."),
        ("Noor's train leaves at 23:50.", "Noor's train leaves at ten to midnight."),
        ("Noor rows 2.5 km every morning.", "Noor rows 2,500 metres every morning."),
        ("Noor rows 1.5 km every morning.", "Noor rows a kilometre and a half every morning."),
        ("Noor's class lasts 90 minutes.", "Noor's class lasts an hour and a half."),
        ("Noor has lived in Lyon for 18 months.", "Noor has lived in Lyon for a year and a half."),
        ("Noor's boiler is serviced once a year.", "Noor's boiler is serviced annually."),
        ("Noor sees the dentist every 6 months.", "Noor sees the dentist twice a year."),
        ("Noor's rent went up in October.", "Noor's rent went up in Oct."),
        ("Noor's ring is 18.5 carat.", "Noor's ring is eighteen-and-a-half carat."),
        ("ノアは週三回プールに行く。", "ノアは週に3回プールに行く。"),
        ("ノアは三年ごとに車を買い替える。", "ノアは3年に1回車を買い替える。"),
        ("ノアの家賃は月八万円だ。", "ノアの家賃は月額80,000円だ。"),
    ],
)
def test_a_value_said_in_words_or_another_unit_is_one_value(first: str, second: str) -> None:
    assert _change(first, second) is None
    assert _change(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noor's shop opens at 8:30 am.", "Noor's shop opens at half nine."),
        ("Noor rows 2.5 km every morning.", "Noor rows 2,000 metres every morning."),
        ("Noor sees the dentist every 6 months.", "Noor sees the dentist once a year."),
        ("Noor counts the boxes from 5 to 10.", "Noor counts the boxes from 5 to 9."),
        ("ノアは週三回プールに行く。", "ノアは週に2回プールに行く。"),
        ("ノアの家賃は月八万円だ。", "ノアの家賃は月額90,000円だ。"),
    ],
)
def test_a_value_that_moved_stays_a_change(first: str, second: str) -> None:
    assert _change(first, second) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは毎朝林檎を食べる。", "ノアは毎朝りんごを食べる。"),
        ("ノアは蕎麦が好きだ。", "ノアはそばが好きだ。"),
        ("ノアは漫画を描いている。", "ノアはマンガを描いている。"),
        ("ノアは台所でパンを焼く。", "ノアはキッチンでパンを焼く。"),
        ("ノアは毎週打ち合わせがある。", "ノアは毎週ミーティングがある。"),
        ("ノアは週3日在宅勤務をしている。", "ノアは週3日テレワークをしている。"),
        ("ノアは朝ご飯を食べない。", "ノアは朝食を食べない。"),
        ("ノアは簿記検定に受かった。", "ノアは簿記検定に合格した。"),
        ("ノアは中古の車を購入した。", "ノアは中古の車を買った。"),
        ("ノアは市役所に勤めている。", "ノアは市役所で働いている。"),
    ],
)
def test_a_japanese_word_spelt_or_said_otherwise_is_one_word(first: str, second: str) -> None:
    assert _change(first, second) is None
    assert _change(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは蕎麦が好きだ。", "ノアはうどんが好きだ。"),
        ("ノアは台所でパンを焼く。", "ノアは庭でパンを焼く。"),
        ("ノアは簿記検定に受かった。", "ノアは英語検定に合格した。"),
    ],
)
def test_a_japanese_word_of_another_meaning_stays_a_change(first: str, second: str) -> None:
    assert _change(first, second) is not None


def test_a_synonym_inside_a_longer_word_is_left_alone() -> None:
    assert ja_synonyms("コックピットに座る") == "コックピットに座る"
    assert ja_synonyms("主人公は猫だ") == "主人公は猫だ"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noor does not like jazz.", "Noor dislikes jazz."),
        ("Noor does not eat pork.", "Noor avoids pork."),
        ("Noor's bakery does not open on Sundays.", "Noor's bakery is closed on Sundays."),
        ("Noor is not married.", "Noor is single."),
        ("Noor does not smoke.", "Noor is a non-smoker."),
        ("ノアは納豆が好きではない。", "ノアは納豆が嫌いだ。"),
        ("ノアは人前で話すのが得意ではない。", "ノアは人前で話すのが苦手だ。"),
        ("ノアは結婚していない。", "ノアは独身だ。"),
    ],
)
def test_a_negation_said_with_a_word_of_opposite_meaning_is_one_fact(
    first: str, second: str
) -> None:
    assert _change(first, second) is None
    assert _change(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noor likes jazz.", "Noor does not like jazz."),
        ("Noor likes jazz.", "Noor dislikes jazz."),
        ("ノアは納豆が好きだ。", "ノアは納豆が嫌いだ。"),
        ("ノアは納豆が好きだ。", "ノアは納豆が好きではない。"),
    ],
)
def test_a_turned_polarity_stays_a_change(first: str, second: str) -> None:
    assert _change(first, second) is not None


def test_studying_for_a_qualification_and_obtaining_it_differ() -> None:
    assert status_changed(
        *pair_notation("ノアは宅建を取るために勉強している。", "ノアは宅建を取得した。")
    )
    assert not status_changed(
        *pair_notation(
            "ノアは宅建を取るために勉強している。", "ノアは宅建の取得を目指して学んでいる。"
        )
    )

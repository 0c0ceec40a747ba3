"""Dedup's nineteenth round, on probes of our own: a value written another way (kanji minutes,
a zero minute, a step of every other week, a bound said with 上回る or まで, a length of time in
another unit, a short weekday, a quarter to the hour, a sum in pounds written out), a common
word said with its synonym and the explanatory のだ are read alike, while a changed number,
step, bound, length, day, word or negation still keeps the pair apart."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation, status_changed
from omoide.engine.classify.dedup_en_forms import en_forms
from omoide.engine.classify.dedup_ja_forms import ja_forms
from omoide.engine.classify.dedup_notation import text_notation
from omoide.engine.classify.dedup_respell import (
    ja_same_words,
    same_aspect,
    same_lengths,
    same_pounds,
)


def _change(first: str, second: str) -> object:
    return find_dedup_change(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ミオは毎朝六時二十分のバスに乗る。", "ミオは毎朝6:20のバスに乗る。"),
        ("ミオは毎朝6時に散歩する。", "ミオは毎朝6:00に散歩する。"),
        ("ミオは隔週で図書館に行く。", "ミオは2週間ごとに図書館に行く。"),
        ("ミオは1日おきにジョギングする。", "ミオは隔日でジョギングする。"),
        ("ミオの貯金が五十万円を超えた。", "ミオの貯金が50万円を上回った。"),
        ("ミオは2019年から陶芸を続けている。", "ミオは2019年以来陶芸を続けている。"),
        ("ミオは毎月5000円ずつ貯金している。", "ミオは毎月5000円を貯金している。"),
        ("ミオは週に3度プールへ行く。", "ミオは週に3回プールへ行く。"),
        ("ミオは毎晩10時に寝る。", "ミオは毎晩22時に寝る。"),
        ("ミオは毎日2時間ピアノを弾く。", "ミオは毎日120分ピアノを弾く。"),
        ("ミオは留学して2年になる。", "ミオは留学して24か月になる。"),
        ("ミオは会社の同僚と釣りに行く。", "ミオは職場の同僚と釣りに行く。"),
        ("ミオは今、札幌に住んでいる。", "ミオは現在、札幌に住んでいる。"),
        ("ミオはギターが得意だ。", "ミオはギターが上手だ。"),
        ("ミオは来週から大阪に引っ越すんだ。", "ミオは来週から大阪に引っ越す。"),
        ("ミオは去年禁煙した。", "ミオは去年たばこをやめた。"),
        ("ミオは図書館で働いている。", "ミオは図書館に勤めている。"),
        ("ミオはひとりで暮らしている。", "ミオは1人で暮らしている。"),
        ("ミオの食費は毎月3万円までだ。", "ミオの食費は毎月3万円以内だ。"),
        ("ミオは土日に山へ行く。", "ミオは週末に山へ行く。"),
        ("Mio swims on Mondays and Fridays.", "Mio swims on Mon and Fri."),
        ("Mio's class starts at 7:45.", "Mio's class starts at a quarter to eight."),
        ("Mio moved to Leeds in March 2024.", "Mio moved to Leeds in March '24."),
        ("Mio sees a physio every fortnight.", "Mio sees a physio fortnightly."),
        ("Mio never drinks coffee after noon.", "Mio never drinks coffee after 12."),
        (
            "Mio pays £2,400 a year for insurance.",
            "Mio pays two thousand four hundred pounds a year for insurance.",
        ),
        ("Mio replaces the filter every 2 days.", "Mio replaces the filter every 48 hours."),
        ("ミオは毎日3キロ泳ぐ。", "ミオは毎日3キロ泳いでいる。"),
        ("ミオは毎週末ボランティアをする。", "ミオは週末ごとにボランティアをしている。"),
        ("ミオは日に2杯紅茶を飲む。", "ミオは毎日2杯紅茶を飲む。"),
        ("Mio can't stand olives.", "Mio hates olives."),
        ("Mio's visa expires in May 2027.", "Mio's visa is valid until May 2027."),
        ("Mio is sitting the C1 exam in June.", "Mio is taking the C1 exam in June."),
        (
            "Mio takes 5 mg of a statin each night.",
            "Mio takes 5 milligrams of a statin every night.",
        ),
    ],
)
def test_a_value_or_word_said_another_way_is_no_change(first: str, second: str) -> None:
    assert _change(first, second) is None
    assert _change(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ミオは毎朝六時二十分のバスに乗る。", "ミオは毎朝6:40のバスに乗る。"),
        ("ミオは隔週で図書館に行く。", "ミオは毎週図書館に行く。"),
        ("ミオの貯金が五十万円を超えた。", "ミオの貯金が60万円を上回った。"),
        ("ミオは週に3度プールへ行く。", "ミオは週に2回プールへ行く。"),
        ("ミオは毎晩10時に寝る。", "ミオは毎晩23時に寝る。"),
        ("ミオは毎日2時間ピアノを弾く。", "ミオは毎日90分ピアノを弾く。"),
        ("ミオは週三でジムに通っている。", "ミオは週一でジムに通っている。"),
        ("ミオの食費は毎月3万円までだ。", "ミオの食費は毎月3万円以上だ。"),
        ("ミオは土日に山へ行く。", "ミオは金曜に山へ行く。"),
        ("ミオは会社に勤めている。", "ミオは会社に勤めていない。"),
        ("ミオの家は京都にある。", "ミオの家は奈良にある。"),
        ("Mio swims on Mon and Fri.", "Mio swims on Tuesdays and Fridays."),
        ("Mio's class starts at 7:45.", "Mio's class starts at a quarter to nine."),
        ("Mio moved to Leeds in March '24.", "Mio moved to Leeds in March 2025."),
        ("Mio sees a physio every fortnight.", "Mio sees a physio every week."),
        ("Mio replaces the filter every 2 days.", "Mio replaces the filter every 36 hours."),
        ("ミオは毎日3キロ泳ぐ。", "ミオは毎日5キロ泳いでいる。"),
        ("ミオは来月結婚する。", "ミオは去年結婚している。"),
        ("Mio's visa expires in May 2027.", "Mio's visa is valid until May 2028."),
        (
            "Mio's release ships on the first Monday of each month.",
            "Mio's release ships on the first Monday of each quarter.",
        ),
    ],
)
def test_a_changed_value_still_vetoes(first: str, second: str) -> None:
    assert _change(first, second) is not None
    assert _change(second, first) is not None


def test_one_text_forms_leave_words_alone() -> None:
    # a kanji digit inside a word, before ノ, and 十分 alone ("enough") stay as written
    assert "尺八" in ja_forms("ミオは尺八を習っている。")
    assert "三ノ宮" in ja_forms("ミオは三ノ宮に住んでいる。")
    assert "十分" in ja_forms("ミオは十分に寝た。")
    # a short day name as the first word, or after "the", is not a day
    assert en_forms("Sat the exam in May.").startswith("Sat ")
    assert "the Sun" in en_forms("Mio reads the Sun.")
    # a habit's 〜ている is read as the plain verb only where both texts name a habit
    assert same_aspect("ミオは毎日泳ぐ。", "ミオは毎日泳いでいる。") == "ミオは毎日泳ぐ。"
    assert same_aspect("ミオは泳ぐ。", "ミオは泳いでいる。") == "ミオは泳いでいる。"
    # a past in だ after ん is kept (住んだ), not read as the copula
    assert text_notation("ミオは神戸に住んだ。").endswith("住んだ。")


def test_pair_rewrites_need_the_other_text() -> None:
    # a length in another unit is rewritten only when it is the same length
    assert same_lengths("毎日1時間歩く", "毎日60分歩く", japanese=True) == "毎日1時間歩く"
    assert same_lengths("毎日1時間歩く", "毎日90分歩く", japanese=True) == "毎日90分歩く"
    assert same_lengths("for 3 days", "for 72 h", japanese=False) == "for 3 days"
    # "N lb" is a sum only when the other text holds £N
    assert same_pounds("pays £40", "pays 40 lb") == "pays £40"
    assert same_pounds("weighs 40 kg", "weighs 40 lb") == "weighs 40 lb"
    # a synonym is read as the other's only where it is the pair's whole difference there
    assert ja_same_words("私は会社で働く", "私は職場で働く") == "私は会社で働く"
    assert ja_same_words("私は会社で働く", "私は学校で働く") == "私は学校で働く"
    assert ja_same_words("要介護二で", "要介護2で") == "要介護二で"


@pytest.mark.parametrize(
    ("now", "former"),
    [
        (
            "ユーザーは市民センターで書道を教えている。",
            "ユーザーは以前、市民センターで書道を教えていた。",
        ),
        (
            "ユーザーは市民センターで書道を教えています。",
            "ユーザーはかつて市民センターで書道を教えていました。",
        ),
        ("ユーザーは看護師だ。", "ユーザーは昔は看護師だった。"),
        (
            "The user teaches piano at a music school.",
            "The user previously taught piano at a music school.",
        ),
        (
            "The user is a volunteer at the food bank.",
            "The user was formerly a volunteer at the food bank.",
        ),
    ],
)
def test_a_state_said_as_former_is_a_change_of_status(now: str, former: str) -> None:
    assert status_changed(*pair_notation(now, former))
    assert status_changed(*pair_notation(former, now))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "ユーザーは以前から市民センターで書道を教えている。",
            "ユーザーは市民センターで書道を教えている。",
        ),
        ("ユーザーは以前、富士山に登ったことがある。", "ユーザーは富士山に登ったことがある。"),
        ("The user previously taught piano.", "The user formerly taught piano."),
    ],
)
def test_a_state_going_on_or_a_past_event_is_no_former_state(first: str, second: str) -> None:
    assert not status_changed(*pair_notation(first, second))

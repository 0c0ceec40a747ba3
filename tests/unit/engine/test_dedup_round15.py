"""Dedup's fifteenth round, on probes of our own: numbers, dates, kana and synonyms written one
way; a status that moved on (applied / accepted, 受講 / 修了) is a change, a future said as a
plan on one side only is not; a katakana word replaced by another, or a bound turned round,
is never a duplicate."""

from __future__ import annotations

import pytest

from omoide.engine.classify import (
    find_dedup_change,
    pair_notation,
    polarity_changed,
    status_changed,
)
from omoide.engine.classify.dedup_katakana import katakana_swapped


def _change(first: str, second: str):  # type: ignore[no-untyped-def]
    return find_dedup_change(*pair_notation(first, second))


def _status(first: str, second: str) -> bool:
    return status_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mina pays $2,400 a month in rent.", "Mina pays $2.4k a month in rent."),
        ("Mina pays 2400 dollars a month in rent.", "Mina pays 2.4k dollars a month in rent."),
        ("家賃は月二千四百ドルだ。", "家賃は月2千4百ドルだ。"),
        ("家賃は月2400ドルだ。", "家賃は月二千四百ドルだ。"),
        ("Leo's commute takes an hour and a half.", "Leo's commute takes 1.5 hours."),
        ("Leo sleeps seven and a half hours a night.", "Leo sleeps 7.5 hours a night."),
        ("レオは一年半ピアノを習っている。", "レオは1.5年ピアノを習っている。"),
        ("レオは月に一度祖母に会う。", "レオは毎月祖母に会う。"),
        ("レオは一日に二十分走る。", "レオは毎日20分走る。"),
        ("レオは週一でジムに行く。", "レオは週に1回ジムに行く。"),
        ("Leo bought a second-hand cello.", "Leo bought a used cello."),
        ("Leo's sister will visit for a fortnight.", "Leo's sister will visit for two weeks."),
        ("会議は午後一時半から。", "会議は13時30分から。"),
    ],
)
def test_numbers_written_two_ways_are_one_value(first: str, second: str) -> None:
    assert _change(first, second) is None
    assert _change(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mina pays $2.4k a month in rent.", "Mina pays $2.6k a month in rent."),
        ("レオは月に一度祖母に会う。", "レオは月に二度祖母に会う。"),
        ("レオは二か月に一度祖母に会う。", "レオは毎月祖母に会う。"),
        ("Leo's commute takes an hour and a half.", "Leo's commute takes an hour."),
    ],
)
def test_a_number_that_moved_stays_a_change(first: str, second: str) -> None:
    assert _change(first, second) is not None


def test_a_distance_in_k_is_not_read_as_thousands() -> None:
    assert pair_notation("Ana ran a 5k race.", "Ana ran a 5k race.")[0] == "Ana ran a 5k race."


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("パスポートの期限は2029年4月30日だ。", "パスポートの期限は2029-04-30。"),
        ("パスポートの期限は2029年4月30日だ。", "パスポートの期限は2029/4/30。"),
        ("引っ越しは2026年9月の予定だ。", "引っ越しは2026-09の予定だ。"),
        ("受付は4月1日から5月10日まで。", "受付は4/1〜5/10。"),
        ("店は11時から22時まで開いている。", "店は11時〜22時に開いている。"),
    ],
)
def test_japanese_dates_in_digits_read_as_dates(first: str, second: str) -> None:
    assert _change(first, second) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Sam volunteers at the food bank.", "Sam has applied to volunteer at the food bank."),
        ("Sam has been offered a quote for the roof.", "Sam has accepted the quote for the roof."),
        ("Sam is planning a trip to Oslo.", "Sam has booked a trip to Oslo."),
        ("サムは救急救命の講習を受講している。", "サムは救急救命の講習を修了した。"),
        ("サムは転職活動中だ。", "サムは転職先が決まった。"),
        ("サムはカフェの開店を準備している。", "サムはカフェを経営している。"),
        ("Sam's parcel was dispatched on Monday.", "Sam's parcel was delivered on Monday."),
        ("Sam's essay is due on Friday.", "Sam handed in the essay due on Friday."),
    ],
)
def test_a_status_that_moved_on_is_a_change(first: str, second: str) -> None:
    assert _status(first, second)
    assert _status(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Sam is moving to Oslo in March.", "Sam will relocate to Oslo in March."),
        ("Sam's son starts school in April.", "Sam's son will begin school in April."),
        ("サムは来月オスロに行く。", "サムは来月オスロに行く予定だ。"),
        ("サムは来月オスロに行くと話していた。", "サムは来月オスロに行く予定とのこと。"),
        ("Sam is married to Priya.", "Priya and Sam are married."),
    ],
)
def test_a_future_said_as_a_plan_or_one_status_reworded_is_not(first: str, second: str) -> None:
    assert not _status(first, second)
    assert not _status(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa wants to keep the trip under £900.", "Noa expects the trip to go over £900."),
        ("ノアは一日に少なくとも二時間練習する。", "ノアは一日に多くても二時間しか練習しない。"),
    ],
)
def test_a_bound_turned_round_is_never_a_duplicate(first: str, second: str) -> None:
    assert polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーはコンピュータを二台持っている。", "ユーザーはコンピューターを二台持っている。"),
        ("ユーザーは読書のときだけ眼鏡をかける。", "ユーザーは読書のときだけメガネをかける。"),
        ("ユーザーは庭で林檎を育てている。", "ユーザーは庭でリンゴを育てている。"),
        ("The user relocated to Perth in 2020.", "The user moved to Perth in 2020."),
        (
            "The user's kids began swimming lessons.",
            "The user's children started swimming lessons.",
        ),
        ("The user purchased a grey kettle.", "The user bought a gray kettle."),
        ("The user bakes bread at 220 degrees Celsius.", "The user bakes bread at 220°C."),
    ],
)
def test_spellings_and_synonyms_meet_in_one_notation(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーは毎朝緑茶を飲む。", "ユーザーは毎朝コーヒーを飲む。"),
        ("The user's app ships on the App Store.", "The user's app ships on Google Play."),
    ],
)
def test_another_word_stays_another_word(first: str, second: str) -> None:
    assert _change(first, second) is not None


@pytest.mark.parametrize(
    ("first", "second", "swapped"),
    [
        ("娘はクラリネットを吹いている。", "娘はサックスを吹いている。", True),
        ("兄の車はマツダのロードスターだ。", "兄の車はホンダのシビックだ。", True),
        ("ユーザーはコンピュータを使う。", "ユーザーはコンピューターを使う。", False),  # a spelling
        ("娘はバイオリンを弾く。", "娘はヴァイオリンを弾く。", False),
        ("娘はクラリネットを吹いている。", "娘は毎朝サックスを吹く。", False),  # more than the word
        (
            "娘はクラリネットを吹いている。",
            "娘は笛を吹いている。",
            False,
        ),  # not katakana for katakana
    ],
)
def test_a_katakana_word_replaced_by_another(first: str, second: str, swapped: bool) -> None:
    assert katakana_swapped(first, second) is swapped
    assert katakana_swapped(second, first) is swapped
    if swapped:
        assert polarity_changed(*pair_notation(first, second))

"""Dedup's notation of periods, rates, shares and sums (session 27, ``dedup_periods``), on
probes of our own: one value written two ways reads alike and no change is found; a value that
differs still differs."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation
from omoide.engine.classify.dedup_periods import en_periods, ja_periods


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは半年に一回、歯医者に行く。", "ノアは六か月ごとに、歯医者に行く。"),
        ("ノアは3ヶ月ごとに髪を切る。", "ノアは三か月に一度髪を切る。"),
        ("ノアは二十分おきに休憩する。", "ノアは20分ごとに休憩する。"),
        ("ノアの会費は年間八千円。", "ノアの会費は一年で八千円。"),
        ("ノアは一度目の受験で合格した。", "ノアは一回目の受験で合格した。"),
        ("ノアの店の客の七割は常連。", "ノアの店の客の70%は常連。"),
        ("ノアは貯金の半分を投資に回している。", "ノアは貯金の50%を投資に回している。"),
        ("ノアの誤差は0.4%だ。", "ノアの誤差は〇・4%だ。"),
        ("Noa earns £9.40 an hour.", "Noa earns nine pounds forty an hour."),
        ("Noa has a £3,000 overdraft.", "Noa has a three-thousand-pound overdraft."),
        ("Noa rents a flat for £650 a month.", "Noa rents a flat for £650 pcm."),
        ("Noa earns £28,000 a year.", "Noa earns £28,000 per annum."),
        ("Noa is paid £15 an hour.", "Noa is paid £15/hr."),
        ("Noa services the boiler twice a year.", "Noa services the boiler half-yearly."),
        ("Noa sees the dentist 4 times a year.", "Noa sees the dentist quarterly."),
        ("Noa trims the hedge every 8 weeks.", "Noa trims the hedge once every 8 weeks."),
        ("Noa works nights every third weekend.", "Noa works nights one weekend in three."),
        ("Noa charges 8 pence a page.", "Noa charges £0.08 a page."),
        ("Noa's best time is 12.5 seconds.", "Noa's best time is 12 point 5 seconds."),
        ("Noa is on a 12-month contract.", "Noa is on a one-year contract."),
        ("Noa's walk to work takes 30 minutes.", "Noa's walk to work takes half an hour."),
        ("Noa is paid time and a half on Sundays.", "Noa is paid 1.5 times the rate on Sundays."),
    ],
)
def test_one_value_written_two_ways_reads_alike(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert find_dedup_change(a, b) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは半年に一回、歯医者に行く。", "ノアは一年に一回、歯医者に行く。"),
        ("ノアは二十分おきに休憩する。", "ノアは一時間おきに休憩する。"),
        ("ノアの店の客の七割は常連。", "ノアの店の客の50%は常連。"),
        ("ノアの会費は年間八千円。", "ノアの会費は年間九千円。"),
        ("Noa earns £9.40 an hour.", "Noa earns nine pounds sixty an hour."),
        ("Noa rents a flat for £650 a month.", "Noa rents a flat for £700 pcm."),
        ("Noa is on a 12-month contract.", "Noa is on a 6-month contract."),
        ("Noa works nights every third weekend.", "Noa works nights one weekend in four."),
        ("Noa is paid time and a half on Sundays.", "Noa is paid double time on Sundays."),
    ],
)
def test_a_value_that_differs_still_differs(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert find_dedup_change(a, b) is not None


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("1年半", "1年半"),  # read elsewhere as 1.5年: a numeral stands before 半年
        ("3割2分", "3割2分"),  # a batting average, not tenths
        ("2割引", "2割引"),  # a discount
        ("38度の熱", "38度の熱"),  # a temperature is no count of times
        ("半日", "半日"),
    ],
)
def test_japanese_forms_left_alone(text: str, written: str) -> None:
    assert ja_periods(text) == written


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("a 10-pound bag", "a 10 lb bag"),  # a weight or a sum: read as the other text writes it
        ("the speed limit is 60 km/h", "the speed limit is 60 km/h"),
        ("one of them in 2 weeks", "one of them in 2 weeks"),
        ("pH 7", "pH 7"),
    ],
)
def test_english_forms(text: str, written: str) -> None:
    assert en_periods(text) == written

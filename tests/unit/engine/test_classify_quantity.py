"""Quantities for the offline classifier: units, bounds, dates skipped, changes detected."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify.quantity import Bound, Quantity, find_quantities
from omoide.engine.classify.quantity_compare import changed_units, changed_values, within_bound


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        pytest.param("公園まで4キロ走った", "ja", [Quantity(4, "km")], id="ja-kilo"),
        pytest.param(
            "公園まで4キロメートル走った", "ja", [Quantity(4, "km")], id="ja-kilometre-whole"
        ),
        pytest.param("体重が3キログラム減った", "ja", [Quantity(3, "kg")], id="ja-kilogram-whole"),
        pytest.param("夕食は600キロカロリー", "ja", [], id="ja-kilo-starts-another-word"),
        pytest.param("発電機は5キロワット", "ja", [], id="ja-kilowatt-is-no-kilometre"),
        pytest.param(
            "10キロマラソンに出た", "ja", [Quantity(10, "km")], id="ja-kilo-before-a-katakana-noun"
        ),
        pytest.param("user is 34 years old.", "en", [Quantity(34, "age")], id="en-age"),
        pytest.param("user turned 30 in march.", "en", [Quantity(30, "age")], id="en-turned"),
        pytest.param(
            "user celebrated her 35th birthday.", "en", [Quantity(35, "age")], id="en-birthday"
        ),
        pytest.param(
            "user has more than 20 houseplants.",
            "en",
            [Quantity(20, "houseplant", Bound.AT_LEAST)],
            id="en-at-least",
        ),
        pytest.param(
            "user has more than twenty houseplants.",
            "en",
            [Quantity(20, "houseplant", Bound.AT_LEAST)],
            id="en-at-least-in-words",
        ),
        pytest.param(
            "user has twenty-six houseplants.",
            "en",
            [Quantity(26, "houseplant")],
            id="en-two-word-number",
        ),
        pytest.param(
            "user is thirty four years old.", "en", [Quantity(34, "age")], id="en-two-word-age"
        ),
        pytest.param("user's rent is $1,200 a month.", "en", [Quantity(1200, "$")], id="en-price"),
        pytest.param("user swims twice a week.", "en", [Quantity(2, "freq")], id="en-twice"),
        pytest.param("user ran in 2022.", "en", [], id="en-year-is-a-date"),
        pytest.param("ユーザーの息子は小学3年生", "ja", [Quantity(3, "grade:小学")], id="ja-grade"),
        pytest.param("週に2回ジムに通う", "ja", [Quantity(2, "freq")], id="ja-per-week"),
        pytest.param(
            "英語を10年以上勉強している",
            "ja",
            [Quantity(10, "年", Bound.AT_LEAST)],
            id="ja-at-least",
        ),
        pytest.param("家賃は月8万円", "ja", [Quantity(80000, "円")], id="ja-man"),
        pytest.param("猫を三匹飼っている", "ja", [Quantity(3, "匹")], id="ja-kanji-numeral"),
        pytest.param("2年前に禁煙した", "ja", [], id="ja-years-ago-is-a-date"),
        pytest.param("一人暮らしをしている", "ja", [], id="ja-hitori-is-not-a-count"),
    ],
)
def test_find_quantities_reads_value_unit_and_bound(
    text: str, lang: str, expected: list[Quantity]
) -> None:
    assert list(find_quantities(text, lang)) == expected


def test_changed_units_reports_a_different_age() -> None:
    assert changed_units((Quantity(29, "age"),), (Quantity(30, "age"),)) == ["age"]


def test_changed_units_accepts_a_value_inside_the_old_bound() -> None:
    old = (Quantity(20, "houseplant", Bound.AT_LEAST),)
    assert changed_units(old, (Quantity(27, "houseplant"),)) == []


def test_changed_units_ignores_units_only_one_side_has() -> None:
    assert changed_units((Quantity(2, "cat"),), (Quantity(3, "dog"),)) == []


@given(
    value=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    bound=st.sampled_from(list(Bound)),
)
def test_changed_units_never_flags_a_quantity_against_itself(value: float, bound: Bound) -> None:
    quantity = Quantity(value, "x", bound)
    assert changed_units((quantity,), (quantity,)) == []


@given(
    a=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    b=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    bound_a=st.sampled_from(list(Bound)),
    bound_b=st.sampled_from(list(Bound)),
)
def test_changed_units_is_symmetric(a: float, b: float, bound_a: Bound, bound_b: Bound) -> None:
    qa, qb = (Quantity(a, "x", bound_a),), (Quantity(b, "x", bound_b),)
    assert changed_units(qa, qb) == changed_units(qb, qa)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("has 2 dogs", "has 3 dogs", 1),
        ("rent is $1,200 a month", "rent is $1,350 a month", 1),
        ("trip 14–24 oct 2026", "trip 16–26 oct 2026", 1),  # a range is one value
        ("目覚ましは6時15分", "目覚ましは7時", 1),
        ("夜勤：月4〜5回", "夜勤：月6〜7回", 1),
        ("weekly 1:1, thursdays 3pm", "weekly 1:1, thursdays 4pm", 1),  # 1:1 is on both sides
        ("ollie (15): 800 m pb 2:08.", "ollie: 1500 m pb 4:31.", 3),  # age, distance and time
        ("800 m pb 2:08", "1500 m pb 4:31", 2),
        ("no numbers", "none here either", 0),
        ("has two dogs", "has three dogs", 1),  # number words count as values too
        ("has two dogs and three cats", "has four dogs and five cats", 2),
        ("more than twenty rose bushes", "twenty-six rose bushes", 1),  # one number, not two
    ],
)
def test_changed_values_counts_every_written_number(old: str, new: str, expected: int) -> None:
    assert changed_values(old, new) == expected
    assert changed_values(new, old) == expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("目覚ましは6時15分", "目覚ましは7時", 1),  # a clock time is one value
        ("家賃は9万5千円", "家賃は10万円", 1),
        (
            "猫を三匹飼っている",
            "猫を四匹と犬を二匹飼っている",
            2,
        ),  # kanji numerals before a counter
    ],
)
def test_changed_values_reads_japanese_as_value_numbers_does(
    old: str, new: str, expected: int
) -> None:
    assert changed_values(old, new, "ja") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("user spent two hundred and fifty dollars.", [Quantity(250, "$")]),
        ("user turned twenty-first birthday.", [Quantity(21, "age")]),
        ("user trained hard in the first two weeks.", [Quantity(2, "week")]),  # two numbers
        ("user sleeps between one and two hours.", [Quantity(2, "hour")]),
    ],
)
def test_find_quantities_reads_number_words_as_value_numbers_does(
    text: str, expected: list[Quantity]
) -> None:
    assert list(find_quantities(text, "en")) == expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("user has more than 20 rose bushes.", "user has twenty-six rose bushes.", True),
        ("user has about 30 students.", "user has 28 students.", True),
        ("英語を10年以上勉強している", "英語を12年勉強している", True),
        (
            "user's shop stocks over 3,000 products.",
            "user's shop stocks about 3,400 products.",
            True,
        ),
        ("通勤は三十分以内だ", "通勤は電車で二十分ほどだ", True),
        ("user has about 30 students.", "user has around 40 students.", False),  # two rough amounts
        (
            "user has more than 20 rose bushes.",
            "user has 15 rose bushes.",
            False,
        ),  # outside: a change
        ("user has 20 rose bushes.", "user has 26 rose bushes.", False),  # no bound to fill in
        ("user has more than 20 rose bushes.", "user has 26 cats.", False),  # another unit
    ],
)
def test_within_bound_is_an_exact_amount_inside_an_old_bound(
    old: str, new: str, expected: bool
) -> None:
    lang = "ja" if old[0] > "~" else "en"
    assert within_bound(find_quantities(old, lang), find_quantities(new, lang)) is expected

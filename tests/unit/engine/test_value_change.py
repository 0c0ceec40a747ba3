"""Dedup's value-change veto: paraphrases keep their values, changed facts do not.

None of these sentences is in ``bench/data/dedup_pairs.jsonl``; the benchmark measures the
veto on that set, these tests pin its behaviour case by case and its properties.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify.value_change import ChangeKind, find_value_change, read_statement
from omoide.engine.classify.value_numbers import find_numbers, find_values


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "The user's favourite drink is oolong tea.",
            "Oolong tea is the user's favorite drink.",
            id="en-word-order-and-spelling",
        ),
        pytest.param(
            "Satoshi built the user's bookshelf.",
            "The user's bookshelf was built by Satoshi.",
            id="en-voice",
        ),
        pytest.param(
            "The user owns four guitars.", "The user has 4 guitars.", id="en-number-format"
        ),
        pytest.param(
            "The user swims twice a week.", "The user swims two times every week.", id="en-twice"
        ),
        pytest.param(
            "The user won't eat mushrooms.", "The user never eats mushrooms.", id="en-negation-kept"
        ),
        pytest.param(
            "The user's mum is a lawyer.",
            "The user's mother works as a lawyer.",
            id="en-same-person",
        ),
        pytest.param(
            "Every Friday the user plays darts.",
            "The user plays darts on Fridays.",
            id="en-sentence-initial-word",
        ),
        pytest.param(
            "The user is used to spicy food.",
            "The user is accustomed to spicy food.",
            id="en-used-to-means-accustomed",
        ),
        pytest.param("ユーザーは熊本出身だ", "ユーザーの出身地は熊本です", id="ja-reordered"),
        pytest.param(
            "ユーザーは金魚を三匹飼っている",
            "ユーザーは金魚を3匹飼っています",
            id="ja-kanji-numeral",
        ),
        pytest.param("ユーザーの月給は25万円", "ユーザーの月給は250,000円だ", id="ja-man"),
        pytest.param("ユーザーはお茶を飲まない", "ユーザーはお茶を飲みません", id="ja-politeness"),
        pytest.param("ユーザーはネコが好き", "ユーザーは猫が好きだ", id="ja-kana-spelling"),
        pytest.param("私は横浜に住んでいる", "ユーザーは横浜に住んでいる", id="ja-self"),
        pytest.param(
            "ユーザーは一番カレーが好きだ",
            "ユーザーの好物はカレーだ",
            id="ja-ichiban-is-not-a-number",
        ),
        pytest.param(
            "ユーザーは明日雨かもしれないと言った",
            "ユーザーは明日は雨かもと言った",
            id="ja-kamoshirenai-is-not-negation",
        ),
    ],
)
def test_paraphrase_changes_no_value(old: str, new: str) -> None:
    assert find_value_change(old, new) is None


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        pytest.param(
            "The user owns four guitars.",
            "The user owns five guitars.",
            ChangeKind.NUMBER,
            id="en-number",
        ),
        pytest.param(
            "The user's exam is on March 3.",
            "The user's exam is on April 3.",
            ChangeKind.NUMBER,
            id="en-month",
        ),
        pytest.param(
            "The user wakes at 7 pm.", "The user wakes at 7 am.", ChangeKind.NUMBER, id="en-pm"
        ),
        pytest.param(
            "The user visits Kyoto every spring.",
            "The user visits Kyoto every autumn.",
            ChangeKind.TIME,
            id="en-season",
        ),
        pytest.param(
            "The user has a meeting next Tuesday.",
            "The user has a meeting next Friday.",
            ChangeKind.TIME,
            id="en-weekday",
        ),
        pytest.param(
            "The user eats mushrooms.",
            "The user won't eat mushrooms.",
            ChangeKind.NEGATION,
            id="en-negation",
        ),
        pytest.param(
            "The user lives in Osaka.",
            "The user used to live in Osaka.",
            ChangeKind.NEGATION,
            id="en-used-to",
        ),
        pytest.param(
            "The user's uncle is a lawyer.",
            "The user's aunt is a lawyer.",
            ChangeKind.PERSON,
            id="en-person",
        ),
        pytest.param(
            "The user is a lawyer.",
            "The user's cousin is a lawyer.",
            ChangeKind.PERSON,
            id="en-extra-person",
        ),
        pytest.param(
            "The user's cat is named Kuro.",
            "The user's cat is named Momo.",
            ChangeKind.NAME,
            id="en-name",
        ),
        pytest.param(
            "The user works at a bakery in Kobe.",
            "The user now works at a bookshop in Kobe.",
            ChangeKind.CHANGE,
            id="en-announced-change",
        ),
        pytest.param(
            "ユーザーは金魚を三匹飼っている",
            "ユーザーは金魚を五匹飼っている",
            ChangeKind.NUMBER,
            id="ja-number",
        ),
        pytest.param(
            "ユーザーの試験は3月3日", "ユーザーの試験は4月3日", ChangeKind.NUMBER, id="ja-date"
        ),
        pytest.param(
            "ユーザーは先月ハワイに行った",
            "ユーザーは今月ハワイに行った",
            ChangeKind.TIME,
            id="ja-relative-month",
        ),
        pytest.param(
            "ユーザーは納豆を食べる",
            "ユーザーはもう納豆を食べない",
            ChangeKind.NEGATION,
            id="ja-negation",
        ),
        pytest.param(
            "ユーザーの祖母は教師だった",
            "ユーザーの母は教師だった",
            ChangeKind.PERSON,
            id="ja-grandmother-is-not-mother",
        ),
        pytest.param(
            "ユーザーは熊本出身だ", "ユーザーは長崎出身だ", ChangeKind.NAME, id="ja-place"
        ),
        pytest.param(
            "ユーザーの猫の名前はクロ",
            "ユーザーの猫の名前はモモ",
            ChangeKind.NAME,
            id="ja-katakana-name",
        ),
        pytest.param(
            "ユーザーは東京に住んでいる",
            "ユーザーはソウルに住んでいる",
            ChangeKind.NAME,
            id="ja-kanji-to-katakana-place",
        ),
    ],
)
def test_changed_value_is_found(old: str, new: str, kind: ChangeKind) -> None:
    change = find_value_change(old, new)
    assert change is not None
    assert change.kind == kind


def test_value_change_names_both_sides() -> None:
    change = find_value_change("The user's cat is named Kuro.", "The user's cat is named Momo.")
    assert change is not None
    assert (change.first, change.second) == (("kuro",), ("momo",))
    assert change.reason == "name changed: kuro → momo"


def test_added_detail_is_not_a_changed_value() -> None:
    assert find_value_change("The user has a dog.", "The user has a dog named Max.") is None
    assert find_value_change("The user has 2 cats.", "The user has 2 cats aged 3 and 5.") is None


def test_statements_in_two_languages_compare_numbers_only() -> None:
    assert find_value_change("The user lives in Tokyo.", "ユーザーは東京に住んでいる") is None
    change = find_value_change("The user has 2 cats.", "ユーザーは猫を3匹飼っている")
    assert change is not None and change.kind == ChangeKind.NUMBER


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        pytest.param("thirty-four", (34.0,), id="hyphenated"),
        pytest.param("two hundred and fifty", (250.0,), id="hundreds"),
        pytest.param("$1,200.50", (1200.5,), id="grouped-decimal"),
        pytest.param("May I ask? It was on May 5.", (5.0, 5.0), id="may-modal-then-month"),
        pytest.param("Jan lives on Jan 5", (1.0, 5.0), id="jan-name-then-month"),
        pytest.param("三十四歳", (34.0,), id="kanji-tens"),
        pytest.param("二千五百円", (2500.0,), id="kanji-thousands"),
        pytest.param("三万円", (30000.0,), id="kanji-man"),
        pytest.param("8万円", (80000.0,), id="digit-man"),
        pytest.param("二〇二六年", (2026.0,), id="kanji-digit-by-digit"),
        pytest.param("十分に眠った", (), id="juubun-is-enough"),
        pytest.param("一緒に行った", (), id="issho-is-together"),
        pytest.param("午後3時に寝る", (15.0,), id="gogo"),
    ],
)
def test_numbers_are_read_in_every_notation(text: str, numbers: tuple[float, ...]) -> None:
    assert read_statement(text).numbers == numbers


@pytest.mark.parametrize(
    ("text", "negative"),
    [
        pytest.param("ユーザーは友達が少ない", False, id="sukunai-is-an-adjective"),
        pytest.param("ユーザーは勉強しなければならない", False, id="must"),
        pytest.param("ユーザーは勉強しない", True, id="does-not-study"),
        pytest.param("ユーザーは大丈夫だと言った", False, id="daijoubu-has-no-husband"),
    ],
)
def test_japanese_polarity_ignores_idioms(text: str, negative: bool) -> None:
    statement = read_statement(text)
    assert statement.negative is negative
    assert "夫" not in statement.people


# -- properties ------------------------------------------------------------------------------

_WORDS = [
    "The user",
    "user's",
    "mother",
    "father",
    "Kyoto",
    "Osaka",
    "not",
    "never",
    "3",
    "three",
    "June",
    "Monday",
    "now",
    "has",
    "cats",
    "lives in",
    "ユーザーは",
    "母",
    "姉",
    "大阪",
    "京都",
    "三匹",
    "2匹",
    "猫",
    "ネコ",
    "ない",
    "飲む",
    "先週",
    "来週",
    "です",
    "だ",
    "秋",
    "。",
    ".",
    " ",
]
statements = st.one_of(
    st.lists(st.sampled_from(_WORDS), max_size=12).map(" ".join),
    st.lists(st.sampled_from(_WORDS), max_size=12).map("".join),
    st.text(max_size=40),
)


@given(statements)
def test_a_statement_never_differs_from_itself(text: str) -> None:
    assert find_value_change(text, text) is None


@given(statements, statements)
def test_value_change_is_symmetric(first: str, second: str) -> None:
    forward, backward = find_value_change(first, second), find_value_change(second, first)
    assert (forward is None) == (backward is None)
    if forward is not None and backward is not None:
        assert backward.kind == forward.kind
        assert (backward.first, backward.second) == (forward.second, forward.first)


_EN_NUMBERS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _english(n: int) -> str:
    if n < 20:
        return _EN_NUMBERS[n]
    tens, unit = divmod(n, 10)
    return _EN_TENS[tens] + (f"-{_EN_NUMBERS[unit]}" if unit else "")


def _kanji(n: int) -> str:
    digits = "〇一二三四五六七八九"
    out = ""
    for value, mark in ((1000, "千"), (100, "百"), (10, "十")):
        count, n = divmod(n, value)
        if count:
            out += ("" if count == 1 else digits[count]) + mark
    return out + (digits[n] if n else "")


@given(st.integers(min_value=0, max_value=99))
def test_digits_and_english_words_are_one_number(n: int) -> None:
    assert (
        find_value_change(f"The user has {n} stamps.", f"The user has {_english(n)} stamps.")
        is None
    )


@given(st.integers(min_value=1, max_value=9999))
def test_digits_and_kanji_numerals_are_one_number(n: int) -> None:
    assert (
        find_value_change(
            f"ユーザーは切手を{n}枚持っている", f"ユーザーは切手を{_kanji(n)}枚持っている"
        )
        is None
    )


@given(st.integers(min_value=0, max_value=9999), st.integers(min_value=0, max_value=9999))
def test_a_different_count_is_a_changed_number(n: int, m: int) -> None:
    change = find_value_change(f"The user has {n} stamps.", f"The user has {m} stamps.")
    assert (change is None) == (n == m)
    if change is not None:
        assert change.kind == ChangeKind.NUMBER


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "I started learning the cello three months ago.",
            "I started learning the oboe three months ago.",
        ),
        ("The user grows tomatoes on the balcony.", "The user grows cucumbers on the balcony."),
    ],
)
def test_one_swapped_english_noun_is_a_change(first: str, second: str) -> None:
    change = find_value_change(first, second)
    assert change is not None and change.kind == ChangeKind.NAME


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user's favourite colour is green.", "The user's favorite color is green."),
        ("The user has two older brothers.", "The user has 2 older brothers."),
        ("The user is studying Korean.", "The user is learning Korean."),
    ],
)
def test_a_spelling_a_number_format_or_an_activity_reworded_is_not(first: str, second: str) -> None:
    assert find_value_change(first, second) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tom has 2 daughters, who are nine and six.", (2.0, 6.0, 9.0)),  # "and" joins two numbers
        ("She lost 5 kg in her first two months.", (1.0, 2.0, 5.0)),  # an ordinal ends a number
        ("He works three twelve-hour nights a week.", (3.0, 12.0)),
        ("It cost two hundred and fifty dollars.", (250.0,)),
        ("She is twenty-six.", (26.0,)),
        ("He bought two dozen eggs.", (2.0, 12.0)),
    ],
)
def test_number_words_are_read_as_the_numbers_they_write(
    text: str, expected: tuple[float, ...]
) -> None:
    assert find_numbers(text, "en") == expected


def test_find_values_keeps_a_range_and_a_clock_time_whole() -> None:
    assert find_values("Trip 14–24 Oct, alarm 6:15, 3 to 4 people", "en") == (
        (14.0, 24.0),
        (6.0, 15.0),
        (3.0, 4.0),
    )  # "Oct" names a month before a day only
    assert find_values("9万5千円で6時15分から4〜5人", "ja") == (
        (90000.0, 5000.0),
        (6.0, 15.0),
        (4.0, 5.0),
    )

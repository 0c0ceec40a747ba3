"""text_columns: a text's length with a wide character counted twice, so that a length minimum
(``evolution_min_chars``) means about as much in Japanese as in English."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.width import WIDE_COLUMNS, text_columns


def test_english_counts_as_its_length() -> None:
    text = "The user repairs old clocks on weekends."
    assert text_columns(text) == len(text)
    assert text_columns("") == 0


def test_wide_characters_count_two() -> None:
    assert text_columns("ユーザーは猫を飼っている") == 2 * 12
    assert text_columns("ゆうき") == 6  # hiragana
    assert text_columns("한국어") == 6  # Hangul
    assert text_columns("ＡＢＣ") == 6  # full-width letters (East Asian Width F)
    assert text_columns("\u3000") == 2  # the ideographic space is full-width


def test_mixed_text_counts_each_character_by_its_width() -> None:
    # "10km", one space and 「毎朝走る」
    assert text_columns("10km 毎朝走る") == 4 + 1 + 2 * 4


def test_narrow_and_ambiguous_characters_count_one() -> None:
    assert text_columns("ｶﾀｶﾅ") == 4  # half-width katakana (H)
    assert text_columns("café — naïve") == len("café — naïve")  # accents, dash (N / A)
    assert text_columns("Привет") == 6  # Cyrillic (ambiguous in East Asian fonts)


def test_a_japanese_statement_measures_like_its_english_counterpart() -> None:
    # invented pair: about as long in columns, though the Japanese has half the characters
    english, japanese = "The user moved to Kobe in May.", "ユーザーは5月に神戸へ引っ越した。"
    assert len(japanese) < len(english) / 1.5
    assert abs(text_columns(japanese) - text_columns(english)) <= 4


@given(st.text())
def test_never_below_len_nor_above_twice_len(text: str) -> None:
    assert len(text) <= text_columns(text) <= WIDE_COLUMNS * len(text)


@given(st.text(), st.text())
def test_additive_over_concatenation(a: str, b: str) -> None:
    assert text_columns(a + b) == text_columns(a) + text_columns(b)


@given(st.text())
def test_equals_len_without_wide_characters(text: str) -> None:
    narrow = "".join(c for c in text if unicodedata.east_asian_width(c) not in "WF")
    assert text_columns(narrow) == len(narrow)
    assert text_columns(text) == len(text) + (WIDE_COLUMNS - 1) * (len(text) - len(narrow))

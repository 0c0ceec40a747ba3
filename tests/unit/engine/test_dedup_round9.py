"""Dedup's ninth round: English number words through the one reader (``en_number_runs``), and
notation read as the same (spellings, kana conventions, clipped katakana, 〜中, rates,
relative times, a kanji digit before any counter)."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation
from omoide.engine.classify.dedup_notation import text_notation
from omoide.engine.classify.dedup_number_notation import one_notation
from omoide.engine.classify.value_numbers import en_number_runs


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("owns two hundred and forty books", "owns 240 books"),
        ("baked a hundred and ten loaves", "baked 110 loaves"),
        ("lives on the fourteenth floor", "lives on the 14th floor"),
        ("their thirty-second birthday", "their 32nd birthday"),
        ("swims twice a week", "swims 2 times a week"),
        ("one of them came first, a second-hand car", "one of them came first, a used car"),
        ("visits every second month", "visits every other month"),
        ("wakes at 07:30", "wakes at 7:30"),
        ("saved 12,500 dollars", "saved 12500 dollars"),
    ],
)
def test_english_numbers_in_one_notation(text: str, expected: str) -> None:
    assert one_notation(text) == expected


def test_the_three_op_reader_still_stops_at_tenth() -> None:
    assert en_number_runs("the fourteenth floor") == []
    assert [r.value for r in en_number_runs("the fourteenth floor", every_ordinal=True)] == [14]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The user's favourite paediatrician practises nearby.",
            "my favorite pediatrician practices nearby.",
        ),
        (
            "Michael and Phoebe live in the neighbourhood.",
            "Michael and Phoebe live in the neighborhood.",
        ),
        ("Ana said that she moved, btw.", "Ana said she moved, ."),
        ("兄は子供の頃から甘い物が好きだ。", "私の兄は子どものころから甘いものが好き。"),
        ("兄は昨年、来春の旅行を決めた。", "私の兄は去年、来年の春の旅行を決めた。"),
        ("兄は大学院で研究中だ。", "私の兄は大学院で研究している。"),
        ("兄は毎週土曜日にジムへ行きます。", "私の兄は毎週土曜にジムへ行く。"),
        ("兄には娘が二人います。", "兄には娘が2人いる。"),
        ("兄は会社を辞めました。", "私の兄は会社を辞めた。"),
        ("兄はビールを飲みました。", "私の兄はビールを飲んだ。"),
        ("兄は大学で物理を学ぶ。", "私の兄は大学で物理を勉強する。"),  # 学ぶ / 勉強する: round 16
    ],
)
# (since session 48 a bare 兄 or 父 opening the text reads as the user's own, 私の兄)
def test_text_notation_round9(text: str, expected: str) -> None:
    assert text_notation(text) == expected


@pytest.mark.parametrize(
    ("first", "second", "expected_second"),
    [
        (
            "父はスマホを二台持っている",
            "父はスマートフォンを2台持っている",
            "私の父はスマホを2台持っている",
        ),
        ("父はコンビニで働く", "父はコンビニエンスストアで働く", "私の父はコンビニで働く"),
        ("父はコーヒーが好き", "父はコーヒーゼリーが好き", "私の父はコーヒーゼリーが好き"),
        (
            "父は4教科のうち3教科が得意",
            "父は四教科のうち三教科が得意",
            "私の父は4教科のうち3教科が得意",
        ),
        ("父は4教科が得意", "父は三教科が得意", "私の父は三教科が得意"),
    ],
)
def test_pair_notation_round9(first: str, second: str, expected_second: str) -> None:
    assert pair_notation(first, second)[1] == expected_second


def test_a_kanji_digit_before_another_count_is_still_a_change() -> None:
    assert find_dedup_change(*pair_notation("父は4教科が得意", "父は三教科が得意")) is not None

"""Dedup's eleventh round: an acronym against the katakana of the words it stands for read as
one name; a katakana word its letters do not begin, or too short to hold a word per letter,
stays apart."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_loanword import initialled


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("姉はNYで働いている", "姉はニューヨークで働いている"),  # N ニ, Y ヨ (no consonant)
        ("父はPCで家計簿をつける", "父はパソコンで家計簿をつける"),  # P パ, C コ
        ("兄はUKに留学した", "兄はユナイテッドキングダムに留学した"),  # U ユ, K キ
        ("兄はJRで通勤している", "兄はジェイアールで通勤している"),  # J ジ, R ル
    ],
)
def test_an_acronym_and_its_katakana_read_as_one(first: str, second: str) -> None:
    assert pair_notation(first, second)[0] == pair_notation(first, second)[1]
    assert pair_notation(second, first)[0] == pair_notation(second, first)[1]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("弟はAIが好きだ", "弟はアイスが好きだ"),  # fewer than two kana per letter
        ("弟はPCでゲームをする", "弟はプレステでゲームをする"),  # C is K only, not ス
        ("弟はTVで映画を見る", "弟はタブレットで映画を見る"),  # ブ is too early for the second word
        ("母はNYに住んでいる", "母はロンドンに住んでいる"),  # the first syllable is not N
        ("母はLAに住んでいる", "母はラスベガスに住んでいる"),  # no syllable without a consonant
        ("妹はiPhoneを使う", "妹はピクセルを使う"),  # not an acronym
    ],
)
def test_other_katakana_words_stay_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b


def test_the_acronym_must_be_missing_from_the_other_text() -> None:
    assert initialled("NYとニューヨーク", "ニューヨークとNY") == "ニューヨークとNY"


def test_latin_words_with_lower_case_are_not_acronyms() -> None:
    second = "友人はニューヨークで暮らす"
    assert initialled("友人はNyで暮らす", second) == second


@given(
    st.text(alphabet="アイウカキクサシスタチツナニヌパピプーンABCKNPSTUY", max_size=12),
    st.text(alphabet="アイウカキクサシスタチツナニヌパピプーンABCKNPSTUY", max_size=12),
)
def test_initialled_is_total_and_leaves_text_without_acronyms_alone(
    first: str, second: str
) -> None:
    out = initialled(first, second)
    assert isinstance(out, str)
    if not any(ch.isupper() for ch in first):
        assert out == second

"""Dedup's tenth round: an acronym holding another acronym or written in lower-case consonants,
a word clipped to its first letter before a hyphen, a Latin word and its katakana spelling,
and に / へ, で / にて read as the same; what differs stays apart."""

from __future__ import annotations

from difflib import SequenceMatcher

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import pair_notation
from omoide.engine.classify.dedup_abbrev import abbreviated, lettered
from omoide.engine.classify.dedup_loanword import transliterated
from omoide.engine.classify.dedup_spans import aligned, same_direction


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Tom saves in a Lifetime ISA.", "Tom saves in a LISA."),
        ("Ann types 90 words per minute.", "Ann types 90 wpm."),
        ("Ben works in human resources.", "Ben works in HR."),
        ("Kim rides an electric bike.", "Kim rides an e-bike."),
        ("Sam studies in New York City.", "Sam studies in NYC."),
    ],
)
def test_short_forms_read_as_their_words(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b
    a, b = pair_notation(second, first)
    assert a == b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Tom saves in a Lifetime ISA.", "Tom saves in a SIPP."),  # another account
        ("Ann types 90 words per minute.", "Ann types 90 cpm."),  # initials spell something else
        ("Kim rides an electric bike.", "Kim rides a t-bike."),  # another letter
        ("Kim owns a cargo bike.", "Kim owns an e-bike."),  # the word does not start with e
    ],
)
def test_other_short_forms_stay_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b


def test_acronym_helpers_are_one_sided() -> None:
    assert abbreviated("a LISA", "a Lifetime ISA") == "a LISA"
    assert abbreviated("a Lifetime ISA", "a LISA") == "a LISA"
    assert lettered("an e-bike", "an electric bike") == "an e-bike"
    assert lettered("a bike", "an electric bike") == "an electric bike"


@pytest.mark.parametrize(
    ("latin", "katakana"),
    [
        ("PythonとTypeScriptを使っている。", "パイソンとタイプスクリプトを使っている。"),
        ("iPhoneを使っている。", "アイフォーンを使っている。"),
        ("靴はASICSだ。", "靴はアシックスだ。"),
        ("毎朝Starbucksに寄る。", "毎朝スターバックスに寄る。"),
    ],
)
def test_latin_and_katakana_spellings_meet(latin: str, katakana: str) -> None:
    assert pair_notation(latin, katakana)[0] == pair_notation(latin, katakana)[1]
    assert pair_notation(katakana, latin)[0] == pair_notation(katakana, latin)[1]


@pytest.mark.parametrize(
    ("latin", "katakana"),
    [
        ("iPhoneを使っている。", "ピクセルを使っている。"),  # another phone
        ("Canonのカメラを使う。", "ニコンのカメラを使う。"),  # another maker
        ("Toyotaに乗っている。", "ホンダに乗っている。"),
    ],
)
def test_other_katakana_words_stay_apart(latin: str, katakana: str) -> None:
    assert transliterated(latin, katakana) == katakana
    a, b = pair_notation(latin, katakana)
    assert a != b


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "ユーザーは毎週日曜日に母親に電話をかける。",
            "ユーザーは毎週日曜日に母親へ電話をかける。",
        ),
        (
            "ユーザーは市民合唱団でアルトを歌っている。",
            "ユーザーは市民合唱団にてアルトを歌っている。",
        ),
    ],
)
def test_particles_of_one_meaning(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b


def test_other_particle_changes_stay_apart() -> None:
    # a second difference besides the particle: not rewritten
    assert same_direction("母に電話する", "父へ電話する") == "父へ電話する"
    # で / に is not one of the pairs (a place of action / of existence)
    assert same_direction("東京で住む", "東京に住む") == "東京に住む"
    a, b = pair_notation("ユーザーは犬に噛まれた。", "ユーザーは犬が噛まれた。")
    assert a != b


def test_aligned_takes_a_short_equal_run_into_the_differences_around_it() -> None:
    assert aligned("お好み焼き", "おこのみやき", gap=1) == [
        (False, 0, 1, 0, 1),
        (True, 1, 4, 1, 5),
        (False, 4, 5, 5, 6),
    ]
    assert [span[0] for span in aligned("お好み焼き", "おこのみやき")] == [
        False,
        True,
        False,
        True,
        False,
    ]


@given(st.text(alphabet="abcあい", max_size=8), st.text(alphabet="abcあい", max_size=8))
def test_aligned_without_gap_is_the_alignment_itself(first: str, second: str) -> None:
    spans = aligned(first, second)
    assert [(i1, i2, j1, j2) for _, i1, i2, j1, j2 in spans] == [
        (i1, i2, j1, j2)
        for _, i1, i2, j1, j2 in SequenceMatcher(None, first, second, autojunk=False).get_opcodes()
    ]

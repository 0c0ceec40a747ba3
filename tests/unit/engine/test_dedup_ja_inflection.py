"""Dedup's Japanese inflections in one form (session 27, ``dedup_ja_inflection``), on probes
of our own: a negative connective said with ず, なく or ないで is read as the negation it is, a
verb of ending's bare continuative as its te-form, a polite connective as the plain one; a
negation said on one side only still differs, and ず words that negate nothing are left
alone."""

from __future__ import annotations

import pytest

from omoide.engine.classify import find_dedup_change, pair_notation
from omoide.engine.classify.dedup_ja_inflection import ja_inflections
from omoide.engine.classify.dedup_polarity import polarity_changed


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは朝食を食べずに出かける。", "ノアは朝食を食べないで出かける。"),
        ("ノアは何もせずに休日を過ごす。", "ノアは何もしないで休日を過ごす。"),
        ("ノアは会社を辞め、パン屋を開いた。", "ノアは会社を辞めて、パン屋を開いた。"),
        (
            "ノアは医者に止められまして、酒を控えている。",
            "ノアは医者に止められて、酒を控えている。",
        ),
        ("ノアは夜に眠れず、薬をもらっている。", "ノアは夜に眠れないで、薬をもらっている。"),
    ],
)
def test_one_inflection_written_two_ways_reads_alike(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a == b
    assert find_dedup_change(a, b) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは夜に眠れず、薬をもらっている。", "ノアは夜に眠れないので、薬をもらっている。"),
        ("ノアは数学に自信がなく、塾に通っている。", "ノアが塾に通うのは、数学に自信がないから。"),
    ],
)
def test_a_negative_connective_is_read_as_a_negation(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert find_dedup_change(a, b) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは夜によく眠れて、薬をもらっている。", "ノアは夜に眠れず、薬をもらっている。"),
        ("ノアは朝食を食べてから出かける。", "ノアは朝食を食べずに出かける。"),
    ],
)
def test_a_negation_on_one_side_still_differs(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert find_dedup_change(a, b) is not None


@pytest.mark.parametrize(
    "text",
    [
        "まず、ノアは走る。",
        "ノアは必ず走る。",
        "ノアは来るはずだ。",
        "ノアはわずかに遅れた。",
        "ノアは水を飲む。",
    ],
)
def test_words_ending_in_zu_are_left_alone(text: str) -> None:
    assert ja_inflections(text) == text


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # one predicate denied on one side only, the other side holding a negation elsewhere
        ("ノアは夜に眠れず、薬を飲んでいる。", "ノアは夜に眠れないが、薬は飲んでいない。"),
        ("ノアは雨の日は走らないで、ジムに行く。", "ノアは雨の日は走らないし、ジムにも行かない。"),
    ],
)
def test_a_second_negation_on_one_side_is_a_polarity_change(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert polarity_changed(a, b) and polarity_changed(b, a)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは夜に眠れず、薬を飲んでいる。", "ノアは夜に眠れないので、薬を飲んでいる。"),
        ("ノアは車を持たず、バスで通う。", "ノアは車を持っていないので、バスで通う。"),
    ],
)
def test_one_negation_each_side_is_no_polarity_change(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert not polarity_changed(a, b)

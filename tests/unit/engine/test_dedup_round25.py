"""Dedup's twenty-fifth round (round 22), on probes of our own ("Noa" / ノア): a Japanese clause
turned from the non-past to the past, the one who pays or acts turned to the subject itself,
two short values traded across two clauses and a from / to direction of any length are never
duplicates; the same fact said at one tense, alone, for oneself, or in lists and adjuncts
whose order is free, stays readable as a duplicate."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, swapped_parts
from omoide.engine.classify.dedup_agent import agent_changed
from omoide.engine.classify.dedup_polarity import polarity_changed
from omoide.engine.classify.dedup_status import status_changed
from omoide.engine.classify.dedup_tense import tense_turned


def _read(first: str, second: str) -> tuple[str, str]:
    return pair_notation(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは十一月に合唱コンクールに出る。", "ノアは十一月に合唱コンクールに出た。"),
        ("ノアは市民講座で陶芸を体験する。", "ノアは市民講座で陶芸を体験した。"),
        ("ノアの店には常連客が三十人いる。", "ノアの前の店には常連客が三十人いた。"),
        ("ノアは看護師で、小児科の病棟にいる。", "ノアは看護師で、以前は小児科の病棟にいた。"),
        ("ノアは図書館の司書だ。", "ノアは図書館の司書だった。"),
    ],
)
def test_a_japanese_clause_turned_to_the_past_is_a_change(first: str, second: str) -> None:
    assert tense_turned(first, second) and tense_turned(second, first)
    assert status_changed(*_read(first, second)) and status_changed(*_read(second, first))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ノアは大阪で生まれた。", "ノアは大阪生まれだ。"),  # another verb, not another tense
        ("ノアは東京の大学生だ。", "ノアは京都の大学生だ。"),  # one tense on both sides
        ("ノアは結婚している。", "ノアは結婚した。"),
        (
            "ノアは雨の日がつらいと言っている。",
            "ノアは雨の日がつらいと言っていた。",
        ),  # a frame's tense
        ("ノアは毎朝走る。", "Noa runs every morning."),
    ],
)
def test_the_same_tense_another_verb_or_a_frame_is_no_turn(first: str, second: str) -> None:
    assert not tense_turned(first, second) and not tense_turned(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa's employer pays for her French course.", "Noa pays for her own French course."),
        ("A bookkeeper files Noa's VAT returns.", "Noa files her VAT returns herself."),
        (
            "The user's company covers their gym membership.",
            "The user covers their own gym membership.",
        ),
        ("ノアの受講料は会社が負担している。", "ノアの受講料は自費だ。"),
        ("ノアの交通費は会社が出している。", "ノアは交通費を自分で払っている。"),
    ],
)
def test_someone_else_against_the_subject_itself_is_a_change(first: str, second: str) -> None:
    assert agent_changed(first, second) and agent_changed(second, first)
    assert polarity_changed(*_read(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa designed the tattoo on her own forearm.", "Noa designed the tattoo on her forearm."),
        ("Noa's grandmother lives alone.", "Noa's grandmother lives by herself."),
        ("Noa is raising her son on her own.", "Noa is raising her son alone."),
        ("Noa's brother is self-employed.", "Noa's brother works for himself."),
        ("Noa does not own a car.", "Noa has no car of her own."),
    ],
)
def test_alone_possession_and_the_same_subject_are_no_agent_change(first: str, second: str) -> None:
    assert not agent_changed(first, second) and not agent_changed(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Noa is allergic to cats, so she only keeps fish.",
            "Noa is allergic to fish, so she only keeps cats.",
        ),
        ("ノアの店は店員が4人、パートが2人だ。", "ノアの店は店員が2人、パートが4人だ。"),
        (
            "ノアは平日はバスだが、週末は自転車で出かける。",
            "ノアは平日は自転車だが、週末はバスで出かける。",
        ),
        (
            "Noa moved from the old depot by the river to the new office on Mill Lane.",
            "Noa moved from the new office on Mill Lane to the old depot by the river.",
        ),
    ],
)
def test_values_traded_across_clauses_or_a_direction_are_traded(first: str, second: str) -> None:
    assert swapped_parts(*_read(first, second)) is not None
    assert swapped_parts(*_read(second, first)) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa keeps cats and fish.", "Noa keeps fish and cats."),
        ("ノアは猫と犬を飼っている。", "ノアは犬と猫を飼っている。"),
        ("Noa hikes on weekends in the hills.", "Noa hikes in the hills on weekends."),
    ],
)
def test_free_order_stays_free(first: str, second: str) -> None:
    assert swapped_parts(*_read(first, second)) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Noa, the user's sister, lives in Bergen.", "The user's sister Noa lives in Bergen."),
        (
            "The user's landlord, Mr Berg, is raising the rent.",
            "The user's landlord Mr Berg is raising the rent.",
        ),
        (
            "The user signs up, and Noa, their cousin, pays.",
            "The user signs up, and their cousin Noa pays.",
        ),
    ],
)
def test_a_person_named_in_apposition_reads_alike(first: str, second: str) -> None:
    assert pair_notation(first, second)[0] == pair_notation(first, second)[1]


def test_apposition_keeps_a_changed_value_and_a_preposition() -> None:
    a, b = pair_notation(
        "Noa, the user's sister, lives in Bergen.", "The user's sister Noa lives in Oslo."
    )
    assert a != b
    a, _ = pair_notation("In July, the user's landlord raised the rent.", "x")
    assert a.startswith("In July, my landlord")

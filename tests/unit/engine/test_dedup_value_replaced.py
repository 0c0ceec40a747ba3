"""Dedup: a plain number or a weekday replaced by another keeps a near-copy whatever the
learned judge weighs (``value_replaced``, session 29).

Invented sentences, none from the sets under ``bench/data``.
"""

from __future__ import annotations

import pytest

from omoide.engine.classify import (
    ChangeKind,
    ValueChange,
    find_dedup_change,
    pair_notation,
    value_replaced,
)


def _finding(old: str, new: str) -> ValueChange | None:
    return find_dedup_change(*pair_notation(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "The user pays £40 a month for the gym.",
            "The gym now costs the user £45 a month.",
            id="en-amount",
        ),
        pytest.param(
            "Ola's piano lesson is on Tuesdays at 5 pm.",
            "Ola has her piano lesson on Thursdays at 5 pm.",
            id="en-weekday",
        ),
        pytest.param(
            "ユーザーは週3日、図書館で働いている。",
            "ユーザーは週4日、図書館で働いている。",
            id="ja-days-a-week",
        ),
        pytest.param(
            "ユーザーのヨガ教室は毎週月曜だ。",
            "ユーザーのヨガ教室は毎週水曜になった。",
            id="ja-weekday",
        ),
    ],
)
def test_a_number_or_a_weekday_replaced_is_found_and_read_as_replaced(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        change = _finding(a, b)
        assert change is not None and value_replaced(change)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "The user bought a kettle.",
            "The user bought a kettle for £30.",
            id="en-number-on-one-side",
        ),
        pytest.param(
            "The user swims on weekends.",
            "The user swims on Saturdays.",
            id="en-weekend-and-a-weekday",
        ),
        pytest.param(
            "The user sleeps at least seven hours.",
            "The user sleeps at most seven hours.",
            id="en-bound-word",
        ),
    ],
)
def test_an_added_value_a_bound_or_a_weekend_is_not_a_replacement(old: str, new: str) -> None:
    change = _finding(old, new)
    assert change is not None and not value_replaced(change)


def test_only_numbers_and_weekdays_on_both_sides_count() -> None:
    assert value_replaced(ValueChange(ChangeKind.NUMBER, ("2",), ("3.5",)))
    assert not value_replaced(ValueChange(ChangeKind.NUMBER, ("over",), ("20",)))
    assert not value_replaced(ValueChange(ChangeKind.NUMBER, (), ("20",)))
    assert value_replaced(ValueChange(ChangeKind.TIME, ("dow:mon",), ("dow:fri", "part:night")))
    assert not value_replaced(ValueChange(ChangeKind.TIME, ("dow:mon",), ("dow:mon", "year:0")))
    assert not value_replaced(ValueChange(ChangeKind.TIME, ("part:evening",), ("part:night",)))
    assert not value_replaced(ValueChange(ChangeKind.NAME, ("Rome",), ("Milan",)))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "ユーザーは週末、妹と一緒に料理をする。",
            "ユーザーは週末、妹といっしょに料理をする。",
            id="ja-word-in-kana",
        ),
        pytest.param(
            "ユーザーは最近仕事が忙しくて本を読めない。",
            "ユーザーは最近仕事がいそがしくて本を読めない。",
            id="ja-adjective-in-kana",
        ),
        pytest.param(
            "ユーザーは棚板を厚さ3センチに切った。",
            "ユーザーは棚板を厚さ30ミリに切った。",
            id="ja-centimetres-as-millimetres",
        ),
        pytest.param(
            "The user's desk is 150 cm wide.",
            "The user's desk is 1500 mm wide.",
            id="en-centimetres-as-millimetres",
        ),
    ],
)
def test_a_kana_spelling_or_a_smaller_metric_unit_reads_alike(old: str, new: str) -> None:
    assert pair_notation(old, new)[0] == pair_notation(old, new)[1]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param(
            "ユーザーは棚板を厚さ3センチに切った。",
            "ユーザーは棚板を厚さ40ミリに切った。",
            id="ja-another-length",
        ),
        pytest.param(
            "ユーザーは毎朝牛乳を200ミリリットル飲む。",
            "ユーザーは毎朝牛乳を200ミリ飲む。",
            id="ja-millilitres-are-not-a-length-read",
        ),
    ],
)
def test_another_length_stays_apart(old: str, new: str) -> None:
    a, b = pair_notation(old, new)
    assert a != b

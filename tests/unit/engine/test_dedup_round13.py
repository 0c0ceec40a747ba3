"""Dedup's thirteenth round: a bound on a number turned round (an upper bound on one side, a
lower one on the other) and two Japanese values traded around a contrast (AではなくB) are never
duplicates; a bound reworded in the same direction, a bound said on one side only, a
comparison without a number and a Japanese list stay as they were."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, polarity_changed, swapped_parts
from omoide.engine.classify.dedup_bound import bound_turned


def _turned(first: str, second: str) -> bool:
    return bound_turned(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Hana cycles at most 20 km on a workday.", "Hana cycles at least 20 km on a workday."),
        (
            "Tom keeps his screen time to less than two hours a day.",
            "Tom keeps his screen time to at least two hours a day.",
        ),
        ("The café seats up to 30 people.", "The café seats more than 30 people."),
        ("ユーザーは睡眠を六時間以上とっている", "ユーザーの睡眠は六時間未満だ"),
        ("祖母は一日に五千歩以内しか歩かない", "祖母は一日に五千歩を超えて歩く"),
        ("ユーザーは最大三日間休める", "ユーザーは最低三日間休む"),
    ],
)
def test_a_bound_turned_round_is_a_change(first: str, second: str) -> None:
    assert _turned(first, second)
    assert _turned(second, first)
    assert polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Hana cycles no more than 20 km a day.", "Hana cycles up to 20 km a day."),  # same way
        ("Hana cycles more than 20 km a day.", "Hana cycles over 20 km a day."),
        ("Hana cycles about 20 km a day.", "Hana cycles at least 20 km a day."),  # one side only
        ("Ken likes cats more than dogs.", "Ken likes dogs less than cats."),  # no number
        ("ユーザーは一日二杯以内にしている", "ユーザーはコーヒーを一日二杯以下にしている"),
        ("ユーザーは三十分以上歩く", "ユーザーは毎日三十分以上歩いている"),
    ],
)
def test_a_bound_kept_or_said_once_is_left_to_the_judge(first: str, second: str) -> None:
    assert not _turned(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーは紅茶ではなく緑茶を飲む", "ユーザーは緑茶ではなく紅茶を飲む"),
        ("妹は電車ではなくバスで通う", "妹はバスではなく電車で通う"),
        ("父は赤ワインじゃなく白ワインを好む", "父は白ワインじゃなく赤ワインを好む"),
    ],
)
def test_values_traded_around_a_contrast_are_a_change(first: str, second: str) -> None:
    assert swapped_parts(*pair_notation(first, second)) is not None
    assert swapped_parts(*pair_notation(second, first)) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーは猫と犬を飼っている", "ユーザーは犬と猫を飼っている"),  # a list
        ("ユーザーは紅茶ではなく緑茶を飲む", "ユーザーは緑茶を飲み、紅茶は飲まない"),  # reworded
        ("The user drinks green tea, not black tea.", "The user drinks green tea, not black tea."),
    ],
)
def test_lists_and_rewordings_stay_free(first: str, second: str) -> None:
    assert swapped_parts(*pair_notation(first, second)) is None

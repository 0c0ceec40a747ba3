"""Dedup's twelfth round: two English values traded between two coordinated holders (each
holder's value changed) and a superlative turned round by "least" are never duplicates; the
free orders and the bounds stay as they were, and Japanese pairs are left to their own rules."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, polarity_changed, swapped_parts


def _swapped(first: str, second: str) -> bool:
    return swapped_parts(*pair_notation(first, second)) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Ken teaches maths on Mondays and art on Fridays.",
            "Ken teaches maths on Fridays and art on Mondays.",
        ),
        (
            "Aiko keeps the red bike at home and the blue one at work.",
            "Aiko keeps the red bike at work and the blue one at home.",
        ),
        (
            "Sam uses a Kindle for novels and an iPad for comics.",
            "Sam uses a Kindle for comics and an iPad for novels.",
        ),
    ],
)
def test_values_traded_between_two_holders_are_a_change(first: str, second: str) -> None:
    assert _swapped(first, second)
    assert _swapped(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Mia drinks green tea for breakfast and for lunch.",
            "Mia drinks green tea for lunch and for breakfast.",
        ),  # one holder: a list
        ("Leo likes tea and coffee.", "Leo likes coffee and tea."),
        (
            "Ken teaches maths on Mondays and art on Fridays.",
            "Ken teaches maths on Mondays and art on Fridays too.",
        ),  # nothing traded
    ],
)
def test_free_orders_stay_free(first: str, second: str) -> None:
    assert not _swapped(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ユーザーは猫と犬を飼っている", "ユーザーは犬と猫を飼っている"),  # a list
        ("姉は紅茶や緑茶をよく飲む", "姉は緑茶や紅茶をよく飲む"),
    ],
)
def test_japanese_lists_stay_free(first: str, second: str) -> None:
    assert not _swapped(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Jun's favourite season is winter.", "Winter is Jun's least favourite season."),
        ("The user's favourite chore is ironing.", "Ironing is the user's least favourite chore."),
        ("Rita finds the night shift the least tiring.", "Rita finds the night shift tiring."),
    ],
)
def test_a_superlative_turned_round_is_a_change(first: str, second: str) -> None:
    assert polarity_changed(*pair_notation(first, second))
    assert polarity_changed(*pair_notation(second, first))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Zoe swims at least three times a week.", "Zoe swims three times a week."),  # a bound
        ("Maths is Jun's least favourite subject.", "Jun's least favourite subject is maths."),
        ("Ollie buys the least expensive wine.", "Ollie buys the cheapest wine."),
        ("ユーザーは冬が一番好きだ", "ユーザーは冬がいちばん好きだ"),
    ],
)
def test_other_pairs_keep_their_polarity(first: str, second: str) -> None:
    assert not polarity_changed(*pair_notation(first, second))

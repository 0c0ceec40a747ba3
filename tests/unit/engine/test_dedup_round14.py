"""Dedup's fourteenth round: a clock time that moved is never a duplicate (both languages,
read in dedup's notation); a clock reworded (12- and 24-hour forms, 半 and 30分, "half past"),
a duration, a time said on one side only and a pair without a clock stay with the judge."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, polarity_changed
from omoide.engine.classify.dedup_clock import clock_changed, clock_times


def _moved(first: str, second: str) -> bool:
    return clock_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Nora's bakery opens at 7:30 on weekdays.", "Nora's bakery opens at 8:30 on weekdays."),
        ("The ferry leaves Oban at 10:05.", "The ferry leaves Oban at 10:35."),
        ("The user's yoga class starts at 6:45 pm.", "The user's yoga class starts at 7:45 pm."),
        ("祖父は毎朝五時に畑へ出る。", "祖父は毎朝六時に畑へ出る。"),
        ("ユーザーの塾は夜七時半に終わる。", "ユーザーの塾は夜八時に終わる。"),
        ("店は10時から19時まで開いている。", "店は10時から20時まで開いている。"),
    ],
)
def test_a_clock_time_that_moved_is_a_change(first: str, second: str) -> None:
    assert _moved(first, second)
    assert _moved(second, first)
    assert polarity_changed(*pair_notation(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "The user's dentist visit is at 3:30 pm.",
            "The user's dentist visit is at half past three in the afternoon.",
        ),
        ("ユーザーは毎晩十時に寝る。", "ユーザーは毎晩22時に寝る。"),  # 12- and 24-hour forms
        ("ユーザーのバイトは午後二時半から。", "ユーザーのバイトは14時30分から。"),
        ("銭湯は深夜零時まで開いている。", "銭湯は24時まで開いている。"),
        ("ユーザーは一日に七時間寝る。", "ユーザーは一日に八時間寝る。"),  # a duration, not a clock
        ("The user wakes at 6:10.", "The user wakes up early."),  # said on one side only
        ("Ken swims 3 km a week.", "Ken swims 4 km a week."),  # no clock at all
    ],
)
def test_a_reworded_clock_a_duration_or_one_side_only_is_left_to_the_judge(
    first: str, second: str
) -> None:
    assert not _moved(first, second)
    assert not _moved(second, first)


def test_clock_times_read_an_hour_and_its_minutes_on_a_twelve_hour_dial() -> None:
    assert clock_times("7時15分と19時") == {(7, 15), (7, 0)}
    assert clock_times("at 23:05, not 3.5 hours") == {(11, 5)}
    assert clock_times("三時間") == frozenset()

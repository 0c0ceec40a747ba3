"""Dedup's eighteenth round, on probes of our own: an attempt that fell short, an alternative
dropped and a Japanese purpose said as a result (never duplicates); a past experience read as
a past; and status words that a paraphrase says another way (a reported frame, a passive
present, a goal, "working towards") that no longer read as a change."""

from __future__ import annotations

import pytest

from omoide.engine.classify import pair_notation, polarity_changed, status_changed
from omoide.engine.classify.dedup_status import status_families
from omoide.engine.classify.dedup_turn import turn_changed


def _read(first: str, second: str) -> tuple[str, str]:
    return pair_notation(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "ミオは去年富士山に登り、八合目で引き返した。",
            "ミオは去年富士山に登り、山頂まで行った。",
        ),
        (
            "Mio tried the Channel swim in July and turned back after six hours.",
            "Mio tried the Channel swim in July and reached France after fourteen hours.",
        ),
        ("ミオは平日の朝か夜にジムへ行く。", "ミオは平日の朝にジムへ行く。"),
        ("Mio cycles to work on Tuesdays or Thursdays.", "Mio cycles to work on Tuesdays."),
        ("ミオは運転免許を取るために教習所に通っている。", "ミオは先月運転免許を取った。"),
    ],
)
def test_a_turned_attempt_alternative_or_purpose_is_never_a_duplicate(
    first: str, second: str
) -> None:
    assert turn_changed(*_read(first, second))
    assert turn_changed(*_read(second, first))
    assert polarity_changed(*_read(first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "ミオは去年富士山に登り、八合目で引き返した。",
            "ミオは昨年、富士山の八合目で引き返した。",
        ),
        ("ミオは平日の朝か夜にジムへ行く。", "平日、ミオは朝か夜にジムに通っている。"),
        (
            "ミオは運転免許を取るために教習所に通っている。",
            "ミオは免許を取るため、教習所に通っている。",
        ),
        ("ミオは資格を取るために勉強している。", "ミオは資格の取得を目指して勉強中だ。"),
        (
            "Mio cycles to work on Tuesdays or Thursdays.",
            "On Tuesdays or Thursdays Mio cycles to work.",
        ),
    ],
)
def test_the_same_attempt_alternative_or_purpose_stays_with_the_judge(
    first: str, second: str
) -> None:
    assert not turn_changed(*_read(first, second))


def test_a_past_experience_against_a_plan_is_a_status_change() -> None:
    done = "ミオは北海道を自転車で一周したことがある。"
    plan = "ミオは北海道を自転車で一周するつもりだ。"
    assert status_changed(*_read(done, plan))
    assert status_changed(*_read(plan, done))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mio said she will sit the bar exam on 3 May.", "Mio mentioned her bar exam is on 3 May."),
        (
            "Mio's sofa is due to be delivered on 9 June.",
            "The shop will deliver Mio's sofa on 9 June.",
        ),
        ("Mio is working towards a pilot's licence.", "Mio is training for a pilot's licence."),
        (
            "Mio is studying Danish for the state exam.",
            "Mio is preparing for the Danish state exam.",
        ),
        (
            "ミオは年内に簿記2級の合格を目指している。",
            "ミオの目標は、年内に簿記2級に受かることだ。",
        ),
        ("ミオは健康診断を両日とも済ませている。", "ミオは両日とも健康診断を終えている。"),
    ],
)
def test_a_status_said_another_way_is_no_change(first: str, second: str) -> None:
    assert not status_changed(*_read(first, second))
    assert not status_changed(*_read(second, first))


def test_a_frame_does_not_hide_a_change() -> None:
    assert status_changed(
        *_read(
            "Mio said she will sit the bar exam on 3 May.",
            "Mio said she sat the bar exam on 3 May and is waiting.",
        )
    )


def test_making_do_with_something_is_no_completion() -> None:
    assert status_families("ミオは昼はいつもおにぎりで済ませる。") == frozenset()
    assert status_families("ミオは手術を両目とも済ませた。") == {"completed"}

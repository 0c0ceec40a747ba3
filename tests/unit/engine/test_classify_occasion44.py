"""Session 44: one occasion told beside a lasting fact or a plan caps the judge
(``occasion_told``), a reason told by "after" and an event, a duration told of the old thing
under another subject, and a stop on the way as a detail (``reason_told``, ``detail_told``),
with examples written for these tests. A thing left for good, the plan carried out, another
thing bought for a purchase plan, a present habit after an event, a plan begun and another
person's thing are not read."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.detail_told import detail_of_old_thing
from omoide.engine.classify.learned import judge_capped
from omoide.engine.classify.occasion_told import (
    bought_for_plan,
    earlier_occasion_beside_plan,
    mishap_on_one_occasion,
)
from omoide.engine.classify.reason_told import duration_of_old_state, reason_for_old_fact
from omoide.engine.classify.text import parse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a thing of the person's left at the habit, once
        (
            "Ottilie plays five-a-side at the leisure centre on Tuesday evenings.",
            "Ottilie left her water bottle at the leisure centre one Tuesday and got it back from "
            "reception.",
        ),
        (
            "The user rows with a club on the canal every Sunday morning.",
            "The user once left his gloves on the boathouse steps after a session.",
        ),
        # a pause bounded by the one stretch named
        (
            "Bartholomew runs a coffee cart outside the station on weekdays.",
            "Bartholomew's coffee cart stopped working for one morning and he lent it a fuse "
            "from the van.",
        ),
    ],
)
def test_a_mishap_on_one_occasion_caps_the_judge(old: str, new: str) -> None:
    assert mishap_on_one_occasion(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the old memory's own club left: an end
        (
            "Ottilie plays five-a-side at the leisure centre on Tuesday evenings.",
            "Ottilie left the five-a-side team at the leisure centre one Tuesday.",
        ),
        # a tie left for good
        (
            "The user works at a bakery on the high street.",
            "The user once left his job at the bakery in a temper.",
        ),
        # no occasion placed once
        (
            "The user rows with a club on the canal every Sunday morning.",
            "The user left his gloves at the boathouse.",
        ),
        # an end beside the mishap
        (
            "The user rows with a club on the canal every Sunday morning.",
            "The user once left his gloves at the boathouse and has not rowed since.",
        ),
    ],
)
def test_a_thing_left_for_good_is_no_mishap(old: str, new: str) -> None:
    assert not mishap_on_one_occasion(parse(old), parse(new))


def test_an_earlier_occasion_beside_a_plan_ahead_caps_the_judge() -> None:
    old, new = (
        "Wilhelmina wants to ski in Austria next winter.",
        "Wilhelmina skied in Norway last winter.",
    )
    assert earlier_occasion_beside_plan(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))
    old = "The user plans to buy a new van when his lease ends in the autumn."
    new = "The user bought a second-hand van when his previous lease ended in 2018."
    assert earlier_occasion_beside_plan(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the plan carried out last week: not an earlier occasion
        (
            "Wilhelmina wants to ski in Austria next winter.",
            "Wilhelmina skied in Austria last week.",
        ),
        # no time ahead in the old memory
        ("Wilhelmina wants to ski in Austria.", "Wilhelmina skied in Norway last winter."),
        # the plan changed
        (
            "Wilhelmina wants to ski in Austria next winter.",
            "Wilhelmina decided to ski in Norway instead, as she did last winter.",
        ),
    ],
)
def test_the_plan_done_or_changed_is_no_earlier_occasion(old: str, new: str) -> None:
    assert not earlier_occasion_beside_plan(parse(old), parse(new))


def test_a_thing_bought_for_the_plan_caps_the_judge() -> None:
    old = "The user is planning a weekend of folk music at the Hebden festival."
    new = "The user has bought a waterproof poncho for the Hebden folk festival."
    assert bought_for_plan(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a purchase plan: another thing bought may replace the plan's thing
        (
            "The user wants to buy a tent for the Hebden festival.",
            "The user has bought a camper van for the Hebden festival.",
        ),
        # the thing bought is one the plan names
        (
            "The user is planning a weekend in a tent at the Hebden festival.",
            "The user has bought a tent for the Hebden festival.",
        ),
        # for another occasion
        (
            "The user is planning a weekend of folk music at the Hebden festival.",
            "The user has bought a waterproof poncho for a trip to Skye.",
        ),
    ],
)
def test_a_purchase_plan_or_another_occasion_is_not_read(old: str, new: str) -> None:
    assert not bought_for_plan(parse(old), parse(new))


def test_the_old_fact_begun_after_an_event_is_its_reason() -> None:
    old = "Cosimo sings in a male voice choir in Swansea."
    new = "Cosimo joined the Swansea choir after hearing it at a funeral."
    assert reason_for_old_fact(parse(old), parse(new))
    old = "The user keeps her keys on a lanyard so she can find them."
    new = "The user started wearing the lanyard after locking herself out twice."
    assert reason_for_old_fact(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a present habit after an event: a time, not a reason
        ("The user stretches before running.", "The user stretches after running."),
        # a plan begun after an event: the plan carried out
        (
            "Cosimo is thinking of joining a choir in Swansea.",
            "Cosimo joined the Swansea choir after hearing it at a funeral.",
        ),
        # an end after an event
        (
            "Cosimo sings in a male voice choir in Swansea.",
            "Cosimo left the Swansea choir after arguing with the conductor.",
        ),
    ],
)
def test_a_time_a_plan_begun_or_an_end_is_no_reason(old: str, new: str) -> None:
    assert not reason_for_old_fact(parse(old), parse(new))


def test_a_duration_told_of_the_old_thing_under_another_subject() -> None:
    old = "Colleagues at the depot call the user Skip."
    new = "Colleagues have called him Skip since he started at the depot."
    assert duration_of_old_state(parse(old), parse(new))
    # a hyphened no is a word of the thing, not a no
    old = "Peregrine has a rule: no sugar on weekdays."
    new = "Peregrine has kept the no-sugar rule since 2021."
    assert duration_of_old_state(parse(old), parse(new))
    # another person's own thing is not the old memory's
    old = "The user is getting a spare bike lock for her new flatmate."
    new = "The user's flatmate has had his own bike lock since May."
    assert not duration_of_old_state(parse(old), parse(new))


def test_a_stop_on_the_way_is_a_detail_not_an_end() -> None:
    old = "The user and her sister go to the Harrogate flower show each spring."
    assert detail_of_old_thing(
        parse(old), parse("At the Harrogate show they always stop at the orchid tent.")
    )
    assert not detail_of_old_thing(parse(old), parse("At the Harrogate show they stopped going."))

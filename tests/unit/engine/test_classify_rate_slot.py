"""A value given again without a change verb: one thing's rate per period with another amount
(``rate.rate_restated``) and one named slot of one owner with another value
(``slot_refill.slot_refilled``). Probes written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.rate import rate_restated
from omoide.engine.classify.slot_refill import slot_refilled
from omoide.engine.classify.text import parse


def _rate(old: str, new: str) -> bool:
    return rate_restated(parse(old, "auto"), parse(new, "auto"))


def _slot(old: str, new: str) -> bool:
    return slot_refilled(parse(old, "auto"), parse(new, "auto"))


@pytest.mark.parametrize(("old", "new"), [
    ("The user pays £40 a month for the allotment.",
     "The user's allotment costs £46 a month from April."),
    ("Tomás swims three times a week at the lido.", "Tomás swims once a week at the lido now."),
    ("The user earns $21 an hour at the warehouse.",
     "The user earns $23.50 an hour at the warehouse under the new contract."),
    ("ユーザーは英会話教室に月に四回通っている。", "ユーザーの英会話教室は月二回になった。"),
    ("ユーザーの駐車場代は月額八千円だ。", "ユーザーの駐車場代は、月額九千五百円に上がった。"),
    ("ユーザーは週三日、図書館で働いている。", "ユーザーは週五日、図書館で働いている。"),
])
def test_a_rate_told_again_with_another_amount_fires(old: str, new: str) -> None:
    assert _rate(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # the old amount is a bound: the new one fills it in
    ("The user spends over £100 a month on books.", "The user spends £140 a month on books."),
    ("ユーザーの通信費は月一万円以下だ。", "ユーザーの通信費は月八千円だ。"),
    # roughly the same amount
    ("The user walks about ten miles a week.", "The user walks 11 miles a week."),
    # another thing of one kind, another person's, an addition
    ("The user pays £900 a month in rent.", "The user pays £30 a month for the gym."),
    ("ユーザーは毎月三万円を仕送りしている。", "ユーザーの兄も毎月五万円を仕送りしている。"),
    ("The user runs twice a week.", "The user also runs with a club once a week."),
    # a day of the month or of the week, not an amount
    ("ユーザーの給料日は毎月25日だ。", "ユーザーの給料日は毎月10日だ。"),
    ("The user volunteers on the first Sunday of each month.",
     "The user volunteers on the third Sunday of each month."),
    # a plan, a past
    ("The user saves £200 a month.", "The user plans to save £300 a month."),
    ("The user saves £200 a month.", "The user used to save £50 a month."),
])
def test_other_amounts_do_not_fire(old: str, new: str) -> None:
    assert not _rate(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("The user's bike is a blue Raleigh.", "The user's bike is a green Trek she bought in May."),
    ("Dana's dentist is Ana Okafor.", "Dana's dentist is Ben Lindqvist now."),
    ("ユーザーの通勤手段はバスだ。", "ユーザーの通勤手段は自転車だ。"),
    ("ユーザーの部署の締め日は金曜だ。", "ユーザーの部署の締め日は、水曜です。"),
])
def test_a_slot_refilled_fires(old: str, new: str) -> None:
    assert _slot(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # the value made precise or extended, not replaced
    ("The user's bike is a blue Raleigh.", "The user's bike is a blue Raleigh with new tyres."),
    ("ユーザーの通勤時間は三十分以内だ。", "ユーザーの通勤時間は二十分ほどだ。"),
    # a person slot: a description of the person, one of many
    ("The user's sister is a teacher.", "The user's sister is a keen climber."),
    ("ユーザーの兄は医者だ。", "ユーザーの兄は二児の父だ。"),
    # another slot, a negation, a plan, an addition, a past
    ("The user's bike is a blue Raleigh.", "The user's car is a red Fiat."),
    ("The user's bike is a blue Raleigh.", "The user's bike is not a Trek."),
    ("The user's bike is a blue Raleigh.", "The user's bike will be a Trek."),
    ("The user's bike is a blue Raleigh.", "The user's bike was a Trek."),
    ("The user's coach is training for a marathon.", "The user's coach is Dr Lindqvist."),
])
def test_other_slots_do_not_fire(old: str, new: str) -> None:
    assert not _slot(old, new)


def test_both_are_text_features() -> None:
    assert {"rate_restated", "slot_refilled"} <= set(TEXT_FEATURES)

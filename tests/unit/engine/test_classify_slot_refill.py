"""A value given again without a change verb: one named slot of one owner with another value
(``slot_refill.slot_refilled``), a close-only signal. Probes written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import SURE_ONLY, sure_close
from omoide.engine.classify.slot_refill import slot_refilled
from omoide.engine.classify.text import parse


def _slot(old: str, new: str) -> bool:
    return slot_refilled(parse(old, "auto"), parse(new, "auto"))


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


def test_a_slot_refilled_closes_about_one_subject_only() -> None:
    assert sure_close(read_pair("The user's bike is a blue Raleigh.",
                                "The user's bike is a green Trek she bought in May."))
    assert not sure_close(read_pair("The user's bike is a blue Raleigh.",
                                    "Dana's bike is a green Trek she bought in May."))


def test_the_signal_is_close_only() -> None:
    assert "slot_refilled" in TEXT_FEATURES
    assert "slot_refilled" in SURE_ONLY

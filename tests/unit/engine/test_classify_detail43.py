"""Session 43: a detail told of the thing the old memory names, and what is done instead of a
thing the old memory says is not done, cap the judge (``detail_told``), with examples written
for these tests. A value said again, the thing gone, another month, or the refused thing
itself now done still is no detail."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.detail_told import alternative_to_refused, detail_of_old_thing
from omoide.engine.classify.learned import judge_capped
from omoide.engine.classify.text import parse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the thing of a plan named as known, with when it is
        ("Ingrid is planning a trip to Porto.", "Ingrid's Porto trip is in June."),
        # the thing named with the old memory's words after it, and where it came from
        (
            "Oskar keeps his spare glasses in a leather case with a brass zip.",
            "The brass zip on Oskar's leather case came from a cobbler in Leiden.",
        ),
        # one occasion of the old habit named as known
        (
            "The user is trying to bake one new bread a week from her Nordic baking book.",
            "Last week's new bread from the Nordic baking book was a rye loaf with caraway.",
        ),
    ],
)
def test_a_detail_of_the_old_thing_caps_the_judge(old: str, new: str) -> None:
    assert detail_of_old_thing(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the old memory's own subject with another value
        ("The user's dentist is Dr Moss.", "The user's dentist is Dr Hale."),
        # the thing gone
        ("Ingrid is planning a trip to Porto.", "Ingrid's Porto trip was called off."),
        ("Oskar keeps his spare glasses in a leather case.", "Oskar's leather case was stolen."),
        # another month
        ("Ingrid is planning a trip to Porto in June.", "Ingrid's Porto trip is in September."),
        # a plan's thing bought
        ("Ingrid wants a new road bike.", "Ingrid's new road bike was bought in the sale."),
        # the person said first, not a thing
        ("The user swims in the slow lane.", "The user swims in the fast lane."),
        # the thing's kind told afresh
        (
            "Nuala is a porter on the maternity ward at St Anne's.",
            "Nuala's ward at St Anne's is cardiology.",
        ),
    ],
)
def test_a_value_said_again_or_the_thing_gone_is_no_detail(old: str, new: str) -> None:
    assert not detail_of_old_thing(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Saoirse never uses a satnav because it distracts her.",
            "Saoirse relies on a paper road atlas in the glovebox instead of a satnav.",
        ),
        (
            "The user never drinks coffee.",
            "In the mornings the user has a pot of green tea instead.",
        ),
        ("The user never wears gloves.", "On cold days the user wears a muff instead of gloves."),
    ],
)
def test_what_is_done_instead_of_a_refused_thing_caps_the_judge(old: str, new: str) -> None:
    assert alternative_to_refused(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the refused thing itself now done
        ("The user never drinks coffee.", "The user drinks coffee instead of tea."),
        ("The user never drinks coffee.", "The user now has green tea instead."),
        # the old memory says no no
        ("The user drinks coffee.", "The user has green tea instead."),
        # the new one says no itself
        (
            "The user never wears gloves.",
            "The user doesn't wear a scarf either, only a hat instead.",
        ),
    ],
)
def test_the_refused_thing_done_or_no_refusal_is_no_alternative(old: str, new: str) -> None:
    assert not alternative_to_refused(parse(old), parse(new))

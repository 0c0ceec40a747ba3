"""Session 30's precision guards on English confident closes, with examples written for these
tests: the old fact said again with its start, its reason or how long it has held caps the
judge (``reason_told``), and a new value said of the old one or narrowing it is no sure swap
(``value_swap``)."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import judge_capped, sure_close
from omoide.engine.classify.reason_told import duration_of_old_state, reason_for_old_fact
from omoide.engine.classify.text import parse

_SWAPPED = TEXT_FEATURES.index("value_swapped")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user bakes bread.", "The user started baking bread because her aunt taught her."),
        ("Omar swims at the lido.", "Omar took up swimming at the lido because his knee hurt."),
    ],
)
def test_a_start_with_a_reason_caps_the_judge(old: str, new: str) -> None:
    assert reason_for_old_fact(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another value begun, with a reason: a change the judge may close
        ("The user bakes bread.", "The user started baking cakes because her aunt taught her."),
        # a plan begun is the plan carried out
        (
            "The user wants to learn the harp.",
            "The user started learning the harp because a neighbour lent her one.",
        ),
    ],
)
def test_a_start_of_something_else_is_not_capped(old: str, new: str) -> None:
    assert not reason_for_old_fact(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user bakes bread.", "The user has baked bread since 2019."),
        ("The user lives by the sea.", "The user has lived by the sea for ten years."),
    ],
)
def test_the_old_fact_in_the_perfect_with_its_start_caps_the_judge(old: str, new: str) -> None:
    assert duration_of_old_state(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user lives in Leeds.", "The user has lived in York since March."),
        (
            "The user lives in Leeds.",
            "The user has lived in Leeds since 2010 but now lives in York.",
        ),
        ("The user bakes bread.", "The user has not baked bread since the spring."),
        # the old memory told its own length: another length is a change
        (
            "Ana has sung in the choir for six years.",
            "Ana has sung in the choir for three years.",
        ),
    ],
)
def test_another_value_or_an_end_in_the_perfect_is_not_capped(old: str, new: str) -> None:
    assert not duration_of_old_state(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user paints landscapes.", "The user paints mostly seascapes."),
        ("The user cooks Italian food.", "The user cooks mainly risotto."),
        ("The user rides a mountain bike.", "The user rides it to work."),
    ],
)
def test_a_value_said_of_the_old_one_or_narrowing_it_is_no_sure_swap(old: str, new: str) -> None:
    text = read_pair(old, new)
    assert not text.features[_SWAPPED]
    assert not sure_close(text)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user plays the oboe in a wind band.", "The user plays the flute in a wind band."),
        ("Ken drives a Honda.", "Ken drives a Toyota."),
    ],
)
def test_a_plain_swap_still_closes(old: str, new: str) -> None:
    assert sure_close(read_pair(old, new))

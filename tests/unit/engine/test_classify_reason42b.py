"""Session 42b: the old fact said again with its reason caps the judge when the head names the
old fact in a near form, with examples written for these tests (``reason_told``): all content
words of the head but one in the old memory (its doing said in other words), a start word
("took on", "became") as the fact's beginning, the owner named first while a pronoun follows
in the reason, an abbreviation of the old memory's words, and the reason said first. A place
replaced, an end with its object inside or an own change word still is no reason told."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.learned import judge_capped
from omoide.engine.classify.reason_told import duration_of_old_state, reason_for_old_fact
from omoide.engine.classify.text import parse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # one word of the head is the old fact's doing in other words
        (
            "The user and her brother take turns walking the dog in the park.",
            "The user and her brother started splitting the dog walks because both work late.",
        ),
        (
            "The user has a bird feeder on a pole outside the kitchen window.",
            "The user had the bird feeder put up because her mother loves watching finches.",
        ),
        # a start word is the fact's beginning; the owner named first, a pronoun in the reason
        (
            "Tobias is the secretary of the allotment society.",
            "Tobias only took on the secretary's post because nobody else would do it.",
        ),
        (
            "Ilse leads the singing at a folk club every other Friday.",
            "Ilse became a leader because she knows all the old songs.",
        ),
        # an abbreviation of the old memory's words
        (
            "The user is studying cognitive behavioural therapy at night school.",
            "The user started CBT because her sister recommended it.",
        ),
        # the reason said first
        (
            "The user grows tomatoes in a greenhouse.",
            "Because the summers are short, the user grows tomatoes in a greenhouse.",
        ),
    ],
)
def test_the_old_fact_in_a_near_form_with_a_reason_caps_the_judge(old: str, new: str) -> None:
    assert reason_for_old_fact(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a place replaced is a value, not the old fact's doing
        (
            "The user is a baker in Dundee who works nights at a small bakery.",
            "The user is a baker in Perth who works nights at a small bakery because of rent.",
        ),
        # an end with its object inside
        (
            "The user is planning a cycling trip to Norway in June.",
            "The user has put the Norway trip off because of a broken wrist.",
        ),
        (
            "The user is going to swim the lake race in August.",
            "The user withdrew from the lake race because of a shoulder strain.",
        ),
        # two words of the head not in the old memory
        (
            "The user walks to work along the canal.",
            "The user cycles to the office because the canal path floods.",
        ),
        # a time said first is a change from then
        (
            "The user sleeps about six hours a night.",
            "Since changing jobs, the user sleeps about six hours a night.",
        ),
        # the owner named first is another person's possessive
        (
            "Tobias is the secretary of the allotment society.",
            "Tobias's wife took on the secretary's post because nobody else would do it.",
        ),
    ],
)
def test_a_change_or_another_value_is_no_reason_told(old: str, new: str) -> None:
    assert not reason_for_old_fact(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the old fact in the perfect, its doing in other words, with a start
        (
            "The user keeps her winter coats in vacuum bags under the bed.",
            "The user has stored her winter coats in bags under the bed since she moved flats.",
        ),
        # a participle of its own form ("has run") and the old fact's words
        (
            "The user runs the lending library in a church hall in Leek.",
            "The user has run the lending library in the church hall since 2004.",
        ),
    ],
)
def test_the_old_fact_held_since_caps_the_judge(old: str, new: str) -> None:
    assert duration_of_old_state(parse(old), parse(new))
    assert judge_capped(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another amount, a thing dropped or given up, a liking come to
        ("The user has two rabbits.", "The user has three rabbits since a neighbour moved away."),
        (
            "The user goes to a spin class on Tuesdays.",
            "The user has dropped the Tuesday spin class since starting night shifts.",
        ),
        (
            "The user drinks three coffees a day.",
            "The user has been off coffee completely for two months.",
        ),
        (
            "Oona prefers the radio to podcasts.",
            "Oona has come to prefer podcasts since her commute got longer.",
        ),
    ],
)
def test_a_change_held_since_is_not_capped(old: str, new: str) -> None:
    assert not duration_of_old_state(parse(old), parse(new))

"""Round 24's sure closes on one-statement pairs, each a narrow reading of a change said by
meaning, closing whatever the model says (``learned.SURE_ONLY``):

* the note path's sure shapes (``note_shapes.note_shape_close``): a "never" turned round, a
  plan called off or done, an end, a state with another value;
* the old present fact said again with a no (``negation_turn.now_negated``);
* the old fact told ended later in the sentence (``habit_end.habit_ended``).

Positive and negative probes in English and Japanese, written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.habit_end import habit_ended
from omoide.engine.classify.learned import SURE_ONLY, VETO_ONLY, sure_close
from omoide.engine.classify.negation_turn import now_negated
from omoide.engine.classify.note_shapes import note_shape_close, note_shape_reason
from omoide.engine.classify.text import parse


def _closes(old: str, new: str) -> bool:
    return sure_close(read_pair(old, new))


# --- the note path's shapes -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # never → did
        (
            "User has never tried sushi.",
            "User now eats sushi every Friday with her coworkers.",
            "en",
        ),
        (
            "ユーザーはスキーをしたことがない",
            "ユーザーは先月、初めてスキーに行って滑れるようになった",
            "ja",
        ),
        # a plan called off / put off
        (
            "User plans to visit her parents in Ohio over Christmas.",
            "User cancelled her Christmas trip to Ohio because of work.",
            "en",
        ),
        ("ユーザーは来月沖縄に行く予定だ", "ユーザーは沖縄旅行を中止した", "ja"),
        # an end of what the old memory does
        (
            "Marek plays five-a-side every Thursday.",
            "Marek quit five-a-side after his knee injury.",
            "en",
        ),
        ("ユーザーは毎朝ジョギングをしている", "ユーザーはジョギングをやめた", "ja"),
    ],
)
def test_note_shapes_close_a_statement(old: str, new: str, lang: str) -> None:
    assert note_shape_close(old, new, lang)
    assert note_shape_reason(old, new, lang)
    assert _closes(old, new)


@pytest.mark.parametrize(
    ("old", "new", "lang"),
    [
        # another person's first time, a plan only hedged, a wish: nothing turned round
        ("User has never tried sushi.", "User's brother tried sushi last week.", "en"),
        (
            "User plans to visit her parents in Ohio over Christmas.",
            "User might cancel the Ohio trip.",
            "en",
        ),
        ("ユーザーはスキーをしたことがない", "ユーザーはいつかスキーをしてみたい", "ja"),
        ("ユーザーは来月沖縄に行く予定だ", "ユーザーは沖縄でダイビングをするつもりだ", "ja"),
    ],
)
def test_note_shapes_leave_other_pairs(old: str, new: str, lang: str) -> None:
    assert not note_shape_close(old, new, lang)


# --- the old fact said again with a no ------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user's landlord allows pets.", "The user's landlord does not allow pets."),
        (
            "Grace takes insulin.",
            "Grace does not take insulin; her diabetes is managed with tablets.",
        ),
        ("ユーザーは眼鏡をかけている", "ユーザーは眼鏡をかけていない"),
        ("ユーザーは犬を飼っている", "ユーザーは犬を飼っていない"),
    ],
)
def test_the_old_fact_negated_closes(old: str, new: str) -> None:
    assert now_negated(parse(old), parse(new))
    assert _closes(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # narrower: the no adds a thing of its own
        ("The user eats meat.", "The user doesn't eat red meat."),
        ("ユーザーは肉を食べる", "ユーザーは夜は肉を食べない"),
        # a limit, not a no; a plan; someone else
        (
            "The kids get an hour of tablet time.",
            "The kids get no more than an hour of tablet time.",
        ),
        ("The user drinks coffee.", "The user will not drink coffee during Lent."),
        ("Ana owns a car.", "Ana's husband does not own a car."),
        ("ユーザーは車を持っている", "ユーザーの父は車を持っていない"),
        # "no longer" is former_state's reading, not this one
        ("The user eats meat.", "The user no longer eats meat."),
        # an old memory of the past or already negated
        ("The user went to the party.", "The user did not go to the party."),
    ],
)
def test_other_negations_are_not_this_reading(old: str, new: str) -> None:
    assert not now_negated(parse(old), parse(new))


# --- the old fact told ended ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "User volunteers at the animal shelter on Sundays.",
            "User stopped volunteering at the shelter when she changed jobs.",
        ),
        (
            (
                "The user has a gym membership.",
                "The user cancelled the gym membership because money got tight.",
            )
        ),
        ("私はネットフリックスを契約している", "私は先週ネットフリックスを解約した"),
        ("ユーザーはピアノ教室に通っている", "ユーザーはピアノ教室を先月退会した"),
    ],
)
def test_the_old_fact_told_ended_closes(old: str, new: str) -> None:
    assert habit_ended(parse(old), parse(new))
    assert _closes(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the end names another thing than the old memory's
        ("The user drinks coffee every morning.", "The user gave up sugar in her coffee."),
        ("ユーザーはピアノ教室に通っている", "ユーザーはバイオリン教室をやめた"),
        # hedged, negated, or told as back-story dated before now
        ("The user smokes.", "The user might quit smoking."),
        ("The user plays the cello.", "The user hasn't quit the cello."),
        (
            "The user is a non-drinker.",
            "The user stopped drinking in 2009 after his father's illness.",
        ),
        # the old memory tells an end itself, or a plan
        ("ユーザーはパートを辞めるか迷っている", "ユーザーはパートを辞めた"),
        ("The user will join the choir.", "The user quit the choir."),
        # another person's end
        ("The user plays the cello.", "The user's daughter quit the cello."),
    ],
)
def test_other_ends_are_not_this_reading(old: str, new: str) -> None:
    assert not habit_ended(parse(old), parse(new))


def test_the_readings_are_sure_only_and_text_features() -> None:
    for name in ("note_shape_close", "now_negated", "habit_ended"):
        assert name in SURE_ONLY and name in TEXT_FEATURES and name not in VETO_ONLY

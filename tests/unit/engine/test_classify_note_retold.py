"""Session 37: a note that tells the old fact again in a frame of the past (an earlier period,
its start or length, one occurrence of the habit) is kept from the nearest candidate's lower bar
(``note_retold.retold_in_frame``, ``judge_signals.retold``); since session 46 it caps the judge's
close on statements and notes alike (``judge_signals.JUDGE_CAPS``), so no bar closes it by
probability. Probes written for these tests."""

from __future__ import annotations

import math

import numpy as np
import pytest

from omoide.engine.classify import (
    NOTE_NEAREST_GUARDS,
    NOTE_NEAREST_THRESHOLDS,
    NOTE_THRESHOLDS,
    TEXT_FEATURES,
    JudgeModel,
    Relation,
    judge,
    judge_one_note,
    read_pair,
    retold,
    undated,
)
from omoide.engine.classify.note_retold import retold_in_frame
from omoide.engine.classify.text import parse

RETOLD = [
    # an earlier period of life, in the past, nothing of the present
    ("Marta is allergic to cats.", "As a child, Marta had a cat called Pip and sneezed all day."),
    # the old state's start or length, its head the old fact again
    (
        "The user stores her bikes in the shed.",
        "The user has kept her bikes in the shed since 2019.",
    ),
    (
        "The user stores his winter tyres in the garage.",
        "The user has stored his winter tyres in the garage since he bought the house.",
    ),
    # one occurrence of the habit, placed by the habit's own day
    (
        "The user plays five-a-side football every Thursday evening.",
        "Last Thursday the user scored twice and twisted his ankle.",
    ),
]

NOT_RETOLD = [
    # a word of the present: what holds now
    ("Marta is allergic to cats.", "As a child, Marta had a cat, and she still has one."),
    # another value beside the start
    ("The user keeps bees in the back garden.", "The user keeps bees on an allotment since 2023."),
    # a length the old memory told too: another one is a change
    (
        "The user has worked at the library for nine years.",
        "The user has worked at the library for ten years.",
    ),
    # an end inside the start
    (
        "Oliver sings in a duet with his wife.",
        "Oliver sings on his own since he and his wife split up.",
    ),
    # an occasion that is not one of the habit's, or that ends it
    (
        "The user plays five-a-side football every Thursday evening.",
        "Last month the user scored twice and twisted his ankle.",
    ),
    (
        "The user plays five-a-side football every Thursday evening.",
        "Last Thursday the user played his final match and quit the team.",
    ),
    # one occasion of a "never" turns it round
    ("The user has never been skiing.", "As a student, the user went skiing in the Alps."),
    # a plan: its occasion is the plan carried out
    (
        "The user plans to run a marathon every spring.",
        "Last spring the user ran the Manchester marathon.",
    ),
    # Japanese is not read
    ("ユーザーは毎週木曜にサッカーをしている。", "先週の木曜、ユーザーは足首をひねった。"),
]


@pytest.mark.parametrize(("old", "new"), RETOLD)
def test_the_old_fact_told_again_in_a_frame_of_the_past(old: str, new: str) -> None:
    assert retold_in_frame(parse(old), parse(new))
    dated = read_pair(f"{old} (3 May 2026)", f"{new} (9 June 2026)")
    assert retold(dated)


@pytest.mark.parametrize(("old", "new"), NOT_RETOLD)
def test_a_change_a_present_or_another_value_is_not_retold(old: str, new: str) -> None:
    assert not retold_in_frame(parse(old), parse(new))


def test_the_guard_is_no_feature_the_judge_weighs() -> None:
    assert NOTE_NEAREST_GUARDS == ("retold_in_frame",)
    assert set(NOTE_NEAREST_GUARDS) <= set(TEXT_FEATURES)


def _model(name: str, p: float) -> JudgeModel:
    """P(CONTRADICTORY) = ``p`` when the text feature ``name`` is 1 (statements' bar 0.5)."""
    d = len(TEXT_FEATURES)
    w = np.zeros((3, d))
    w[2, TEXT_FEATURES.index(name)] = math.log(2 * p / (1 - p))
    return JudgeModel(
        embedder="",
        features=TEXT_FEATURES,
        classes=(Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY),
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=w,
        bias=np.zeros(3),
        contradiction_threshold=0.5,
    )


def test_no_bar_closes_a_retold_pair_by_probability() -> None:
    # one occurrence of the habit (session 37: only the nearest bar was kept from it; session
    # 46: a judge cap, on statements too)
    old, new = RETOLD[3]
    old, new = f"{old} (3 May 2026)", f"{new} (9 June 2026)"
    written = (read_pair(old, new), None)
    plain = (read_pair(undated(old), undated(new)), None)
    between = (NOTE_NEAREST_THRESHOLDS["en"] + NOTE_THRESHOLDS["en"]) / 2
    kept = judge_one_note(written, plain, _model("retold_in_frame", between))
    assert kept.relation is not Relation.CONTRADICTORY
    sure = judge_one_note(written, plain, _model("retold_in_frame", 0.995))
    assert sure.relation is not Relation.CONTRADICTORY
    statement = judge(*written, _model("retold_in_frame", 0.995))
    assert statement.relation is not Relation.CONTRADICTORY

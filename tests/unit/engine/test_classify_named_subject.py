"""Session 32: a new memory about a thing the old one names (its subject chain's every link
but the user named in the old memory) moves the judge's INDEPENDENT to EXTENDABLE, and nothing
else (``subject.subject_named_before``, ``learned.extends``). Examples written for these
tests."""

from __future__ import annotations

import numpy as np
import pytest

from omoide.engine.classify import EXTEND_ONLY, Relation, extends, judge, read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import JudgeModel
from omoide.engine.classify.subject import subject_named_before
from omoide.engine.classify.text import parse

CLASSES = (Relation.INDEPENDENT, Relation.EXTENDABLE, Relation.CONTRADICTORY)
ABOUT_IT = ("The user has a parrot called Pepper.", "Pepper says hello to every visitor.")
ALONE = ("The user has a parrot called Pepper.", "The user's neighbour keeps pigeons.")


def _model(bias: tuple[float, float, float]) -> JudgeModel:
    """A judge that says the same probabilities (softmax of ``bias``) for every pair."""
    d = len(TEXT_FEATURES)
    return JudgeModel(
        embedder="",
        features=TEXT_FEATURES,
        classes=CLASSES,
        mean=np.zeros(d),
        scale=np.ones(d),
        weights=np.zeros((3, d)),
        bias=np.asarray(bias),
        contradiction_threshold=0.9,
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ABOUT_IT,
        ("Priya owns a vintage camera shop in Leeds.", "The camera shop opens late on Thursdays."),
        ("The user has a rowing boat on the river.", "The boat is moored at Kew."),
        ("ユーザーは毎晩、日記を書いている。", "日記は五年日記帳に書いている。"),
        ("ユーザーは庭で盆栽を育てている。", "盆栽は祖父から受け継いだものだ。"),
    ],
)
def test_a_subject_the_old_memory_names(old: str, new: str) -> None:
    assert subject_named_before(parse(old), parse(new))
    assert extends(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ALONE,
        # a person word at the end of the chain: another person's own fact
        ("The user walks to the office.", "The user's sister drives to her office."),
        ("健太はテニスをしている。", "健太の妹は水泳をしている。"),
        # the old chain cut short: back to the person, another fact of theirs
        ("Priya's yoga teacher lives in Bath.", "Priya plays the cello."),
        # the user's own fact beside another person's
        ("Priya's favourite band is Elbow.", "The user's favourite band is Blur."),
        # the old chain with a link left out: another one of the kind
        ("ユーザーの前の自転車は赤かった。", "ユーザーの自転車は白い折りたたみだ。"),
        # one subject said again: the judge weighs it
        ("ユーザーの兄は毎朝走っている。", "ユーザーの兄は毎朝泳いでいる。"),
        # a link the old memory does not name
        ("The user has a rowing boat.", "The boat's hull is painted green."),
        ("The user has a rowing boat.", "A friend has a kayak."),
        # no subject read
        ("The user has a rowing boat.", "She rows it to the lock on Sundays."),
    ],
)
def test_no_subject_named_before(old: str, new: str) -> None:
    assert not subject_named_before(parse(old), parse(new))


def test_the_signal_is_extend_only() -> None:
    assert EXTEND_ONLY == ("new_subject_named", "old_name_told")
    assert "new_subject_named" in TEXT_FEATURES


def test_the_judges_independent_becomes_extendable() -> None:
    model = _model((2.0, 0.5, 0.0))  # leans INDEPENDENT
    verdict = judge(read_pair(*ABOUT_IT), None, model)
    assert verdict.relation is Relation.EXTENDABLE
    assert 0.0 < verdict.confidence < 0.5  # the share the judge gave EXTENDABLE of the two
    assert "about a thing the old names" in verdict.reason
    assert judge(read_pair(*ALONE), None, model).relation is Relation.INDEPENDENT


def test_it_never_closes_nor_keeps_a_close_from_happening() -> None:
    text = read_pair(*ABOUT_IT)
    assert judge(text, None, _model((0.0, 0.0, 5.0))).relation is Relation.CONTRADICTORY
    assert judge(text, None, _model((0.0, 2.0, 0.0))).relation is Relation.EXTENDABLE
    assert judge(text, None, _model((2.0, 0.5, 0.0)), may_contradict=False).relation is (
        Relation.EXTENDABLE
    )

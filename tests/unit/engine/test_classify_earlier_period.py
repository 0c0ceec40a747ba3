"""Round 23b's veto: a new memory set in an earlier period of life that names another value
than the old present fact is history beside it, not a change ("When she was young she lived
in Leeds" / "lives in Bristol"); the same period frame with the SAME value is a change and
still closes ("used to smoke" / "smokes", 以前は名古屋に住んでいた / 名古屋に住んでいる). Probes
written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.earlier_period import earlier_period, earlier_period_other_value
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import VETO_FEATURES, VETO_ONLY, vetoed
from omoide.engine.classify.text import parse

_COLUMN = TEXT_FEATURES.index("earlier_period_other_value")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user lives in a flat in Bristol with her husband.",
            "When she was young, the user lived in a caravan outside Leeds.",
        ),
        (
            "The user works as a pharmacist at a clinic in Derby.",
            "As a student, the user worked weekends at a garden centre.",
        ),
        (
            "The user's boyfriend Sam wants to move in together next year.",
            "The user's ex-boyfriend also talked about moving in together once, but it never "
            "happened.",
        ),
        (
            "The user drives a blue estate car to work.",
            "Back in college the user rode an old scooter everywhere.",
        ),
        (
            "ユーザーは夫と二人で金沢のマンションに住んでいる。",
            "ユーザーは若いころ、仙台の寮に住んでいた。",
        ),
        (
            "ユーザーは市役所で窓口の仕事をしている。",
            "ユーザーは学生時代、パン屋でアルバイトをしていた。",
        ),
        (
            "ユーザーは恋人と来年の秋に結婚する予定だ。",
            "前の彼氏とも一度結婚の話が出たけど、まとまらなかった。",
        ),
        ("ユーザーは毎朝コーヒーを飲んでいる。", "ユーザーは昔、紅茶党だった。"),
        # an end told of a previous one of a role is that one's end
        (
            "The user and her boyfriend plan to marry next spring.",
            "The user's ex-boyfriend proposed once, but they broke up.",
        ),
    ],
)
def test_another_value_in_an_earlier_period_is_history(old, new) -> None:
    assert earlier_period_other_value(parse(old), parse(new))
    assert vetoed(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same value in a past frame: the old fact holds no longer, a change
        ("The user smokes.", "The user used to smoke."),
        ("The user lives in Bristol.", "The user used to live in Bristol."),
        ("ユーザーは名古屋に住んでいる。", "ユーザーは以前は名古屋に住んでいた。"),
        ("ユーザーはタバコを吸っている。", "ユーザーは昔はタバコを吸っていた。"),
        # an end told in the new memory: the old fact ended, a change
        ("The user smokes a pack a day.", "The user used to smoke but quit last year."),
        ("ユーザーは毎晩ワインを一本飲んでいる。", "ユーザーは昔は飲んでいたが、やめた。"),
        # a word of the present: what holds now is told too
        (
            "The user lives in Bristol.",
            "The user lived in Leeds as a student and now lives in York.",
        ),
        (
            "ユーザーは金沢に住んでいる。",
            "ユーザーは以前は仙台に住んでいたが、今は福岡に住んでいる。",
        ),
        # a change dated, not a period of life; a place name, not a previous one
        ("The user lives in Bristol.", "The user moved to York back in May."),
        ("ユーザーは一戸建てに住んでいる。", "ユーザーは駅前のマンションに引っ越した。"),
        ("ユーザーは会社員だ。", "ユーザーは元町にカフェを開いた。"),
        # the old memory is itself set in the past
        ("When she was young, the user lived in Leeds.", "As a student, the user lived in York."),
    ],
)
def test_no_earlier_period_with_another_value(old, new) -> None:
    assert not earlier_period_other_value(parse(old), parse(new))


@pytest.mark.parametrize(
    ("text", "framed"),
    [
        ("As a kid, the user played the violin.", True),
        ("The user's former employer paid the bonus.", True),
        ("ユーザーは子どものころ、剣道を習っていた。", True),
        ("ユーザーは前の職場で経理をしていた。", True),
        ("The user plays the violin.", False),
        ("As a kid, the user plays the violin every day.", False),  # no past tense
        ("三日前のことだった。", False),
        ("ユーザーは以前より元気だ。", False),
        ("The dog got used to the new flat quickly.", False),  # accustomed, not a past habit
    ],
)
def test_earlier_period_needs_a_marker_and_the_past(text, framed) -> None:
    assert earlier_period(parse(text)) is framed


def test_the_reading_is_a_veto_the_judge_never_weighs() -> None:
    assert "earlier_period_other_value" in VETO_ONLY
    assert "earlier_period_other_value" in VETO_FEATURES
    old, new = "The user smokes.", "The user used to smoke."
    assert read_pair(old, new).features[_COLUMN] == 0.0

"""Round 23c's sure close: the old memory's present value said again as a former state ("used
to smoke" against "smokes", 以前は名古屋に住んでいた against 名古屋に住んでいる) closes it,
whatever the model says (``former_state.former_same_value``, in ``learned.SURE_ONLY``).
Another value in the past frame, a word saying it still holds, a plan, or another person's
former state does not. Probes written for these tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.former_state import former_frame, former_same_value
from omoide.engine.classify.learned import SURE_ONLY, VETO_ONLY, sure_close, vetoed
from omoide.engine.classify.text import parse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user smokes.", "The user used to smoke."),
        (
            "The user plays the cello in an amateur orchestra.",
            "The user used to play the cello in an amateur orchestra.",
        ),
        ("The user lives in Bristol.", "The user previously lived in Bristol."),
        ("The user keeps bees in the garden.", "The user no longer keeps bees in the garden."),
        ("Priya owns a motorbike.", "Priya doesn't own a motorbike anymore."),
        ("ユーザーは名古屋に住んでいる。", "ユーザーは以前は名古屋に住んでいた。"),
        ("ユーザーはタバコを吸っている。", "ユーザーは昔はタバコを吸っていた。"),
        ("ユーザーは合唱団で歌っている。", "ユーザーはかつて合唱団で歌っていた。"),
        ("ユーザーは陶芸教室に通っている。", "ユーザーはもう陶芸教室に通っていない。"),
        # a reason or a step told in another clause adds nothing to the frame
        ("The user wears glasses.", "After the eye surgery, the user no longer wears glasses."),
        ("ユーザーはジムに通っている。", "ユーザーはジムを退会し、もう通っていない。"),
    ],
)
def test_the_same_value_said_as_former_closes(old: str, new: str) -> None:
    assert former_same_value(parse(old), parse(new))
    text = read_pair(old, new)
    assert sure_close(text) and not vetoed(text)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another value in the past frame: history (round 23b's veto), not this close
        ("The user lives in Bristol.", "The user used to live in Leeds."),
        ("ユーザーは名古屋に住んでいる。", "ユーザーは以前は仙台に住んでいた。"),
        # a word saying it still holds
        ("The user smokes.", "The user used to smoke and still does."),
        ("The user plays the cello.", "The user previously played the cello and plays it now too."),
        (
            "ユーザーは名古屋に住んでいる。",
            "ユーザーは以前から名古屋に住んでいて、今も住んでいる。",
        ),
        ("ユーザーはタバコを吸っている。", "ユーザーは昔はタバコを吸っていたし、まだ吸っている。"),
        # a plan or a condition, not a made change
        ("The user smokes.", "The user will no longer smoke after the new year."),
        ("ユーザーはタバコを吸っている。", "ユーザーは来月からもうタバコを吸わない予定だ。"),
        # the old memory is itself past or negated
        ("The user retired at 62.", "The user retired at 62 and no longer worked after that."),
        ("The user doesn't smoke.", "The user used to smoke."),
        # the frame's clause adds a value of its own: another or a narrower value was former
        ("The user works at Acme.", "The user previously worked at Acme's biggest rival."),
        ("The user plays tennis.", "The user used to play tennis twice a week."),
        ("The user has a dog.", "The user used to have a dog too, before this one."),
        ("The user likes jazz.", "The user no longer likes only jazz."),
        ("ユーザーは東京で働いている。", "ユーザーは以前は東京の別の会社で働いていた。"),
        ("ユーザーは犬を飼っている。", "ユーザーは昔は犬を二匹飼っていた。"),
        # 名前は is "the name is", not "before"
        ("ユーザーの犬はポチだ。", "ユーザーの犬の名前はポチだった。"),
    ],
)
def test_other_shapes_do_not_fire(old: str, new: str) -> None:
    assert not former_same_value(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user smokes.", "The user's father used to smoke."),
        ("The user plays the cello.", "Her brother Tom no longer plays the cello."),
        ("ユーザーはタバコを吸っている。", "ユーザーの父は昔はタバコを吸っていた。"),
        ("ユーザーは合唱団で歌っている。", "ユーザーの母もかつて合唱団で歌っていた。"),
    ],
)
def test_another_person_s_former_state_does_not_close(old: str, new: str) -> None:
    assert not sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("text", "framed"),
    [
        ("The user used to swim every morning.", True),
        ("The user no longer swims.", True),
        ("ユーザーは以前は毎朝泳いでいた。", True),
        ("ユーザーはもう泳いでいない。", True),
        ("The user swims every morning.", False),
        ("The user got used to the cold water.", False),
        ("ユーザーはもう泳いだ。", False),  # もう "already", not ended
    ],
)
def test_former_frame(text: str, framed: bool) -> None:
    assert former_frame(parse(text)) is framed


def test_the_signal_is_close_only() -> None:
    assert "former_same_value" in SURE_ONLY and "former_same_value" in TEXT_FEATURES
    assert "former_same_value" not in VETO_ONLY

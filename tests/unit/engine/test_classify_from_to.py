"""A change told with both its ends closes the old value ("switched from A to B" when the old
memory says A): ``from_to.changed_from_old``, a close-only signal. Probes written for these
tests."""

from __future__ import annotations

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.from_to import changed_from_old
from omoide.engine.classify.learned import SURE_ONLY, sure_close
from omoide.engine.classify.text import parse


def _fires(old: str, new: str) -> bool:
    return changed_from_old(parse(old, "auto"), parse(new, "auto"))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ユーザーの名字は高橋です。", "ユーザーは結婚して、名字が高橋から森に変わった。"),
        ("ユーザーの好きな季節は夏だ。", "ユーザーの好きな季節は夏から秋に変わった。"),
        ("ユーザーは通勤に電車を使っている。", "ユーザーは通勤を電車から自転車に切り替えた。"),
        ("ユーザーの携帯はA社の回線だ。", "ユーザーは携帯の回線をA社からB社に乗り換えた。"),
        ("The user writes code in Vim.", "The user switched from Vim to Emacs last spring."),
        (
            "Noor drinks black tea every morning.",
            "Noor changed from black tea to green tea in the mornings.",
        ),
    ],
)
def test_a_change_from_the_old_value_to_another_fires(old: str, new: str) -> None:
    assert _fires(old, new)
    assert sure_close(read_pair(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the old value is the result: how the old state came about, not a change
        (
            "ユーザーは通勤に自転車を使っている。",
            "ユーザーは去年、通勤を電車から自転車に切り替えた。",
        ),
        ("The user writes code in Emacs.", "The user switched from Vim to Emacs last spring."),
        # neither end is the old value
        ("ユーザーの好きな季節は夏だ。", "ユーザーの娘の好きな色は赤から青に変わった。"),
        # only planned or wished for
        (
            "ユーザーは通勤に電車を使っている。",
            "ユーザーは通勤を電車から自転車に切り替える予定だ。",
        ),
        ("The user writes code in Vim.", "The user might switch from Vim to Emacs."),
        ("The user writes code in Vim.", "The user plans to switch from Vim to Emacs."),
        # a number is left to the quantity rules
        ("The user sleeps 7 hours.", "The user went from 7 to 8 hours of sleep."),
        # no change verb: a route, not a change
        ("ユーザーは東京に住んでいる。", "ユーザーは東京から大阪に出張した。"),
    ],
)
def test_other_shapes_do_not_fire(old: str, new: str) -> None:
    assert not _fires(old, new)


def test_another_subject_is_left_to_the_judge() -> None:
    text = read_pair(
        "Yumi drinks black tea every morning.", "Ken changed from black tea to coffee."
    )
    assert not sure_close(text)


def test_the_signal_is_close_only() -> None:
    assert "changed_from_old" in SURE_ONLY
    assert "changed_from_old" in TEXT_FEATURES

"""The nineteenth round's veto: a cleft whose focus is a cause (the fact is presupposed, only
its reason is told). Probes written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.backstory import reason_presupposed
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.learned import VETO_FEATURES, VETO_ONLY, vetoed
from omoide.engine.classify.text import parse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("ユーザーは毎朝プールで泳いでいる。", "ユーザーが毎朝泳ぐのは、肩のリハビリのためだ。"),
        (
            "ユーザーは週末だけ店を開けている。",
            "ユーザーが週末だけ店を開けるのは、平日は会社勤めだからだという。",
        ),
        (
            "The user bikes to work.",
            "The reason the user bikes to work is that parking costs too much.",
        ),
    ],
)
def test_a_cleft_on_a_cause_presupposes_the_fact(old, new) -> None:
    assert reason_presupposed(parse(old), parse(new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # what the cleft presupposes is an end, or a change the old memory does not tell
        ("ユーザーは毎朝プールで泳いでいる。", "ユーザーが水泳をやめたのは、肩を痛めたからだ。"),
        (
            "ユーザーは電車で通勤している。",
            "ユーザーが自転車で通い始めたのは、定期代が上がったからだ。",
        ),
        ("The user bikes to work.", "The user quit biking to work; that is why he takes the bus."),
        # no cleft, or the old memory is one already
        ("ユーザーは毎朝プールで泳いでいる。", "ユーザーは肩のリハビリのために毎朝泳いでいる。"),
        ("ユーザーが泳ぐのは、医者に勧められたからだ。", "ユーザーが泳ぐのは、肩のためだ。"),
    ],
)
def test_no_presupposed_fact_without_a_causal_cleft_or_with_a_change(old, new) -> None:
    assert not reason_presupposed(parse(old), parse(new))


def test_a_veto_the_judge_does_not_weigh() -> None:
    assert "reason_presupposed" in VETO_FEATURES
    assert "reason_presupposed" in VETO_ONLY
    text = read_pair(
        "ユーザーは毎朝プールで泳いでいる。", "ユーザーが毎朝泳ぐのは、肩のリハビリのためだ。"
    )
    assert dict(zip(TEXT_FEATURES, text.features, strict=True))["reason_presupposed"] == 1.0
    assert vetoed(text)


@given(
    st.text(st.sampled_from(list("ユーザーは泳ぐ毎朝のはからだためやめた。、")), max_size=20),
    st.text(st.sampled_from(list("ユーザーは泳ぐ毎朝のはからだためやめた。、")), max_size=20),
)
def test_the_signal_is_total(old, new) -> None:
    assert isinstance(reason_presupposed(parse(old, "ja"), parse(new, "ja")), bool)

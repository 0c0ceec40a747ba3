"""Round 20: which side of the new memory's change the old fact stands on. A change whose
result is the old fact ("opened the bakery in 2016" → "runs a bakery") tells its origin; one
whose source is the old fact ("quit the bakery", "moved from Osaka") ends it. Probes written
for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify import read_pair
from omoide.engine.classify.features import TEXT_FEATURES
from omoide.engine.classify.leads_to import change_into_old, change_sides
from omoide.engine.classify.learned import VETO_ONLY
from omoide.engine.classify.text import parse


def _all_on_the_result_side(old: str, new: str) -> bool:
    return change_into_old(parse(old), parse(new)) == 1.0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user lives in Lisbon.", "The user moved to Lisbon in 2019."),
        ("The user runs a bakery.", "The user opened the bakery in 2016."),
        ("The user is learning the cello.", "The user took up the cello after retiring."),
        ("The user works as a paramedic.", "The user became a paramedic ten years ago."),
        ("The user doesn't drink.", "The user stopped drinking in 2009."),
        (
            "The user's bank is a credit union.",
            "The user moved her savings to a credit union when her old bank closed.",
        ),
        ("ユーザーは札幌に住んでいる。", "ユーザーは五年前に仙台から札幌に引っ越した。"),
        ("ユーザーは花屋を経営している。", "ユーザーは2018年に花屋を開いた。"),
        ("ユーザーは看護師だ。", "ユーザーが看護師になって十年になる。"),
        (
            "ユーザーは通勤に自転車を使っている。",
            "ユーザーは去年から通勤に自転車を使うようになった。",
        ),
    ],
)
def test_the_old_fact_is_the_changes_result(old, new) -> None:
    assert _all_on_the_result_side(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the old fact is the change's source: it ended
        ("The user lives in Lisbon.", "The user moved from Lisbon to Porto."),
        ("The user runs a bakery.", "The user quit the bakery last spring."),
        ("ユーザーは仙台に住んでいる。", "ユーザーは仙台から札幌に引っ越した。"),
        ("ユーザーは花屋を経営している。", "ユーザーは花屋を辞めた。"),
        # the result is another value, another thing of its kind, or a number the old one lacks
        ("The user works as a nurse at the clinic.", "The user became a manager at the clinic."),
        ("The user runs a bakery.", "The user opened a new bakery downtown."),
        ("ユーザーは柔道二段だ。", "ユーザーは柔道三段になった。"),
        ("ユーザーは事務所に勤めている。", "ユーザーは独立して自分の事務所を開いた。"),
        ("The user is on the rota one week in four.", "The user is on the rota one week in six."),
        # a negated old fact: arriving at what it denies ends it
        ("The user doesn't drink.", "The user started drinking again."),
        ("The user has no car.", "The user bought a car in May."),
        # a plan, a pending application or an ended fact is no present state to arrive at
        ("The user plans to move to Lisbon.", "The user moved to Lisbon."),
        (
            "The user has applied for a post at the library.",
            "The user got the post at the library.",
        ),
        # the change is negated or only intended
        ("The user lives in Lisbon.", "The user will not move to Lisbon."),
        ("ユーザーは札幌に住んでいる。", "ユーザーは札幌に引っ越したくない。"),
        # another person's change
        ("The user lives in Lisbon.", "The user's brother moved to Lisbon."),
    ],
)
def test_no_origin_when_the_old_fact_is_not_the_result(old, new) -> None:
    assert change_into_old(parse(old), parse(new)) < 1.0


def test_the_sides_of_a_change() -> None:
    assert change_sides(parse("The user moved from Lisbon to Porto.")) == (["porto"], ["lisbon"])
    results, sources = change_sides(parse("ユーザーは会社を辞めてパン屋を開いた。"))
    assert results == ["パン屋"]
    assert sources == ["会社"]
    assert change_sides(parse("The user hurt her left hand.")) == ([], [])


def test_the_share_is_a_column_the_judge_weighs() -> None:
    assert "change_into_old" in TEXT_FEATURES
    assert "change_into_old" not in VETO_ONLY
    text = read_pair("The user runs a bakery.", "The user opened the bakery in 2016.")
    assert dict(zip(TEXT_FEATURES, text.features, strict=True))["change_into_old"] == 1.0
    text = read_pair("The user runs a bakery.", "The user quit the bakery.")
    assert dict(zip(TEXT_FEATURES, text.features, strict=True))["change_into_old"] == 0.0


_CHARS = list("moved to from quit opened became Lisbon 2016 に から を辞め 開いた になった 札幌 。")


@given(st.text(st.sampled_from(_CHARS), max_size=30), st.text(st.sampled_from(_CHARS), max_size=30))
def test_the_signal_is_total(old, new) -> None:
    for lang in ("en", "ja"):
        assert 0.0 <= change_into_old(parse(old, lang), parse(new, lang)) <= 1.0

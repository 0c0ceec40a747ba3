"""Dedup's status rule: a near-copy that says a plan or a state ended, was done or was called
off is news, not a duplicate; the same status said in other words is no change."""

from __future__ import annotations

import pytest

from omoide.engine.classify import status_changed
from omoide.engine.classify.dedup_status import status_families


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param(
            "Mina is flying to Lima on 3 March.",
            "Mina's 3 March flight to Lima was cancelled.",
            id="en-called-off",
        ),
        pytest.param(
            "Tom will take the bar exam in July.",
            "Tom took the bar exam in July.",
            id="en-plan-told-as-done",
        ),
        pytest.param(
            "Tom is studying for the bar exam.",
            "Tom passed the bar exam.",
            id="en-pursuit-completed",
        ),
        pytest.param(
            "Tom plays in a jazz band on Fridays.",
            "Tom quit the jazz band he played in on Fridays.",
            id="en-ended",
        ),
        pytest.param(
            "健二さんは来月札幌に引っ越す予定だ",
            "健二さんは来月の札幌への引っ越しを取りやめた",
            id="ja-called-off",
        ),
        pytest.param(
            "健二さんは簿記3級の試験に向けて勉強している",
            "健二さんは簿記3級に合格した",
            id="ja-completed",
        ),
    ],
)
def test_a_status_said_on_one_side_only_is_a_change(first: str, second: str) -> None:
    assert status_changed(first, second) and status_changed(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param(
            "Tom plans to visit Oslo in May.",
            "Tom is going to visit Oslo in May.",
            id="en-plan-in-other-words",
        ),
        pytest.param("Tom no longer eats meat.", "Tom stopped eating meat.", id="en-ended-both"),
        pytest.param("Tom lives in Leeds.", "Tom's home is in Leeds.", id="en-no-status"),
        pytest.param("健二さんは禁酒している", "健二さんはお酒をやめた", id="ja-ended-both"),
    ],
)
def test_the_same_status_in_other_words_is_no_change(first: str, second: str) -> None:
    assert not status_changed(first, second)


def test_families_are_named() -> None:
    assert status_families("Tom cancelled the trip he had planned.") == {"ended", "planned"}
    assert status_families("Tom lives in Leeds.") == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Jo won't quit the choir.", id="en-will-not-quit"),
        pytest.param("Jo is not gonna give up the violin.", id="en-not-gonna-give-up"),
        pytest.param("Jo refused to cancel the trip to Oslo.", id="en-refused-to-cancel"),
        pytest.param("健二さんは会社を辞めるつもりはない", id="ja-no-intention-to-quit"),
        pytest.param("健二さんはジム通いを諦めない", id="ja-does-not-give-up"),
    ],
)
def test_an_end_word_under_negation_is_no_ending(text: str) -> None:
    assert "ended" not in status_families(text)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param("Jo sings in the choir.", "Jo won't quit the choir.", id="en-goes-on"),
        pytest.param(
            "Jo plays the violin.", "Jo is not gonna give up the violin.", id="en-not-gonna"
        ),
        pytest.param(
            "健二さんは会社で働いている", "健二さんは会社を辞めるつもりはない", id="ja-goes-on"
        ),
    ],
)
def test_saying_it_goes_on_is_no_ending(first: str, second: str) -> None:
    assert "ended" not in status_families(first) | status_families(second)


def test_a_bare_negation_is_the_vetos_polarity_not_an_ending() -> None:
    assert "ended" not in status_families("Jo will not go to the reunion.")
    assert "ended" in status_families("Jo's trip to the reunion is on hold.")

"""Dedup's thirtieth round, on probes of our own: a month clipped ("Nov", "Sept.") or an ordinal
in digits ("3rd") read as the other text spells it out, another month or ordinal kept apart;
"intends to" is a plan word of the status rule."""

from __future__ import annotations

import pytest

from omoide.engine.classify import (
    changed_parts,
    find_dedup_change,
    pair_notation,
    status_changed,
)
from omoide.engine.classify.dedup_abbrev import spelt_out


def _alike(first: str, second: str) -> bool:
    """Nothing differs once both are read in dedup's notation (a final stop aside)."""
    return all(
        changed_parts(*pair_notation(x, y)) == ("", "")
        for x, y in ((first, second), (second, first))
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Since November the user has been learning the cello.",
            "Since Nov the user has been learning the cello.",
        ),
        ("The user repaints the fence every August.", "The user repaints the fence every Aug."),
        (
            "The user's nephew starts nursery in September.",
            "The user's nephew starts nursery in Sept.",
        ),
        (
            "The user's choir rehearses on the third Thursday of each month.",
            "The user's choir rehearses on the 3rd Thu of each month.",
        ),
        (
            "The user's book club meets on the 1st Monday of the month.",
            "The user's book club meets on the first Monday of the month.",
        ),
    ],
)
def test_a_clipped_month_or_a_digit_ordinal_reads_as_spelt_out(first: str, second: str) -> None:
    assert _alike(first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Since November the user has been learning the cello.",
            "Since Dec the user has been learning the cello.",
        ),
        (
            "The user's choir rehearses on the third Thursday of each month.",
            "The user's choir rehearses on the 2nd Thu of each month.",
        ),
    ],
)
def test_another_month_or_ordinal_stays_apart(first: str, second: str) -> None:
    a, b = pair_notation(first, second)
    assert a != b and find_dedup_change(a, b) is not None


def test_spelt_out_reads_only_what_the_other_text_spells() -> None:
    assert spelt_out("in October", "in Oct. and") == "in October and"
    assert spelt_out("in October", "in Oct.") == "in October."
    assert spelt_out("in October", "in Nov") == "in Nov"
    assert spelt_out("the first time", "the 1st and 2nd") == "the first and 2nd"
    # a text that already writes digit ordinals itself keeps the other's digits
    assert spelt_out("the first and 3rd", "the 1st") == "the 1st"
    assert spelt_out("Marco likes March", "Mar") == "March"


def test_intends_to_is_a_plan_word() -> None:
    assert not status_changed(
        "The user is planning to move to Leeds next year.",
        "The user intends to move to Leeds next year.",
    )
    assert status_changed("The user intends to sell the van.", "The user sold the van.")

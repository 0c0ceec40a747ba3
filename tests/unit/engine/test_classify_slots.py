"""Typed slot comparison for the learned judge: what changed, by kind of value."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from omoide.engine.classify.features import TEXT_FEATURES, read_pair
from omoide.engine.classify.slots import SLOT_FEATURES, Outcome, outcome

VALUES = st.lists(st.sampled_from(["3", "7", "tuesday", "osaka", "ken"]), max_size=4)
MIRROR = {Outcome.ADDED: Outcome.REMOVED, Outcome.REMOVED: Outcome.ADDED}


@given(VALUES)
def test_the_same_values_are_same_and_no_values_are_none(values: list[str]) -> None:
    assert outcome(values, list(reversed(values))) is (Outcome.SAME if values else Outcome.NONE)


@given(VALUES, VALUES)
def test_swapping_the_memories_swaps_added_and_removed(old: list[str], new: list[str]) -> None:
    forward, backward = outcome(old, new), outcome(new, old)
    assert backward is MIRROR.get(forward, forward)


@given(VALUES, st.lists(st.sampled_from(["9", "friday"]), min_size=1, max_size=2))
def test_values_kept_and_more_said_are_added(old: list[str], more: list[str]) -> None:
    assert outcome(old, old + more) is Outcome.ADDED
    if old:
        assert outcome(old, more) is Outcome.DIFFERENT


def _slots(old: str, new: str) -> set[str]:
    values = dict(zip(TEXT_FEATURES, read_pair(old, new).features, strict=True))
    return {name for name in SLOT_FEATURES if values[name]}


def test_a_replaced_day_is_a_different_time() -> None:
    found = _slots(
        "User's dentist appointment is on Tuesday.", "User's dentist appointment is on Thursday."
    )
    assert {"slot_times_different", "first_change_time"} <= found


def test_a_replaced_count_is_a_different_quantity_in_both_languages() -> None:
    assert "slot_quantities_different" in _slots("User has 2 cats.", "User has 3 cats.")
    assert "slot_quantities_different" in _slots(
        "ユーザーは猫を2匹飼っている", "ユーザーは猫を3匹飼っている"
    )


def test_a_named_companion_is_added_not_replaced() -> None:
    found = _slots("User lives in Tokyo.", "User lives in Tokyo with her husband Ken.")
    assert {"slot_people_added", "slot_names_added"} <= found
    assert not {f for f in found if f.endswith("_different")}


def test_a_bound_consistent_with_the_old_value_is_not_a_changed_quantity() -> None:
    found = _slots("User runs about 30 km a week.", "User runs about 32 km a week.")
    assert "slot_quantities_different" not in found

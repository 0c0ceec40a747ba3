"""Typed slot comparison of two memories for the learned judge (pure).

What changed between two statements, described by kind of value rather than by wording: for
each slot (numbers, time words, measured quantities by unit, names and content spans, people)
whether the two memories hold the *same* values, *different* ones (each side has a value the
other lacks), or the new one *added* or *removed* values. A replaced value in a repeated
sentence is the mark of a contradiction, an added one of an extension, in any phrasing; the
slots reuse the value readers of the dedup veto (``value_change``) and the rules'
quantities, so the judge and the rules read values the same way. No I/O; deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from enum import StrEnum

from omoide.engine.classify.quantity import Quantity
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.classify.value_change import ChangeKind, compare, read_statement

__all__ = ["SLOT_FEATURES", "Outcome", "outcome", "slot_features"]


class Outcome(StrEnum):
    NONE = "none"  # neither memory holds a value of this slot
    SAME = "same"
    DIFFERENT = "different"  # each side holds a value the other lacks: a replaced value
    ADDED = "added"  # the new memory holds every old value and more
    REMOVED = "removed"  # the old memory holds every new value and more


SLOTS: tuple[str, ...] = ("numbers", "times", "quantities", "names", "people")
_OUTCOMES = (Outcome.SAME, Outcome.DIFFERENT, Outcome.ADDED, Outcome.REMOVED)
_KINDS = tuple(ChangeKind)
SLOT_FEATURES: tuple[str, ...] = (
    *(f"slot_{slot}_{o.value}" for slot in SLOTS for o in _OUTCOMES),
    *(f"first_change_{k.value}" for k in _KINDS),
    "old_announces_change",
    "new_announces_change",
)


def outcome(old: Iterable[Hashable], new: Iterable[Hashable]) -> Outcome:
    """How the new memory's values of one slot relate to the old one's (as multisets)."""
    a, b = Counter(old), Counter(new)
    if not a and not b:
        return Outcome.NONE
    only_old, only_new = a - b, b - a
    if only_old and only_new:
        return Outcome.DIFFERENT
    if only_new:
        return Outcome.ADDED
    if only_old:
        return Outcome.REMOVED
    return Outcome.SAME


def _quantity_outcome(old: tuple[Quantity, ...], new: tuple[Quantity, ...]) -> Outcome:
    """Quantities compare by unit: a shared unit with no consistent value is DIFFERENT (an
    "about" or "at least" value consistent with the other is the same fact); otherwise a
    unit only one side measures is ADDED / REMOVED."""
    if changed_units(old, new):
        return Outcome.DIFFERENT
    return outcome({q.unit for q in old}, {q.unit for q in new})


def slot_features(
    old_text: str,
    new_text: str,
    old_quantities: tuple[Quantity, ...],
    new_quantities: tuple[Quantity, ...],
) -> list[float]:
    """The SLOT_FEATURES row: one-hot outcome per slot (all zero for NONE), the kind of the
    first changed value the dedup veto finds (all zero when none), and which side announces
    a change ("now", 今は …)."""
    old, new = read_statement(old_text), read_statement(new_text)
    outcomes = (
        outcome(old.numbers, new.numbers),
        outcome(old.times, new.times),
        _quantity_outcome(old_quantities, new_quantities),
        outcome(old.names, new.names),
        outcome(old.people, new.people),
    )
    row = [float(o is wanted) for o in outcomes for wanted in _OUTCOMES]
    first = compare(old, new)
    row += [float(first is not None and first.kind is k) for k in _KINDS]
    row += [float(old.announces_change), float(new.announces_change)]
    return row

"""A reason told for the old fact: the old fact said again, then "because …" (pure).

**Trigger** (``reason_for_old_fact``). An English new memory is a head clause and a reason
("because …", ", as …"); the head says nothing the old memory does not (every content word of
it is in the old memory, no number of its own), with no no, end or change word of its own
("not", "stopped", "now", "no longer", "still", "again", "back"), no amount the old one
does not have (``quantity.changed_units``), and both are about one
subject. What follows "because" may tell of an end or a change ("I walk to work because the
office gave up its car park"): that is the reason, not a change of the old fact.

**Why.** "Is a nurse and walks to the hospital" and "walks because the car park closed" are one
fact and its reason (EXTENDABLE). The end word inside the reason drew the judge to a close
(round 26, a fresh writer's, C 0.94). "Since" is left out: it also tells a time ("takes the 8:15
bus since her hours moved" is a change).

**Outcome.** ``reason_for_old_fact`` is 1 for such a pair: a cap on the judge's close
(``learned.JUDGE_CAPS``); a sure rule still closes. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.one_off import undated
from omoide.engine.classify.quantity import changed_units
from omoide.engine.classify.text import Sentence, parse

__all__ = ["REASON_TOLD_FEATURES", "reason_for_old_fact", "reason_told_features"]

REASON_TOLD_FEATURES: tuple[str, ...] = ("reason_for_old_fact",)

_REASON = re.compile(r"\bbecause\b|, as\b")
_OWN_CHANGE = re.compile(lex.STOPPED["en"] + "|" + lex.CHANGE["en"]
                         + r"|\bnot\b|\bno\b|\bnever\b|\bstill\b|\bagain\b|\bback\b|\binstead\b")
_NUMBER = re.compile(r"\d+")


def reason_for_old_fact(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory is the old fact said again with a reason (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or not same_people(old, new):
        return False
    reason = _REASON.search(new.text)
    if reason is None or reason.start() == 0:
        return False
    said = new.text[:reason.start()]
    head = parse(said, "en")
    if not head.content or head.negative or _OWN_CHANGE.search(said):
        return False
    if not set(_NUMBER.findall(said)) <= set(_NUMBER.findall(old.text)) \
            or changed_units(old.quantities, head.quantities) \
            or {q.unit for q in head.quantities} - {q.unit for q in old.quantities}:
        return False
    return set(head.content) <= set(old.content) | set(old.words)


def reason_told_features(old: Sentence, new: Sentence) -> list[float]:
    """The REASON_TOLD_FEATURES row of a pair."""
    return [float(reason_for_old_fact(old, new))]

"""Another one of a kind: a thing the old memory says no to, and a different one of its kind the
new memory says yes to (pure).

**Trigger.** The old memory says no to one thing named with its own modifier ("has no boating
licence", 自動車の免許を持っていない, 英検の資格はない), and the new memory names the same kind
(the head: licence, 資格, 免許) with a modifier of its own, leaving the old one's out ("has a
forklift licence", 大型特殊の免許を取った). Japanese reads each modifier as the noun before の
(英検の資格); English as the content word right before the head in a noun phrase a determiner
opens ("a driving licence", "any red meat").

**Why.** A no turned round ("has never had a licence" → "passed his licence") must name the
very thing; one certificate not held and another one held are two facts. The note reader's "a
no turned round" (``note_flip``) matched on the shared head alone and closed such pairs as
sure changes (round 26: a false close on a fresh writer).

**Outcome.** A guard the no-turned-round reading calls: a head named so is no turn. No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["en_compounds", "en_other_of_kind", "ja_head", "ja_other_of_kind", "other_of_kind"]

_JA_NOUN = r"[\u3400-\u9fff々\u30a0-\u30ffーA-Za-z0-9]"
_EN_PHRASE = re.compile(
    r"\b(?:a|an|the|his|her|their|my|our|your|its|any|one|another)\s+"
    r"([a-z]+)\s+([a-z]+)\b"
)


def ja_head(thing: str) -> tuple[str, str]:
    """The (modifier, head) of a Japanese thing: 英検の資格 → (英検, 資格); a bare noun has no
    modifier."""
    parts = re.split(r"の(?=.)", thing)
    return ("の".join(parts[:-1]), parts[-1]) if len(parts) > 1 else ("", thing)


def ja_other_of_kind(modifier: str, head: str, clause: str) -> bool:
    """Whether ``clause`` names ``head`` only with a modifier of its own (X の head, or a run
    that ends in it) and leaves ``modifier`` out: another one of the kind."""
    if not modifier or modifier in clause:
        return False
    found = [m for m in re.finditer(re.escape(head), clause)]
    # the head named bare, or closing a run (普通免許 may be 車の免許 said another way), may be
    # the old one
    return bool(found) and all(re.search(rf"{_JA_NOUN}の$", clause[: m.start()]) for m in found)


def en_compounds(text: str, unit: Callable[[str], Iterable[str]]) -> frozenset[str]:
    """ "modifier head" pairs of a noun phrase a determiner opens ("a driving licence", "any
    red meat"), each word as its ``unit`` (a lemma; a stop word has none and makes no pair).
    A verb before its object ("tried sushi") is no modifier, so no determiner, no pair."""
    pairs = set()
    for m in _EN_PHRASE.finditer(text):
        modifier, head = (next(iter(unit(w)), "") for w in (m.group(1), m.group(2)))
        if modifier and head:
            pairs.add(f"{modifier} {head}")
    return frozenset(pairs)


def en_other_of_kind(
    shared: set[str],
    old_pairs: frozenset[str],
    new_pairs: frozenset[str],
    old_units: frozenset[str],
    new_units: frozenset[str],
) -> set[str]:
    """The units of ``shared`` each memory names with a modifier of its own, the other's left
    out: heads of two different things of one kind."""
    out = set()
    for head in shared:
        olds = {p.split(" ")[0] for p in old_pairs if p.split(" ")[1] == head}
        news = {p.split(" ")[0] for p in new_pairs if p.split(" ")[1] == head}
        if olds and news and not olds & new_units and not news & old_units:
            out.add(head)
    return out


def other_of_kind(
    shared: set[str],
    old_span: frozenset[str],
    new_span: frozenset[str],
    old_units: frozenset[str],
    new_units: frozenset[str],
) -> bool:
    """Whether the two memories name two things of one kind: English "modifier head" pairs in
    the spans (``en_compounds``), Japanese the old thing (英検の資格) and the new clause."""
    if any(" " in p for p in old_span):
        return bool(en_other_of_kind(shared, old_span, new_span, old_units, new_units))
    return any(
        ja_other_of_kind(*ja_head(thing), clause) for thing in old_span for clause in new_span
    )

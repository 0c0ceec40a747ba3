"""An end told of something the old memory already says is absent (pure).

**Trigger** (``negated_in_old``). The thing an end names ("gave up coffee", コーヒーをやめた) is
said in the old memory only under a no in its own clause: English a no word before it ("drinks
no coffee", "doesn't drink coffee", "never smokes", "without sugar"), Japanese a no after it
(コーヒーは飲まない, 肉を食べず; not X しか…ない, "only X").

**Why.** "Drinks no beer, only cider" already holds the end state; "gave up beer after a
health scare" tells why, it does not change it. The end readings (``note_close``'s "ended X",
``habit_end.habit_ended``) closed such pairs as sure changes (round 25b: two false closes on
the writers of holdout36 / notes17). An end contradicts only an old memory that says the thing
holds.

**Outcome.** A guard the end readings call: when it holds, they do not close. No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from omoide.engine.classify.negation_turn import CLAUSE

__all__ = ["negated_in_old"]

_NO_BEFORE = re.compile(r"\b(?:no|not|never|none|without)\b|n't\b")
_NO_AFTER = re.compile(r"ない|なかった|ません|ず[、。に]|ずに|ず$|なく")


def negated_in_old(units: Iterable[str], old: str, lang: str) -> bool:
    """Whether every unit of ``units`` that ``old`` says is said there under a no in its own
    clause (one unit at least is said)."""
    found = False
    for clause in CLAUSE["ja" if lang == "ja" else "en"].split(old.lower()):
        for unit in units:
            if lang == "ja":
                at = clause.find(unit.lower())
                if at < 0:
                    continue
                rest = clause[at + len(unit) :]
                no = _NO_AFTER.search(rest)  # X しか…ない is "only X", a yes
                negated = no is not None and "しか" not in rest[: no.start()]
            else:
                hit = re.search(rf"\b{re.escape(unit.lower())}", clause)
                if hit is None:
                    continue
                negated = _NO_BEFORE.search(clause[: hit.start()]) is not None
            if not negated:
                return False
            found = True
    return found

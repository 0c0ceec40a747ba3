"""Dedup's bound rule: a bound on a number turned round (pure).

Trigger: dedup asks whether a near-copy above the threshold is a duplicate. Why: "spends no
more than £85 a week" / "spends at least £85 a week" and 十時間以内に収めている / 十時間を超えて
運転する keep the number and every other word, so their cosine is 0.97–0.99 and the aligned
difference is a word or two; the veto reads the two bounds, but its finding is only a signal
the judge weighs against the number formats paraphrases reword (8:15 / 8.15), and a high
cosine outweighed it. A paraphrase rewords a bound in the same direction ("no more than" / "up
to", 以内 / 以下, "more than" / "over") or says it on one side only ("about 60" / "at least
60" is a change the judge still weighs). Outcome: ``bound_turned`` is True when both texts
hold a number and one bound each way: one an upper bound (at most, up to, less than, 以内,
未満, 最大) and the other a lower one (at least, more than, 以上, 超え, 最低), neither holding
both. Like the trade and status rules, a pair it finds is never a duplicate. Deterministic and
symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.classify.dedup_veto import bound_markers
from omoide.engine.lang import is_japanese

__all__ = ["bound_turned"]

_UPPER = frozenset({"max", "under"})
_LOWER = frozenset({"min", "over"})
_NUMBER = re.compile(
    r"[0-9０-９]|[一二三四五六七八九十百千万]|\b(?:one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
    r"thousand|an? (?:hour|day|week|month|year))\b",
    re.IGNORECASE,
)


def _direction(text: str) -> str | None:
    """ "upper" or "lower" when ``text`` holds a number and bounds of one direction only."""
    if not _NUMBER.search(text):
        return None
    found = set(bound_markers(text, "ja" if is_japanese(text) else "en"))
    upper, lower = bool(found & _UPPER), bool(found & _LOWER)
    if upper == lower:
        return None
    return "upper" if upper else "lower"


def bound_turned(first: str, second: str) -> bool:
    """True when one text bounds its number from above and the other from below (module
    docstring)."""
    a, b = _direction(first), _direction(second)
    return a is not None and b is not None and a != b

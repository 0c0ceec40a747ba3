"""Dedup's agent rule: someone else does or pays for a thing on one side, the user does it
themselves on the other (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: "an accountant prepares my tax
return" / "I prepare my own tax return", "my employer funds my course" / "I fund my own
course", "my firm pays for my certificate" / "I pay for my own certificate" keep the thing, the
amount and the verb and change only who acts, so the cosine (0.98-0.99) and the aligned
difference see one or two words; yet who pays is the fact (seen in four writers' sets, rounds
9, 11, 21 and 23). Outcome: ``agent_changed`` is True when one text says the subject does it
itself (English "my own" / "their own", "myself" / "themselves"; Japanese 自費, 自腹, 自己負担,
自分で払う / 負担する) and the other does not, and (English) the two texts open with other
subjects (the first two words differ).

Narrow on purpose: "on my own", "by herself" (alone), "of her own" (possession) and "for
himself" (self-employed) are not the marker, and a text about the same subject ("the tattoo
on my own forearm" / "on my forearm") keeps its reading. Deterministic and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.lang import is_japanese

__all__ = ["agent_changed"]

_SELF = {
    "en": re.compile(
        r"(?<!\bon )(?<!\bof )\b(?:my|their|his|her|our|your) own\b"
        r"|(?<!\bby )(?<!\bfor )\b(?:myself|themselves|themself|himself|herself"
        r"|ourselves|yourself)\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(r"自費|自腹|自己負担|自分で(?:払|支払|負担|出し|出す|出して)"),
}
_WORD = re.compile(r"[a-z']+")


def _opening(text: str) -> list[str]:
    return _WORD.findall(text.lower())[:2]


def agent_changed(first: str, second: str) -> bool:
    """True when one text says the subject does it itself and the other does not, with
    another subject in English (module docstring)."""
    lang = "ja" if is_japanese(first) or is_japanese(second) else "en"
    cue = _SELF[lang]
    if bool(cue.search(first)) == bool(cue.search(second)):
        return False
    return lang == "ja" or _opening(first) != _opening(second)

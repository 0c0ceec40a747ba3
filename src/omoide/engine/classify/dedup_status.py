"""Dedup's status rule: a plan, a pursuit or a state that one text says ended, was done or was
called off, and the other does not (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: "Rosa is flying to Tokyo on 20
October" / "Rosa's 20 October flight to Tokyo was cancelled", "will sit the exam on 14 June" /
"sat the exam on 14 June", 合格を目指している / 合格した repeat every value (the place, the date,
the thing) and add one word that changes what is true, so the cosine, the veto and the size of
the aligned difference all call them the same; saving the second only as a duplicate would lose
the news. Outcome: ``status_changed`` — the two texts differ in which of these families of
status words they hold (the 3-op classifier's lexicon):

- an ending, or a plan called off or moved (stopped, quit, cancelled, pushed back, on hold,
  もう…ない, やめた, 中止, 延期, 見送り),
- a completion (passed, finished, got into, 合格, 終えた),
- a plan (will, plans to, going to, 予定, つもり) or a pursuit (studying for, applying to,
  目指して).

A paraphrase keeps its status words ("plans to" / "is going to" are one family), so it is a
narrow rule; it is never a duplicate's veto when both texts hold the same families.
Deterministic and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.transition import UNDONE
from omoide.engine.lang import is_japanese

__all__ = ["status_changed", "status_families"]

# An ending and a plan called off are one family: "no longer drinks" / "has given up drinking".
_FAMILIES: dict[str, dict[str, str]] = {
    "ended": {lang: f"{lex.STOPPED[lang]}|{UNDONE[lang]}" for lang in ("en", "ja")},
    "completed": lex.COMPLETED,
    "planned": {lang: f"{lex.PLAN[lang]}|{lex.PURSUIT[lang]}" for lang in ("en", "ja")},
}
_COMPILED = {name: {lang: re.compile(pattern, re.IGNORECASE) for lang, pattern in by.items()}
             for name, by in _FAMILIES.items()}


def status_families(text: str) -> frozenset[str]:
    """The families of status words ``text`` holds."""
    lang = "ja" if is_japanese(text) else "en"
    return frozenset(name for name, by in _COMPILED.items() if by[lang].search(text))


def status_changed(first: str, second: str) -> bool:
    """True when one text holds a family of status words the other does not."""
    return status_families(first) != status_families(second)

"""Dedup's status rule: a plan, a pursuit or a state that one text says ended, was done or was
called off, and the other does not (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: "Rosa is flying to Tokyo on 20
October" / "Rosa's 20 October flight to Tokyo was cancelled", "will sit the exam on 14 June" /
"sat the exam on 14 June", 合格を目指している / 合格した repeat every value (the
place, the date, the thing) and add one word that changes what is true, so the cosine, the veto
and the size of the aligned difference all call them the same; saving the second only as a
duplicate would lose the news. Outcome: ``status_changed`` — the two texts differ in which of
these families of status words they hold (the 3-op classifier's lexicon):

- an ending, or a plan called off or moved (stopped, quit, cancelled, pushed back, on hold,
  もう…ない, やめた, 中止, 延期, 見送り), read as the classifier reads it
  (``refusal.stop_cues``, as ``text.ends_something``): an end word under negation goes on
  ("won't quit", "is not gonna give up", 辞めるつもりはない), and a bare negation ("will not",
  せず) is the veto's polarity, not an ending;
- a completion (passed, finished, got into, 合格, 終えた);
- a plan (will, plans to, going to, 予定, つもり) or a pursuit (studying for, applying to,
  目指して).

A paraphrase keeps its status words ("plans to" / "is going to" are one family), so it is a
narrow rule; it is never a duplicate's veto when both texts hold the same families.
Deterministic and symmetric.
"""

from __future__ import annotations

import re
from functools import lru_cache

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.refusal import stop_cues
from omoide.engine.classify.text import parse
from omoide.engine.classify.transition import UNDONE

__all__ = ["status_changed", "status_families"]

_ENDED, _COMPLETED, _PLANNED = "ended", "completed", "planned"
_UNDONE = {lang: re.compile(pattern, re.IGNORECASE) for lang, pattern in UNDONE.items()}
# Cues of a plan called off that are a negation and nothing more: "will not go" denies what
# "will go" says (the veto's polarity), and "will not quit" is no ending at all.
_BARE_NEGATION = {"en": re.compile(r"will not|not (?:going|happening)"),
                  "ja": re.compile(r"せず|しないこと")}
_OTHER = {
    _COMPLETED: {lang: re.compile(p, re.IGNORECASE) for lang, p in lex.COMPLETED.items()},
    _PLANNED: {lang: re.compile(f"{lex.PLAN[lang]}|{lex.PURSUIT[lang]}", re.IGNORECASE)
               for lang in ("en", "ja")},
}


def _ends(text: str, lang: str) -> bool:
    """An ending the classifier reads (negation-aware), or a plan called off by a word the end
    lexicon does not hold (postponed, on hold, 保留), that is not a bare negation. The end
    cues are read once: an un-negated one is an ending; a negated one hides the plan words it
    overlaps."""
    cues = stop_cues(text, lang)
    if any(negated is None for _, negated in cues):
        return True
    stops = [m.span() for m, _ in cues]
    return any(
        not _BARE_NEGATION[lang].fullmatch(m.group(0))
        and not any(start < m.end() and m.start() < end for start, end in stops)
        for m in _UNDONE[lang].finditer(text))


@lru_cache(maxsize=256)  # a new memory meets each candidate with the same text
def status_families(text: str) -> frozenset[str]:
    """The families of status words ``text`` holds."""
    sentence = parse(text)  # NFKC; English in lower case with "won't" as "will not"
    reading, lang = sentence.text, str(sentence.lang)
    found = {name for name, by in _OTHER.items() if by[lang].search(reading)}
    if _ends(reading, lang):
        found.add(_ENDED)
    return frozenset(found)


def status_changed(first: str, second: str) -> bool:
    """True when one text holds a family of status words the other does not."""
    return status_families(first) != status_families(second)

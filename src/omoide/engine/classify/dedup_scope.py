"""Dedup's negation-scope signal: a limiting, aspect or negated quantifier word added or removed
(pure).

Trigger: dedup asks whether a near-copy above the threshold is a duplicate. Why: "I don't drive
weekends" / "I don't drive every weekend", 夜は走らない / 夜しか走らない, もう運転しない / まだ運転
してる hold the same values and almost the same words, and both are negative or both positive,
so neither the veto's polarity nor the size of the aligned difference tells them apart; yet
what is denied or limited differs. Outcome: ``scope_changed`` — the two texts hold a different
number of

- limiting words (only, solely, except; しか, だけ, のみ, ばかり, 以外),
- aspect words (still, no longer, any more; もう, まだ), or
- quantifiers in a negated statement (every, each, all, always: "not … every"),

or one names a part of the day and the other none ("doesn't teach on Fridays" / "doesn't teach
on Friday afternoons", 夕方以降は緑茶を飲まない / 緑茶を飲まない): the part narrows when
something holds.

Words of frequency in a positive statement (every day / daily) are left to the veto's numbers
and times: paraphrases reword them freely; a part of the day said in other words (毎朝 / 朝は,
"every night" / "at night") is on both sides. It is a feature of the learned judge
(the judge weighs it), not a rule. Deterministic and symmetric.
"""

from __future__ import annotations

import re
from collections import Counter

from omoide.engine.lang import is_japanese

__all__ = ["scope_changed", "scope_words"]

_EN_LIMIT = re.compile(r"\b(only|solely|except)\b", re.IGNORECASE)
_EN_ASPECT = re.compile(r"\b(still|no\s+longer|any\s?more)\b", re.IGNORECASE)
_EN_QUANTIFIER = re.compile(r"\b(every|each|all|always)\b", re.IGNORECASE)
_EN_NEGATION = re.compile(r"\b(not|never|no|cannot)\b|n't\b", re.IGNORECASE)
# のみ inside a hiragana word (このみ) is not "only"
_JA_LIMIT = re.compile(r"しか|だけ|(?<![ぁ-ゖ])のみ|ばかり|以外")
_JA_ASPECT = re.compile(r"もう|まだ")
_EN_PART_OF_DAY = re.compile(
    r"\b(?:mornings?|afternoons?|evenings?|nights?|overnight|midnight"
    r"|bedtime)\b",
    re.IGNORECASE,
)
# A part of the day as a word of its own: not a meal, a paper, a nap or the sun named after one
# (朝食, 昼ご飯, 夕刊, 昼寝, 夕日), nor one evening (今夜, 昨晩, 明朝: a date, the veto's).
_JA_PART_OF_DAY = re.compile(
    r"(?<![今昨明])(?:明け方|深夜|夕方|朝|昼|夕|晩|夜)"
    r"(?!食|飯|ご飯|ごはん|御飯|刊|寝|日|焼け|顔|礼|市|霧|露|型|更かし)"
)
_SAME = {
    "solely": "only",
    "anymore": "no longer",
    "any more": "no longer",
    "each": "every",
    "しか": "only",
    "だけ": "only",
    "のみ": "only",
    "以外": "except",
}


def _found(pattern: re.Pattern[str], text: str) -> list[str]:
    words = (re.sub(r"\s+", " ", m.group()).lower() for m in pattern.finditer(text))
    return [_SAME.get(w, w) for w in words]


def scope_words(text: str) -> Counter[str]:
    """The limiting and aspect words of ``text``, and its quantifiers when it is negated."""
    if is_japanese(text):
        return Counter(_found(_JA_LIMIT, text) + _found(_JA_ASPECT, text))
    words = _found(_EN_LIMIT, text) + _found(_EN_ASPECT, text)
    if _EN_NEGATION.search(text):
        words += _found(_EN_QUANTIFIER, text)
    return Counter(words)


def _part_of_day(text: str) -> bool:
    return bool((_JA_PART_OF_DAY if is_japanese(text) else _EN_PART_OF_DAY).search(text))


def scope_changed(first: str, second: str) -> bool:
    """True when the two texts hold a different number of some scope word, or only one names
    a part of the day."""
    return scope_words(first) != scope_words(second) or _part_of_day(first) != _part_of_day(second)

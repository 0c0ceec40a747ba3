"""One named slot of one owner given another value: "X's N is V" told again with another V (pure).

A memory often names a slot of its owner and fills it: "The user's bike is a blue Raleigh",
「ユーザーの通勤手段はバスだ」, "Dana's dentist is Ana Okafor". When the new memory names the very
same slot of the same owner (the same words before the copula or the topic particle, and a
possessive in them: 's / の) and fills it with a value that shares no word with the old value,
the slot holds another value now: "The user's bike is a green Trek she bought in May";
「ユーザーの通勤手段は自転車だ」. What
the new memory adds after the value (a reason, a date, a second clause) does not matter.

``slot_refilled`` is 1 for such a pair. It is not read when either memory negates the value,
is a plan or a wish, or when the new memory adds ("also", "another", …も) or tells a past
("used to", 以前). Only (old, new) shapes are read, never particular slots or values: no list
of nouns. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.text import Sentence
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = ["SLOT_REFILL_FEATURES", "slot_refill_features", "slot_refilled"]

SLOT_REFILL_FEATURES: tuple[str, ...] = ("slot_refilled",)

# "<owner>'s <slot> is / are <value>", up to the first clause break. ``Sentence.text`` is lower
# case in English.
_EN = re.compile(r"^(?P<slot>[^,;:.]{0,40}?'s [^,;:.]{1,30}?) (?:is|are) (?:now )?"
                 r"(?P<value>[^,;:.]+)")
# 「<owner>の<slot>は<value>だ / です / で」: the slot holds の, the value ends at a clause break.
_JA = re.compile(r"^(?P<slot>[^、。はが]{1,30}?の[^、。はが]{1,15}?)(?:は|、|は、)"
                 r"(?P<value>[^、。をにがへてと]+?)(?:だ|です|である|で)(?:[、。よね]|$)")
_NEGATED = {"en": re.compile(r"\bnot\b|\bno\b|\bnever\b|n't\b|\bno longer\b"),
            "ja": re.compile(r"ない|ません|ではな|じゃな")}
_PAST = {"en": re.compile(r"\bused to\b|\bback then\b|\bformerly\b|\bwas\b|\bwere\b"),
         "ja": re.compile(r"以前|当時|昔|かつて|前は|だった|でした")}
# An English "value" that is a predicate or a bound, not a value: a verb form, an infinitive,
# a bound ("over $5,000").
_EN_NOT_VALUE = re.compile(r"^\w+ing\b|\bto\b|\b(?:over|under|more than|less than|at least"
                           r"|at most|up to|about|around)\b")
# An old value given as a bound ("within thirty minutes", 三十分以内): a new value inside it
# fills it in.
_BOUND = {"en": re.compile(r"\b(?:over|under|more than|less than|at least|at most|up to"
                           r"|within)\b"),
          "ja": re.compile(r"以内|以上|以下|未満|まで|超")}
_EN_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")
_JA_UNIT = re.compile(r"[\u3400-\u9fff々〆ヶ]+|[\u30a0-\u30ff]+|[A-Za-z0-9]+")


def slot_refilled(old: Sentence, new: Sentence) -> bool:
    """Whether ``new`` fills a slot ``old`` names for the same owner with another value."""
    lang = new.lang
    if old.lang != lang:
        return False
    for s in (old, new):
        if re.search(lex.PLAN[lang], s.text) or _NEGATED[lang].search(s.text):
            return False
    if re.search(lex.ADDITIVE[lang], new.text) or _PAST[lang].search(new.text):
        return False
    pattern = _EN if lang == "en" else _JA
    a, b = pattern.search(old.text), pattern.search(new.text)
    if not a or not b or _norm(a.group("slot"), lang) != _norm(b.group("slot"), lang) \
            or _names_a_person(a.group("slot"), lang) or _BOUND[lang].search(a.group("value")):
        return False
    if lang == "en" and any(_EN_NOT_VALUE.search(m.group("value")) for m in (a, b)):
        return False
    va, vb = _units(a.group("value"), lang), _units(b.group("value"), lang)
    return bool(va) and bool(vb) and not va & vb and not _inside(a.group("value"), b.group(
        "value"), lang)


def _names_a_person(slot: str, lang: str) -> bool:
    """A slot that is a person ("the user's brother", ユーザーの兄): what follows describes
    the person (a teenager, a doctor), one of many things true of them, not one slot's value."""
    if lang == "en":
        return slot.split()[-1] in lex.EN_PERSONS
    return any(slot.endswith(p) for p in lex.JA_PERSONS)


def _norm(slot: str, lang: str) -> str:
    return re.sub(r"\s+", " ", slot.strip()) if lang == "en" else slot.strip()


def _units(value: str, lang: str) -> set[str]:
    if lang == "en":
        return {en_lemma(w) for w in _EN_WORD.findall(value)
                if w not in FACT_TOPIC_STOPWORDS and w not in ("a", "an", "the", "now")}
    return set(_JA_UNIT.findall(value))


def _inside(old: str, new: str, lang: str) -> bool:
    """One value written inside the other (Japanese compounds: 外科 / 外科病棟)."""
    if lang == "en":
        return False
    units_old, units_new = _units(old, lang), _units(new, lang)
    return any(u in w or w in u for u in units_old for w in units_new if min(len(u), len(w)) > 1)


def slot_refill_features(old: Sentence, new: Sentence) -> list[float]:
    """``SLOT_REFILL_FEATURES`` for one pair."""
    return [float(slot_refilled(old, new))]

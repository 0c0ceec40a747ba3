"""How two memories' quantities compare (pure): a unit whose amount changed, an old bound a new
exact amount fills in, how many written values differ, and a new memory that leaves the old one's
amount alone. The quantities themselves are read by ``quantity``. No I/O.
"""

from __future__ import annotations

import re
from collections import Counter

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.quantity import Bound, Quantity, strip_quantities
from omoide.engine.classify.value_numbers import find_values
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = ["amount_untouched", "changed_units", "changed_values", "within_bound"]


def changed_units(old: tuple[Quantity, ...], new: tuple[Quantity, ...]) -> list[str]:
    """Units both memories quantify where no old value is consistent with any new value."""
    changed = []
    for unit in dict.fromkeys(q.unit for q in old):
        olds = [q for q in old if q.unit == unit]
        news = [q for q in new if q.unit == unit]
        if news and not any(_overlap(o, n) for o in olds for n in news):
            changed.append(unit)
    return changed


def within_bound(old: tuple[Quantity, ...], new: tuple[Quantity, ...]) -> bool:
    """An old amount given as a bound ("more than 20", "about 30", 3回以下) and a new exact
    amount of the same unit inside it ("26"): the new memory says what the bound left open, a
    detail of the old one, not a change of it. Under an open bound ("over 3,000", 三十分以内)
    a new rough amount inside it ("about 3,400", 二十分ほど) fills it in the same way."""
    for bound in old:
        if bound.bound is Bound.EXACT:
            continue
        low, high = bound.interval()
        filling = (
            (Bound.EXACT, Bound.ABOUT)
            if bound.bound in (Bound.AT_LEAST, Bound.AT_MOST)
            else (Bound.EXACT,)
        )
        if any(
            q.unit == bound.unit
            and q.bound in filling
            and q.value != bound.value
            and low <= q.value <= high
            for q in new
        ):
            return True
    return False


def changed_values(old: str, new: str, lang: str = "en") -> int:
    """How many written values one memory holds and the other does not (the larger side):
    "3000 m PB 9:47" → "5000 m PB 16:52" changes two (the distance and the time), "has 2 dogs" →
    "has 3 dogs" one. The quantity reader parses measured units only; this counts every
    number as ``value_numbers`` reads it (digits, number words, kanji numerals before a
    counter; a range or a clock time is one value), so a second change it does not read is
    still seen."""
    olds, news = Counter(find_values(old, lang)), Counter(find_values(new, lang))
    return max(sum((olds - news).values()), sum((news - olds).values()))


# Words that speak of how often, how much or how long: a new memory holding one may restate
# the amount in words ("only on weekends", 週末だけ), so it does not leave the amount alone.
_AMOUNT_WORDS = {
    "en": re.compile(
        r"\b(?:only|just|rarely|seldom|never|sometimes|occasionally|now|no longer|any ?more"
        r"|less|more|fewer|often|usually|always|every|each|daily|weekly|monthly|weekends?"
        r"|weekdays?|once|twice|times?|hours?|minutes?|days?|weeks?|months?|years?|stopped"
        r"|quit|cut|dropped|increased|reduced|doubled|halved)\b"
    ),
    "ja": re.compile(
        r"回|毎|たまに|時々|ときどき|だけ|しか|ほとんど|週|月|日|時間|分|年|もう|今は"
        r"|やめ|減|増|倍|半分|以上|以下|まで"
    ),
}

# Where a second clause or sentence begins: a conjunction, a clause comma or semicolon, a
# te-form or reason seam (痛めて、, ので, けど), a sentence end before the last.
_CLAUSE_BREAK = {
    "en": re.compile(
        r"[,;:!?]|\.\s+\S|\b(?:and|but|so|since|because|after|before|when|while"
        r"|until|though|although|as|now that|ever since)\b"
    ),
    "ja": re.compile(r"[てで]、|ので|から|けど|けれど|が、|し、|ため|[。！!？?](?=.)"),
}


def amount_untouched(
    old: str, new: str, old_q: tuple[Quantity, ...], new_q: tuple[Quantity, ...], lang: str
) -> bool:
    """The old memory holds an amount and the new one repeats the rest of it in one clause,
    adds an adjunct (a place, a companion, a manner: "walks the dog 4 times a day" → "walks the
    dog along the river") and says nothing of how often, how much or how long: a detail beside
    the amount, which it leaves as it was, not a changed amount. A second clause ("… since his
    co-driver left", 足を痛めて、…, a second sentence) may tell what became of the amount, so a
    new memory with one is never read so."""
    if (
        not old_q
        or new_q
        or find_values(new, lang)
        or _AMOUNT_WORDS[lang].search(new)
        or (
            re.search(lex.NEGATION[lang], new)
            or re.search(lex.STOPPED[lang], new)
            or re.search(lex.CHANGE[lang], new)
        )
        or _CLAUSE_BREAK[lang].search(new)
    ):
        return False  # a number, an amount in words, a negation, an end, a change, a clause
    rest = strip_quantities(old, lang)
    if lang == "ja":  # every kanji and katakana word of the old memory's rest is repeated
        units = set(re.findall(r"[\u3400-\u9fff々]|[\u30a0-\u30ff]{2,}", rest))
        added = set(re.findall(r"[\u3400-\u9fff々]|[\u30a0-\u30ff]{2,}", new)) - set(
            re.findall(r"[\u3400-\u9fff々]|[\u30a0-\u30ff]{2,}", old)
        )
        return bool(units) and all(u in new for u in units) and bool(added)

    def lemmas(text: str) -> set[str]:
        return {
            en_lemma(w)
            for w in re.findall(r"[a-z]+", text)
            if w not in FACT_TOPIC_STOPWORDS and len(w) > 2
        }

    units, new_units = lemmas(rest), lemmas(new)
    return bool(units) and units <= new_units and bool(new_units - lemmas(old))


def _overlap(a: Quantity, b: Quantity) -> bool:
    (a_lo, a_hi), (b_lo, b_hi) = a.interval(), b.interval()
    return a_lo <= b_hi + 1e-9 and b_lo <= a_hi + 1e-9

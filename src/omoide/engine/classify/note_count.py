"""A count a note changes: "cut down to two mornings at the pool" against "swims six mornings a
week"; 週三回パート → パートを週五回に増やした (pure).

A count claim is one quantity of ``quantity.find_quantities`` in one clause of a sentence about
its subject, with the clause's other words as its topic. The note's count must be said as a
change or as now (cut down to, down to, up to, went up, now, these days; 増やした, 減った,
になった, 今は), and the old clause must count the same unit (the noun after the number, or
the counter and period: 週N回, N匹) with no value the new one allows. A unit that is a time
word or a bare counter (days, evenings, 回, 人) needs a shared topic word too: "volunteers two
days a week" is not "works six days a week". No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.note_claim import EN_GENERIC_COUNT_UNITS, Claim
from omoide.engine.classify.quantity import Bound, Quantity, find_quantities
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = ["count_changed", "en_counts", "ja_counts"]

_EN_CHANGE = re.compile(
    r"\b(?:now|these days|cut (?:right )?(?:down|back) to|(?:down|up) to|went (?:up|down) to"
    r"|gone (?:up|down) to|increased to|reduced to|dropped to)\b"
)
_EN_RISEN = re.compile(r"^(?:is |are )?(?:up to|down to)\b")  # "is up to 9,000 litres": a value
_EN_NUMBER = re.compile(r"\b(?:\d[\d,.]*|" + "|".join(lex.EN_NUMBER_WORDS) + r")\b")
_JA_CHANGE = re.compile(r"増や|増え|減ら|減っ|になっ|に伸ば|今は|いまは|現在は")
_JA_NUMBER = re.compile(r"[週月年]?に?[\d〇一二三四五六七八九十百千万]+[^\s、。をがはにでと]{0,2}")
# A noun run: kanji or katakana followed by a particle or the clause's end, not a verb's stem
# (飼って) — a counted thing is a noun.
_JA_NOUN = re.compile(r"([\u3400-\u9fff々]+|[\u30a0-\u30ffー]{2,})(?=[をがはのにでともや、。]|$)")
_JA_NOT_TOPIC = frozenset(
    {
        "今",
        "最近",
        "現在",
        "毎日",
        "毎朝",
        "毎晩",
        "今年",
        "去年",
        "先月",
        "今月",
        "来月",
        "週",
        "月",
        "年",
        "日",
        "回",
    }
)


def en_counts(subject: str, clause: str) -> list[Claim]:
    """The counts of one lower-cased English clause about ``subject``."""
    found = find_quantities(clause, "en")
    if not found:
        return []
    words = re.findall(r"[a-z][a-z'\-]*", _EN_NUMBER.sub(" ", clause))
    topic = frozenset(
        en_lemma(w)
        for w in words
        if w not in FACT_TOPIC_STOPWORDS
        and w != subject
        and len(w) > 2
        and w not in lex.EN_TIME_WORDS
        and en_lemma(w) not in lex.EN_GENERIC_VERBS
    )
    cue = "count now" if _EN_CHANGE.search(clause) else "count"
    out = []
    for q in found:
        # one key for a unit however it was lemmatised ("evenings" → evening, "evening" → even)
        unit = q.unit if q.unit in ("freq", "age", "$") else en_lemma(en_lemma(q.unit))
        bound = Bound.EXACT if cue == "count now" and _EN_RISEN.match(clause) else q.bound
        out.append(
            Claim(
                subject,
                "count",
                unit,
                topic - {q.unit, unit},
                "count",
                cue=cue,
                amount=Quantity(q.value, unit, bound),
            )
        )
    return out


def ja_counts(subject: str, clause: str) -> list[Claim]:
    """The counts of one Japanese clause about ``subject``."""
    found = find_quantities(clause, "ja")
    if not found:
        return []
    bare = _JA_NUMBER.sub("、", clause)
    topic = frozenset(m.group(1) for m in _JA_NOUN.finditer(bare)) - _JA_NOT_TOPIC
    cue = "count now" if _JA_CHANGE.search(clause) else "count"
    return [Claim(subject, "count", q.unit, topic, "count", cue=cue, amount=q) for q in found]


def count_changed(was: Claim, now: Claim) -> bool:
    """Whether the note's count ``now`` changes the old count ``was``."""
    if (
        now.cue != "count now"
        or was.frame != now.frame
        or was.amount is None
        or now.amount is None
        or not changed_units((was.amount,), (now.amount,))
    ):
        return False
    if was.frame not in EN_GENERIC_COUNT_UNITS and re.fullmatch(r"[a-z]+", was.frame):
        return True  # a counted noun of its own: hives, weddings, litres
    return any(x == y or _inside(x, y) or _inside(y, x) for x in was.value for y in now.value)


def _inside(one: str, unit: str) -> bool:
    """A Japanese noun at the end of a longer one (猫 in 保護猫)."""
    return len(one) < len(unit) and unit.endswith(one) and not re.fullmatch(r"[a-z]+", one)

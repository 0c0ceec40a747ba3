"""A reason or a date told about the old fact, not a change of it (pure).

A new writer often saves *why* or *since when* a fact holds, in words that look like a change:
"works as a medical interpreter" → "became a medical interpreter because she translated for
her grandparents", "holds a Swiss residence permit" → "got it in January", 佐渡にUターンして五年
になる → 佐渡に戻ったのは、父が倒れたからだ. The verb of the new memory ("became", "got",
"moved", 戻った) is a change cue, but the fact it tells of is the old one: the old memory's
topic is all still there, and what the new one adds is a reason clause or a time of origin.

Two features for the learned judge, each the share of the old memory's topic units that the
new memory's *main clause* (the new memory without its reason or time phrase) repeats, given
that the new memory holds such a phrase and the old one does not; 0 otherwise:

* ``reason_about_old``: a reason or cause ("because", "since a 2021 breach", "after a trip",
  "due to", ので, から, ため, せいで, がきっかけで, and the cleft 〜たのは…からだ);
* ``date_about_old``: a time of origin or a duration up to now ("in 2016", "in January",
  "ten years ago", "for eight months now", 2022年の春, 去年から, 〜て五年, and the cleft
  〜たのは…だ).

A third is a veto, not a feature the model reads: ``reason_presupposed`` is 1 when the new
memory (and not the old) is a cleft whose focus is a cause (〜のは、…からだ / ためだ, "the
reason … is …", "that is why …") and what it presupposes tells no stop or end, nor a change
the old memory does not tell: the sentence takes the fact as holding and only says why
(``judge_signals.VETO_FEATURES``).

A new memory told as a change sets the first two to 0: an old number it drops or an amount that
moved, a negation on one side only, an end or stop cue, or a marker of a new state ("now",
"first time", "instead", 今は, 初めて): it then gives another value, not the old
one's backstory. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.classify.signals import EN_GENERIC, found_in
from omoide.engine.classify.text import Sentence, cue, parse

__all__ = ["BACKSTORY_FEATURES", "backstory_features", "main_clause", "reason_presupposed"]

BACKSTORY_FEATURES: tuple[str, ...] = ("reason_about_old", "date_about_old", "reason_presupposed")

_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november"
    r"|december|spring|summer|autumn|fall|winter"
)
# A reason clause runs from its conjunction to the end of the sentence or the next clause break.
_EN_REASON = re.compile(
    r"\b(?:because(?: of)?|due to|thanks to|as a result of|so that|after (?:a|an|the|her|his"
    r"|their|my)\b|when (?!\w+ (?:is|are)\b)|since (?:a|an|the|her|his|their|my)\b"
    r"|ever since)\b[^;.]*"
)
_EN_DATE = re.compile(
    rf"\b(?:in|since|from|back in|as of)\s+(?:early |late |mid-?)?(?:(?:{_MONTHS})(?:\s+\d{{4}})?"
    rf"|\d{{4}})\b|\b(?:last|this) (?:year|month|week|{_MONTHS})\b"
    r"|\b(?:\w+|\d+) (?:years?|months?|weeks?|days?) ago\b"
    r"|\bfor (?:like |about |almost |nearly |over )?(?:\w+|\d+) (?:years?|months?|weeks?)"
    r"(?: now)?\b|\b(?:a|one|two|\d+) (?:years?|months?) now\b"
)
_JA_CLEFT = re.compile(lex.JA_CLEFT)
_JA_CAUSE = re.compile(lex.JA_CAUSE)
_JA_REASON = re.compile(lex.JA_REASON_CLAUSE)
_JA_DATE = re.compile(lex.JA_DATE_PHRASE)
_CAUSAL_CLEFT = {"ja": re.compile(lex.JA_CAUSAL_CLEFT), "en": re.compile(lex.EN_CAUSAL_CLEFT)}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
# Words that put the new memory's fact in a new present or a first time: a change told, not
# the old fact's backstory.
_NEW_STATE = {
    "en": re.compile(
        r"\bnow\b|\bfirst time\b|\bfor the first\b|\banymore\b|\bno longer\b"
        r"|\binstead\b|\bback to\b|\bagain\b"
    ),
    "ja": re.compile(r"今は|今では|今度は|もう|初めて|初の|再び|また|代わりに|やめ|辞め"),
}


def _reason_span(sentence: Sentence) -> tuple[int, int] | None:
    text = sentence.text
    if sentence.lang == "ja":
        m = _JA_CLEFT.search(text)
        if m is not None and _JA_CAUSE.search(m.group(1) + text[m.end(1) :]):
            return m.start(1), len(text)
        m = _JA_REASON.search(text)
        return (m.start(), m.end()) if m else None
    m = _EN_REASON.search(text)
    return (m.start(), m.end()) if m else None


def _date_span(sentence: Sentence) -> tuple[int, int] | None:
    text = sentence.text
    if sentence.lang == "ja":
        m = _JA_CLEFT.search(text)
        if m is not None and _JA_DATE.search(m.group(1)):
            return m.start(1), len(text)
        m = _JA_DATE.search(text)
        return (m.start(), m.end()) if m else None
    m = _EN_DATE.search(text)
    return (m.start(), m.end()) if m else None


def main_clause(sentence: Sentence, span: tuple[int, int]) -> str:
    """The memory's text without the phrase at ``span``."""
    return sentence.text[: span[0]] + " " + sentence.text[span[1] :]


def _kept_share(old: Sentence, new: Sentence, main: str) -> float:
    """The share of the old memory's topic units found in the new memory's main clause."""
    generic = EN_GENERIC if old.lang == "en" else lex.JA_GENERIC_STEMS
    topic = [u for u in old.content if u not in generic] or list(old.content)
    if not topic:
        return 0.0
    if new.lang == "ja":
        return sum(u in main for u in topic) / len(topic)
    words = set(re.findall(r"[a-z]+", main))
    return sum(
        found_in(u, new) and (u in words or any(w.startswith(u[:4]) for w in words)) for u in topic
    ) / len(topic)


def _told_as_change(old: Sentence, new: Sentence, main: str) -> bool:
    """The new memory's main clause says the old fact changed: an old number dropped or an
    amount moved, a negation on one side only, an end or a stop, or a marker of a new state
    (the reason or time phrase itself may tell of an end: "because a bad back ended her
    rowing")."""
    clause = parse(main, new.lang)
    return (
        bool(set(_NUMBER.findall(old.text)) - set(_NUMBER.findall(new.text)))
        or bool(changed_units(old.quantities, new.quantities))
        or old.negative != clause.negative
        or cue(lex.STOPPED, clause)
        or cue(lex.ENDED, clause)
        or _NEW_STATE[new.lang].search(main) is not None
    )


def reason_presupposed(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory (not the old) is a cleft whose focus is a cause, presupposing a
    fact that tells no stop or end, nor a change the old memory does not tell (see the
    module docstring)."""
    pattern = _CAUSAL_CLEFT[new.lang]
    text = new.text.rstrip()
    m = pattern.search(text)
    if m is None or pattern.search(old.text.rstrip()) is not None:
        return False
    presupposed = text[: m.start()] if new.lang == "ja" else text
    if re.search(lex.STOPPED[new.lang], presupposed) or re.search(lex.ENDED[new.lang], presupposed):
        return False
    change = lex.CHANGE[new.lang]
    return not (re.search(change, presupposed) and not re.search(change, old.text))


def backstory_features(old: Sentence, new: Sentence) -> list[float]:
    """The BACKSTORY_FEATURES row of a pair."""
    values = []
    for span_of in (_reason_span, _date_span):
        span = span_of(new)
        if span is None or span_of(old) is not None:
            values.append(0.0)
            continue
        main = main_clause(new, span)
        values.append(0.0 if _told_as_change(old, new, main) else _kept_share(old, new, main))
    return [*values, float(reason_presupposed(old, new))]

"""Two things of one kind, told apart by an identifier in the subject (pure).

"Order #5521 has shipped" and "Order #7730 has shipped" share every word but one, and the
one that differs is an identifier (an order, invoice, ticket, case, room or issue number:
``#1234``, ``No. 12``, ``INV-2041``, 第12号, 12番, 305号室). Where it stands decides what the
pair is:

* in the **subject** (it names which thing the statement is about: English, before the main
  verb or copula; Japanese, before the first は / が), the two statements are about two things
  of one kind, and the new one cannot contradict the old;
* as the **value** (after the copula or a verb: "the user's flight is BA117", 予約したのは
  305号室だ), the statements fill one slot, and a new value may replace the old one.

``two_identified_things`` is 1 when each memory names a thing by an identifier in its subject
and the two share none: a veto, not a feature the model reads (``judge_signals.VETO_ONLY``). No I/O;
deterministic.
"""

from __future__ import annotations

import re
import unicodedata

from omoide.engine.classify.text import Sentence

__all__ = ["IDENT_FEATURES", "ident_features", "subject_identifiers", "two_identified_things"]

IDENT_FEATURES: tuple[str, ...] = ("two_identified_things",)

# Nouns that take a number as a name ("room 305", "ticket 4411"): general words for numbered
# things, read only when the number follows them directly.
_EN_NUMBERED = (
    r"order|invoice|ticket|case|room|issue|bug|claim|request|booking|reservation|flight|gate"
    r"|platform|seat|bus|route|train|chapter|section|unit|apartment|suite|policy|account"
    r"|episode|volume|version|lot|item|task|ward|bed|table|lane|locker|batch|shipment|parcel"
    r"|package|contract|project|model|file|form"
)
# A number that measures or counts, not one that names ("flight 3 hours late").
_EN_NOT_A_NAME = (
    r"(?!\s*(?:%|percent|years?|months?|weeks?|days?|hours?|minutes?|times?"
    r"|people|persons?|kg|km|miles?|am\b|pm\b|o'clock))"
)
# (``Sentence.text`` is NFKC-normalised, and lower-case in English: letters match either case.)
_LETTERED = r"[a-z]{2,}[-_]?\d+[a-z]?(?![a-z0-9])"  # inv-2041, jira-311, ba117
_EN_ID = re.compile(
    r"#\s?\d[0-9a-z-]*"  # #5521
    r"|\b(?:no|nr)\.\s?\d[0-9a-z-]*|№\s?\d[0-9a-z-]*"  # no. 12
    rf"|\b{_LETTERED}"
    rf"|\b(?:{_EN_NUMBERED})\s+\d+[a-z]?\b{_EN_NOT_A_NAME}",
    re.IGNORECASE,
)
_JA_ID = re.compile(
    r"#\s?\d[0-9a-z-]*|(?:no|nr)\.\s?\d+|№\s?\d+"
    rf"|(?<![a-z]){_LETTERED}"
    r"|第[\d一二三四五六七八九十百千]+号|\d+番(?!目)|\d+号(?:室|機|車|館|棟|線)?",
    re.IGNORECASE,
)
# English: a verb that ends the subject (an auxiliary, a copula, a past form, a modal); a
# possessive 's is not one ("the user's order").
_EN_VERB = re.compile(
    r"\b(?:is|are|am|was|were|be|been|being|has|have|had|does|do|did|will|would|can|could"
    r"|shall|should|may|might|must|got|gets|get|went|goes|made|took|bought|sent|paid|left"
    r"|[a-z]{3,}ed)\b|\b(?:it|that|he|she|there|what)['’]s\b",
    re.IGNORECASE,
)
# Japanese: the particle that ends the subject or topic (は / が, not inside a word: after a
# noun, a counter, a symbol or an honorific).
_JA_PARTICLE = re.compile(
    r"(?:(?<=[^\u3040-\u309f])|(?<=さん)|(?<=くん)|(?<=ちゃん)|(?<=さま)|(?<=たち))[はが]"
)


def subject_identifiers(sentence: Sentence) -> frozenset[str]:
    """The identifiers that stand in the subject of ``sentence`` (see the module docstring),
    each by its number (``_key``)."""
    text = sentence.text
    pattern = _JA_ID if sentence.lang == "ja" else _EN_ID
    end = _JA_PARTICLE if sentence.lang == "ja" else _EN_VERB
    found = set()
    for m in pattern.finditer(text):
        if end.search(text[: m.start()]) is None:
            found.add(_key(m.group()))
    return frozenset(found)


def _key(identifier: str) -> str:
    """The number an identifier holds, full-width digits folded ("order 5521", "#5521" and
    ＃５５２１ are one key): two forms of one number never count as two things."""
    number = re.search(
        r"\d+|[一二三四五六七八九十百千]+", unicodedata.normalize("NFKC", identifier)
    )
    return number.group() if number else identifier


def two_identified_things(old: Sentence, new: Sentence) -> bool:
    """Whether each memory names a thing by an identifier in its subject and the two name no
    identifier in common: two things of one kind, never one changed thing."""
    old_ids, new_ids = subject_identifiers(old), subject_identifiers(new)
    return bool(old_ids) and bool(new_ids) and not old_ids & new_ids


def ident_features(old: Sentence, new: Sentence) -> list[float]:
    """The IDENT_FEATURES row of a pair."""
    return [float(two_identified_things(old, new))]

"""Dedup's notation of one English text: a common word said with its everyday synonym (pure).

A part of ``dedup_notation.text_notation`` (see its docstring). Trigger: a near-copy that
swaps one common word for a synonym and keeps everything else ("moved" / "relocated", "began"
/ "started", "kids" / "children", "purchased" / "bought", "departs" / "leaves", "roughly" /
"about", "holiday" / "vacation", "tyre" / "tire"). Why: the veto read the swap as a word
replaced, and the judge weighed that against the cosine; a word of another meaning that
happens to sit in the same place (vegetarian / vegan, knee / ankle) looks the same to it.
Outcome: each word of a synonym set written as the set's first word, in both texts, so the
swap vanishes and a replaced word of another meaning does not. The sets are general English
(inflected forms listed one by one); a word whose senses differ by context ("check", "catch")
or whose swap changes a degree (like / love, often / always) is in none. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["en_synonyms"]

# Each set: the form every member is written as, then its synonyms (same part of speech and
# inflection).
_SETS: tuple[tuple[str, ...], ...] = (
    ("start", "begin", "commence"),
    ("starts", "begins", "commences"),
    ("started", "began", "commenced"),
    ("starting", "beginning", "commencing"),
    ("move", "relocate"),
    ("moves", "relocates"),
    ("moved", "relocated"),
    ("moving", "relocating"),
    ("buy", "purchase"),
    ("buys", "purchases"),
    ("bought", "purchased"),
    ("buying", "purchasing"),
    ("leave", "depart"),
    ("leaves", "departs"),
    ("left", "departed"),
    ("leaving", "departing"),
    ("need", "require"),
    ("needs", "requires"),
    ("needed", "required"),
    ("help", "assist"),
    ("helps", "assists"),
    ("helped", "assisted"),
    ("try", "attempt"),
    ("tries", "attempts"),
    ("tried", "attempted"),
    ("get", "receive", "obtain"),
    ("gets", "receives", "obtains"),
    ("think", "believe", "reckon"),
    ("thinks", "believes", "reckons"),
    ("thought", "believed", "reckoned"),
    ("called", "named"),
    ("children", "kids"),
    ("child", "kid"),
    ("grandchildren", "grandkids"),
    ("about", "around", "roughly", "approximately"),
    ("big", "large"),
    ("fast", "quick"),
    ("ill", "sick"),
    ("usually", "normally", "typically"),
    ("often", "frequently"),
    ("film", "movie"),
    ("films", "movies"),
    ("shop", "store"),
    ("shops", "stores"),
    ("holiday", "vacation"),
    ("holidays", "vacations"),
    ("flat", "apartment"),
    ("flats", "apartments"),
    ("autumn", "fall"),
    ("lift", "elevator"),
    ("maths", "math"),
    ("grey", "gray"),
    ("tyre", "tire"),
    ("tyres", "tires"),
    ("cheque", "check"),
    ("cheques", "checks"),
    ("jewellery", "jewelry"),
    ("pyjamas", "pajamas"),
    ("aluminium", "aluminum"),
    ("mobile phone", "cell phone"),
    ("car park", "parking lot"),
    ("motorway", "highway"),
    ("postcode", "zip code"),
    ("mother", "mum", "mom"),
    ("father", "dad"),
    ("mothers", "mums", "moms"),
    ("fathers", "dads"),
    ("timetable", "schedule"),
    ("rubbish", "trash", "garbage"),
    ("biscuits", "cookies"),
    # (twenty-fourth round) phrasal verbs of one meaning
    ("quit", "gave up", "given up"),
    ("quits", "gives up"),
    ("quitting", "giving up"),
    ("canceled", "called off"),
    ("closed", "shut down"),
)
# Every member but the first is rewritten, in both texts alike ("check" the verb becomes
# "cheque" in both, so a pair differs only where it did).
_FORM = {member: words[0] for words in _SETS for member in words[1:]}
# Lower case only: a capitalised word may be a name ("App Store", "Began Street").
_PATTERN = re.compile(
    r"(?<![\w-])(" + "|".join(sorted(map(re.escape, _FORM), key=len, reverse=True)) + r")(?![\w-])"
)


def en_synonyms(text: str) -> str:
    """``text`` with each lower-case word of a synonym set written as the set's first word."""
    return _PATTERN.sub(lambda m: _FORM[m.group(1)], text)

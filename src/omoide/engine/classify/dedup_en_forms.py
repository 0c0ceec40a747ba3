"""Dedup's notation of one English text: days, clocks, years and steps said another way (pure).

A part of ``dedup_notation.text_notation`` (nineteenth round), after the numbers are read in one
notation (``dedup_number_notation.one_notation``). Trigger: a near-copy that keeps every value
but writes it otherwise, where the veto saw a changed time or number: a day of the week
shortened ("Tue and Thu" / "Tuesdays and Thursdays"), a quarter to the hour ("a quarter to 10" /
"9:45"), a year shortened after a month ("August '25" / "August 2025"), a fortnight as a step
("every 2 weeks" / "fortnightly"), noon or midday as the hour (12), a sum paid "over" a number
of instalments (not more than them), and a few common phrases of one meaning (``_SAME``); the
twentieth round adds a part of an hour in words ("half an hour" / 30 minutes), a month and year
in digits (03/2026 / March 2026) and "one" before a rate ("one class per week"); the twenty-fourth
an age with "years old" or without, and a rate said with every, each, per or as an adverb
("every day" / "a day" / "daily" at the end of a clause), and a calendar date written one way
(``dedup_en_dates``: 30/06/2019 / 30 June 2019, "9th September" / "September 9").
Outcome: each written one way; a day, an hour, a year or a step that differs stays
different. Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.dedup_en_dates import en_dates
from omoide.engine.lang import EN_MONTHS

__all__ = ["en_forms"]

_DAYS = {
    "mon": "Monday",
    "tue": "Tuesday",
    "tues": "Tuesday",
    "wed": "Wednesday",
    "thu": "Thursday",
    "thur": "Thursday",
    "thurs": "Thursday",
    "fri": "Friday",
    "sat": "Saturday",
    "sun": "Sunday",
}
# A capitalised short day name, not the first word ("Sat the exam") nor after "the" ("the Sun").
_SHORT_DAY = re.compile(r"(?<!^)(?<!\bthe )\b(Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\b\.?(?![-'’])")
_QUARTER_TO = re.compile(r"\b(?:a )?quarter to (\d{1,2})\b", re.IGNORECASE)
_SHORT_YEAR = re.compile(rf"\b({'|'.join(EN_MONTHS)}) ['’](\d{{2}})\b")
_FORTNIGHT = re.compile(r"\bevery (?:2 weeks|fortnight|14 days)\b", re.IGNORECASE)
_NOON = re.compile(r"\b(?:12 )?(?:noon|midday)\b", re.IGNORECASE)
# A part of an hour in words (after ``one_notation``: "an" is "a", "three" is 3): "half an hour"
# / "30 minutes", "3-quarters of a hour" / 45 minutes, "for an hour" / "for 1 hour"
# (twentieth round).
_PART_OF_HOUR: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\b(?:a |1 )?half (?:of )?a hour\b", "30 minutes"),
        (r"\b3[- ]quarters of a hour\b", "45 minutes"),
        (r"\b(?:a |1 )?quarter of a hour\b", "15 minutes"),
        (r"\ba hour and a half\b", "90 minutes"),
        (r"\bfor a hour\b", "for 1 hour"),
    )
)
# A month and year in digits: 03/2026 / March 2026 (a month from 1 to 12, a four-digit year).
_MONTH_YEAR = re.compile(r"(?<![\d/])(0?[1-9]|1[0-2])/(\d{4})(?![\d/])")
# "one" before a unit of time and a rate: "one class per week" / "1 class per week" ("one" is left a
# word elsewhere: "one of the", "the one").
_ONE_PER = re.compile(
    r"\bone (?=(?:day|night|evening|morning|afternoon|week|weekend|month|year|"
    r"hour|session|lesson|class|shift)s? (?:a|per|every|each)\b)",
    re.IGNORECASE,
)
# One meaning in common words: "can't stand" / "hates", "is based in" / "lives in", "family
# doctor" / "general practitioner" / "GP", "each morning" / "every morning", sitting an exam /
# taking it, "gets up" / "wakes up", "expires in" / "runs out in" / "is valid until",
# "licence" / "license" (the noun's British and American spellings: defence, offence).
_SAME: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\b(I|we|they|you) can(?:'t|not| not) stand\b", r"\1 hate"),
        (r"\bcan(?:'t|not| not) stand\b", "hates"),
        (r"\b(is|are) based in\b", "lives in"),
        (r"\b(?:family doctor|general practitioner)\b", "GP"),
        (
            r"\beach (day|week|month|quarter|year|morning|afternoon|evening|night|weekend)\b",
            r"every \1",
        ),
        (r"\b(?:is|are) sitting\b(?=[\w' -]{0,40}\b(?:exam|exams|test)\b)", "is taking"),
        (r"\bsits\b(?=[\w' -]{0,40}\b(?:exam|exams|test)\b)", "takes"),
        (r"\b(?:expires|runs out|run out)(?: (?:in|on))?\b", "is valid until"),
        (r"\b(?:is|are) valid until\b", "is valid until"),
        (r"\b(licen|defen|offen|preten)ce(s)?\b", r"\1se\2"),
        (r"\bgets up\b", "wakes up"),
        (r"\bget up\b", "wake up"),
        (r"\bgot up\b", "woke up"),
        (r"\bmilligrams?\b", "mg"),
        (r"\bmillilit(?:re|er)s?\b", "ml"),
        (r"\b(?:scared|frightened) of\b", "afraid of"),
    )
)
_OVER_INSTALMENTS = re.compile(
    r"\bover(?= \d+ (?:\w+ )?(?:instalments|installments|payments)\b)", re.IGNORECASE
)


# (twenty-fourth round) an age with or without "years old" ("is 37" / "is 37 years old"), and a
# rate said with every, each or per, or as an adverb ("every day" / "a day" / "daily").
_AGE = re.compile(
    r"\b(is|am|are|was|were|turned|turns|aged)\s+([0-9]{1,3})\s+years?\s+old\b", re.IGNORECASE
)
_EVERY = re.compile(
    r"(?<!\bof )\b(?:every|each|per)\s+(day|week|month|year)\b", re.IGNORECASE
)  # not "the fourth Wednesday of every month"
_PERIOD = {
    "daily": "a day",
    "weekly": "a week",
    "monthly": "a month",
    "yearly": "a year",
    "annually": "a year",
}
_PERIODIC = re.compile(
    r"\b(daily|weekly|monthly|yearly|annually)\b(?=\s*(?:[.,;:!?)]|$))", re.IGNORECASE
)


def _quarter_to(match: re.Match[str]) -> str:
    hour = int(match.group(1))
    return f"{(hour - 1) or 12}:45" if 1 <= hour <= 24 else match.group()


def _year(match: re.Match[str]) -> str:
    century = "20" if int(match.group(2)) < 50 else "19"
    return f"{match.group(1)} {century}{match.group(2)}"


def en_forms(text: str) -> str:
    """``text`` (number words already digits) with the forms of the module docstring written
    one way."""
    text = _SHORT_DAY.sub(lambda m: _DAYS[m.group(1).lower()], text)
    text = _QUARTER_TO.sub(_quarter_to, text)
    text = _SHORT_YEAR.sub(_year, text)
    text = _FORTNIGHT.sub("every other week", text)
    text = _NOON.sub("12", text)
    for pattern, replacement in _PART_OF_HOUR:
        text = pattern.sub(replacement, text)
    text = _MONTH_YEAR.sub(lambda m: f"{EN_MONTHS[int(m.group(1)) - 1]} {m.group(2)}", text)
    text = _ONE_PER.sub("1 ", text)
    for pattern, replacement in _SAME:
        text = pattern.sub(replacement, text)
    text = en_dates(_AGE.sub(r"\1 \2", text))
    text = _EVERY.sub(r"a \1", text)
    text = _PERIODIC.sub(lambda m: _PERIOD[m.group(1).lower()], text)
    return _OVER_INSTALMENTS.sub("in", text)

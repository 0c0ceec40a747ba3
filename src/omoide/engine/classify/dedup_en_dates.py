"""Dedup's notation of one English text: a calendar date written one way (pure).

A part of ``dedup_en_forms.en_forms`` (twenty-fourth round). Trigger: a near-copy that keeps a
date but writes it otherwise: in digits ("30/06/2019", "2027-08-03", "on 14/03"), with an
ordinal ("9th September", "the 9th of September", "September 9th") or month first ("September
9, 2025"). Why: the veto reads each date's value and found no change, but the judge compared
the words and saw "06" against "June", "9th" against "9": a changed word. Outcome: each date
written "D Month" or "D Month YYYY". Digits are read day first (the British order) unless the
first number cannot be a month (08/31 is 31 August); a pair of numbers without a year is read
as a date only after "on", "by", "until", "from" or "due" (38/40 is a score, 52/36 a gear).
A date that differs stays different. Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.lang import EN_MONTHS

__all__ = ["en_dates"]

_MONTH = "|".join(EN_MONTHS)
_ISO = re.compile(r"(?<![\d/-])(\d{4})-(\d{2})-(\d{2})(?![\d/-])")
_SLASHED = re.compile(r"(?<![\d/:.])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")
_SLASHED_NO_YEAR = re.compile(
    r"\b(on|by|until|from|due|before|after)\s+(\d{1,2})/(\d{1,2})(?![\d/])", re.IGNORECASE
)
_ORDINAL_FIRST = re.compile(rf"\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)(?:\s+of)?\s+({_MONTH})\b")
# (a day after the month only with an ordinal or before a year, a stop or a small word:
# "September 2 years ago" is not a date)
_MONTH_FIRST = re.compile(
    rf"\b({_MONTH})\s+(?:the\s+)?(\d{{1,2}})(?:(?:st|nd|rd|th)\b|(?=,?\s+\d{{4}}\b|\s*[,.;:!?)]"
    rf"(?!\d)|\s*$|\s+(?:at|and|to|until|in|on|for|from|when|is|was)\b))(?:,?\s+(\d{{4}})\b)?"
)


def _date(day: int, month: int, year: str = "") -> str | None:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{day} {EN_MONTHS[month - 1]}" + (f" {year}" if year else "")


def _day_first(first: int, second: int, year: str = "") -> str | None:
    return _date(first, second, year) if second <= 12 else _date(second, first, year)


def en_dates(text: str) -> str:
    """``text`` with each calendar date written "D Month [YYYY]" (see the module docstring)."""
    text = _ISO.sub(
        lambda m: _date(int(m.group(3)), int(m.group(2)), m.group(1)) or m.group(), text
    )
    text = _SLASHED.sub(
        lambda m: _day_first(int(m.group(1)), int(m.group(2)), m.group(3)) or m.group(), text
    )
    text = _SLASHED_NO_YEAR.sub(
        lambda m: (lambda d: f"{m.group(1)} {d}" if d else m.group())(
            _day_first(int(m.group(2)), int(m.group(3)))
        ),
        text,
    )
    text = _ORDINAL_FIRST.sub(r"\1 \2", text)
    return _MONTH_FIRST.sub(
        lambda m: f"{m.group(2)} {m.group(1)}" + (f" {m.group(3)}" if m.group(3) else ""), text
    )

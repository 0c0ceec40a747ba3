"""Dedup reads a period, a rate and a sum of money in one notation (pure).

Trigger: dedup's notation (``dedup_number_notation.one_notation``, through
``dedup_formats.ja_rates`` and ``en_amounts``) reads a pair's numbers. Why: one period or rate
is written many ways, and a way the notation did not read was taken for a changed number: half
a year said as 半年 against 6か月 (半年に1回 / 6か月ごと), a month counter spelt ヶ月, カ月, ケ月
or ヵ月, "every 30 minutes" said with おき or ごと (30分おき / 30分ごと), a yearly sum said with
年間, 1年で or 年に (年間3万円 / 1年で3万円), a count of times said with 度 or 回 (1度目 / 1回目,
2度の手術 / 2回の手術); in English a sum of pounds written with a hyphen or with its pence after
the word ("a 900-pound loan" / "£900", "7 pounds 20" / "£7.20"), a rate written with an
abbreviation or a slash ("pcm", "p.a.", "/week", "per annum" / "a month", "a year", "a week") and
half a year said in words ("half-yearly", "twice-yearly", "half a year"). Outcome: each such
period, rate or sum written one way, as the rest of the notation already writes it; a value
that differs still differs (半年 / 1年, 30分おき / 1時間おき, "£7.20" / "£7.50"). Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["en_periods", "ja_periods"]

_NUMERAL_BEFORE = r"(?<![0-9.〇一二三四五六七八九十百千万何数])"
# A month counter in its other spellings (3ヶ月 / 3カ月 / 3ケ月 / 3ヵ月 / 3箇月 / 3か月).
_JA_MONTHS = re.compile(r"(?<=[0-9])(?:ヶ|カ|ケ|ヵ|箇|ヵ)月")
# 半年 is 6か月 (1年半, already 1.5年, is not read: a numeral stands before it).
_JA_HALF_YEAR = re.compile(_NUMERAL_BEFORE + r"半年")
# A step of minutes or hours said with おき is the same step said with ごと (30分おき / 30分ごと);
# a step of days is not read (1日おき is every other day, 1日ごと every day).
_JA_EVERY_STEP = re.compile(r"([0-9]+(?:\.[0-9]+)?)(分|時間)(?:おき|置き)(に)?")
# A yearly sum: 年間 (not a length: 3年間) or 1年で before a number is a rate, as 毎年 (年に is
# already read as 毎年).
_JA_YEARLY = re.compile(_NUMERAL_BEFORE + r"(?:年間|1年間?で)(?=[0-9])")
# 度 counts times as 回 does where it cannot be a temperature or an angle: one or two times
# before 目, の, も, しか, だけ, きり or a comma (1度目 / 1回目, 2度の手術 / 2回の手術).
_JA_TIMES = re.compile(r"(?<![0-9.])([12])度(?=目|の|も|しか|だけ|きり|[、。]|$)")


# A share in tenths (割) as a percentage (8割 / 八割 / 80%; 3割2分, a batting average, and 2割引,
# a discount, are left alone); a decimal written with 〇 and a middle dot (〇・8% / 0.8%).
_JA_TENTHS = re.compile(
    r"(?<![0-9.〇一二三四五六七八九十])([0-9]{1,2}|[一二三四五六七八九十])割"
    r"(?![0-9〇一二三四五六七八九]|引|増|安|高)"
)
_KANJI_DIGIT = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"十": 10}
# 半分 (a half) as the share it is, 50% (5割 / 半分 / 50%).
_JA_HALF = re.compile(r"半分")
_JA_ZERO_POINT = re.compile(r"(?<![0-9])(?:〇|0)・([0-9]+)")


def _tenths(match: re.Match[str]) -> str:
    digits = match.group(1)
    value = _KANJI_DIGIT[digits] if digits in _KANJI_DIGIT else int(digits)
    return f"{value * 10}%" if value <= 10 else match.group()


def ja_periods(text: str) -> str:
    """Japanese periods, counts of times and shares in one notation (module docstring)."""
    text = _JA_ZERO_POINT.sub(r"0.\1", text)
    text = _JA_TENTHS.sub(_tenths, text)
    text = _JA_HALF.sub("50%", text)
    text = _JA_MONTHS.sub("か月", text)
    text = _JA_HALF_YEAR.sub("6か月", text)
    text = _JA_EVERY_STEP.sub(lambda m: f"{m.group(1)}{m.group(2)}ごと{m.group(3) or ''}", text)
    text = _JA_YEARLY.sub("毎年", text)
    return _JA_TIMES.sub(r"\1回", text)


# A sum of pounds written as a compound adjective ("a 900-pound loan") is "900 lb", as the unit
# words are written (``dedup_respell.same_pounds`` then reads it as £900 where the other text
# holds £900); pounds with their pence after the word ("7 pounds 20") are £7.20.
_EN_POUND_ADJECTIVE = re.compile(r"\b([0-9]+(?:\.[0-9]+)?)-pounds?\b", re.IGNORECASE)
_EN_POUNDS_PENCE = re.compile(
    r"(?:£\s?)?\b([0-9]+) pounds? (?:and )?([0-9]{1,2})(?: ?p| pence)?\b(?! ?(?:oz|ounces?)\b)",
    re.IGNORECASE,
)
# A rate's abbreviations and slashes, as "a month", "a year", … ("£700 pcm", "£30k p.a.",
# "£12/hr", "3/week").
_EN_RATE_WORDS = re.compile(
    r"\s?(?:\b(?:pcm|per calendar month)\b|/\s?(?:month|mo|mth)\b)"
    r"|\s?(?:\bp\.a\.(?!\w)|\bper annum\b|/\s?(?:year|yr|annum)\b)"
    r"|\s?(?:\bpw\b|\bp/w\b|/\s?(?:week|wk)\b)"
    r"|\s?(?:\bp/h\b|/\s?(?:hour|hr)\b)"
    r"|\s?(?:/\s?day\b|\bp/d\b)",
    re.IGNORECASE,
)
_EN_RATE_NAME = ("month", "year", "week", "hour", "day")
# Half a year in words: "half-yearly", "twice-yearly", "biannually", "semi-annually", "every six
# months" (as the notation reads it: ``2 times a year``); "half a year" is "6 months".
_EN_TWICE_YEARLY = re.compile(
    r"\b(?:half-?yearly|twice-yearly|bi-?annually|semi-?annually|every half(?:-| )year)\b",
    re.IGNORECASE,
)
_EN_HALF_YEAR = re.compile(
    r"\b(?:half a year|a half-year|half-year)\b(?![ -]?(?:old|ly))", re.IGNORECASE
)


def _rate(match: re.Match[str]) -> str:
    words = match.group().strip().lower().lstrip("/").strip()
    for name, cues in zip(
        _EN_RATE_NAME,
        (
            ("pcm", "per calendar month", "month", "mo", "mth"),
            ("p.a.", "per annum", "year", "yr", "annum"),
            ("pw", "p/w", "week", "wk"),
            ("p/h", "hour", "hr"),
            ("day", "p/d"),
        ),
        strict=True,
    ):
        if words in cues:
            return f" a {name}"
    return match.group()


# Pence as pounds ("9 pence" / "9p" / "£0.09"); a decimal said with "point" ("14 point 2").
_EN_PENCE = re.compile(r"(?<![£.0-9])\b([0-9]{1,2}) ?(?:p|pence)\b(?![./])")
_EN_POINT = re.compile(r"\b([0-9]+) point ([0-9]+)\b", re.IGNORECASE)
# "quarterly" is ``4 times a year``; "once every 5 weeks" is "every 5 weeks"; "one weekend in 4"
# is "every 4th weekend"; "half an hour" / "a half-hour" is "30 min".
_EN_QUARTERLY = re.compile(r"\bquarterly\b", re.IGNORECASE)
_EN_ONCE_EVERY = re.compile(r"\bonce (?=every\b)", re.IGNORECASE)
_EN_ONE_IN = re.compile(
    r"\b(?:one|1) ([a-z]+) in ([0-9]+)\b(?! (?:the|a|my|our|their|his|her)\b)", re.IGNORECASE
)
# A pay rate said as a multiple of the normal one: ``time and a half`` / "1.5 times", "double
# time" / "2 times", "triple time" / "3 times".
_EN_PAY_MULTIPLE = re.compile(r"\b(time and a half|double time|triple time)\b", re.IGNORECASE)
_MULTIPLE = {"time and a half": "1.5 times", "double time": "2 times", "triple time": "3 times"}
_EN_HALF_HOUR = re.compile(r"\b(?:half an hour|a half-hour|half-hour)\b", re.IGNORECASE)
# A length of time as a compound adjective, as the plain amount ("a 12-month contract" / "a
# one-year contract" / "for 12 months"): the notation then writes 12 months as 1 years.
_EN_ONE_UNIT = re.compile(r"\bone-(year|month|week|day|hour|minute)\b", re.IGNORECASE)
_EN_UNIT_ADJECTIVE = re.compile(
    r"\b([0-9]+)-(year|month|week|day|hour|minute)s?\b(?!-)", re.IGNORECASE
)


def _ordinal(value: int) -> str:
    if value % 100 in (11, 12, 13):
        return f"{value}th"
    return f"{value}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(value % 10, 'th') }"


def en_periods(text: str) -> str:
    """English sums of pounds, rate abbreviations and half-yearly rates in one notation."""
    text = _EN_POINT.sub(r"\1.\2", text)
    text = _EN_PENCE.sub(lambda m: f"£0.{int(m.group(1)):02d}", text)
    text = _EN_QUARTERLY.sub("4 times a year", text)
    text = _EN_ONCE_EVERY.sub("", text)
    text = _EN_ONE_IN.sub(lambda m: f"every {_ordinal(int(m.group(2)))} {m.group(1)}", text)
    text = _EN_HALF_HOUR.sub("30 min", text)
    text = _EN_PAY_MULTIPLE.sub(lambda m: _MULTIPLE[m.group(1).lower()], text)
    text = _EN_ONE_UNIT.sub(r"1-\1", text)
    text = _EN_UNIT_ADJECTIVE.sub(lambda m: f"{m.group(1)} {m.group(2).lower()}s", text)
    text = _EN_POUND_ADJECTIVE.sub(r"\1 lb", text)
    text = _EN_POUNDS_PENCE.sub(lambda m: f"£{m.group(1)}.{int(m.group(2)):02d}", text)
    text = _EN_RATE_WORDS.sub(_rate, text)
    text = _EN_TWICE_YEARLY.sub("2 times a year", text)
    return _EN_HALF_YEAR.sub("6 months", text)

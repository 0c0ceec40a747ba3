"""Dedup's notation of numbers, rates and dates written more ways than one (pure).

A part of ``dedup_number_notation.one_notation`` (the fifteenth round's readings; see its
docstring), each step a function called at its place there. Trigger: a near-copy that writes one
amount, rate or date another way ("£42k" / "£42,000", "nine and a half hours" / "9.5 hours",
月に一度 / 毎月, 1日に30分 / 毎日30分, 2027-08-31 / 2027年8月31日, 15時〜24時 /
15時から24時まで, "second-hand" / "used"). Why: the veto read the two as different numbers, or
as a number on one side only, and kept a paraphrase. Outcome: the text with the amount, rate or
date written one way; a number that differs still differs (£2.4k / £2.6k, 月に一度 / 月に二度,
二か月に一度 / 毎月). Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.dedup_periods import en_periods, ja_periods
from omoide.engine.lang import EN_MONTH_ABBREVIATIONS

__all__ = [
    "en_amounts",
    "en_said_times",
    "en_scaled",
    "en_words",
    "ja_dates",
    "ja_one_oclock",
    "ja_rates",
]

# A number in thousands written with "k": "£42k" / "£42,000", "2.4k" / 2,400 (after a currency
# sign, with a decimal part or before a currency word; "a 5k run" is a distance).
_EN_THOUSANDS_K = re.compile(
    r"(?:(?<=[£$€¥₹])\s?(\d+(?:\.\d+)?)|(?<![\d.])(\d+\.\d+)|(?<![\d.])(\d+)(?=k\s+(?:dollars|pounds"
    r"|euros|yen|rupees|quid|bucks)\b))k\b",
    re.IGNORECASE,
)
# "7 and a half" is 7.5; "a month and a half" / "a day and a half" is 1.5 of them; 1年半 /
# 2時間半 is 1.5年 / 2.5時間 (5時半, a clock, is read below as 5時30分).
_EN_AND_A_HALF = re.compile(r"\b(\d+)(\s+[a-z]+)?[\s-]+and[\s-]+a[\s-]+half\b", re.IGNORECASE)
_EN_ONE_AND_A_HALF = re.compile(
    r"\ban?\s+(year|hour|day|week|month|mile|litre|liter|kilo|cup|kilometre|kilometer|metre"
    r"|meter|minute|pound|kilogram|gallon|pint)\s+and\s+a\s+half\b",
    re.IGNORECASE,
)
_JA_AND_A_HALF = re.compile(r"(\d+)(年|時間|か月|ヶ月|カ月|週間|日)半")
# "second-hand" is "used", not a second of anything; "a fortnight" is two weeks; 午後一時 is
# 13時 (一時 alone is also "for a while", left alone in ``_COUNTED``).
_EN_SECOND_HAND = re.compile(r"\bsecond[- ]?hand\b", re.IGNORECASE)
_EN_FORTNIGHT = re.compile(r"\ba\s+fortnight\b", re.IGNORECASE)
_JA_ONE_OCLOCK = re.compile(r"(午前|午後|朝|夜)一時")
# A rate said with one period or with 毎: 1日に30分 / 毎日30分, 月に1度 / 毎月, 週一 / 毎週,
# 1週間に4回 / 週に4回 (3月1日に, a date, is left alone).
_JA_PER_ONE = re.compile(
    r"(?<![月0-9〇一二三四五六七八九十])1(日|週間|か月|ヶ月|カ月|年)に?(?=[0-9])"
)
_JA_PER_ONE_PERIOD = {
    "日": "毎日",
    "週間": "毎週",
    "か月": "毎月",
    "ヶ月": "毎月",
    "カ月": "毎月",
    "年": "毎年",
}
# (thirty-first round) not after another kanji either: 正月に3人で, 先月に5回 name a month
_NOT_ONE_PERIOD = r"(?<![毎0-9〇一二三四五六七八九十半かヶカケ間\u3005\u4e00-\u9fff])"
_JA_ONCE_PER = re.compile(
    rf"{_NOT_ONE_PERIOD}([日週月年])(?:に|で)?(?:1|一)(?:度|回)(?![0-9])"
    rf"|{_NOT_ONE_PERIOD}([週月年])一(?=で|に|、|の|$)"
    r"|(?<=毎)([日週月年])(?:1|一)(?:度|回)(?![0-9])"
)

# Dates in Japanese text written with digits and slashes or hyphens, as 年月日: 2027-08-31 /
# 2027/8/31 = 2027年8月31日, 2025-06 = 2025年6月, 10/20 = 10月20日; a range with 〜 as から …
# まで (15時〜24時 = 15時から24時まで, 7/1〜10/10).
_JA_YMD = re.compile(r"(?<![\d/.-])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d/.-])")
_JA_YM = re.compile(r"(?<![\d/.-])(\d{4})[-/](\d{1,2})(?![\d/.-])")
_JA_MD = re.compile(r"(?<![\d/.-])(\d{1,2})/(\d{1,2})(?![\d/.-])")
# A clock said in words (sixteenth round): "half seven" is 7:30 (British), "twenty to midnight"
# / "quarter to nine" are 23:40 / 8:45, after a word that introduces a time ("at", "by",
# "until"; "from 5 to 10" is a range); a rate said per year: "once a year" / "annually" is
# "every year", "every 6 months" is ``2 times a year``.
_EN_TIME_WORD = r"\b(at|by|until|till|around|about|before|after|from)\s+"
_EN_HALF_HOUR = re.compile(
    _EN_TIME_WORD + r"half\s+(\d{1,2})\b(?![.:]?\d|\s*(?:%|(?:h|hours?|min|minutes?|km|kg|mi"
    r"|miles?)\b))",
    re.IGNORECASE,
)
_EN_TO_HOUR = re.compile(
    _EN_TIME_WORD.replace("|from", "") + r"(quarter|5|10|20|25)\s+to\s+"
    r"(\d{1,2}|midnight|noon)\b(?![.:]?\d)",
    re.IGNORECASE,
)
_EN_ONCE_A = re.compile(r"\bonce\s+(?:a|per|every|each)\s+(day|week|month|year)\b", re.IGNORECASE)
_EN_ANNUALLY = re.compile(r"\b(?:annually|yearly)\b", re.IGNORECASE)
_EN_EVERY_MONTHS = re.compile(r"\bevery\s+(2|3|4|6)\s+months\b", re.IGNORECASE)
# A short month name after a word that introduces a time ("in Oct." / "in October").
_EN_MONTH_AFTER = re.compile(
    r"\b(in|since|until|till|by|from|during|last|next|this|early|late)"
    rf"\s+({'|'.join(EN_MONTH_ABBREVIATIONS)})\b\.?"
)
# An amount in a smaller unit written in the larger one (after the unit words are symbols):
# 1500 m / 1.5 km, 90 min / 1.5 h, 18 months / 1.5 years.
_EN_SCALED = re.compile(r"\b(\d+)\s?(m|g|min|months)\b(?!\.\d)")
_SCALE = {
    "m": (1000, "km", 100),
    "g": (1000, "kg", 100),
    "min": (60, "h", 30),
    "months": (12, "years", 6),
}
# Japanese rates (sixteenth round): 週に3回 is 毎週3回 as 週3回 is; 2年に1回 is 2年ごとに (1年に
# 1回 毎年); 月額 is
# 月 (月額1万円 / 月1万円).
_JA_PER_PERIOD = re.compile(rf"{_NOT_ONE_PERIOD}([週月年])に(?=[0-9])")
_JA_EVERY_N = re.compile(r"([0-9]+)(年|か月|ヶ月|カ月|週間|日)に(?:1|一)(?:回|度)(?![0-9])")
_JA_AMOUNT_PER = re.compile(r"([月年])額(?=[0-9])")
_JA_RANGE = re.compile(r"([0-9時月日分]+)[〜~](翌?[0-9時月日分]+)(?!まで)")


def _thousands(match: re.Match[str]) -> str:
    value = float(next(g for g in match.groups() if g)) * 1000
    return f"{value:g}" if not value.is_integer() else str(int(value))


def _to_hour(match: re.Match[str]) -> str:
    before = {"quarter": 15}.get(match.group(2).lower()) or int(match.group(2))
    hour = {"midnight": 24, "noon": 12}.get(match.group(3).lower())
    hour = int(match.group(3)) if hour is None else hour
    return f"{match.group(1)} {hour - 1}:{60 - before:02d}"


def _scaled(match: re.Match[str]) -> str:
    value, unit = int(match.group(1)), match.group(2)
    size, larger, step = _SCALE[unit]
    if value < size or value % step:
        return match.group()
    return f"{value / size:g} {larger}"


def en_said_times(text: str) -> str:
    """A clock, a rate or a month said in words as the digits say it (after the number
    words): "half 7" as 7:30, "20 to midnight" as 23:40, "once a year" / "annually" as
    "every year", "every 6 months" as ``2 times a year``, "in Oct." as "in October"."""
    text = _EN_HALF_HOUR.sub(lambda m: f"{m.group(1)} {m.group(2)}:30", text)
    text = _EN_TO_HOUR.sub(_to_hour, text)
    text = _EN_ONCE_A.sub(r"every \1", text)
    text = _EN_ANNUALLY.sub("every year", text)
    text = _EN_EVERY_MONTHS.sub(lambda m: f"{12 // int(m.group(1))} times a year", text)
    return _EN_MONTH_AFTER.sub(lambda m: f"{m.group(1)} {EN_MONTH_ABBREVIATIONS[m.group(2)]}", text)


def en_scaled(text: str) -> str:
    """An amount in metres, grams, minutes or months written in the larger unit when it is a
    round share of one (1500 m as 1.5 km, 90 min as 1.5 h, 18 months as 1.5 years)."""
    return _EN_SCALED.sub(_scaled, text)


def _every_n(match: re.Match[str]) -> str:
    """2年に1回 as 2年ごとに; 1年に1回 as 毎年."""
    if match.group(1) == "1":
        return "毎" + _JA_PER_ONE_PERIOD[match.group(2)][1:]
    return f"{match.group(1)}{match.group(2)}ごとに"


def ja_one_oclock(text: str) -> str:
    """午後一時 / 朝一時 as 13時 / 1時 (before the kanji numbers are read)."""
    return _JA_ONE_OCLOCK.sub(r"\g<1>1時", text)


def en_words(text: str) -> str:
    """ "second-hand" as "used", "a fortnight" as "2 weeks" (before the number words)."""
    text = _EN_SECOND_HAND.sub("used", text)
    return _EN_FORTNIGHT.sub("2 weeks", text)


def en_amounts(text: str) -> str:
    """Thousands written with "k" and "… and a half" as digits (after the number words)."""
    text = en_periods(text)
    text = _EN_THOUSANDS_K.sub(_thousands, text)
    text = _EN_ONE_AND_A_HALF.sub(lambda m: f"1.5 {m.group(1)}s", text)
    return _EN_AND_A_HALF.sub(lambda m: f"{m.group(1)}.5{m.group(2) or ''}", text)


def ja_dates(text: str) -> str:
    """Dates in digits with hyphens or slashes as 年月日, a range with 〜 as から … まで."""
    text = _JA_YMD.sub(lambda m: f"{m.group(1)}年{int(m.group(2))}月{int(m.group(3))}日", text)
    text = _JA_YM.sub(lambda m: f"{m.group(1)}年{int(m.group(2))}月", text)
    text = _JA_MD.sub(lambda m: f"{int(m.group(1))}月{int(m.group(2))}日", text)
    return _JA_RANGE.sub(r"\1から\2まで", text)


def ja_rates(text: str) -> str:
    """1年半 as 1.5年, a rate over one period as 毎 (月に一度 / 毎月, 1日に30分 / 毎日30分)."""
    text = ja_periods(text)
    text = _JA_AND_A_HALF.sub(lambda m: f"{m.group(1)}.5{m.group(2)}", text)
    text = _JA_AMOUNT_PER.sub(r"\1", text)
    text = _JA_EVERY_N.sub(_every_n, text)
    text = _JA_PER_PERIOD.sub(r"毎\1", text)
    text = _JA_PER_ONE.sub(lambda m: _JA_PER_ONE_PERIOD[m.group(1)], text)
    return _JA_ONCE_PER.sub(lambda m: m.group(3) or "毎" + (m.group(1) or m.group(2)), text)

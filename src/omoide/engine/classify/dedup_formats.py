"""Dedup's notation of numbers, rates and dates written more ways than one (pure).

A part of ``dedup_veto.one_notation`` (the fifteenth round's readings; see its docstring), each
step a function called at its place there. Trigger: a near-copy that writes one amount, rate
or date another way ("£42k" / "£42,000", "seven and a half hours" / "7.5 hours", 月に一度 /
毎月, 1日に30分 / 毎日30分, 2027-08-31 / 2027年8月31日, 15時〜24時 / 15時から24時まで,
"second-hand" / "used"). Why: the veto read the two as different numbers, or as a number on
one side only, and kept a paraphrase. Outcome: the text with the amount, rate or date written
one way; a number that differs still differs (£2.4k / £2.6k, 月に一度 / 月に二度, 二か月に一度
/ 毎月). Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["en_amounts", "en_words", "ja_dates", "ja_one_oclock", "ja_rates"]

# A number in thousands written with "k": "£42k" / "£42,000", "2.4k" / 2,400 (after a currency
# sign, with a decimal part or before a currency word; "a 5k run" is a distance).
_EN_THOUSANDS_K = re.compile(
    r"(?:(?<=[£$€¥₹])\s?(\d+(?:\.\d+)?)|(?<![\d.])(\d+\.\d+)|(?<![\d.])(\d+)(?=k\s+(?:dollars|pounds"
    r"|euros|yen|rupees|quid|bucks)\b))k\b", re.IGNORECASE)
# "7 and a half" is 7.5; "a year and a half" / "an hour and a half" is 1.5 of them; 1年半 /
# 2時間半 is 1.5年 / 2.5時間 (5時半, a clock, is read below as 5時30分).
_EN_AND_A_HALF = re.compile(r"\b(\d+)(\s+[a-z]+)?\s+and\s+a\s+half\b", re.IGNORECASE)
_EN_ONE_AND_A_HALF = re.compile(r"\ban?\s+(year|hour|day|week|month|mile|litre|liter|kilo|cup)"
                                r"\s+and\s+a\s+half\b", re.IGNORECASE)
_JA_AND_A_HALF = re.compile(r"(\d+)(年|時間|か月|ヶ月|カ月|週間|日)半")
# "second-hand" is "used", not a second of anything; "a fortnight" is two weeks; 午後一時 is
# 13時 (一時 alone is also "for a while", left alone in ``_COUNTED``).
_EN_SECOND_HAND = re.compile(r"\bsecond[- ]?hand\b", re.IGNORECASE)
_EN_FORTNIGHT = re.compile(r"\ba\s+fortnight\b", re.IGNORECASE)
_JA_ONE_OCLOCK = re.compile(r"(午前|午後|朝|夜)一時")
# A rate said with one period or with 毎: 1日に30分 / 毎日30分, 月に1度 / 毎月, 週一 / 毎週,
# 1週間に4回 / 週に4回 (3月1日に, a date, is left alone).
_JA_PER_ONE = re.compile(
    r"(?<![月0-9〇一二三四五六七八九十])1(日|週間|か月|ヶ月|カ月|年)に?(?=[0-9])")
_JA_PER_ONE_PERIOD = {"日": "毎日", "週間": "毎週", "か月": "毎月", "ヶ月": "毎月", "カ月": "毎月",
                      "年": "毎年"}
_NOT_ONE_PERIOD = r"(?<![毎0-9〇一二三四五六七八九十半かヶカケ間])"
_JA_ONCE_PER = re.compile(rf"{_NOT_ONE_PERIOD}([日週月年])(?:に|で)?(?:1|一)(?:度|回)(?![0-9])"
                          rf"|{_NOT_ONE_PERIOD}([週月年])一(?=で|に|、|の|$)"
                          r"|(?<=毎)([日週月年])(?:1|一)(?:度|回)(?![0-9])")

# Dates in Japanese text written with digits and slashes or hyphens, as 年月日: 2027-08-31 /
# 2027/8/31 = 2027年8月31日, 2025-06 = 2025年6月, 10/20 = 10月20日; a range with 〜 as から …
# まで (15時〜24時 = 15時から24時まで, 7/1〜10/10).
_JA_YMD = re.compile(r"(?<![\d/.-])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d/.-])")
_JA_YM = re.compile(r"(?<![\d/.-])(\d{4})[-/](\d{1,2})(?![\d/.-])")
_JA_MD = re.compile(r"(?<![\d/.-])(\d{1,2})/(\d{1,2})(?![\d/.-])")
_JA_RANGE = re.compile(r"([0-9時月日分]+)[〜~](翌?[0-9時月日分]+)(?!まで)")


def _thousands(match: re.Match[str]) -> str:
    value = float(next(g for g in match.groups() if g)) * 1000
    return f"{value:g}" if not value.is_integer() else str(int(value))




def ja_one_oclock(text: str) -> str:
    """午後一時 / 朝一時 as 13時 / 1時 (before the kanji numbers are read)."""
    return _JA_ONE_OCLOCK.sub(r"\g<1>1時", text)


def en_words(text: str) -> str:
    """"second-hand" as "used", "a fortnight" as "2 weeks" (before the number words)."""
    text = _EN_SECOND_HAND.sub("used", text)
    return _EN_FORTNIGHT.sub("2 weeks", text)


def en_amounts(text: str) -> str:
    """Thousands written with "k" and "… and a half" as digits (after the number words)."""
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
    text = _JA_AND_A_HALF.sub(lambda m: f"{m.group(1)}.5{m.group(2)}", text)
    text = _JA_PER_ONE.sub(lambda m: _JA_PER_ONE_PERIOD[m.group(1)], text)
    return _JA_ONCE_PER.sub(lambda m: m.group(3) or "毎" + (m.group(1) or m.group(2)), text)

"""Dedup reads numbers, clocks and dates in one notation before it compares values (pure).

Trigger: dedup's veto, its learned judge and ``dedup_notation.text_notation`` read a pair's
values. Why: one number, time or date is written many ways (8万5千 / 85,000, 百七十 / 170,
一斤 / 1 斤, 令和2年 / 2020年, "14 Feb" / "February 14", "three hundred and sixty" / 360, "£42k"
/ 42,000, "nine and a half" / 9.5, 1年半 / 1.5年, 月に一度 / 毎月, 2027-08-31 / 2027年8月31日,
15時〜24時 / 15時から24時まで, "16:00" / "16", "half past 7" / 7:30, 朝7時 / 7時, 夜9時 / 21時,
"no more than" / "at most", "a decade" / "10 years"), and a spelling read as a changed number
would keep a paraphrase as a change. Outcome: each text with its numbers, clocks and dates
written one way (the veto's former section, split out in the twenty-third round); a value
that differs still differs. Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.dedup_formats import (
    en_amounts,
    en_said_times,
    en_words,
    ja_dates,
    ja_one_oclock,
    ja_rates,
)
from omoide.engine.classify.value_numbers import en_number_runs, numeral_value
from omoide.engine.lang import EN_MONTH_ABBREVIATIONS, is_japanese

__all__ = ["one_notation"]


_NUMERAL_CHARS = "0-9〇零一二三四五六七八九十百千万億"
# A run of digits and numeral kanji holding a multiplier (8万5千, 百七十, 2千); it is read only
# when it also holds a digit, so 千葉, 十分 and 百貨店 stay words.
_MULTIPLIED = re.compile(rf"[{_NUMERAL_CHARS}]*[十百千万億][{_NUMERAL_CHARS}]*")
_HAS_DIGIT = re.compile(r"[0-9〇零一二三四五六七八九]")
# A lone kanji digit before a counter, as a digit (二年生 / 2年生, 三匹 / 3匹, 一斤 / 1斤): the
# counters the classifier's reader lists and those it does not, in one list (dedup's notation
# reads it too). After another numeral it is part of a number (二十三), read above.
_COUNTERS = (
    r"年生|年|匹|人|回|歳|個|本|枚|冊|台|杯|度|件|軒|頭|羽|着|足|日|週|ヶ月|か月|カ月|"
    r"月|時間|階|斤|段|級|錠|缶|箱|袋|膳|粒|周|勝|敗|食|センチ|ミリ|リットル|キロ|"
    r"メートル|グラム"
)
_NOT_AFTER_NUMERAL = r"(?<![〇零一二三四五六七八九十百千万億0-9])"
# 時 counts hours after every digit but 一 (一時 is also "for a while", 一時的).
_COUNTED = re.compile(rf"{_NOT_AFTER_NUMERAL}([一二三四五六七八九])(?=分|(?<!一)時|{_COUNTERS})")
# A lone 十 before a counter is 10 (十歳 / 10歳); 十分 is "enough" as often as ten minutes.
_TEN = re.compile(rf"{_NOT_AFTER_NUMERAL}十(?![〇一二三四五六七八九])(?=時|{_COUNTERS})")
# "Not a single one" is a negation said with emphasis, not a count: 一人もいない is いない,
# 一度も行ったことがない is 行ったことがない, "not once visited" is "never visited".
_JA_NOT_ONE = re.compile(
    r"(?:一|1)(?:人|度|回|つ|個|匹|冊|本|枚|台|軒)も"
    r"(?=[^。、]*?(?:ない|ません|なかった|ず))"
)
_EN_NOT_ONCE = re.compile(r"\bnot\s+(?:once|even\s+once|one\s+single\s+time)\b", re.IGNORECASE)
_EN_NOT_A_SINGLE = re.compile(r"\bnot\s+(?:a\s+single|one\s+single)\b", re.IGNORECASE)
# English number words as digits, read by the one reader the veto's numbers use
# (``value_numbers_en.en_number_runs``, every ordinal): "sixty-seven" / 67, "four hundred and
# nine" / 409, "a hundred" / 100, "twelfth" / "12th", "twenty-first" / "21st", "twice" /
# "2 times". "one", "once", "first" and "second" alone are left alone: a pronoun ("the one"),
# "at one time", "at first", "second-hand" as often as a number.
_LEFT_ALONE = frozenset({"one", "once", "first", "second"})
_TIMES_WORDS = frozenset({"twice", "thrice"})
_ARTICLE_BEFORE = re.compile(r"\ba\s+$", re.IGNORECASE)
_EN_SCALE_START = re.compile(r"(?:hundred|thousand|million|dozen)\b", re.IGNORECASE)
# "every second week" is "every other week".
_EN_EVERY_SECOND = re.compile(r"\b(every)\s+second\b", re.IGNORECASE)
# "3x a day" is "3 times a day"; "the 8.15 train" / "at 8.15" is a clock time (8:15); a short
# month name before a year names the month ("Aug 2022" / "August 2022").
_EN_TIMES = re.compile(r"\b(\d+)\s?x(?= (?:a|an|per|every|each)\b)", re.IGNORECASE)
_EN_DOTTED_CLOCK = re.compile(r"\b(at|the|from|until|till) (\d{1,2})\.([0-5]\d)\b", re.IGNORECASE)
_SHORT_MONTHS = "|".join(EN_MONTH_ABBREVIATIONS)
_EN_MONTH_YEAR = re.compile(rf"\b({_SHORT_MONTHS})\.?(?= \d{{4}}\b)")
# A clock time with its half of the day, as the 24-hour clock ("9:45 pm" / "21:45", "6 a.m."
# / "eleven at night" / "23"); 午後3時 / 15時, 朝6時 / 6時.
_EN_CLOCK = re.compile(
    r"\b(\d{1,2})(?::(\d{2}))?\s*(?:o'clock\s+)?(a\.?m\.?|p\.?m\.?|in\s+the\s+morning"
    r"|in\s+the\s+afternoon|in\s+the\s+evening|at\s+night)(?![a-z])",
    re.IGNORECASE,
)
_EN_HALF_PAST = re.compile(r"\b(half|quarter)\s+past\s+(\d{1,2})\b", re.IGNORECASE)
# (毎朝 / 翌朝 7時 keep their 朝: every or next morning, then the hour)
_JA_CLOCK_HALF = re.compile(r"(午前|午後|(?<![毎今明翌昨深])(?:朝|夜|夕方))(\d{1,2})時")
_EVENING = frozenset({"pm", "intheafternoon", "intheevening", "atnight", "午後", "夜", "夕方"})
# (thirty-first round) a half of the day said once before a range covers both ends
# (午後1時から5時まで / 13時から17時まで): said again before the second hour when that hour is
# later.
_JA_CLOCK_RANGE = re.compile(
    r"(午前|午後|(?<![毎今明翌昨深])(?:朝|夜|夕方))(\d{1,2})時"
    r"((?:\d{1,2}分)?(?:から|〜|~))(\d{1,2})(?=時)"
)


def _ja_range(match: re.Match[str]) -> str:
    """A :data:`_JA_CLOCK_RANGE` match with its half of the day said before the second hour
    too, when that hour is later and under 12; else as it is."""
    half, start, end = match.group(1), int(match.group(2)), int(match.group(4))
    if not start < end < 12:
        return match.group()
    return f"{half}{start}時{match.group(3)}{half}{end}"


def _suffix(value: int) -> str:
    if value % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")


def _en_numbers(text: str) -> str:
    """English number words as digits (see ``_LEFT_ALONE``)."""
    out, last = [], 0
    for run in en_number_runs(text, every_ordinal=True):
        words = text[run.start : run.end].lower()
        if (run.words == 1 and words in _LEFT_ALONE) or not float(run.value).is_integer():
            continue
        value = int(run.value)
        written = (
            f"{value}{_suffix(value)}"
            if run.ordinal
            else f"{value} times"
            if words in _TIMES_WORDS
            else str(value)
        )
        start = run.start
        article = _ARTICLE_BEFORE.search(text, 0, start)
        if article and _EN_SCALE_START.match(words) and article.start() >= last:
            start = article.start()  # "a hundred" is one hundred
        out += [text[last:start], written]
        last = run.end
    return "".join(out) + text[last:]


def _hour(hour: int, half: str) -> int:
    """An hour of a 12-hour clock with its half (or part) of the day as a 24-hour one."""
    half = re.sub(r"[\s.]+", "", half.lower())
    if half in _EVENING and hour < 12 and not (half == "atnight" and hour < 5):
        return hour + 12
    return 0 if half == "am" and hour == 12 else hour


def _past(match: re.Match[str]) -> str:
    return f"{match.group(2)}:{30 if match.group(1).lower() == 'half' else 15}"


def _en_clock(match: re.Match[str]) -> str:
    hour = _hour(int(match.group(1)), match.group(3))
    return f"{hour}:{match.group(2)}" if match.group(2) else str(hour)


# 再来週 is the week after next (2 weeks on), not next week.
_AFTER_NEXT = re.compile(r"再来([週月年])")
# "14 Feb" names a month as "February 14" does; "a decade" is ten years.
_EN_SHORT_MONTH = re.compile(rf"(?<=\d)\s+({_SHORT_MONTHS})\b\.?")
_EN_DECADE = re.compile(r"\ba\s+decade\b", re.IGNORECASE)
# "an aisle seat" / "a window seat": the article follows the next word's sound, not a value.
_EN_AN = re.compile(r"\b([Aa])n\b")
# "no more than" is a bound, not a negation.
_EN_NO_BOUND = re.compile(r"\bno\s+(more|less|fewer)\s+than\b", re.IGNORECASE)
_EN_BOUND_WORD = {"more": "at most", "less": "at least", "fewer": "at least"}
# "65,000" is 65000; "01:00" is 1:00.
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_LEADING_ZERO_CLOCK = re.compile(r"(?<![\d.:/-])0(\d)(?=:\d\d)")
# Japanese clock times in digits, 5:30 = 5時30分.
_JA_CLOCK = re.compile(r"(\d{1,2}):(\d{2})(?!\d)")
# "16:00" is 16 o'clock; 5時半 is 5:30.
_ON_THE_HOUR = re.compile(r"(?<=\d):00(?!\d)")
_HALF_PAST = re.compile(r"(\d+)時半")
# Japanese era years: 令和2年 = 2020, 平成31年 = 2019, 昭和64年 = 1989 (元年 is year 1).
_ERA = re.compile(r"(令和|平成|昭和)(\d+|元)年")
_ERA_START = {"令和": 2018, "平成": 1988, "昭和": 1925}

# 月8万円, 週3回, 年2回: a period before a number is a rate, as 毎月 / 毎週 / 毎年 say it.
# (翌年3月, 昨年 / 去年10月, 前年: a year named, not a rate)
_RATE = re.compile(
    r"(?<![毎今先来再翌昨去前本同0-9〇一二三四五六七八九十百千万\u3005])([週月年])(?=[0-9])"
)


def _western_year(match: re.Match[str]) -> str:
    year = 1 if match.group(2) == "元" else int(match.group(2))
    return f"{_ERA_START[match.group(1)] + year}年"


def one_notation(text: str) -> str:
    """Numbers and dates in one notation: Japanese numbers written with units or before an
    unlisted counter as digits, a period before a number as a rate, 再来週 as two weeks on,
    era years as years (令和2年 = 2020年), 5時半 as 5時30分, "16:00" as "16", "14 Feb" as
    "14 February", "a decade" as "10 years", "an" as "a", "no more than" as "at most", and a
    clock in Japanese text as 時 and 分, English number words from two to ninety-nine as
    digits."""

    def whole(match: re.Match[str]) -> str:
        if not _HAS_DIGIT.search(match.group()):
            return match.group()
        value = numeral_value(match.group())
        return match.group() if value is None else str(int(value))

    text = _THOUSANDS.sub("", text)
    text = _LEADING_ZERO_CLOCK.sub(r"\1", text)
    text = ja_one_oclock(text)
    text = _MULTIPLIED.sub(whole, text)
    text = _JA_NOT_ONE.sub("", text)
    text = _COUNTED.sub(lambda m: str(int(numeral_value(m.group(1)) or 0)), text)
    text = _TEN.sub("10", text)
    text = _AFTER_NEXT.sub(r"2\1後", text)
    text = _EN_SHORT_MONTH.sub(lambda m: " " + EN_MONTH_ABBREVIATIONS[m.group(1)], text)
    text = _EN_DECADE.sub("10 years", text)
    text = _EN_AN.sub(r"\1", text)
    if not is_japanese(text):
        text = en_words(text)
        text = _EN_NOT_ONCE.sub("never", text)
        text = _EN_NOT_A_SINGLE.sub("no", text)
        text = _EN_EVERY_SECOND.sub(r"\1 other", text)
        text = _en_numbers(text)
        text = en_amounts(text)
        text = en_said_times(text)
        text = _EN_HALF_PAST.sub(_past, text)
        text = _EN_TIMES.sub(r"\1 times", text)
        text = _EN_DOTTED_CLOCK.sub(r"\1 \2:\3", text)
        text = _EN_MONTH_YEAR.sub(lambda m: EN_MONTH_ABBREVIATIONS[m.group(1)], text)
        text = _EN_CLOCK.sub(_en_clock, text)
    text = _EN_NO_BOUND.sub(lambda m: _EN_BOUND_WORD[m.group(1).lower()], text)
    if is_japanese(text):
        text = ja_dates(text)
        text = _JA_CLOCK.sub(r"\1時\2分", text)
        text = _JA_CLOCK_RANGE.sub(_ja_range, text)
        text = _JA_CLOCK_HALF.sub(lambda m: f"{_hour(int(m.group(2)), m.group(1))}時", text)
    text = _ON_THE_HOUR.sub("", text)
    text = _HALF_PAST.sub(r"\1時30分", text)
    text = _ERA.sub(_western_year, text)
    text = ja_rates(text)
    return _RATE.sub(r"毎\1", text)

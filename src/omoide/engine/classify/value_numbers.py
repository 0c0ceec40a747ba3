"""Numbers and time expressions in a short statement, read the same way in every notation (pure).

Dedup's value-change check (``value_change``) needs "3", "three", "三" and "3つ" to be
one value, "8万円" to equal "80,000円", and "June 5" to equal "6月5日": it compares values, never
spellings. Numbers become floats (month names count as their month number, so a date is the
multiset of its numbers); words that name a time without a number (weekdays, seasons, "next week",
先週, 毎朝) become canonical tokens. Kanji numerals count only before a counter (三人, 二匹, 十年),
so 一番 ("most") and 一緒 ("together") are not numbers. Only the standard library; no I/O.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["NumberRun", "blank_numbers", "en_number_runs", "find_numbers", "find_times",
           "find_values", "number_spans", "numeral_value"]


# --- English ------------------------------------------------------------------------------

_EN_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "once": 1, "twice": 2, "thrice": 3, "dozen": 12,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
            "eighty": 80, "ninety": 90}
_EN_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
# Ordinals above "tenth" ("twelfth", "twentieth"), read only when asked
# (``en_number_runs(..., every_ordinal=True)``, dedup's notation): the 3-op judge's readers
# stop at "tenth", as its features were trained.
_EN_HIGH_ORDINALS = {
    "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
    "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
    "eightieth": 80, "ninetieth": 90,
}


def _number_run_pattern(words: list[str]) -> re.Pattern[str]:
    """A run of number words: "thirty-four", "two hundred and fifty", "five"."""
    word = "|".join(sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:{word})(?:(?:[\s-]+|\s+and\s+)(?:{word}))*\b", re.IGNORECASE)


_EN_NUMBER_RUN = _number_run_pattern([*_EN_UNITS, *_EN_TENS, *_EN_SCALES])
_EN_EVERY_NUMBER_RUN = _number_run_pattern([*_EN_UNITS, *_EN_TENS, *_EN_SCALES,
                                            *_EN_HIGH_ORDINALS])
_EN_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
# Month names are capitalised; lower-case "may" and "march" are a verb. Sentence-initial "May"
# is read as the modal verb (a memory rarely opens with its month).
_FULL_MONTHS = "|".join(m.capitalize() for m in _EN_MONTHS if len(m) > 4 or m in ("may", "june",
                                                                                   "july"))
_SHORT_MONTHS = "|".join(m.capitalize() for m in _EN_MONTHS if len(m) <= 4
                         and m not in ("may", "june", "july"))
# An abbreviation ("Jan", "Dec") counts only before a day number: "Jan" is also a name.
_EN_MONTH = re.compile(rf"\b({_FULL_MONTHS}|(?:{_SHORT_MONTHS})(?=\.?\s*\d))\b\.?")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")
_DIGITS = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_EN_PM = re.compile(r"^\s*(?:p\.?\s?m\.?)(?![a-z])", re.IGNORECASE)

_EN_TIME_WORDS = {
    **{day: f"dow:{day[:3]}" for day in (
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")},
    **{f"{day}s": f"dow:{day[:3]}" for day in (
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")},
    "weekend": "weekend", "weekends": "weekend", "weekday": "weekday", "weekdays": "weekday",
    "spring": "season:spring", "summer": "season:summer", "autumn": "season:autumn",
    "winter": "season:winter",
    "today": "day:0", "tonight": "day:0", "yesterday": "day:-1", "tomorrow": "day:1",
    "morning": "part:morning", "mornings": "part:morning", "afternoon": "part:afternoon",
    "evening": "part:evening", "evenings": "part:evening", "night": "part:night",
    "nights": "part:night",
    "daily": "per:day", "weekly": "per:week", "monthly": "per:month", "yearly": "per:year",
    "annually": "per:year",
}
_EN_TIME_WORD = re.compile(rf"\b(?:{'|'.join(_EN_TIME_WORDS)})\b", re.IGNORECASE)
# "last week", "next month", "this year"; "every day", "a week", "per month", "each year".
_EN_RELATIVE = re.compile(r"\b(last|next|this)\s+(week|month|year)\b")
_EN_PERIOD = re.compile(r"\b(?:every|each|a|per)\s+(day|week|month|year)\b")
_EN_FALL = re.compile(r"\b(?:in|last|next|this|the|every)\s+fall\b")
_RELATIVE_STEP = {"last": -1, "this": 0, "next": 1}


def _en_number_run(run: str) -> float:
    """The value of a run of English number words ("two hundred and fifty" → 250)."""
    total, current = 0.0, 0.0
    for word in re.findall(r"[a-z]+", run):
        if word in _EN_UNITS:
            current += _EN_UNITS[word]
        elif word in _EN_HIGH_ORDINALS:
            current += _EN_HIGH_ORDINALS[word]
        elif word in _EN_TENS:
            current += _EN_TENS[word]
        elif word in _EN_SCALES:
            current = max(current, 1.0) * _EN_SCALES[word]
            if _EN_SCALES[word] >= 1000:
                total, current = total + current, 0.0
    return total + current


class NumberRun(NamedTuple):
    """One number written in English words: where it stands, its value, how many words."""

    start: int
    end: int
    value: float
    words: int
    ordinal: bool  # it ends in an ordinal ("twenty-first")


# Words that end a number: nothing continues "first", "twice" or "dozen" ("the first two
# weeks" is two numbers, 1 and 2), and nothing but a larger scale continues "hundred".
_EN_ORDINAL_WORDS = frozenset(("first", "second", "third", "fourth", "fifth", "sixth",
                               "seventh", "eighth", "ninth", "tenth", *_EN_HIGH_ORDINALS))
_EN_MULTIPLES = frozenset(("once", "twice", "thrice", "dozen"))
_EN_CARDINAL_UNITS = frozenset(w for w, v in _EN_UNITS.items()
                               if v < 10 and w not in _EN_ORDINAL_WORDS | _EN_MULTIPLES)
_EN_ORDINAL_UNITS = frozenset(w for w in _EN_ORDINAL_WORDS if _EN_UNITS.get(w, 10) < 10)


def _continues(prev: str, word: str) -> bool:
    """Whether ``word`` goes on the number that ``prev`` ended ("twenty" "six", "hundred"
    "and" "fifty"), rather than starting another."""
    if prev in _EN_SCALES:
        if word in _EN_SCALES:
            return _EN_SCALES[word] > _EN_SCALES[prev]
        return word not in _EN_MULTIPLES
    if prev in _EN_TENS:
        return word in _EN_SCALES or word in _EN_CARDINAL_UNITS or word in _EN_ORDINAL_UNITS
    if prev in _EN_UNITS and prev not in _EN_ORDINAL_WORDS | _EN_MULTIPLES:
        return word in _EN_SCALES
    return False


def en_number_runs(text: str, *, every_ordinal: bool = False) -> list[NumberRun]:
    """Every number written in English words, as the words it is written with: "twenty-six"
    (26, two words), "two hundred and fifty" (250), "five" (5); a run that is not one number
    is split where the number ends ("the first two weeks": 1 and 2; "one and two": 1 and 2).
    Ordinals up to "tenth" and those made with one ("twenty-first"); ``every_ordinal`` also
    reads "eleventh" … "nineteenth" and the tens' ("twentieth" … "ninetieth")."""
    runs: list[NumberRun] = []
    pattern = _EN_EVERY_NUMBER_RUN if every_ordinal else _EN_NUMBER_RUN
    for match in pattern.finditer(text):
        words = [(w.start() + match.start(), w.end() + match.start(), w.group().lower())
                 for w in re.finditer(r"[A-Za-z]+", match.group())]
        numbers: list[list[tuple[int, int, str]]] = []
        pending_and = False
        for start, end, word in words:
            if word == "and":
                pending_and = bool(numbers) and numbers[-1][-1][2] in _EN_SCALES
                continue
            if numbers and _continues(numbers[-1][-1][2], word) and (
                    not pending_and or word not in _EN_SCALES):
                numbers[-1].append((start, end, word))
            else:
                numbers.append([(start, end, word)])
            pending_and = False
        for number in numbers:
            run = " ".join(w for _, _, w in number)
            runs.append(NumberRun(number[0][0], number[-1][1], _en_number_run(run),
                                  len(number), number[-1][2] in _EN_ORDINAL_WORDS))
    return runs


def _en_spans(text: str) -> list[tuple[int, int, float]]:
    """Every number of an English statement with where it stands (digits, words, months)."""
    spans: list[tuple[int, int, float]] = []
    for match in _DIGITS.finditer(text):
        value = float(match.group().replace(",", ""))
        if value < 12 and _EN_PM.match(text[match.end():]):
            value += 12  # "7 pm" is 19:00
        spans.append((match.start(), match.end(), value))
    spans.extend((r.start, r.end, r.value) for r in en_number_runs(text))
    spans.extend((m.start(), m.end(), float(_EN_MONTHS[m.group(1).lower()]))
                 for m in _months(text))
    return spans


def _months(text: str) -> list[re.Match[str]]:
    return [m for m in _EN_MONTH.finditer(text)
            if m.group(1) != "May" or not _SENTENCE_START.search(text[: m.start()])]


def _en_times(text: str) -> set[str]:
    lower = text.lower()
    times = {_EN_TIME_WORDS[w] for w in re.findall(r"[a-z]+", lower) if w in _EN_TIME_WORDS}
    times.update(f"{unit}:{_RELATIVE_STEP[step]}" for step, unit in _EN_RELATIVE.findall(lower))
    times.update(f"per:{unit}" for unit in _EN_PERIOD.findall(lower))
    if _EN_FALL.search(lower):
        times.add("season:autumn")
    return times


# --- Japanese -----------------------------------------------------------------------------

_KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                 "七": 7, "八": 8, "九": 9, "両": 2}
_KANJI_SMALL = {"十": 10, "百": 100, "千": 1000}
_KANJI_LARGE = {"万": 10_000, "億": 100_000_000}
_KANJI_NUMERAL = "〇零一二三四五六七八九十百千万億両"
# Counters after which a kanji numeral is a number (三人, 二匹, 十年, 五キロ, 三つ).
_COUNTERS = ("人|匹|頭|羽|歳|才|回|度|個|本|冊|台|枚|杯|年|月|日|時|分|秒|週|階|件|円|点|位|倍|"
             "泊|軒|着|足|社|校|曲|品|名|組|部屋|ヶ月|か月|カ月|ヵ月|キロ|メートル|グラム|つ")
_JA_KANJI_NUMBER = re.compile(rf"(?<![\d{_KANJI_NUMERAL}])([{_KANJI_NUMERAL}]+)(?=(?:{_COUNTERS}))")
# 十分 before な/に/だ/で is "enough", not ten minutes.
_JA_ENOUGH = re.compile(r"十分(?=[なにだで])")
_JA_DIGITS = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)([万億千]?)")
_JA_PM = re.compile(r"(午後|夜)\s*$")

_JA_TIME_WORDS = {
    **{f"{day}曜{tail}": f"dow:{name}" for day, name in zip(
        "月火水木金土日", ("mon", "tue", "wed", "thu", "fri", "sat", "sun"), strict=True)
       for tail in ("", "日")},
    "週末": "weekend", "平日": "weekday",
    "今日": "day:0", "今夜": "day:0", "昨日": "day:-1", "明日": "day:1", "一昨日": "day:-2",
    "今週": "week:0", "先週": "week:-1", "来週": "week:1",
    "今月": "month:0", "先月": "month:-1", "来月": "month:1",
    "今年": "year:0", "去年": "year:-1", "昨年": "year:-1", "来年": "year:1",
    "毎日": "per:day", "毎週": "per:week", "毎月": "per:month", "毎年": "per:year",
    "毎朝": "part:morning", "毎晩": "part:night", "夕方": "part:evening", "午後": "part:afternoon",
}
_JA_TIME = re.compile("|".join(sorted(_JA_TIME_WORDS, key=len, reverse=True)))
# A lone season kanji is a season unless it is part of a longer word (春巻き, 夏目).
_JA_SEASON = re.compile(r"(?<![\u4e00-\u9fff])([春夏秋冬])(?![\u4e00-\u9fff])")
_SEASONS = {"春": "season:spring", "夏": "season:summer", "秋": "season:autumn",
            "冬": "season:winter"}


_LARGEST_NUMERAL = 10**300


def numeral_value(numeral: str) -> float | None:
    """三十四 → 34, 二千五百 → 2500, 三万 → 30000, 8万5千 → 85000 (ASCII digits count as
    digits); None for a run that is not a numeral, or too long to be a quantity (a float
    cannot hold it)."""
    total, section, digit = 0, 0, None
    for ch in numeral:
        if ch.isascii() and ch.isdigit():
            digit = int(ch) + (0 if digit is None else digit * 10)
        elif ch in _KANJI_DIGITS:
            # 二〇二六 is written digit by digit
            digit = _KANJI_DIGITS[ch] + (0 if digit is None else digit * 10)
        elif ch in _KANJI_SMALL:
            section += (1 if digit is None else digit) * _KANJI_SMALL[ch]
            digit = None
        elif ch in _KANJI_LARGE:
            total += (section + (digit or 0) or 1) * _KANJI_LARGE[ch]
            section, digit = 0, None
        else:
            return None
    value = total + section + (digit or 0)
    return float(value) if value < _LARGEST_NUMERAL else None


def _ja_spans(text: str) -> list[tuple[int, int, float]]:
    """Every number of a Japanese statement with where it stands (digits, kanji numerals)."""
    spans: list[tuple[int, int, float]] = []
    for match in _JA_DIGITS.finditer(text):
        value = float(match.group(1).replace(",", ""))
        if match.group(2):
            value *= {"万": 10_000, "億": 100_000_000, "千": 1000}[match.group(2)]
        if value < 12 and text[match.end():].startswith("時") and _JA_PM.search(
                text[: match.start()]):
            value += 12
        spans.append((match.start(), match.end(), value))
    for match in _JA_KANJI_NUMBER.finditer(_JA_ENOUGH.sub("  ", text)):
        value = numeral_value(match.group(1))
        if value is not None:
            spans.append((match.start(), match.end(), value))
    return spans


def _ja_times(text: str) -> set[str]:
    times = {_JA_TIME_WORDS[m.group()] for m in _JA_TIME.finditer(text)}
    times.update(_SEASONS[m.group(1)] for m in _JA_SEASON.finditer(text))
    return times


# --- both ---------------------------------------------------------------------------------


def _spans(text: str, lang: str) -> list[tuple[int, int, float]]:
    return sorted(_ja_spans(text) if lang == "ja" else _en_spans(text))


def number_spans(text: str, lang: str) -> list[tuple[int, int, float]]:
    """Every number of a normalised statement with where it stands: (start, end, value)."""
    return _spans(text, lang)


def find_numbers(text: str, lang: str) -> tuple[float, ...]:
    """Every number in a normalised statement (NFKC), whatever its notation, in ascending
    order and as often as it occurs: "March 3" is (3, 3), so "April 3" (3, 4) differs."""
    return tuple(sorted(v for _, _, v in _spans(text, lang)))


# Between two numbers of one written value: a range ("14–24", "3 to 4", 4〜5), a clock time
# ("2:08", 6時15分) or nothing (9万5千).
_ONE_VALUE_GAP = re.compile(r"\s*(?:[〜~–—-]|to)\s*|[:時分]|")


def find_values(text: str, lang: str) -> tuple[tuple[float, ...], ...]:
    """The written values of a statement in text order, each as the numbers it is written
    with: a range or a clock time is one value ("2:08" → (2, 8)), "has 2 dogs" → ((2,),)."""
    values: list[list[float]] = []
    last_end = -1
    for start, end, value in _spans(text, lang):
        if values and start >= last_end and _ONE_VALUE_GAP.fullmatch(text[last_end:start]):
            values[-1].append(value)
        else:
            values.append([value])
        last_end = end
    return tuple(tuple(v) for v in values)


def find_times(text: str, lang: str) -> frozenset[str]:
    """Canonical tokens for the times a statement names without a number."""
    return frozenset(_ja_times(text) if lang == "ja" else _en_times(text))


def blank_numbers(text: str, lang: str) -> str:
    """The statement with its numerals and time words replaced by spaces, so that what is
    left can be compared for names without the numbers counting twice."""
    if lang == "ja":
        text = _JA_TIME.sub(" ", text)
        text = _JA_KANJI_NUMBER.sub(lambda m: " " * len(m.group()), text)
        return re.sub(r"\d[\d,.]*[万億千]?", " ", text)
    for match in reversed(_months(text)):
        text = text[: match.start()] + " " + text[match.end():]
    text = _EN_NUMBER_RUN.sub(" ", _DIGITS.sub(" ", text))
    return _EN_TIME_WORD.sub(" ", text)

"""Japanese numbers and time words, the Japanese reader of ``value_numbers`` (pure).

Digits with a large unit (8万 → 80000), kanji numerals only before a counter (三人, 二匹, 十年:
一番 and 一緒 are not numbers; 十分 before な/に/だ/で is "enough"), 午後/夜 before a clock hour
(午後7時 → 19), and the words that name a time without a number (曜日, 先週, 毎朝, a lone
season kanji) as canonical tokens. ``value_numbers`` chooses this reader or the English one
(``value_numbers_en``) by language. Only the standard library; no I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify.lexicon import JA_KANJI_DIGITS

__all__ = ["blank_ja", "ja_spans", "ja_times", "numeral_value"]


_KANJI_DIGITS = {**JA_KANJI_DIGITS, "零": 0, "両": 2}
_KANJI_SMALL = {"十": 10, "百": 100, "千": 1000}
_KANJI_LARGE = {"万": 10_000, "億": 100_000_000}
_KANJI_NUMERAL = "〇零一二三四五六七八九十百千万億両"
# Counters after which a kanji numeral is a number (三人, 二匹, 十年, 五キロ, 三つ).
_COUNTERS = (
    "人|匹|頭|羽|歳|才|回|度|個|本|冊|台|枚|杯|年|月|日|時|分|秒|週|階|件|円|点|位|倍|"
    "泊|軒|着|足|社|校|曲|品|名|組|部屋|ヶ月|か月|カ月|ヵ月|キロ|メートル|グラム|つ"
)
_JA_KANJI_NUMBER = re.compile(rf"(?<![\d{_KANJI_NUMERAL}])([{_KANJI_NUMERAL}]+)(?=(?:{_COUNTERS}))")
# 十分 before な/に/だ/で is "enough", not ten minutes.
_JA_ENOUGH = re.compile(r"十分(?=[なにだで])")
_JA_DIGITS = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)([万億千]?)")
_JA_PM = re.compile(r"(午後|夜)\s*$")

_JA_TIME_WORDS = {
    **{
        f"{day}曜{tail}": f"dow:{name}"
        for day, name in zip(
            "月火水木金土日", ("mon", "tue", "wed", "thu", "fri", "sat", "sun"), strict=True
        )
        for tail in ("", "日")
    },
    "週末": "weekend",
    "平日": "weekday",
    "今日": "day:0",
    "今夜": "day:0",
    "昨日": "day:-1",
    "明日": "day:1",
    "一昨日": "day:-2",
    "今週": "week:0",
    "先週": "week:-1",
    "来週": "week:1",
    "今月": "month:0",
    "先月": "month:-1",
    "来月": "month:1",
    "今年": "year:0",
    "去年": "year:-1",
    "昨年": "year:-1",
    "来年": "year:1",
    "毎日": "per:day",
    "毎週": "per:week",
    "毎月": "per:month",
    "毎年": "per:year",
    "毎朝": "part:morning",
    "毎晩": "part:night",
    "夕方": "part:evening",
    "午後": "part:afternoon",
}
_JA_TIME = re.compile("|".join(sorted(_JA_TIME_WORDS, key=len, reverse=True)))
# A lone season kanji is a season unless it is part of a longer word (春巻き, 夏目).
_JA_SEASON = re.compile(r"(?<![\u4e00-\u9fff])([春夏秋冬])(?![\u4e00-\u9fff])")
_SEASONS = {
    "春": "season:spring",
    "夏": "season:summer",
    "秋": "season:autumn",
    "冬": "season:winter",
}


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


def ja_spans(text: str) -> list[tuple[int, int, float]]:
    """Every number of a Japanese statement with where it stands (digits, kanji numerals)."""
    spans: list[tuple[int, int, float]] = []
    for match in _JA_DIGITS.finditer(text):
        value = float(match.group(1).replace(",", ""))
        if match.group(2):
            value *= {"万": 10_000, "億": 100_000_000, "千": 1000}[match.group(2)]
        if (
            value < 12
            and text[match.end() :].startswith("時")
            and _JA_PM.search(text[: match.start()])
        ):
            value += 12
        spans.append((match.start(), match.end(), value))
    for match in _JA_KANJI_NUMBER.finditer(_JA_ENOUGH.sub("  ", text)):
        value = numeral_value(match.group(1))
        if value is not None:
            spans.append((match.start(), match.end(), value))
    return spans


def ja_times(text: str) -> set[str]:
    """Canonical tokens for the times a Japanese statement names without a number."""
    times = {_JA_TIME_WORDS[m.group()] for m in _JA_TIME.finditer(text)}
    times.update(_SEASONS[m.group(1)] for m in _JA_SEASON.finditer(text))
    return times


def blank_ja(text: str) -> str:
    """A Japanese statement with its numerals and time words replaced by spaces."""
    text = _JA_TIME.sub(" ", text)
    text = _JA_KANJI_NUMBER.sub(lambda m: " " * len(m.group()), text)
    return re.sub(r"\d[\d,.]*[万億千]?", " ", text)

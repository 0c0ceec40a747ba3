"""Quantities in a short memory: ages, counts, prices, frequencies, school grades (pure).

"34 years old", "35th birthday", "$1,200 a month", "twice a week", "more than 20",
"週に2回", "小学3年生", "10年以上", "月8万円". Each becomes a ``Quantity`` with a unit and a
bound, so "more than 20" → 27 reads as consistent and 29 → 30 as a change. Years (2022) and
days of the month are dates, not quantities, and are skipped. How two memories' quantities
compare (a changed unit, a bound filled in, an amount left alone) is ``quantity_compare``. No I/O.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.value_numbers import en_number_runs
from omoide.engine.lang import EN_MONTHS, FACT_TOPIC_STOPWORDS, word_set

__all__ = ["Bound", "Quantity", "find_quantities", "strip_quantities"]


class Bound(StrEnum):
    EXACT = "exact"
    AT_LEAST = "at_least"  # "more than 20", "10年以上"
    AT_MOST = "at_most"  # "less than 5", "3回以下"
    ABOUT = "about"  # "about 30", "40分ほど"


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # "age", "freq" (times per week), "$", "cat", "年", "grade:小学" …
    bound: Bound = Bound.EXACT

    def interval(self) -> tuple[float, float]:
        """The values this statement allows; "about" tolerates a quarter either way."""
        if self.bound is Bound.AT_LEAST:
            return (self.value, math.inf)
        if self.bound is Bound.AT_MOST:
            return (-math.inf, self.value)
        if self.bound is Bound.ABOUT:
            return (self.value * 0.75, self.value * 1.25)
        return (self.value, self.value)


def find_quantities(text: str, lang: str) -> tuple[Quantity, ...]:
    """All quantities in a normalised memory (English lower-case, Japanese NFKC)."""
    return _find_ja(text) if lang == "ja" else _find_en(text)


def strip_quantities(text: str, lang: str) -> str:
    """The text with its quantity expressions blanked out (so they are not topic words)."""
    if lang == "ja":
        text = _JA_FREQ_WORD.sub(" ", text)
        text = _JA_COUNT.sub(" ", _ja_digits(text))
        return re.sub(r"\d+", " ", text)
    return _EN_FREQ.sub(" ", text)


# --- English ------------------------------------------------------------------------------

_EN_PER_WEEK = {"day": 7.0, "week": 1.0, "month": 12 / 52, "year": 1 / 52}
_EN_FREQ = re.compile(
    r"\b(?P<count>once|twice|thrice|\w+ times)\s+(?:a|per|each|every)\s+"
    r"(?P<per>day|week|month|year)\b"
    r"|\bevery (?:single )?(?P<every>day|morning|night|evening|weekday|weekend|week|month|year)\b"
    r"|\b(?P<adverb>daily|nightly|weekly|monthly|yearly|annually)\b"
    r"|\bon (?P<on>weekdays|weekends)\b|\bevery other day\b"
)
_EN_EVERY = {
    "day": 7.0,
    "morning": 7.0,
    "night": 7.0,
    "evening": 7.0,
    "weekday": 5.0,
    "weekend": 1.0,
    "week": 1.0,
    "month": 12 / 52,
    "year": 1 / 52,
    "daily": 7.0,
    "nightly": 7.0,
    "weekly": 1.0,
    "monthly": 12 / 52,
    "yearly": 1 / 52,
    "annually": 1 / 52,
    "weekdays": 5.0,
    "weekends": 1.0,
}
_EN_NUMBER = r"\$?\d[\d,]*(?:\.\d+)?(?:st|nd|rd|th)?|[a-z]+"
_EN_AGE = re.compile(
    rf"\b(?P<a>{_EN_NUMBER}) years? old\b|\b(?P<b>{_EN_NUMBER}) birthday\b"
    rf"|\b(?:turned|turns|turning|aged?|age of) (?P<c>{_EN_NUMBER})\b"
)
_EN_AT_LEAST = ("more than", "over", "at least", "above", "upwards of")
_EN_AT_MOST = ("less than", "under", "fewer than", "up to", "at most", "below")
_EN_RISE_VERBS = word_set("went go goes gone moved move rose risen climbed jumped shot came")
_EN_ABOUT = ("about", "around", "roughly", "approximately", "nearly", "almost", "some")
_MONTHS = frozenset(month.lower() for month in EN_MONTHS)


def _numbers_as_digits(text: str) -> str:
    """A number written in several words as one number in digits ("twenty-six" → 26, "nine
    hundred and six" → 906, "twenty-first" → 21th), as ``value_numbers`` reads it, so it
    is not read as two numbers."""
    for run in reversed(en_number_runs(text)):
        if run.words > 1:
            digits = f"{run.value:g}" + ("th" if run.ordinal else "")
            text = text[: run.start] + digits + text[run.end :]
    return text


def _en_number(token: str) -> float | None:
    """12, $1,350, 35th, "two", "second" → the number; anything else → None."""
    token = token.removeprefix("$")
    if token in lex.EN_NUMBER_WORDS:
        return float(lex.EN_NUMBER_WORDS[token])
    if token in lex.EN_ORDINALS:
        return float(lex.EN_ORDINALS[token])
    match = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)(?:st|nd|rd|th)?", token)
    return float(match.group(1).replace(",", "")) if match else None


def _find_en(text: str) -> tuple[Quantity, ...]:
    text = _numbers_as_digits(text).replace("-", " ")
    found = _en_frequencies(text)
    for match in _EN_AGE.finditer(text):
        value = _en_number(next(g for g in match.groups() if g))
        if value is not None:
            found.append(Quantity(value, "age"))
    rest = _EN_FREQ.sub(" ", _EN_AGE.sub(" ", text))
    found.extend(_en_counts(rest))
    return tuple(found)


def _en_frequencies(text: str) -> list[Quantity]:
    found = []
    for match in _EN_FREQ.finditer(text):
        if match.group("count"):
            count = {"once": 1.0, "twice": 2.0, "thrice": 3.0}.get(match.group("count"))
            if count is None:
                count = _en_number(match.group("count").split()[0])
            if count is not None:
                found.append(Quantity(count * _EN_PER_WEEK[match.group("per")], "freq"))
        else:
            word = match.group("every") or match.group("adverb") or match.group("on")
            found.append(Quantity(_EN_EVERY.get(word or "", 3.5), "freq"))
    return found


def _en_counts(text: str) -> list[Quantity]:
    """Numbers with the noun after them ("two cats", "$1,200", "a second cat")."""
    tokens = re.findall(r"\$?\d[\d,]*(?:\.\d+)?(?:st|nd|rd|th)?|[a-z]+", text)
    found = []
    for i, tok in enumerate(tokens):
        value = _en_number(tok)
        if value is None or _is_date(tokens, i, tok, value):
            continue
        unit = "$" if tok.startswith("$") else _en_unit(tokens, i)
        if unit is not None:
            found.append(Quantity(value, unit, _en_bound(tokens, i)))
    return found


def _is_date(tokens: list[str], i: int, tok: str, value: float) -> bool:
    year = tok.isdigit() and len(tok) == 4 and 1900 <= value <= 2100
    return year or (i > 0 and tokens[i - 1] in _MONTHS)


def _en_unit(tokens: list[str], i: int) -> str | None:
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    if not nxt or nxt in FACT_TOPIC_STOPWORDS or _en_number(nxt) is not None:
        return None
    unit = en_lemma(nxt)
    return lex.UNIT_SYNONYMS.get(unit, unit)


def _en_bound(tokens: list[str], i: int) -> Bound:
    before = " ".join(tokens[max(0, i - 2) : i])
    if before == "up to" and i >= 3 and tokens[i - 3] in _EN_RISE_VERBS:
        return Bound.EXACT  # "went up to $85" is a new value, not a ceiling
    after = " ".join(tokens[i + 2 : i + 4])
    if before.endswith(_EN_AT_LEAST) or after.startswith(("or more", "plus")):
        return Bound.AT_LEAST
    if before.endswith(_EN_AT_MOST) or after.startswith(("or less", "or fewer")):
        return Bound.AT_MOST
    if before.endswith(_EN_ABOUT) or after.startswith("or so"):
        return Bound.ABOUT
    return Bound.EXACT


# --- Japanese -----------------------------------------------------------------------------

# A compound unit word is read whole (``lexicon.JA_COMPOUND_UNITS``): the counted ones
# (``JA_COUNTED_UNITS``: キロメートル, キログラム) are counters, キロ alone a kilometre
# (``UNIT_SYNONYMS``), and キロ starting another unit (600キロカロリー, 5キロワット) no counter.
_JA_KILO_OTHER = "|".join(
    word[2:]
    for word in lex.JA_COMPOUND_UNITS
    if word.startswith("キロ") and word not in lex.JA_COUNTED_UNITS
)
_JA_COUNTERS = (
    "年生|年目|年間|歳|才|年|回|匹|頭|羽|人|台|冊|円|時間|時|分|km|"
    + "|".join(lex.JA_COUNTED_UNITS)
    + f"|キロ(?!{_JA_KILO_OTHER})|kg|階|個|本|杯|ヶ月|か月"
    "|カ月|ヵ月|週間|枚|軒|件|%|パーセント|度"
)
# 一 only before counters of things: 一人 (alone), 一緒, 一番 are not counts.
_JA_KANJI_NUMBER = re.compile(
    rf"(?:[二三四五六七八九十百][一二三四五六七八九十百]*|一(?=[匹頭羽台回冊歳才本杯個枚]))"
    rf"(?=万|千|{_JA_COUNTERS})"
)
_JA_COUNT = re.compile(
    rf"(?P<pre>週に?|月に?|年に?|1日に?|一日に?)?(?P<school>小学|中学|高校|大学)?"
    rf"(?P<num>\d+(?:\.\d+)?)(?P<man>万(?:\d+千)?|千)?(?P<counter>{_JA_COUNTERS})"
    r"(?P<post>以上|以下|以内|未満|ほど|くらい|ぐらい|前後|近く|弱|強|余り|あまり"
    r"|を?超え|超|を?上回|を?下回|に満たな)?"
    r"(?P<after>前|後|ぶり|ほど前)?"
)
_JA_FREQ_WORD = re.compile(r"毎日|毎朝|毎晩|毎夜|毎週|毎月|毎年|平日|週末|隔週")
_JA_FREQ_VALUE = {
    "毎日": 7.0,
    "毎朝": 7.0,
    "毎晩": 7.0,
    "毎夜": 7.0,
    "毎週": 1.0,
    "毎月": 12 / 52,
    "毎年": 1 / 52,
    "平日": 5.0,
    "週末": 1.0,
    "隔週": 0.5,
}
_JA_PER_WEEK = {"週": 1.0, "月": 12 / 52, "年": 1 / 52, "1日": 7.0, "一日": 7.0}
_JA_BOUND = {
    "以上": Bound.AT_LEAST,
    "以下": Bound.AT_MOST,
    "以内": Bound.AT_MOST,
    "未満": Bound.AT_MOST,
    "ほど": Bound.ABOUT,
    "くらい": Bound.ABOUT,
    "ぐらい": Bound.ABOUT,
    "前後": Bound.ABOUT,
    "近く": Bound.ABOUT,
    "弱": Bound.ABOUT,
    "強": Bound.ABOUT,
    "余り": Bound.AT_LEAST,
    "あまり": Bound.AT_LEAST,
    # verbs of a bound after the amount: 三万円を超える, 5万円超, 平均を上回る, 千円に満たない
    "を超え": Bound.AT_LEAST,
    "超え": Bound.AT_LEAST,
    "超": Bound.AT_LEAST,
    "を上回": Bound.AT_LEAST,
    "上回": Bound.AT_LEAST,
    "を下回": Bound.AT_MOST,
    "下回": Bound.AT_MOST,
    "に満たな": Bound.AT_MOST,
}


def _kanji_to_int(numeral: str) -> int:
    """二十三 → 23, 十 → 10, 百 → 100 (enough for ages, counts and grades)."""
    total, digit = 0, 0
    for ch in numeral:
        if ch in lex.JA_KANJI_DIGITS:  # (no 〇: _JA_KANJI_NUMBER reads none)
            digit = lex.JA_KANJI_DIGITS[ch]
        else:
            total += (digit or 1) * (10 if ch == "十" else 100)
            digit = 0
    return total + digit


def _ja_digits(text: str) -> str:
    return _JA_KANJI_NUMBER.sub(lambda m: str(_kanji_to_int(m.group())), text)


def _find_ja(text: str) -> tuple[Quantity, ...]:
    found = [Quantity(_JA_FREQ_VALUE[m.group()], "freq") for m in _JA_FREQ_WORD.finditer(text)]
    for match in _JA_COUNT.finditer(_ja_digits(text)):
        quantity = _ja_quantity(match)
        if quantity is not None:
            found.append(quantity)
    return tuple(found)


def _ja_quantity(match: re.Match[str]) -> Quantity | None:
    value = float(match.group("num"))
    counter = match.group("counter")
    man = match.group("man") or ""
    if man.startswith("万"):
        value = value * 10000 + (float(man[1:-1]) * 1000 if len(man) > 1 else 0)
    elif man == "千":
        value *= 1000
    if match.group("after") or (counter == "年" and 1900 <= value <= 2100):
        return None  # "3年前", "2022年": dates, not amounts
    bound = _JA_BOUND.get(match.group("post") or "", Bound.EXACT)
    pre = (match.group("pre") or "").removesuffix("に")
    if counter == "回" and pre in _JA_PER_WEEK:
        return Quantity(value * _JA_PER_WEEK[pre], "freq", bound)
    if counter in ("歳", "才"):
        return Quantity(value, "age", bound)
    if match.group("school") or counter == "年生":
        return Quantity(value, f"grade:{match.group('school') or ''}", bound)
    # "月8万円" and "8万円" are one price; the period only matters for frequencies.
    return Quantity(value, lex.UNIT_SYNONYMS.get(counter, counter), bound)

"""Numbers and time expressions in a short statement, read the same way in every notation (pure).

Dedup's value-change check (``value_change``) needs "3", "three", "三" and "3つ" to be
one value, "8万円" to equal "80,000円", and "June 5" to equal "6月5日": it compares values, never
spellings. Numbers become floats (month names count as their month number, so a date is the
multiset of its numbers); words that name a time without a number (weekdays, seasons, "next week",
先週, 毎朝) become canonical tokens. Kanji numerals count only before a counter (三人, 二匹, 十年),
so 一番 ("most") and 一緒 ("together") are not numbers. This module is the face both
languages share (``value_change``, ``quantity`` and dedup's readers call it); the readers are
``value_numbers_en`` and ``value_numbers_ja``. Only the standard library; no I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify.value_numbers_en import (
    NumberRun,
    blank_en,
    en_number_runs,
    en_spans,
    en_times,
)
from omoide.engine.classify.value_numbers_ja import blank_ja, ja_spans, ja_times, numeral_value

__all__ = [
    "NumberRun",
    "blank_numbers",
    "en_number_runs",
    "find_numbers",
    "find_times",
    "find_values",
    "number_spans",
    "numeral_value",
]


def _spans(text: str, lang: str) -> list[tuple[int, int, float]]:
    return sorted(ja_spans(text) if lang == "ja" else en_spans(text))


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
    return frozenset(ja_times(text) if lang == "ja" else en_times(text))


def blank_numbers(text: str, lang: str) -> str:
    """The statement with its numerals and time words replaced by spaces, so that what is
    left can be compared for names without the numbers counting twice."""
    return blank_ja(text) if lang == "ja" else blank_en(text)

"""Absolute dates for relative ones, and a note's date suffix (pure, offline).

A note is read far from the conversation it came from, so "I went there yesterday" said on 8 May
2023 keeps its words and gains the date they mean: "yesterday (7 May 2023)". Relative dates
("yesterday", "last month", "last Saturday", 先週, 3日前) are resolved against the time the turn
was said. Month names come from a table, never from the locale. No I/O, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

from omoide.engine.lang import EN_MONTHS, EN_WEEKDAYS

__all__ = ["format_day", "resolve_relative_dates", "said_on"]


def format_day(day: datetime, *, japanese: bool) -> str:
    """``8 May 2023`` / ``2023年5月8日``, independent of the process locale."""
    if japanese:
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{day.day} {EN_MONTHS[day.month - 1]} {day.year}"


def _format_month(year: int, month: int, *, japanese: bool) -> str:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return f"{year}年{month}月" if japanese else f"{EN_MONTHS[month - 1]} {year}"


def said_on(
    when: datetime | None, *, japanese: bool, speaker: str | None = None, content: str = ""
) -> str:
    """The suffix that dates a note and, when its words do not name the speaker, says who
    said it: `` (8 May 2023)``, `` (Ken, 8 May 2023)``, ``（花子、2023年5月8日）``. Short and
    without sentence words, so that two notes said on the same day do not look alike. A note
    carries its date once: when ``content`` (its words) already holds that day in either
    language's form (a resolved "today (8 May 2023)", a day written out), the date is left out."""
    if when is not None and any(format_day(when, japanese=ja) in content for ja in (False, True)):
        when = None
    parts = [
        p for p in (speaker, None if when is None else format_day(when, japanese=japanese)) if p
    ]
    if not parts:
        return ""
    return f"（{'、'.join(parts)}）" if japanese else f" ({', '.join(parts)})"


def resolve_relative_dates(sentence: str, when: datetime, *, japanese: bool) -> str:
    """Follow each relative date with the date it means: "yesterday (7 May 2023)"."""
    rules = _JA_RULES if japanese else _EN_RULES
    out = sentence
    for pattern, resolve in rules:
        out = pattern.sub(lambda m, r=resolve: _annotate(m, r(m, when), japanese), out)
    return out


def _annotate(match: re.Match[str], resolved: str | None, japanese: bool) -> str:
    if resolved is None:
        return match.group(0)
    return f"{match.group(0)}（{resolved}）" if japanese else f"{match.group(0)} ({resolved})"


_Resolver = Callable[[re.Match[str], datetime], str | None]
_AMOUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_AMOUNTS |= {"a few": 3, "a couple of": 2, "couple of": 2, "several": 3}


def _day(offset: int) -> _Resolver:
    return lambda _m, when: format_day(when + timedelta(days=offset), japanese=False)


def _week(relation: str) -> _Resolver:
    return lambda _m, when: f"the {relation} {format_day(when, japanese=False)}"


def _month(offset: int, japanese: bool = False) -> _Resolver:
    return lambda _m, when: _format_month(when.year, when.month + offset, japanese=japanese)


def _year(offset: int, japanese: bool = False) -> _Resolver:
    return lambda _m, when: f"{when.year + offset}年" if japanese else str(when.year + offset)


def _weekday(direction: int) -> _Resolver:
    def resolve(match: re.Match[str], when: datetime) -> str:
        target = EN_WEEKDAYS.index(match.group(1).lower())
        step = (
            ((when.weekday() - target) % 7 or 7)
            if direction < 0
            else -((target - when.weekday()) % 7 or 7)
        )
        return format_day(when - timedelta(days=step), japanese=False)

    return resolve


def _ago(match: re.Match[str], when: datetime) -> str | None:
    raw = match.group(1).lower()
    amount = int(raw) if raw.isdigit() else _AMOUNTS.get(raw)
    if not amount:
        return None
    unit = match.group(2).lower()
    if unit == "day":
        return format_day(when - timedelta(days=amount), japanese=False)
    if unit == "week":
        return f"around {format_day(when - timedelta(weeks=amount), japanese=False)}"
    if unit == "month":
        return _format_month(when.year, when.month - amount, japanese=False)
    return str(when.year - amount)


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"\b{pattern}\b", re.IGNORECASE)


def _en_period(pattern: str) -> re.Pattern[str]:
    """A "last/next/this" period, unless "the" makes it a span of something else: "for the
    last week of the trip", "in the last year" are no date of their own."""
    return re.compile(rf"(?<!\bthe )\b{pattern}\b", re.IGNORECASE)


_WEEKDAY_GROUP = "(" + "|".join(EN_WEEKDAYS) + ")"
_EN_RULES: tuple[tuple[re.Pattern[str], _Resolver], ...] = (
    # "feels like (just) yesterday" is an idiom, not a date.
    (re.compile(r"(?<!like )(?<!like just )\b(?:yesterday|last night)\b", re.IGNORECASE), _day(-1)),
    (_en("today|tonight|this morning|this afternoon|this evening"), _day(0)),
    (_en("tomorrow"), _day(1)),
    (_en_period("last week"), _week("week before")),
    (_en_period("next week"), _week("week after")),
    (_en_period("(?:last|this past) weekend"), _week("weekend before")),
    (_en_period("(?:this|next|this coming) weekend"), _week("weekend after")),
    (_en_period("last month"), _month(-1)),
    (_en("this month"), _month(0)),
    (_en_period("next month"), _month(1)),
    (_en_period("last year"), _year(-1)),
    (_en("this year"), _year(0)),
    (_en_period("next year"), _year(1)),
    (
        _en(
            r"(\d+|an?|one|two|three|four|five|six|a few|(?:a )?couple of|several)\s+"
            r"(day|week|month|year)s?\s+ago"
        ),
        _ago,
    ),
    (_en(rf"(?:last|this past)\s+{_WEEKDAY_GROUP}"), _weekday(-1)),
    (_en(rf"(?:next|this coming)\s+{_WEEKDAY_GROUP}"), _weekday(1)),
)


def _ja_day(offset: int) -> _Resolver:
    return lambda _m, when: format_day(when + timedelta(days=offset), japanese=True)


def _ja_week(relation: str) -> _Resolver:
    return lambda _m, when: f"{format_day(when, japanese=True)}の{relation}"


def _ja_ago(match: re.Match[str], when: datetime) -> str | None:
    amount, unit = int(match.group(1)), match.group(2)
    if unit == "日":
        return format_day(when - timedelta(days=amount), japanese=True)
    if unit == "週間":
        return f"{format_day(when - timedelta(weeks=amount), japanese=True)}頃"
    if unit in {"か月", "ヶ月", "ヵ月", "カ月"}:
        return _format_month(when.year, when.month - amount, japanese=True)
    return f"{when.year - amount}年"


_JA_RULES: tuple[tuple[re.Pattern[str], _Resolver], ...] = (
    (re.compile(r"昨日|昨夜|昨晩"), _ja_day(-1)),
    (re.compile(r"今日|今朝|今夜|今晩"), _ja_day(0)),
    (re.compile(r"明日"), _ja_day(1)),
    (re.compile(r"先週末?"), _ja_week("前の週")),
    (re.compile(r"来週末?"), _ja_week("次の週")),
    (re.compile(r"先月"), _month(-1, japanese=True)),
    (re.compile(r"今月"), _month(0, japanese=True)),
    (re.compile(r"来月"), _month(1, japanese=True)),
    (re.compile(r"去年|昨年"), _year(-1, japanese=True)),
    (re.compile(r"今年"), _year(0, japanese=True)),
    (re.compile(r"来年"), _year(1, japanese=True)),
    (re.compile(r"(\d+)\s*(日|週間|か月|ヶ月|ヵ月|カ月|年)前"), _ja_ago),
)

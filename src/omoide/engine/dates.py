"""Natural-language date ranges for search filters: "last week", "先週", "2026-03-01..2026-03-15".

Pure: ``now`` and the user's time zone come in as arguments; no clock, no I/O. Calendar units
are taken in the user's zone ("today" in Asia/Tokyo starts at 00:00 JST) and the result is
converted to UTC. Ranges are half-open, [start, end). Weeks start on Monday (ISO 8601) in both
languages. "N days/weeks/months/years ago" (N日前, N週間前, Nヶ月前, N年前) is the whole calendar
unit N units back: "3 days ago" is that calendar day, "2 weeks ago" the Monday-to-Monday week two
weeks before this one, "2 months ago" that calendar month. "last/past N days" (過去N日, 直近N日)
is rolling: the N whole days ending with today. ISO ranges include both ends; an ISO time in a
range carries its UTC offset (a time of day without one is refused, as everywhere in the API,
while a date, month or year is a calendar unit of the user's zone). Text this module
cannot read raises ``DateRangeError`` listing ``ACCEPTED_FORMS``; nothing is ignored silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from enum import StrEnum

from omoide.engine.errors import DateRangeError, EngineValueError, ParameterError, quoted
from omoide.engine.width import half_width

__all__ = ["ACCEPTED_FORMS", "DateRange", "local_day", "parse_date_range"]

ACCEPTED_FORMS: tuple[str, ...] = (
    "today",
    "yesterday",
    "day before yesterday",
    "this week / last week (weeks start on Monday)",
    "this month / last month",
    "this year / last year",
    "N days ago / N weeks ago / N months ago / N years ago",
    "last N days / past N days",
    "YYYY / YYYY-MM / YYYY-MM-DD",
    "A..B or A/B (A, B: YYYY, YYYY-MM, YYYY-MM-DD or an ISO timestamp with its offset; "
    "both ends included)",
    "今日 / 昨日 / 一昨日 (おととい)",
    "今週 / 先週 / 先々週",
    "今月 / 先月 / 先々月",
    "今年 / 去年 (昨年) / 一昨年",
    "N日前 / N週間前 / Nヶ月前 (か月, カ月, ケ月) / N年前",
    "過去N日 / 直近N日",
)


class _Unit(StrEnum):
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    YEAR = "year"


@dataclass(frozen=True)
class DateRange:
    """A half-open interval [start, end) of UTC-aware datetimes."""

    start: datetime
    end: datetime

    def contains(self, when: datetime) -> bool:
        return self.start <= when < self.end


# Fixed phrases: (unit, how many units before the one that contains today).
_PHRASES: dict[str, tuple[_Unit, int]] = {
    "today": (_Unit.DAY, 0),
    "yesterday": (_Unit.DAY, 1),
    "day before yesterday": (_Unit.DAY, 2),
    "this week": (_Unit.WEEK, 0),
    "last week": (_Unit.WEEK, 1),
    "this month": (_Unit.MONTH, 0),
    "last month": (_Unit.MONTH, 1),
    "this year": (_Unit.YEAR, 0),
    "last year": (_Unit.YEAR, 1),
    "今日": (_Unit.DAY, 0),
    "きょう": (_Unit.DAY, 0),
    "本日": (_Unit.DAY, 0),
    "昨日": (_Unit.DAY, 1),
    "きのう": (_Unit.DAY, 1),
    "一昨日": (_Unit.DAY, 2),
    "おととい": (_Unit.DAY, 2),
    "今週": (_Unit.WEEK, 0),
    "先週": (_Unit.WEEK, 1),
    "先々週": (_Unit.WEEK, 2),
    "今月": (_Unit.MONTH, 0),
    "先月": (_Unit.MONTH, 1),
    "先々月": (_Unit.MONTH, 2),
    "今年": (_Unit.YEAR, 0),
    "去年": (_Unit.YEAR, 1),
    "昨年": (_Unit.YEAR, 1),
    "一昨年": (_Unit.YEAR, 2),
    "おととし": (_Unit.YEAR, 2),
}

_KANJI_DIGITS = "一二三四五六七八九"
# ASCII digits (full-width ones are folded to ASCII by ``half_width`` first) or a kanji numeral
# 1..99.
_NUM = rf"([0-9]+|[{_KANJI_DIGITS}]?十[{_KANJI_DIGITS}]?|[{_KANJI_DIGITS}])"
_AGO: tuple[tuple[re.Pattern[str], _Unit], ...] = (
    (re.compile(rf"{_NUM} days? ago"), _Unit.DAY),
    (re.compile(rf"{_NUM} weeks? ago"), _Unit.WEEK),
    (re.compile(rf"{_NUM} months? ago"), _Unit.MONTH),
    (re.compile(rf"{_NUM} years? ago"), _Unit.YEAR),
    (re.compile(rf"{_NUM} ?日前"), _Unit.DAY),
    (re.compile(rf"{_NUM} ?週間?前"), _Unit.WEEK),
    (re.compile(rf"{_NUM} ?[かカヵケヶ箇ｶｹ]月前"), _Unit.MONTH),  # ｶ, ｹ: half-width kana
    (re.compile(rf"{_NUM} ?年前"), _Unit.YEAR),
)
_ROLLING_DAYS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"(?:last|past) {_NUM} days?"),
    re.compile(rf"(?:過去|直近) ?{_NUM} ?日間?"),
)
_RANGE_SEPARATOR = re.compile(r" ?(?:\.\.|/|〜|~) ?")
_ISO_YEAR = re.compile(r"[0-9]{4}")
_ISO_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ISO_STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9].*")


def parse_date_range(text: str, *, now: datetime, tz: tzinfo) -> DateRange:
    """Read ``text`` (English or Japanese, see ``ACCEPTED_FORMS``) as a UTC range [start, end).

    ``now`` must be timezone-aware; calendar units are those of ``tz``.
    """
    if now.tzinfo is None:
        raise ParameterError("now must be timezone-aware", field="now")
    # Full-width digits, letters, signs and tildes ("３日前", "ｔｏｄａｙ", "～") are read as
    # ASCII (``half_width``, the one fold of a typed value, as every timestamp and number the
    # API reads): a superscript "²" or a circled "①", which NFKC also folded, stays refused.
    normal = " ".join(half_width(text).split())
    try:
        span = _relative(normal.casefold(), now.astimezone(tz).date(), text)
        found = _to_utc(span, tz) if span else _iso_range(normal.upper(), tz)
    except EngineValueError:
        raise
    except _NoOffset as exc:
        raise DateRangeError(
            f"date range {quoted(text)}: the time {quoted(exc.args[0])} has no UTC offset, so the "
            f"instant it names is unknown; add Z or the offset, e.g. '{exc.args[0]}Z' or "
            f"'{exc.args[0]}+09:00', or give whole days (read in the persona's time zone)",
            field="date_range",
        ) from None
    except _NotCalendar as exc:
        raise DateRangeError(
            f"date range {quoted(text)}: {quoted(exc.args[0])} is not a valid calendar date (a "
            f"month 01-12, a day that month has, a time 00:00-23:59:59, years 0001-9999); "
            f"accepted forms: {_forms()}",
            field="date_range",
        ) from None
    except (ValueError, OverflowError) as exc:
        raise DateRangeError(
            f"date range {quoted(text)} reaches outside the calendar (years 0001-9999): give "
            f"a smaller N or a date in those years; accepted forms: {_forms()}",
            field="date_range",
        ) from exc
    if found is None:
        raise DateRangeError(
            f"cannot read {quoted(text)} as a date range; accepted forms: {_forms()}",
            field="date_range",
        )
    if found.start == found.end:
        raise DateRangeError(
            f"date range {quoted(text)} is a single instant, a range without time in it: "
            f"give a start and an end, A..B (e.g. 2026-03-01T09:00Z..2026-03-01T18:00Z), or "
            f"a whole day, month or year (2026-03-01, 2026-03, 2026)",
            field="date_range",
        )
    if found.start > found.end:
        raise DateRangeError(
            f"date range {quoted(text)} ends before it starts: give the earlier end first, "
            f"A..B (e.g. 2026-03-01..2026-03-15)",
            field="date_range",
        )
    return found


class _NoOffset(ValueError):
    """An ISO time of day without its UTC offset (the argument: that time as written)."""


class _NotCalendar(ValueError):
    """An ISO date or time that names no real day or time (the argument: that part)."""


def _forms() -> str:
    return "; ".join(ACCEPTED_FORMS)


def _relative(key: str, today: date, original: str) -> tuple[date, date] | None:
    """Local [first day, day after last) for a phrase relative to ``today``, else None."""
    if key in _PHRASES:
        return _calendar_unit(today, *_PHRASES[key])
    for pattern, unit in _AGO:
        if match := pattern.fullmatch(key):
            return _calendar_unit(today, unit, _positive(match[1], original))
    for pattern in _ROLLING_DAYS:
        if match := pattern.fullmatch(key):
            days = _positive(match[1], original)
            return today - timedelta(days=days - 1), today + timedelta(days=1)
    return None


def _calendar_unit(today: date, unit: _Unit, back: int) -> tuple[date, date]:
    """The whole calendar ``unit`` that lies ``back`` units before the one containing today."""
    if unit is _Unit.DAY:
        start = today - timedelta(days=back)
        return start, start + timedelta(days=1)
    if unit is _Unit.WEEK:
        start = today - timedelta(days=today.weekday() + 7 * back)
        return start, start + timedelta(days=7)
    if unit is _Unit.MONTH:
        month = today.month - back
        return _month_start(today.year, month), _month_start(today.year, month + 1)
    return date(today.year - back, 1, 1), date(today.year - back + 1, 1, 1)


def _month_start(year: int, month: int) -> date:
    """First day of ``month`` counted from January of ``year`` (month may be <1 or >12)."""
    whole_years, month_index = divmod(year * 12 + month - 1, 12)
    return date(whole_years, month_index + 1, 1)


def _positive(token: str, original: str) -> int:
    value = _number(token)
    if value < 1:
        raise DateRangeError(
            f"date range {quoted(original)}: N must be a positive whole number", field="date_range"
        )
    return value


def _number(token: str) -> int:
    """ASCII digits, or a kanji numeral from 一 to 九十九 (二十三 = 23, 十 = 10)."""
    if token.isascii():
        return int(token)
    tens, ten, ones = token.rpartition("十")
    value = _KANJI_DIGITS.index(ones) + 1 if ones else 0
    if ten:
        value += 10 * (_KANJI_DIGITS.index(tens) + 1 if tens else 1)
    return value


def _iso_range(text: str, tz: tzinfo) -> DateRange | None:
    """``A`` or ``A..B`` / ``A/B`` / ``A〜B`` of ISO points; B's whole unit is included."""
    parts = _RANGE_SEPARATOR.split(text)
    if len(parts) > 2:
        return None
    first, last = _iso_point(parts[0], tz), _iso_point(parts[-1], tz)
    if first is None or last is None:
        return None
    if last.start < first.start and last.end <= first.start:
        # B lies wholly before A ("2027..2026", "2026-03-02..2026-03-01"): reversed, which
        # the caller refuses as such (A to the end of B would be an empty range, taken for a
        # single instant)
        return DateRange(first.start, last.start)
    return DateRange(first.start, last.end)


def _iso_point(text: str, tz: tzinfo) -> DateRange | None:
    """An ISO year, month or day as its local span, or a timestamp as the instant [t, t];
    a part that names no real day or time (2026-02-30, 25:00) raises :class:`_NotCalendar`."""
    try:
        return _iso_span(text, tz)
    except _NoOffset:
        raise
    except ValueError:
        raise _NotCalendar(text) from None


def _iso_span(text: str, tz: tzinfo) -> DateRange | None:
    if _ISO_YEAR.fullmatch(text):
        year = int(text)
        return _to_utc((date(year, 1, 1), _after(lambda: date(year + 1, 1, 1))), tz)
    if match := _ISO_MONTH.fullmatch(text):
        year, month = int(match[1]), int(match[2])
        return _to_utc((date(year, month, 1), _after(lambda: _month_start(year, month + 1))), tz)
    if _ISO_DAY.fullmatch(text):
        day = date.fromisoformat(text)
        return _to_utc((day, _after(lambda: day + timedelta(days=1))), tz)
    if _ISO_STAMP.fullmatch(text):
        instant = datetime.fromisoformat(text)
        if instant.tzinfo is None:  # as every timestamp of the API (service.validate)
            raise _NoOffset(text)
        instant = _utc(instant)
        return DateRange(instant, instant)
    return None


def _after(following: Callable[[], date]) -> date | None:
    """The day after a span of the year 9999 is past the calendar: None, the end of time."""
    try:
        return following()
    except (ValueError, OverflowError):
        return None


def _to_utc(span: tuple[date, date | None], tz: tzinfo) -> DateRange:
    end = _END if span[1] is None else _local_midnight(span[1], tz)
    return DateRange(_local_midnight(span[0], tz), end)


# The last instant a datetime holds: the end of a span that reaches the last day of 9999.
_END = datetime.max.replace(tzinfo=UTC)
# The first: where 0001-01-01 begins in a zone east of UTC (its midnight is in year 0 there).
_START = datetime.min.replace(tzinfo=UTC)


def _local_midnight(day: date, tz: tzinfo) -> datetime:
    # Built from the local date, never by adding hours, so DST days are 23 or 25 hours long.
    return _utc(datetime(day.year, day.month, day.day, tzinfo=tz))


def _utc(when: datetime) -> datetime:
    """``when`` in UTC; an instant of the calendar's first or last day that falls outside it
    there (0001-01-01T00:00+09:00, 9999-12-31T23:00-05:00) is its first or last instant."""
    try:
        return when.astimezone(UTC)
    except OverflowError:
        return _START if when.year == 1 else _END


def local_day(when: datetime, tz: tzinfo) -> date:
    """The calendar day of the instant ``when`` in ``tz`` (a note's or a turn's date as the
    persona reads it). An instant whose day there lies past the calendar (9999-12-31T23:59Z,
    a fact's last possible end, is 10000-01-01 in UTC+14; 0001-01-01T00:00Z in UTC−1) keeps
    its UTC day: converting it raised OverflowError."""
    try:
        return when.astimezone(tz).date()
    except OverflowError:
        return when.astimezone(UTC).date()

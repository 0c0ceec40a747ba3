"""How long ago, in words: "3 days ago" / "3日ぶり" (pure; the session line of
``session_begin`` / ``get_context``, :mod:`omoide.engine.context`)."""

from __future__ import annotations

from datetime import timedelta

from omoide.engine.counts import how_many
from omoide.engine.lang import Lang

__all__ = ["JUST_NOW_SECONDS", "time_since_words"]

JUST_NOW_SECONDS = 5 * 60
# (unit, seconds per unit, upper bound in seconds for using it); years cover the rest.
_UNITS = (
    ("minute", 60, 3600),
    ("hour", 3600, 86400),
    ("day", 86400, 14 * 86400),
    ("week", 7 * 86400, 60 * 86400),
    ("month", 30 * 86400, 365 * 86400),
)
_JA_UNITS = {
    "minute": "分",
    "hour": "時間",
    "day": "日",
    "week": "週間",
    "month": "ヶ月",
    "year": "年",
}


def time_since_words(elapsed: timedelta | None, lang: Lang) -> str:
    """ "3 days ago" / "3日ぶり"; None → "first session" / "初めての会話".

    Under 5 minutes (or negative, from clock skew) is "just now" / "さっき"; then minutes,
    hours, days (under 14), weeks (under 60 days), months of 30 days (under 365), years.
    """
    if elapsed is None:
        return "first session" if lang == Lang.EN else "初めての会話"
    seconds = elapsed.total_seconds()
    if seconds < JUST_NOW_SECONDS:
        return "just now" if lang == Lang.EN else "さっき"
    unit, count = "year", int(seconds // (365 * 86400))
    for name, size, below in _UNITS:
        if seconds < below:
            unit, count = name, int(seconds // size)
            break
    if lang == Lang.JA:
        return f"{count}{_JA_UNITS[unit]}ぶり"
    return f"{how_many(count, unit)} ago"

"""English calendar words: the month names in calendar order with the short forms written for
them, and the weekday names (pure data, no locale)."""

from __future__ import annotations

__all__ = ["EN_MONTHS", "EN_MONTH_ABBREVIATIONS", "EN_WEEKDAYS"]

EN_MONTHS: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# A short form and the month it names ("Oct." is October; "Sept" as well as "Sep"); May, short
# already, has none. In calendar order, so that their alternation in a pattern is stable.
EN_MONTH_ABBREVIATIONS: dict[str, str] = {
    "Jan": "January",
    "Feb": "February",
    "Mar": "March",
    "Apr": "April",
    "Jun": "June",
    "Jul": "July",
    "Aug": "August",
    "Sep": "September",
    "Sept": "September",
    "Oct": "October",
    "Nov": "November",
    "Dec": "December",
}
# The weekdays in lower case, Monday first (as ``datetime.weekday`` counts them).
EN_WEEKDAYS: tuple[str, ...] = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)

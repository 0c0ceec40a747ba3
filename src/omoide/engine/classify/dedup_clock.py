"""Dedup's clock rule: a time of day turned to another (pure).

Trigger: dedup asks whether a near-copy above the threshold is a duplicate. Why: "the night
shift runs from 8:30 to 8:30 the next morning" / "from 9:00 to 9:00", 毎朝6時に起きる / 毎朝7時に
起きる keep every word but the hour, so the cosine is 0.97–0.99; the veto reads the numbers, but
only as a signal the judge weighs against the clock formats paraphrases reword (午後一時半 /
13時30分, "half past three" / 15:30), and a high cosine can outweigh it. Once both texts are in
dedup's notation (``pair_notation``: 半 as 30分, 午後 and "pm" as the 24-hour clock), a clock
time is an hour and its minutes (``7時``, ``7時15分``, ``7:15``); a duration (3時間) is not one.
Outcome: ``clock_changed`` is True when both texts name clock times and the two sets differ
read on a 12-hour dial (23時 and 11時 are the same time said two ways; 24時 and 零時 too), so
a reworded clock is left to the judge and only a time that moved is kept. Like the trade,
status and bound rules, a pair it finds is never a duplicate. Deterministic and symmetric.
"""

from __future__ import annotations

import re

__all__ = ["clock_changed", "clock_times"]

_JA = re.compile(r"(\d{1,2}|零)時(?!間)(?:(\d{1,2})分|(半))?")
_EN = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?![\d:])")


def clock_times(text: str) -> frozenset[tuple[int, int]]:
    """The clock times of a text in dedup's notation, as (hour on a 12-hour dial, minute)."""
    found = set()
    for m in _JA.finditer(text):
        hour = 0 if m.group(1) == "零" else int(m.group(1))
        found.add((hour % 12, 30 if m.group(3) else int(m.group(2) or 0)))
    for m in _EN.finditer(text):
        found.add((int(m.group(1)) % 12, int(m.group(2))))
    return frozenset(found)


def clock_changed(first: str, second: str) -> bool:
    """True when both texts name clock times and not the same ones (module docstring)."""
    a, b = clock_times(first), clock_times(second)
    return bool(a) and bool(b) and a != b

"""Session 46: caps on the judge's close for a new memory that tells what already was when the
old one was written (``dated_told``: an event dated before the old memory's own date, the old
memory's starting event told again), the notes' guard ``retold_in_frame`` now a cap on
statements too, and one past occurrence of a Japanese habit (``ja_told.ja_one_occurrence``),
with examples written for these tests. A change told with the same words (a year at or after
the old date, "now", an end of the memory's own, another value, the habit given up) is not
read."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from omoide.engine.classify import read_pair
from omoide.engine.classify.dated_told import (
    DATED_TOLD_FEATURES,
    event_before_old_date,
    old_event_told_again,
)
from omoide.engine.classify.frame import unframe
from omoide.engine.classify.ja_told import JA_TOLD_FEATURES, ja_one_occurrence
from omoide.engine.classify.judge_signals import JUDGE_CAPS
from omoide.engine.classify.learned import judge_capped
from omoide.engine.classify.text import Sentence, parse

Cap = Callable[[Sentence, Sentence], bool]

_SEWING = "Priya keeps her grandmother's sewing machine in the spare room. (9 April 2031)"
_WATCH = "ユーザーは祖父の古い腕時計を書斎の棚に飾っている。（2031年4月9日）"
_PIANO = "Tomasz has not touched a piano since joining the army. (4 May 2031)"
_TENNIS = "ユーザーは毎週土曜の朝に、近所の公園でテニスをしている。"

FIRES: list[tuple[Cap, str, str, str]] = [
    (
        event_before_old_date,
        "en",
        _SEWING,
        "Priya's grandmother gave her the sewing machine in 2027, the year she learned to sew."
        " (2 June 2031)",
    ),
    (
        event_before_old_date,
        "en",
        "The user's allotment is the one at the end of the lane by the railway. (3 March 2031)",
        "The user took on the allotment by the railway in 2028 after a long waiting list."
        " (20 July 2031)",
    ),
    (
        event_before_old_date,
        "ja",
        _WATCH,
        "その腕時計は、祖父が2029年にユーザーに譲ったものだ。（2031年6月2日）",
    ),
    (
        old_event_told_again,
        "en",
        _PIANO,
        "Tomasz joined the army when he turned eighteen. (9 July 2031)",
    ),
    (
        old_event_told_again,
        "en",
        "Mirela and her cousin Ines quarrelled at the wedding and have not spoken since."
        " (4 May 2031)",
        "Mirela and Ines quarrelled after the seating plan for the wedding went up. (9 July 2031)",
    ),
    (
        ja_one_occurrence,
        "ja",
        _TENNIS,
        "先週は雨でコートが使えず、ユーザーは家で素振りをした。",
    ),
    (
        ja_one_occurrence,
        "ja",
        "奈々さんは月に一度、実家の母に手紙を書いている。",
        "先月の手紙は、奈々さんが旅行中だったので、旅先から送った。",
    ),
]

REFUSED: list[tuple[Cap, str, str, str]] = [
    # the year is the old date's own or later: the change may be since
    (event_before_old_date, "en", _SEWING, "Priya sold the sewing machine in 2031. (2 June 2031)"),
    # a word of the present
    (
        event_before_old_date,
        "en",
        _SEWING,
        "Priya now keeps the sewing machine she was given in 2027 in the attic. (2 June 2031)",
    ),
    # the old memory names a year of its own: the year may be the value told again
    (
        event_before_old_date,
        "en",
        "Priya bought a sewing machine in 2029. (9 April 2031)",
        "Priya bought the sewing machine in 2027. (2 June 2031)",
    ),
    # no date on the old memory
    (
        event_before_old_date,
        "en",
        "Priya keeps her grandmother's sewing machine in the spare room.",
        "Priya's grandmother gave her the sewing machine in 2027.",
    ),
    # an old no, an old plan
    (
        event_before_old_date,
        "en",
        "Priya has never owned a sewing machine. (9 April 2031)",
        "Priya was given a sewing machine in 2027. (2 June 2031)",
    ),
    (
        event_before_old_date,
        "en",
        "Priya plans to buy a sewing machine. (9 April 2031)",
        "Priya looked at sewing machines in 2027. (2 June 2031)",
    ),
    # an end of the new memory's own in its main clause
    (
        event_before_old_date,
        "en",
        _SEWING,
        "Priya gave the sewing machine away in 2028 and has not sewn since. (2 June 2031)",
    ),
    (
        event_before_old_date,
        "ja",
        _WATCH,
        "ユーザーは2029年に腕時計をもう手放した。（2031年6月2日）",
    ),
    # another value in place of the old event, or no event the old memory holds since
    (
        old_event_told_again,
        "en",
        "Tomasz has lived in Gdansk since moving there for work. (4 May 2031)",
        "Tomasz moved to Krakow when the office closed. (9 July 2031)",
    ),
    (
        old_event_told_again,
        "en",
        _PIANO,
        "Tomasz joined the navy when he turned eighteen. (9 July 2031)",
    ),
    (
        old_event_told_again,
        "en",
        "Tomasz plays the piano every evening. (4 May 2031)",
        "Tomasz joined the army when he turned eighteen. (9 July 2031)",
    ),
    # a change or the present beside it
    (
        old_event_told_again,
        "en",
        _PIANO,
        "Tomasz joined the army band and plays the piano again. (9 July 2031)",
    ),
    # the habit given up, the present, a habit the old memory does not tell
    (ja_one_occurrence, "ja", _TENNIS, "先週はテニスをやめて、ユーザーは卓球教室に入った。"),
    (ja_one_occurrence, "ja", _TENNIS, "今はテニスより卓球が好きで、先週は卓球をした。"),
    (
        ja_one_occurrence,
        "ja",
        "ユーザーは近所の公園でテニスをしている。",
        "先週は雨でコートが使えず、ユーザーは家で素振りをした。",
    ),
]


def _read(lang: str, old: str, new: str) -> tuple[Sentence, Sentence]:
    return parse(unframe(old, lang), lang), parse(unframe(new, lang), lang)


@pytest.mark.parametrize(("cap", "lang", "old", "new"), FIRES)
def test_what_already_was_caps_the_judge(cap: Cap, lang: str, old: str, new: str) -> None:
    assert cap(*_read(lang, old, new))
    assert judge_capped(read_pair(old, new, lang=lang))


@pytest.mark.parametrize(("cap", "lang", "old", "new"), REFUSED)
def test_a_change_is_not_read(cap: Cap, lang: str, old: str, new: str) -> None:
    assert not cap(*_read(lang, old, new))


def test_one_occurrence_reads_japanese_only() -> None:
    old = "The user plays tennis every Saturday morning in the park."
    new = "Last Saturday it rained, so the user practised his swing at home."
    assert not ja_one_occurrence(*_read("en", old, new))
    assert not old_event_told_again(*_read("ja", _WATCH, "祖父は2029年に腕時計を譲った。"))


def test_the_notes_guard_caps_a_statement() -> None:
    old = "Halvard is long-sighted and reads with glasses. (3 March 2031)"
    new = "As a boy, Halvard squinted at the board in class without his glasses. (6 May 2031)"
    assert judge_capped(read_pair(old, new, lang="en"))


def test_every_cap_is_a_judge_cap() -> None:
    assert set(DATED_TOLD_FEATURES) <= set(JUDGE_CAPS)
    assert "ja_one_occurrence" in JA_TOLD_FEATURES
    assert {"ja_one_occurrence", "retold_in_frame"} <= set(JUDGE_CAPS)

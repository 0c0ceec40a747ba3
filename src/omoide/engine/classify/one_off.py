"""One occasion told beside a habit or a present state (pure).

**Trigger** (``one_off_beside_habit``). The new memory tells one finished past occasion: a
past tense (``Sentence.past_occasion``, which leaves out a past whose result lasts: moved,
started, bought, quit…) with a word that places it once — "once" (not "once a week"), "one
day", "the other day", "last weekend / year / summer…", "yesterday", "… ago"; 一度 (not 一度も),
一回, 去年, 先週, 先月, 昨日, この前, ある日, 先日, 〜年前, 〜の日に — and no word that makes it
last: no end or change ("stopped", "no longer", "since then", "now", "instead", "finished",
"paid off", 以来, 今は, もう, やめた, 完済, 終えた; ``lexicon.STOPPED`` / ``lexicon.CHANGE``) and
no no of its own (a negated habit, "didn't go once", is left to the judge). The old memory
states a habit — how often it recurs ("every", "on weekends", "twice a week", 毎, 週末は, 月に,
いつも) — as a present fact (``former_state.old_is_present``: not past, not negated, no former
frame). A present state with no habit ("lives in a rented flat", 入院している) is left out: a
past event often ends such a state (moved in, was discharged).

**Why.** "Plays online matches every weekend" and "last year entered an offline tournament
for the first time and lost in round two" are two facts: one occasion does not end a habit
unless it says so. The judge read such pairs as changes at C 0.85–0.98 (round 25b).
A "never" in the old memory is left out on purpose: one occasion of the thing never done
does turn it round ("has never flown" → "flew to Osaka once"), a change the judge must keep.

**Outcome.** ``one_off_beside_habit`` is 1 for such a pair: a cap on the judge's close, not
a feature the model reads and not a veto of a sure rule (``learned.JUDGE_CAPS``): the judge
may not close it, its other two classes decide. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.former_state import old_is_present
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.text import Sentence, parse

__all__ = ["ONE_OFF_FEATURES", "one_off_beside_habit", "one_off_features", "single_occasion"]

ONE_OFF_FEATURES: tuple[str, ...] = ("one_off_beside_habit",)

_EN_TIMES = (r"week|weekend|month|year|summer|winter|spring|autumn|fall|night|time|season"
             r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|christmas|easter")
# A word that places the occasion once.
_ONCE = {
    "en": re.compile(r"\bonce\b(?! (?:a|an|per|every|each|or twice)\b)|\bone (?:day|time|evening"
                     r"|morning|night|afternoon|weekend)\b|\bthe other day\b|\byesterday\b"
                     rf"|\blast (?:{_EN_TIMES})\b|\b(?:a|one|two|three|few|\d+) (?:days?|weeks?"
                     r"|months?|years?) ago\b"),
    "ja": re.compile(r"一度(?!も)|一回(?!も)|去年|昨年|先週|先月|昨日|この前|この間|ある日|先日"
                     r"|年前|の日に|前回"),
}
# A habit: how often the old memory's act recurs.
_HABIT = {
    "en": re.compile(r"\bevery\b|\beach (?:day|week|month|year|morning|evening|night|weekend)\b"
                     r"|\busually\b|\balways\b|\boften\b|\bregularly\b|\bdaily\b|\bweekly\b"
                     r"|\bmonthly\b|\bnightly\b|\bon (?:weekends|weekdays|mondays|tuesdays"
                     r"|wednesdays|thursdays|fridays|saturdays|sundays)\b"
                     r"|\b(?:once|twice|\w+ times) a (?:day|week|month|year)\b"
                     r"|\ba (?:day|week|month|year)\b"),
    "ja": re.compile(r"毎|いつも|週末は|平日は|週に|月に|年に|日に|ばかり|たいてい|よく|普段"),
}
# A word that makes the occasion last: an end, a change, a present, "since".
_LASTS = {
    "en": re.compile(lex.STOPPED["en"] + "|" + lex.CHANGE["en"]
                     + r"|\bsince\b|\bfrom then on\b|\bever after\b|\banymore\b|\bno longer\b"
                     r"|\bnowadays\b|\bthese days\b|\bstill\b|\bnot\b|\bnever\b|\bno\b|\bfinished\b"
                     r"|\bcompleted\b|\bpaid (?:off|back)\b"),
    "ja": re.compile(lex.STOPPED["ja"] + "|" + lex.CHANGE["ja"]
                     + r"|以来|以降|それから|今は|今では|今も|もう|最近|ない|ません|ず[、。に]|ずに"
                     r"|終え|終わ|完了|完済|修了"),
}


# A date in brackets after the sentence (a note's "(2026年5月30日)"): no part of the telling.
_DATED = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


def single_occasion(new: Sentence) -> bool:
    """Whether ``new`` tells one finished past occasion and nothing that lasts (docstring)."""
    if _DATED.search(new.text):
        new = parse(_DATED.sub("", new.text), new.lang)
    if not new.past_occasion or new.negative:
        return False
    return _ONCE[new.lang].search(new.text) is not None and not _LASTS[new.lang].search(new.text)


def one_off_beside_habit(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory is one occasion told beside the old habit or present fact."""
    if old.lang != new.lang or not same_people(old, new):
        return False
    if _DATED.search(old.text):
        old = parse(_DATED.sub("", old.text), old.lang)
    return (old_is_present(old) and _HABIT[old.lang].search(old.text) is not None
            and single_occasion(new))


def one_off_features(old: Sentence, new: Sentence) -> list[float]:
    """The ONE_OFF_FEATURES row of a pair."""
    return [float(one_off_beside_habit(old, new))]

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
frame). A present state with no habit ("lives in a rented caravan", 入院している) is left out: a
past event often ends such a state (moved in, was discharged).

**Why.** "Plays online matches every weekend" and "last year entered an offline tournament
for the first time and lost in round two" are two facts: one occasion does not end a habit
unless it says so. The judge read such pairs as changes at C 0.85–0.98 (round 25b).
A "never" in the old memory is left out on purpose: one occasion of the thing never done
does turn it round ("has never flown" → "flew to Osaka once"), a change the judge must keep.

**Two more shapes of the kind** (round 26), each its own signal so its fires are counted apart:

- ``once_beside_state``: the occasion is *counted* once ("just once", "for one day", 一度,
  一回, 一日だけ; not 一回戦, 月一回, "once a week") and the old memory is any present fact, a
  routine said without a frequency word too ("has Saturdays off" / "worked one Saturday
  once"; 土曜は休み / 土曜に一度だけ出た). A count of one says the occasion did not last;
  a time word alone ("last month") does not, so a past event that ends a state (moved,
  discharged, paid off) is not read so. A duration bounded by the count (一日だけ, "for one
  day") lasts no longer even with a change word beside it (a van driven for one day to help
  with someone's house move).
- ``long_ago_beside_present``: the occasion is placed years back ("ten years ago", "as a
  child", 十年前, 学生時代) and the old memory is a present fact or a plan ("plans a trip to
  Lisbon" / "went to Lisbon on a school exchange twenty years ago"): what happened years ago
  is older than the present fact and cannot be the change of it.

Both keep the end and change words out (as ``one_off_beside_habit``), a "never" or a no in the
old memory out (one occasion does turn a never round), and a no in the new one out.

**Outcome.** Each signal is 1 for such a pair: a cap on the judge's close, not a feature the
model reads and not a veto of a sure rule (``judge_signals.JUDGE_CAPS``): the judge may not
close it, its other two classes decide. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.former_state import old_is_present
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.text import Sentence, parse

__all__ = [
    "EN_TIMES",
    "ONE_OFF_FEATURES",
    "long_ago_beside_present",
    "once_beside_state",
    "one_off_beside_habit",
    "one_off_features",
    "single_occasion",
    "undated",
]

ONE_OFF_FEATURES: tuple[str, ...] = (
    "one_off_beside_habit",
    "once_beside_state",
    "long_ago_beside_present",
)

# Words of a time of the calendar or the day (an "occasion" word after "last", an item no
# addition adds: "on Sundays too").
EN_TIMES = (
    r"week|weekend|month|year|summer|winter|spring|autumn|fall|night|time|season"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|christmas|easter"
)
# A word that places the occasion once.
_ONCE = {
    "en": re.compile(
        r"\bonce\b(?! (?:a|an|per|every|each|or twice)\b)|\bone (?:day|time|evening"
        r"|morning|night|afternoon|weekend)\b|\bthe other day\b|\byesterday\b"
        rf"|\blast (?:{EN_TIMES})\b|\b(?:a|one|two|three|few|\d+) (?:days?|weeks?"
        r"|months?|years?) ago\b"
    ),
    "ja": re.compile(
        r"一度(?!も)|一回(?!も)|去年|昨年|先週|先月|昨日|この前|この間|ある日|先日"
        r"|年前|の日に|前回"
    ),
}
# A habit: how often the old memory's act recurs.
_HABIT = {
    "en": re.compile(
        r"\bevery\b|\beach (?:day|week|month|year|morning|evening|night|weekend)\b"
        r"|\busually\b|\balways\b|\boften\b|\bregularly\b|\bdaily\b|\bweekly\b"
        r"|\bmonthly\b|\bnightly\b|\bon (?:weekends|weekdays|mondays|tuesdays"
        r"|wednesdays|thursdays|fridays|saturdays|sundays)\b"
        r"|\b(?:once|twice|\w+ times) a (?:day|week|month|year)\b"
        r"|\ba (?:day|week|month|year)\b"
    ),
    "ja": re.compile(r"毎|いつも|週末は|平日は|週に|月に|年に|日に|ばかり|たいてい|よく|普段"),
}
# A word that makes the occasion last: an end, a change, a present, "since".
_LASTS = {
    "en": re.compile(
        lex.STOPPED["en"]
        + "|"
        + lex.CHANGE["en"]
        + r"|\bsince\b|\bfrom then on\b|\bever after\b|\banymore\b|\bno longer\b"
        r"|\bnowadays\b|\bthese days\b|\bstill\b|\bnot\b|\bnever\b|\bno\b|\bfinished\b"
        r"|\bcompleted\b|\bpaid (?:off|back)\b"
    ),
    "ja": re.compile(
        lex.STOPPED["ja"]
        + "|"
        + lex.CHANGE["ja"]
        + r"|以来|以降|それから|今は|今では|今も|もう|最近|ない|ません|ず[、。に]|ずに"
        r"|終え|終わ|完了|完済|修了"
    ),
}


# A date in brackets after the sentence (a note's "(2031年4月19日)"): no part of the telling.
_DATED = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


def single_occasion(new: Sentence) -> bool:
    """Whether ``new`` tells one finished past occasion and nothing that lasts (docstring)."""
    new = undated(new)
    if not new.past_occasion or new.negative:
        return False
    return _ONCE[new.lang].search(new.text) is not None and not _LASTS[new.lang].search(new.text)


def one_off_beside_habit(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory is one occasion told beside the old habit or present fact."""
    if old.lang != new.lang or not same_people(old, new):
        return False
    old = undated(old)
    return (
        old_is_present(old)
        and _HABIT[old.lang].search(old.text) is not None
        and single_occasion(new)
    )


# An occasion counted once (not "once a week", 月一回, 一回戦, 一度も).
_COUNTED_ONCE = {
    "en": re.compile(
        r"\bonce\b(?! (?:a|an|per|every|each|or twice|again|more)\b)|\bone time\b"
        r"|\bonly one (?:day|night|time)\b"
    ),
    "ja": re.compile(r"(?<![月週年日毎])(?:一度|一回)(?![も目戦ず分])"),
}
# A duration the count bounds: it lasted no longer, whatever change word stands beside it.
_BOUNDED = {
    "en": re.compile(
        r"\bfor (?:just |only )?(?:a|one) (?:single )?(?:day|night|evening"
        r"|afternoon|morning|shift|weekend)\b|\bjust (?:one|for the) day\b"
    ),
    "ja": re.compile(r"一日だけ|一晩だけ|一日限り|一日きり"),
}
# An occasion placed years back.
_LONG_AGO = {
    "en": re.compile(
        r"\b(?:\w+|\d+) years ago\b|\bdecades? ago\b|\bas a (?:child|kid|teenager"
        r"|student|boy|girl)\b|\bwhen (?:i|he|she|they|the user) (?:was|were)"
        r" (?:a |an )?(?:child|kid|young|little|small|teenager|student|\d+)\b"
    ),
    "ja": re.compile(
        r"[0-9一二三四五六七八九十数何]+年前|子供の頃|子どもの頃|学生時代|若い頃"
        r"|小さい頃|大学時代|高校時代"
    ),
}
_JA_PAST = re.compile(r"(?:た|[んい]だ|でした|ました)[。.!！]?$")
_EN_PAST = re.compile(
    r"\b(?:was|were|did|had|went|took|drove|came|got|gave|made|saw|ran|rode"
    r"|flew|ate|spent|stayed|won|lost|met|left|sat|spoke|swam|wrote)\b"
    r"|\b[a-z]{2,}ed\b"
)


def once_beside_state(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory is one occasion counted once (or for one bounded stretch)
    beside the old present fact (docstring)."""
    old, new = undated(old), undated(new)
    if not _beside_present(old, new):
        return False
    lang = new.lang
    if _BOUNDED[lang].search(new.text):
        return re.search(lex.STOPPED[lang], new.text) is None
    return _COUNTED_ONCE[lang].search(new.text) is not None and not _LASTS[lang].search(new.text)


def long_ago_beside_present(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory is an occasion placed years back beside the old present fact
    or plan (docstring)."""
    old, new = undated(old), undated(new)
    return (
        _beside_present(old, new)
        and _LONG_AGO[new.lang].search(new.text) is not None
        and not _LASTS[new.lang].search(new.text)
    )


def undated(sentence: Sentence) -> Sentence:
    """The sentence without a note's date in brackets ("(2031年4月19日)"): no part of the
    telling."""
    if _DATED.search(sentence.text):
        return parse(_DATED.sub("", sentence.text), sentence.lang)
    return sentence


def _beside_present(old: Sentence, new: Sentence) -> bool:
    """One subject, the old memory a present fact (``old_is_present``: not a never), the new
    one a past telling with no no of its own."""
    if old.lang != new.lang or not same_people(old, new) or new.negative:
        return False
    past = _JA_PAST if new.lang == "ja" else _EN_PAST
    return old_is_present(old) and past.search(new.text) is not None


def one_off_features(old: Sentence, new: Sentence) -> list[float]:
    """The ONE_OFF_FEATURES row of a pair."""
    return [
        float(one_off_beside_habit(old, new)),
        float(once_beside_state(old, new)),
        float(long_ago_beside_present(old, new)),
    ]

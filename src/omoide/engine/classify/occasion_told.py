"""One occasion told beside a lasting fact or a plan, not a change of it (pure, English).

**Trigger** (``mishap_on_one_occasion``). The new memory tells one occasion, placed once ("once",
"one Tuesday", "after one rehearsal", "on one occasion", "for one afternoon"), on which
something went amiss: a thing of the person's left somewhere ("left his scarf at the gym",
"left her umbrella behind"), or something paused for that bounded stretch ("stopped working
for one morning"). The thing left is not a word of the old memory (leaving the old memory's
club, job or home is an end) nor a tie one leaves for good (a job, a partner, a home, a
school); the pause lasts the one day, afternoon or evening named. Beside those words the new
memory says no end or change word ("stopped" elsewhere, "quit", "now", "no longer", "since",
"instead", "never") and no no of its own; both memories are about one subject and the old one
is a present fact (``former_state.old_is_present``).

**Why.** "Sings in a choir on Thursdays" and "left her gloves at choir one Thursday and
collected them the week after" are two facts: the mishap happened at the habit and leaves it
as it was. The word "left" (and "stopped") drew the judge to a close, and ``one_off``'s
occasion caps keep out every end word, "left" with them.

**Trigger** (``earlier_occasion_beside_plan``). The old memory is a plan or wish placed ahead
("next spring", "when the lease ends in May", "in June") and the new one tells a finished
occasion placed before now ("last spring", "in 2019", "his previous car", "the year before"):
an earlier occasion of the kind, not the plan done or dropped. The new memory says no end or
change word and no no; one subject.

**Why.** "Wants to see Lisbon next autumn" and "went to Porto last autumn": what happened last
year cannot carry out or call off a plan for next year.

**Trigger** (``bought_for_plan``). The old memory is a plan or wish that is not itself a
purchase ("is planning a night at the opera", "plans to dress as a pirate at the fair") and the
new one tells a thing bought, ordered or booked *for* it ("has bought opera glasses for the
night at the opera", "ordered a hat for her pirate costume"): the thing got is no word of the
old memory, and every content word after "for" is (the plan named as known). No end or change
word, no no, one subject.

**Why.** Getting a thing for a plan goes ahead with the plan (EXTENDABLE); the judge read the
purchase as the plan carried out and closed it. A plan whose own act is a purchase ("wants to
buy a bike") is left out: another thing bought for it may replace the plan's thing.

**Outcome.** Each signal is 1 for such a pair: a cap on the judge's close
(``judge_signals.JUDGE_CAPS``); a sure rule still closes. Japanese is not read. No I/O;
deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.former_state import old_is_present
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.one_off import undated
from omoide.engine.classify.reason_told import PLANNED, known_in
from omoide.engine.classify.subject import new_person_in_subject, subject_chain
from omoide.engine.classify.text import Sentence, parse

__all__ = [
    "OCCASION_TOLD_FEATURES",
    "bought_for_plan",
    "earlier_occasion_beside_plan",
    "mishap_on_one_occasion",
    "occasion_told_features",
]

OCCASION_TOLD_FEATURES: tuple[str, ...] = (
    "mishap_on_one_occasion",
    "earlier_occasion_beside_plan",
    "bought_for_plan",
)

_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_SPANS = r"day|night|evening|morning|afternoon|weekend|shift|hour"
# A word that places the occasion once.
_ONE_OCCASION = re.compile(
    r"\bonce\b(?! (?:a|an|per|every|each|or twice|again|more)\b)"
    rf"|\bone (?:{_DAYS}|{_SPANS}|time|week)\b"
    r"|\b(?:after|during|at|on) one\b|\bon one occasion\b"
)
# A thing of the person's left somewhere.
_LEFT_THING = re.compile(
    r"\bleft (?:her|his|their|my|our|a|an|the) (?P<thing>(?:[a-z]+ ){0,2}?[a-z]+)"
    r" (?:behind|at|on|in|under|by|outside)\b"
)
# Ties one leaves for good: leaving one is an end, wherever it is told.
_TIES = frozenset(
    {"job", "post", "position", "role", "husband", "wife", "partner", "boyfriend"}
    | {"girlfriend", "home", "house", "flat", "country", "town", "city", "company", "firm"}
    | {"school", "university", "uni", "course", "team", "band", "club", "church", "group"}
)
# A pause bounded by the stretch named.
_PAUSED = re.compile(rf"\bstopped (?:[a-z]+ing )?for (?:just |only )?(?:a|one) (?:{_SPANS})\b")
# What makes an occasion last, or says it ended the old fact.
_LASTS = re.compile(
    lex.STOPPED["en"]
    + "|"
    + lex.CHANGE["en"]
    + r"|\bsince\b|\bfrom then on\b|\bever after\b|\bnot\b|\bnever\b|\bno\b|\bstill\b"
    r"|\bfinished\b|\bcompleted\b|\bsold\b|\bgave away\b|\blost\b"
)


def _one_subject(old: Sentence, new: Sentence) -> bool:
    """One subject: ``same_people``, or the new subject is the old one or a thing of theirs
    ("Lena" / "Lena's phone"), with no person the old one lacks."""
    if same_people(old, new):
        return True
    a, b = subject_chain(old), subject_chain(new)
    return bool(a) and b[: len(a)] == a and not new_person_in_subject(old, new)


def mishap_on_one_occasion(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells a mishap on one occasion beside the old present fact
    (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or not _one_subject(old, new) or new.negative:
        return False
    if not old_is_present(old) or _ONE_OCCASION.search(new.text) is None:
        return False
    text, mishap = new.text, False
    for left in _LEFT_THING.finditer(new.text):
        words = parse(left.group("thing"), "en").content
        if not words or any(w in _TIES or known_in(w, old) for w in words):
            return False
        text, mishap = text.replace(left.group(), " "), True
    paused = _PAUSED.search(text)
    if paused is not None:
        text, mishap = text.replace(paused.group(), " "), True
    return mishap and _LASTS.search(text) is None


# A plan placed ahead; an occasion placed before now.
_AHEAD = re.compile(
    r"\bnext (?:year|summer|winter|spring|autumn|fall|season)\b"
    r"|\bwhen (?:\w+ ){1,4}(?:ends|expires|runs out|finishes)\b"
)
_BEFORE = re.compile(
    r"\blast (?:year|summer|winter|spring|autumn|fall|season)\b"
    r"|\bin (?:19|20)\d\d\b|\bprevious\b|\bthe year before\b|\b(?:\w+|\d+) years ago\b"
)
_EN_PAST = re.compile(
    r"\b(?:was|were|did|had|went|took|came|got|gave|made|saw|bought|spent|stayed|met|flew)\b"
    r"|\b[a-z]{2,}ed\b"
)
# The earlier occasion's own time, told by an end ("when her last lease ended in 2019").
_WHEN_ENDED = re.compile(r"\bwhen [^,;]*?\b(?:ended|expired|ran out|finished)\b")
_PLAN_CHANGE = re.compile(
    lex.STOPPED["en"] + "|" + lex.CHANGE["en"] + r"|\bnot\b|\bnever\b|\bno\b|\binstead\b"
    r"|\bdecided\b|\bchose\b|\bbooked\b|\bchanged\b"
)


def earlier_occasion_beside_plan(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells an occasion before now beside the old plan placed ahead
    (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or not _one_subject(old, new) or new.negative:
        return False
    if PLANNED.search(old.text) is None or _AHEAD.search(old.text) is None:
        return False
    if _BEFORE.search(old.text) is not None or _BEFORE.search(new.text) is None:
        return False
    if PLANNED.search(new.text) is not None or _EN_PAST.search(new.text) is None:
        return False
    return _PLAN_CHANGE.search(_WHEN_ENDED.sub(" ", new.text)) is None


_GOT_FOR = re.compile(
    r"\b(?:has |have |had |'s |'ve )?(?:bought|ordered|booked|got|picked up|found)"
    r" (?P<thing>[^,;]+?) for (?P<plan>[^,;.]+)"
)
_PURCHASE = re.compile(r"\b(?:buy|buying|order|ordering|get|getting|book|booking)\b")


def bought_for_plan(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells a thing got for the old plan, the plan named as known
    (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or not _one_subject(old, new) or new.negative:
        return False
    if PLANNED.search(old.text) is None or _PURCHASE.search(old.text) is not None:
        return False
    got = _GOT_FOR.search(new.text)
    if got is None or _PLAN_CHANGE.search(new.text.replace(got.group(), " ")):
        return False
    if re.search(r"\binstead\b|\bnot\b|\bno\b|\bnow\b", new.text):
        return False
    thing = parse(got.group("thing"), "en").content
    plan = parse(got.group("plan"), "en").content
    if not thing or not plan or any(known_in(w, old) for w in thing):
        return False
    return all(known_in(w, old) for w in plan)


def occasion_told_features(old: Sentence, new: Sentence) -> list[float]:
    """The OCCASION_TOLD_FEATURES row of a pair."""
    return [
        float(mishap_on_one_occasion(old, new)),
        float(earlier_occasion_beside_plan(old, new)),
        float(bought_for_plan(old, new)),
    ]

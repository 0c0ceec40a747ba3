"""The old fact told again inside a frame of the past, not a replaced value (pure).

**Trigger** (``retold_in_frame``, English). The new memory places what it tells in a frame the
old memory's present fact is not in, and says nothing of the present beside it:

- *an earlier period of life*: "as a boy", "when she was young / a student", "growing up",
  "back then", "in his twenties", "before moving / before he moved" (not "used to" nor "a
  previous job": those tell the old value ended, ``earlier_period``), told in the past, with no
  word of the present ("now", "these days", "still", "no longer", "any more", "today");
- *the old state's start or length*: "since 2022", "since he moved into the cabin", "since
  starting …", "for ten years", its head the old fact told again (every content word of it in
  the old memory, or a verb of holding: keep, have, be, stay; no number of its own);
- *one occurrence of the old habit*: "last Tuesday", "one Wednesday", "after one choir practice",
  where the word that places the occasion (a day, a night, the habit's own noun) is a word of
  the old habit (one that recurs: "every", "on Wednesday nights", "monthly" …), told in the
  past with no verb of the present beside it.

Outside the frame the new memory holds no end, change or no of its own (``lexicon.STOPPED``,
``lexicon.CHANGE``, "back", "again", "but", "not", "never"; a word the old memory says too is
the old fact's, not a change); the old memory is a present fact (no finished past occasion, no
plan or wish, not negated: one occasion of a "never" turns it round), and both are about one
subject (read without the frame: "Last Friday the user …" is the user's).

**Why.** A consolidated note often re-tells a saved fact with its context: the occasion it was
mentioned on ("Last Friday the user spilled her tea during the quiz show" beside "watches
the quiz show every Friday"), the period before it ("As a girl, the user refused to wear
glasses" beside "is short-sighted") or how long it has held ("has kept the no-sugar rule
since 2021" beside "keeps no sugar in the house"). Its verbs and its other
words read to the judge as a change (C 0.90–0.95), and the nearest candidate's lower bar
(``note_judge.NOTE_NEAREST_THRESHOLDS``) closed such a note's own memory (session 36's false
closes, ``bench/results/classify_en36.md``). A replaced value is told of the present or as a
change; a frame of the past with nothing of the present beside it cannot be one.

**Outcome.** ``retold_in_frame`` is 1 for such a pair: not a feature the model reads. It was
a guard (``judge_signals.NOTE_NEAREST_GUARDS``): the nearest candidate's lower bar does not
close the pair. Since session 46 it is also a cap on the judge's close
(``judge_signals.JUDGE_CAPS``), on statements and notes alike: the statement reading of a
note closed such pairs at the statements' bar, and on every training pair of both languages
it fires on no gold CONTRADICTORY one (``bench/results/judge46.md``); a sure rule still
closes. Japanese: 0 (``ja_told.ja_one_occurrence`` reads one occurrence of a Japanese habit).
No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.earlier_period import past_tense
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.one_off import EN_TIMES, undated
from omoide.engine.classify.text import Sentence, parse

__all__ = ["NOTE_RETOLD_FEATURES", "note_retold_features", "retold_in_frame"]

NOTE_RETOLD_FEATURES: tuple[str, ...] = ("retold_in_frame",)

# A period of life before the present (not "used to", not "a previous / former …").
_PERIOD = re.compile(
    r"\bas a (?:kid|child|boy|girl|teen(?:ager)?|student|young (?:man|woman))\b"
    r"|\bwhen (?:i|he|she|they|we|the user) (?:was|were) (?:young|younger|little|small"
    r"|a (?:kid|child|boy|girl|teen(?:ager)?|student)|in (?:school|college|university"
    r"|(?:his|her|my|their) (?:teens|twenties|thirties)))\b"
    r"|\bgrowing up\b|\bback (?:then|in the day)\b|\bback when\b"
    r"|\bin (?:his|her|my|their) (?:youth|teens|twenties|thirties|student days|school days)\b"
    r"|\bbefore (?:moving|(?:i|he|she|they|we|the user) moved)\b"
)
# Words of the present: the note then tells what holds now.
_PRESENT = re.compile(
    r"\bnow\b|\bnowadays\b|\bthese days\b|\bno longer\b|\bany ?more\b|\bstill\b"
    r"|\bcurrently\b|\btoday\b"
)
# A start or a length of the old state, up to the end of its clause.
_SINCE = re.compile(
    r"\bsince (?:\d{4}\b|(?:i|he|she|they|we|the user) \w+|(?:becoming|starting|joining"
    r"|moving)\b)[^,;.]*|\bfor (?:\w+ )?(?:years?|months?|decades?)\b"
)
# Verbs of holding: "has kept / has had / has been / has stayed" tell the old state held.
_HOLDING = frozenset({"keep", "kept", "have", "had", "be", "been", "stay", "stayed"})
# One occasion, placed by a word after "last" / "one" / "that" (a day, a night, a noun).
_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_ONE_OCCASION = re.compile(
    rf"\b(?:last|one|that) (?P<when>{EN_TIMES}|{_DAYS}|day|evening|morning"
    r"|afternoon|[a-z]{3,}(?= (?:walk|session|class|practice|rehearsal|meeting|match"
    r"|game|service|shift)\b))\b"
)
# A habit: the old memory's act recurs.
_HABIT = re.compile(
    r"\bevery\b|\beach\b|\busually\b|\balways\b|\bdaily\b|\bweekly\b|\bmonthly\b"
    r"|\bnightly\b|\bon (?:weekends|weekdays|" + _DAYS + r")s?\b|\b(?:" + _DAYS + r")s\b"
    r"|\b(?:once|twice|\w+ times) a (?:day|week|month|year)\b"
)
# An end, a change or a no: outside the frame, the note then tells another value.
_CHANGE = re.compile(
    lex.STOPPED["en"]
    + "|"
    + lex.CHANGE["en"]
    + r"|\bback\b|\bagain\b|\bbut\b|\bnot\b|\bnever\b|n't\b|\bno\b"
)
# A verb of the present beside the occasion ("came on Friday and fits", "and rides it").
_PRESENT_VERB = re.compile(r"\b(?:is|are|am|has|have|does|do|can)\b|\band [a-z]+[^s\W]s\b")
_PLAN = re.compile(lex.PLAN["en"] + r"|\bwould like\b|\bconsidering\b")
_NUMBER = re.compile(r"\d+")


def retold_in_frame(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells the old fact again in a frame of the past (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or not _present_fact(old):
        return False
    return _in_period(old, new) or _held_since(old, new) or _one_occurrence(old, new)


def _present_fact(old: Sentence) -> bool:
    """The old memory states a present fact: no finished past occasion, plan, wish or no."""
    return not (old.past_occasion or old.negative or _PLAN.search(old.text))


def _rest(new: Sentence, frame: re.Match[str]) -> str:
    """The new memory without its frame (and the comma that set it off)."""
    return f"{new.text[: frame.start()]} {new.text[frame.end() :]}".strip(" ,;:")


def _one_subject(old: Sentence, new: Sentence, rest: str) -> bool:
    """Both about one subject, the new memory read whole or without its frame ("Last Friday
    the user …": the frame opens the sentence where the subject is looked for)."""
    return same_people(old, new) or same_people(old, parse(rest, "en"))


def _changes(rest: str, old: Sentence) -> bool:
    """Whether ``rest`` holds an end, change or no of its own (not a word the old memory
    says too)."""
    return any(
        re.search(rf"\b{re.escape(m.group(0).strip())}\b", old.text) is None
        for m in _CHANGE.finditer(rest)
    )


def _in_period(old: Sentence, new: Sentence) -> bool:
    """An earlier period of life, told in the past, with no word of the present."""
    frame = _PERIOD.search(new.text)
    if frame is None or _PRESENT.search(new.text) or not past_tense(new):
        return False
    return _one_subject(old, new, _rest(new, frame))


def _held_since(old: Sentence, new: Sentence) -> bool:
    """The old state with its start or length: the head the old fact told again."""
    frame = _SINCE.search(new.text)
    if frame is None or new.negative or _SINCE.search(old.text):
        return False  # a start or length the old memory told too: another one is a change
    if re.search(lex.STOPPED["en"], frame.group(0)):
        return False  # "since he and his partner parted": an end, the change's cause
    rest = _rest(new, frame)
    head = parse(rest, "en")
    if not _one_subject(old, new, rest) or _changes(rest, old):
        return False
    if not set(_NUMBER.findall(rest)) <= set(_NUMBER.findall(old.text)) or not set(
        head.quantities
    ) <= set(old.quantities):
        return False
    told = set(head.content) - _HOLDING
    known = set(old.content) | set(old.words)
    return bool(told) and all(
        w in known or (len(w) >= 4 and any(k.startswith(w[:4]) for k in known)) for w in told
    )


def _one_occurrence(old: Sentence, new: Sentence) -> bool:
    """One past occurrence of the old habit, placed by a word of the habit itself."""
    frame = _ONE_OCCASION.search(new.text)
    if frame is None or _HABIT.search(old.text) is None or new.negative:
        return False
    if frame.group("when") not in old.text or not past_tense(new):
        return False
    rest = _rest(new, frame)
    if _changes(rest, old) or _PRESENT_VERB.search(rest):
        return False
    return _one_subject(old, new, rest)


def note_retold_features(old: Sentence, new: Sentence) -> list[float]:
    """The NOTE_RETOLD_FEATURES row of a pair."""
    return [float(retold_in_frame(old, new))]

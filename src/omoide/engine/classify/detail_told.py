"""A detail told of the thing the old memory names, not a change of it (pure).

**Trigger** (``detail_of_old_thing``). An English new memory opens with the old memory's thing
named as known: a definite or possessive phrase ("the …", "my / her / his / their …", "the
user's …", "Ines's …", "last week's …") or a place or occasion said first ("at the …",
"for the …"), whose words up to the first verb, preposition or clause word are every one in
the old memory (as ``reason_told`` reads a word in it: a word, a stem, initials), two of them
at least, or one that is not the owner's name. The rest of the sentence tells something of
that thing: where it came from, when it is, what it was on one occasion. The new memory says
no no, end or change word ("not", "stopped", "now", "no longer", "instead", "still", "again",
"back", "put … off", "dropped"; a stop at a place on the way, "they always stop at the kiosk",
is a visit and no end, session 44), no number the old one does not have, no amount the old one
does not have (``quantity_compare.changed_units``), and both are about one subject (or it
names the old owner). The old memory is not a plan or wish beside a new one told as done (a
plan's thing bought, booked, finished, gone ahead).

**Why.** "Ines is planning a walking holiday in Umbria" / "Ines's Umbria holiday starts on a
Monday", "Dov hangs his bike lock on a hook by the door" / "The hook by Dov's door was a gift
from his aunt", "Our kettle stopped working in spring" / "The kettle that stopped working in
spring had a loose switch": the new memory presupposes the old fact (the thing it names is
there as the old memory tells) and adds to it (EXTENDABLE). On the training sources the
English net never saw, a detail told was the largest kind of the judge's false closes
(``bench/results/judge42.md``: 21 of 61; ``judge43.md``).

**Outcome.** 1 for such a pair: a cap on the judge's close (``judge_signals.JUDGE_CAPS``); a
sure rule still closes. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.one_off import undated
from omoide.engine.classify.quantity_compare import changed_units
from omoide.engine.classify.reason_told import OWN_CHANGE, PLANNED, known_in
from omoide.engine.classify.text import USER, Sentence, parse

__all__ = [
    "DETAIL_TOLD_FEATURES",
    "alternative_to_refused",
    "detail_of_old_thing",
    "detail_told_features",
]

DETAIL_TOLD_FEATURES: tuple[str, ...] = ("detail_of_old_thing", "alternative_to_refused")

# The thing named as known: a definite or possessive phrase, or a place or occasion said first.
_OPENING = re.compile(
    r"^(?:(?:at|for) )?(?:"
    r"(?:last|this|next) [a-z]+'s"
    r"|the (?:user's|[a-z]+'s)"
    r"|the(?: (?:last|latest|first|most recent))?"
    r"|my|her|his|their|our"
    r"|[a-z][a-z-]*'s"
    r")\s+"
)
# Where the phrase ends: a verb of being or having, a preposition, a clause word.
_PHRASE_END = frozenset(
    {"is", "was", "are", "were", "has", "have", "had", "will", "would", "can", "could"}
    | {"that", "which", "who", "where", "when", "and", "but", "on", "in", "at", "from", "for"}
    | {"to", "with", "of", "by", "they", "she", "he", "i", "we", "it", "always", "usually"}
)
_WORD = re.compile(r"[a-z][a-z'-]*")
_NUMBER = re.compile(r"\d+")
# A plan's thing now done: the plan carried out, a change (``note_plan`` reads these too).
_DONE = re.compile(
    r"\b(?:bought|booked|finished|completed|passed|went ahead|happened|was (?:great|lovely|fun)"
    r"|went well|arrived|paid)\b"
)
_MAX_PHRASE = 4
# The thing itself gone or changed: stolen, lost, sold, renamed, broken, taken on.
_GONE = re.compile(
    r"\b(?:stolen|lost|sold|renamed|broke|broken|died|closed|gave away|given away|taken on"
    r"|replaced|moved|switched)\b"
)
# Something that happened to the thing: a perfect or a passive ("has been painted over", "was
# revoked", "has hired"), an end or an arrival: a change of the old fact, not a detail of it.
_HAPPENED = re.compile(
    r"\b(?:has|have|had)(?: been| got)? [a-z]+(?:ed|en|wn|ne|lt|pt|ght|ung|ot|id)\b"
    r"|\b(?:was|were|got|been|is|are) [a-z]+(?:ed|en|wn|pt|lt|ght)"
    r"(?=\s*(?:[.,;!]|$|(?:by|in|on|at|for|to|from|out|off|up|down|away|last|yesterday"
    r"|this|after|before|and)\b))"
    r"|\b(?:is|are) (?:over|gone|finished|done|closed|off)\b"
    r"|\b(?:arrived|finished|folded|approved|hired|won|opened|ended)\b"
)
_TIMES = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer"
    r"|autumn|winter)s?\b"
)
# A person, not a thing: "the user …", "the user's partner …" is not a thing named as known.
_PEOPLE = frozenset({"user", "user's"})
_COPULAS = frozenset({"is", "are", "was", "were"})
_DETERMINERS = frozenset({"a", "an", "the", "my", "her", "his", "their", "our", "its"})
_MODIFIER_PREPOSITIONS = frozenset({"on", "of", "from", "in", "at", "with", "for"})
# The rest says at most this many of the old memory's other words: more is the old fact said
# again, where a value told is another one.
_MAX_SAID_AGAIN = 1


# A stop at a place on the way: a visit ("they always stop at the kiosk"), not an end.
_VISIT = re.compile(r"\bstop(?:s|ped)? (?:off )?(?:at|by) (?:the|a|an)\b")


def detail_of_old_thing(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells a detail of the thing the old one names (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or new.negative:
        return False
    opening = _OPENING.match(new.text)
    if opening is None or not _one_owner(old, new):
        return False
    unvisited = _VISIT.sub(" ", new.text)  # "stops at the café" is a visit, not an end
    if OWN_CHANGE.search(unvisited) or _GONE.search(new.text) or _HAPPENED.search(new.text):
        return False
    if _other_time(old.text, new.text):
        return False  # a month or day replaced ("in a month" → "in another month")
    if PLANNED.search(old.text) and _DONE.search(new.text):
        return False  # a plan's thing bought or done: the plan carried out
    if not set(_NUMBER.findall(new.text)) <= set(_NUMBER.findall(old.text)):
        return False
    if changed_units(old.quantities, new.quantities):
        return False
    words = _WORD.findall(new.text[opening.end() :])
    phrase = _phrase(words)
    if not phrase or phrase[0] in _PEOPLE:
        return False  # the person said first ("the user swims …"), not a thing of the old fact
    people = {USER, "user", old.owner}
    named = [w for w in parse(" ".join(phrase), "en").content if w not in people]
    if not named or not all(known_in(w, old) for w in named):
        return False
    if any(known_in(w, _subject(old)) for w in named):
        return False  # the old memory's own subject: what follows is its value said again
    rest = _after_modifiers(words[len(phrase) :], old)
    if rest[:1] and rest[0] in _COPULAS and _other_modifier(old, new, named):
        return False  # the thing's kind told afresh ("night shift" → "Ines's shift is …")
    told = parse(" ".join(rest), "en").content
    if any(w in named for w in told):
        return False  # the thing's value said again ("Dov's team is the green team")
    said_again = {w for w in told if w not in people and known_in(w, old)}
    return len(said_again) <= _MAX_SAID_AGAIN


def _other_modifier(old: Sentence, new: Sentence, named: list[str]) -> bool:
    """Whether the old memory names the thing with a modifier the new one leaves out."""
    for compound in old.compounds:
        modifier, _, head = compound.rpartition(" ")
        if head in named and modifier and modifier not in new.words:
            return True
    return False


def _one_owner(old: Sentence, new: Sentence) -> bool:
    """Whether both are about one subject, or the new memory names the old one's owner."""
    if new.owner == old.owner or same_people(old, new):
        return True
    if old.owner != USER and re.search(rf"\b{re.escape(old.owner)}\b", new.text):
        return True
    return new.owner != USER and re.search(rf"\b{re.escape(new.owner)}\b", old.text) is not None


def _phrase(words: list[str]) -> list[str]:
    """The words of the phrase after the opening, up to a verb of being or having, a
    preposition or a clause word (at most ``_MAX_PHRASE``)."""
    phrase: list[str] = []
    for word in words:
        if word in _PHRASE_END or len(phrase) == _MAX_PHRASE:
            break
        phrase.append(word)
    return phrase


def _after_modifiers(words: list[str], old: Sentence) -> list[str]:
    """What follows the phrase's modifiers of the old memory's words ("by Dov's
    door", "from the blue cookbook"): a preposition, then the words in it that follow."""
    i = 0
    while i < len(words) and words[i] in _MODIFIER_PREPOSITIONS:
        j = i + 1
        while j < len(words) and (words[j] in _DETERMINERS or _held(words[j], old)):
            j += 1
        if j == i + 1:
            break
        i = j
    return words[i:]


def _held(word: str, old: Sentence) -> bool:
    """Whether every content word of ``word`` is in the old memory (a name's "'s" too)."""
    told = parse(word, "en").content
    return bool(told) and all(known_in(w, old) for w in told)


def _other_time(old: str, new: str) -> bool:
    """Whether the old memory names a month, day or season and the new one another."""
    told = set(_TIMES.findall(new))
    held = set(_TIMES.findall(old))
    return bool(held) and bool(told - held)


def _subject(old: Sentence) -> Sentence:
    """The old memory's subject when it opens with a thing (its words up to a verb of being or
    having, a preposition or a clause word); nothing when it opens with its owner ("Ines is
    planning a holiday …", "Dov lends …", "the user …")."""
    opening = _OPENING.match(old.text)
    words = _WORD.findall(old.text[opening.end() :] if opening is not None else old.text)
    owner_first = opening is None and words and words[0] == old.owner
    if not words or words[0] in _PEOPLE or words[0] in {"i", "we"} or owner_first:
        return parse("", "en")
    return parse(" ".join(_phrase(words)), "en")


# "Instead", and what it stands for: "instead of a paper list", or "instead" alone.
_INSTEAD = re.compile(r"\binstead(?: of ([^,;.]+))?")
# The old thing's words the rest of the new memory may say again: its doing ("wears").
_MAX_SHARED = 1


def alternative_to_refused(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells what is done instead of a thing the old one says is not
    done: the old memory says no ("never wears sunglasses", "doesn't drive into town on
    market day"), the new one says no no and no change of its own, tells "instead" ("instead of
    sunglasses": every word of what it stands for in the old memory), and the rest of it says
    at most one of the old memory's words (its doing; not its thing). The old no is kept, and
    the new memory adds how it is lived (EXTENDABLE); "now drinks coffee instead of tea" beside
    "never drinks coffee" says the thing and is a change."""
    old, new = undated(old), undated(new)
    if old.lang != "en" or new.lang != "en" or not old.negative or new.negative:
        return False
    instead = _INSTEAD.search(new.text)
    if instead is None or not _one_owner(old, new):
        return False
    rest = new.text[: instead.start()] + " " + new.text[instead.end() :]
    if OWN_CHANGE.search(rest) or _GONE.search(rest) or _HAPPENED.search(rest):
        return False
    refused = instead.group(1)
    if refused is not None and not all(known_in(w, old) for w in parse(refused, "en").content):
        return False
    people = {USER, "user", old.owner, new.owner}
    shared = {w for w in parse(rest, "en").content if w not in people and known_in(w, old)}
    return len(shared) <= _MAX_SHARED


def detail_told_features(old: Sentence, new: Sentence) -> list[float]:
    """The DETAIL_TOLD_FEATURES row of a pair."""
    return [float(detail_of_old_thing(old, new)), float(alternative_to_refused(old, new))]

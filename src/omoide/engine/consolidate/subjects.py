"""Give a chat sentence back the subject it left out or pointed back to (pure, offline).

People chatting drop the subject they share with the listener, and a note read alone loses
it. Two shapes, in English:

- a sentence that opens with a past-tense verb leaves out "I" ("went to the optician
  finally", "booked it for May 3"): it is the speaker's, unless an earlier sentence of the turn
  spoke of someone else ("she was kind about it. said I can …" continues *her* sentence);
- a sentence that opens with "she" or "he" ("her"/"his") points back to the one person the
  speaker introduced in an earlier turn ("my sister Ana is moving to Oslo." … "She found a
  flat there."), when only the persona spoke in between and that person is the only one the
  pronoun can mean: a relation word gives a gender ("my sister", "my uncle"), a neutral one
  ("my friend Sol", "my boss") fits either, and two candidates for one pronoun bind neither.
  The pronoun becomes the name, or the relation in the speaker's words ("my sister", which
  the third-person rewrite makes "Ken's sister"). Only pronouns before the turn introduces
  anyone new are bound; what the turn says after that is read together in its own note.

Japanese drops subjects everywhere and marks the topic itself; it is left as written.
No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from omoide.engine.consolidate.types import EventText
from omoide.engine.lang import word_set

__all__ = [
    "Referents",
    "bind_pronouns",
    "referents_by_turn",
    "restore_dropped_subject",
    "with_subjects",
]

# Past forms that open a sentence whose "I" was dropped ("went to …", "got a cat").
_IRREGULAR_PAST = word_set(
    """
    went got had made took saw bought sold met ran ate spent found lost won did left came gave
    sent told said wrote drove flew caught brought built began broke chose drank fell felt
    fought forgot heard held kept knew learnt paid rode sat slept spoke stood swam taught
    thought threw woke wore
    """
)
# Regular past forms that read as how someone feels or is ("tired of …", "excited for …").
_ADJECTIVE_ED = word_set(
    """
    tired bored excited stressed worried scared interested pleased surprised shocked confused
    obsessed annoyed amazed relieved exhausted impressed embarrassed freaked creeped used
    supposed based related allowed done
    """
)
# After a regular past form, what an action takes ("adopted her", "moved to", "handed in");
# a form in -ing after it is a verb too ("started volunteering").
_AFTER_VERB = word_set(
    """
    her him it them a an the my our his their this that these those some in to up out back on
    into over down off at from with by for
    """
)
_ADVERB = r"(?:(?:finally|just|also|actually|already|recently|basically)\s+)?"
_OPENING_VERB = re.compile(rf"^{_ADVERB}(?P<verb>[a-z]+)\b(?P<rest>\s+(?P<next>[a-z']+))?")
_OTHER_SUBJECT = re.compile(r"\b(?:she|he|they|she's|he's|they're)\b", re.IGNORECASE)
_OPENING_SUBJECT_PRONOUN = re.compile(r"^(?:she|he)\b(?![’'-]\w\w)", re.IGNORECASE)

_FEMALE = word_set(
    """
    mom mum mother mama grandma grandmother granny nana sister aunt wife girlfriend daughter
    niece stepmom stepmother
    """
)
_MALE = word_set(
    """
    dad father papa grandpa grandfather brother uncle husband boyfriend son nephew stepdad
    stepfather
    """
)
_EITHER = word_set(
    """
    friend partner boss colleague coworker co-worker neighbour neighbor roommate flatmate
    housemate cousin teacher advisor adviser mentor manager therapist coach classmate
    """
)
_RELATION = "|".join(sorted(_FEMALE | _MALE | _EITHER, key=len, reverse=True))
_INTRODUCED = re.compile(
    r"\bmy\s+(?:(?:best|older|younger|little|big|old|new|twin)\s+)?"
    rf"(?P<relation>{_RELATION})(?![\w-])(?:['’]s)?"
    r"(?:,?\s+(?P<name>(?-i:[A-Z][a-z]+(?:-[A-Z][a-z]+)?)))?",
    re.IGNORECASE,
)
_NOT_NAMES = word_set("I Im And But So Is Was Has Had Will Just Who")
_OPENING_PRONOUN = re.compile(r"^(?P<pronoun>[Ss]he|[Hh]e|[Hh]er|[Hh]is)\b(?![’'-]\w\w)")
_GENDER = {"she": "she", "her": "she", "he": "he", "his": "he"}


@dataclass(frozen=True)
class Referents:
    """Whom "she" and "he" can only mean at the start of a turn (None: no one, or unclear)."""

    she: str | None = None
    he: str | None = None

    def of(self, pronoun: str) -> str | None:
        return self.she if _GENDER[pronoun.lower()] == "she" else self.he


_AMBIGUOUS = "\0"  # two people fit one pronoun: it binds neither


def restore_dropped_subject(sentence: str, earlier: Sequence[str]) -> str:
    """ "went to the optician" → "I went to the optician" (the speaker's dropped "I"), unless a
    sentence ``earlier`` in the turn speaks of someone else: then the dropped subject is the
    one the sentence just before opened with ("she called. said it's fine" → "She said it's
    fine"), and any other is left as written."""
    match = _OPENING_VERB.match(sentence[:1].lower() + sentence[1:])
    if match is None:
        return sentence
    if match.group("verb") == "got" and match.group("next") == "it":
        return sentence  # "Got it." acknowledges
    subject = "I"
    if any(_OTHER_SUBJECT.search(text) for text in earlier):
        before = _OPENING_SUBJECT_PRONOUN.match(earlier[-1].strip()) if earlier else None
        if before is None:
            return sentence
        subject = before.group(0).capitalize()  # "she was kind. said …" → "She said …"
    verb, following = match.group("verb"), match.group("next") or ""
    regular = (
        verb.endswith("ed")
        and len(verb) > 4
        and verb not in _ADJECTIVE_ED
        and (following in _AFTER_VERB or following.endswith("ing"))
    )
    if verb in _IRREGULAR_PAST or regular:
        return f"{subject} {sentence[:1].lower()}{sentence[1:]}"
    return sentence


def introduced(text: str) -> list[tuple[str, str]]:
    """The people a turn introduces, in order: (how to call them, gender "she"/"he"/"either"):
    "my sister Ana" → ("Ana", "she"), "my boss" → ("my boss", "either")."""
    return [(name, gender) for name, gender, _ in _introductions(text)]


def _introductions(text: str) -> list[tuple[str, str, str]]:
    """:func:`introduced`, each with its relation word."""
    out: list[tuple[str, str, str]] = []
    for match in _INTRODUCED.finditer(text):
        relation = match.group("relation").lower()
        name = match.group("name")
        if name in _NOT_NAMES:
            name = None
        out.append((name or f"my {relation}", _gender_of(relation), relation))
    return out


def referents_by_turn(events: Sequence[EventText]) -> list[Referents]:
    """For each turn, whom its opening "she"/"he" means: the one fitting person its speaker
    introduced in their previous turns, with only the persona speaking in between (another
    person's turn in between makes every pronoun unclear). A new name said inside a sentence
    without a relation word, by the speaker or the persona ("including Dev", "Does Dev
    mind?"), may be the one a later pronoun means: from then on both pronouns are unclear. A
    name said before (the persona's "Why Lisbon?" after the user's "… to Lisbon") is no one
    new; a word that opens a sentence is not read as a name (a known gap: "Dev helped." does
    not make "he" unclear)."""
    out: list[Referents] = []
    slots: dict[str, str | None] = {"she": None, "he": None}
    known: dict[str, str] = {}  # relation → how the speaker called that person
    speaker: str | None = None
    seen = {event.speaker for event in events}  # names said before: echoes are no one new
    for event in events:
        if event.role != "assistant" and event.speaker != speaker:
            slots = {"she": None, "he": None}
            known = {}
            speaker = event.speaker
        if event.role == "assistant":
            out.append(Referents())
            people = _asked_about(event.text, known)
        else:
            out.append(Referents(**{k: None if v == _AMBIGUOUS else v for k, v in slots.items()}))
            found = _introductions(event.text)
            known.update({relation: name for name, _, relation in found})
            people = [(name, gender) for name, gender, _ in found]
        names = _inner_names(event.text)
        if names - seen - {name for name, _ in people}:
            slots = {"she": _AMBIGUOUS, "he": _AMBIGUOUS}
        seen |= set(_CAPITALISED.findall(event.text))
        for gender in ("she", "he"):
            fitting = {name for name, g in people if g in (gender, "either")}
            if len(fitting) == 1:
                slots[gender] = fitting.pop()
            elif fitting:
                slots[gender] = _AMBIGUOUS
    return out


_ASKED_ABOUT = re.compile(
    r"\byour\s+(?:(?:best|older|younger|little|big|old|new|twin)\s+)?"
    rf"(?P<relation>{_RELATION})(?![\w-])",
    re.IGNORECASE,
)


def _asked_about(text: str, known: dict[str, str]) -> list[tuple[str, str]]:
    """The user's people the persona speaks of ("How did your boss take it?"): "my boss" in
    the user's words, or what the user called that relation before ("my sister Ana" … "Is
    your sister settled?" → "Ana"); ``known`` maps relations to those names."""
    out: list[tuple[str, str]] = []
    for match in _ASKED_ABOUT.finditer(text):
        relation = match.group("relation").lower()
        out.append((known.get(relation, f"my {relation}"), _gender_of(relation)))
    return out


def _gender_of(relation: str) -> str:
    return "she" if relation in _FEMALE else "he" if relation in _MALE else "either"


# A capitalised word inside a sentence that may name a person: not after a word of place or
# time ("to Leeds", "in May", "on Sunday"), not a month or weekday.
_INNER_NAME = re.compile(
    r"(?<![.!?]\s)(?<!^)(?<![.!?])(?<!\bin\s)(?<!\bto\s)(?<!\bat\s)(?<!\bfrom\s)"
    r"(?<!\bnear\s)(?<!\binto\s)(?<!\bon\s)(?<!\bof\s)\b[A-Z][a-z]+\b"
)
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
_CALENDAR = word_set(
    """
    January February March April May June July August September October November December
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday
    """
)


def _inner_names(text: str) -> set[str]:
    """Capitalised words inside the sentences of ``text`` that may name a person (a word that
    opens a sentence is capitalised anyway and is not read as a name)."""
    return {
        match.group(0)
        for line in text.splitlines()
        for match in _INNER_NAME.finditer(line.strip())
        if match.group(0) not in _CALENDAR and match.group(0) not in _NOT_NAMES
    }


def bind_pronouns(sentences: Sequence[str], referents: Referents) -> list[str]:
    """The turn's sentences with an opening "she"/"he" (or "her"/"his") replaced by whom it can
    only mean, up to the first sentence that introduces someone."""
    out: list[str] = []
    binding = True
    for sentence in sentences:
        binding = binding and not introduced(sentence)
        match = _OPENING_PRONOUN.match(sentence) if binding else None
        who = referents.of(match.group("pronoun")) if match else None
        if match is None or who is None:
            out.append(sentence)
            continue
        possessive = match.group("pronoun").lower() in {"her", "his"}
        if possessive and _followed_by_verb(sentence[match.end() :]):
            out.append(sentence)  # "her" as an object is not the sentence's subject
            continue
        replacement = f"{who}'s" if possessive else who
        out.append(replacement + sentence[match.end() :])
    return out


def _followed_by_verb(rest: str) -> bool:
    """ "Her hip …" is possessive; "Her, I never liked" is not worth guessing: only a noun-like
    next word ("Her husband got …") is taken as possessive."""
    word = rest.strip().split(" ", 1)[0].lower().strip(",.!?")
    return not word or not word.isalpha()


def with_subjects(
    texts: list[str], referents: Referents, *, own_voice: bool
) -> tuple[list[str], list[str]]:
    """The turn's sentences with the "I" they left out given back, each read against the
    sentences before it, and then also with an opening "she"/"he" bound to whom it can only
    mean (:mod:`omoide.engine.consolidate.subjects`). A pasted exchange (not the speaker's
    own voice) is left as written."""
    if not own_voice:
        return texts, texts
    restored = [restore_dropped_subject(text, texts[:i]) for i, text in enumerate(texts)]
    return restored, bind_pronouns(restored, referents)

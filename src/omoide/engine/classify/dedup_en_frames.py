"""Dedup's notation of one English text: the frames a fact about the user is said in (pure).

A part of ``dedup_en_notation.en_notation`` (see its docstring), after the user is written in
the first person ("the user" as "I", "the user's" as "my"). Trigger: a near-copy that says the
same fact about the user inside a frame: reported by the user ("the user says they are
left-handed", "the user mentioned their flat is on the 4th floor", "according to the user,
their nephew …"), as a note headed by the user ("User: grows chillies …"), a job said with
"works as" ("works as a glazier" / "is a glazier", "is employed as a locksmith"), or the user's
own things said with "their" ("the user keeps their albums" / "my albums"). Why: read word by
word, the frame's words were a changed or added part, which the judge weighed as a new fact.
Outcome: the frame read away: the reported clause with the user's pronouns in the first person
("they are" as "I am", "their" as "my"), "works as a" as "is a" ("am a" after "I"), and
one reporting verb ("mentioned" / "says" as "said"), and
a person named in apposition without the commas ("Sam, my son, is" as "my son Sam is"), and
"their" / "themselves" as "my" / "myself" in a text whose subject is the user (one that opens
with "I": "my parents sold their house" keeps "their"). A text that reports someone else ("Tom
says he …") keeps its frame. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["en_frames", "third_person"]

# The user reporting a fact about themselves: "I says (that) they / their …".
_REPORTED = re.compile(
    r"^(?:I\s+(?:says|said|mentioned|mentions|explained|reports|reported|told us|tells us)"
    r"|According to I,)\s+(?:that\s+)?(?=(?:they|their|I|my)\b)",
    re.IGNORECASE,
)
# A note headed by the user: "I: grows chillies".
_HEADED = re.compile(r"^I\s*:\s*(?=[a-z])")


def third_person(verb: str) -> str:
    """A present verb after "they" as after the user ("testify": "testifies"), as the
    notation writes "the user testifies" ("I testifies")."""
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# The user's pronouns in a reported clause (verb agreement of the common auxiliaries).
_THEY = (
    (re.compile(r"\bthey are\b"), "I am"),
    (re.compile(r"\bthey were\b"), "I was"),
    (re.compile(r"\bthey're\b"), "I am"),
    (re.compile(r"\bthey have\b"), "I have"),
    (
        re.compile(
            r"\bthey\b(?!\s+(?:can|could|will|would|should|may|might|must|do|did|had|"
            r"also|still|never|always|often|usually|sometimes|just|only|really)\b)"
            r"\s+([a-z]+)\b(?<!ly)"
        ),
        lambda m: "I " + third_person(m.group(1)),
    ),
    (re.compile(r"\bthey\b"), "I"),
    (re.compile(r"\bthem\b"), "I"),
)
_THEIR = ((re.compile(r"\btheir\b"), "my"), (re.compile(r"\bthemselves\b"), "myself"))
# A job said with "works as" or "is employed as".
_WORKS_AS = re.compile(
    r"\b(I\s+)?(?:works|work|is working|am working|is employed|am employed)"
    r"\s+as\s+(?=[a-z])"
)
# A reporting verb before the reported clause: one verb ("mentioned that he" / "said he").
_REPORTING = re.compile(
    r"\b(?:mentioned|mentions|says|explained|noted|stated|told us|tells us)"
    r"(?=\s+(?:that|he|she|they|I|we|it|his|her|their|my|[A-Z][a-z]+)\b)"
)
# A person named in apposition: "Sam, my son, is …" / "my son Sam is …", "my landlord, Mr Okoro,
# is …" / "my landlord Mr Okoro is …" (round 22: 71 paraphrase pairs of five writers and the
# calibration pairs say one of the two). The name opens the text or follows a relative or a
# coordinator ("which Gillian, my manager, signs off"), never a preposition ("In July, my …").
_NAME = r"(?:(?:Mr|Mrs|Ms|Dr)\.? )?[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
_APPOSED = re.compile(
    r"(?:^|(?<=\band )|(?<=\bwhich )|(?<=\bwho )|(?<=\bwith )|(?<=\bthat ))"
    rf"({_NAME}), (my|his|her|their|our) ([a-z]+(?: [a-z]+)?), "
)
_APPOSED_AFTER = re.compile(rf"\b(my|his|her|their|our) ([a-z]+(?: [a-z]+)?), ({_NAME}), ")
_ABOUT_USER = re.compile(r"\bI\b(?=.*\b(?:their|themselves)\b)")


def en_frames(text: str) -> str:
    """``text`` (the user already in the first person) with the frames of the module
    docstring read away."""
    reported = _REPORTED.match(text)
    if reported is not None:
        text = text[reported.end() :]
        for pattern, replacement in (*_THEY, *_THEIR):
            text = pattern.sub(replacement, text)
    text = _REPORTING.sub("said", _HEADED.sub("I ", text))
    text = _APPOSED.sub(r"\2 \3 \1 ", _APPOSED_AFTER.sub(r"\1 \2 \3 ", text))
    text = _WORKS_AS.sub(lambda m: "I am " if m.group(1) else "is ", text)
    user = _ABOUT_USER.search(text)
    if user is not None:
        head, tail = text[: user.start()], text[user.start() :]
        for pattern, replacement in _THEIR:
            tail = pattern.sub(replacement, tail)
        text = head + tail
    return text

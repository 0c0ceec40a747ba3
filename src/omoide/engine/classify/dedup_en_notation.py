"""Dedup's notation of one English text: units, contractions, fillers and spellings (pure).

A part of ``dedup_notation.text_notation`` (split out in the twenty-third round), after the
numbers are read in one notation (``dedup_number_notation.one_notation``) and before the pair is
compared. Trigger: a near-copy that keeps every fact but writes a word otherwise, where the
veto and the learned judge saw a changed word: a unit word or its symbol ("68 kilograms" /
"68kg"), a contraction ("don't" / "do not", "gonna" / "going to"), a discourse filler or a word
that only says the statement holds now ("As it happens,", "currently"), a title before a name
("St. Louis" / "Saint Louis"), a British or American spelling ("organises" / "organizes",
"theatre" / "theater", "foetal" / "fetal"), the user named in the first person ("the user's
wife" / "my wife"; session 50: "I run" / "the user runs" both as "I runs") and "said that he" /
"said he"; (session 50) a unit hyphenated or singular ("a 30-centimetre wok" / "a 30cm wok") and
a bare "degrees" after a number as °C; with days, clocks and steps said another way
(``dedup_en_forms``), a scaled amount (``dedup_formats.en_scaled``) and everyday synonyms
(``dedup_synonyms``); then the frames a fact about the user is said in (``dedup_en_frames``:
"the user says …", "works as a", "Sam, my son," as "my son Sam"). Outcome: the text
with each written one way; a word that differs stays different. Deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.dedup_en_forms import en_forms
from omoide.engine.classify.dedup_en_frames import en_frames, third_person
from omoide.engine.classify.dedup_formats import en_scaled
from omoide.engine.classify.dedup_synonyms import en_synonyms
from omoide.engine.lang import word_set

__all__ = ["en_notation"]

# A unit word after a number, and its symbol.
_EN_UNITS = {
    "centimetres": "cm",
    "centimeters": "cm",
    "centimetre": "cm",
    "centimeter": "cm",
    "millimetres": "mm",
    "millimeters": "mm",
    "millimetre": "mm",
    "millimeter": "mm",
    "kilowatts": "kw",
    "kilowatt": "kw",
    "kilometres": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometer": "km",
    "kilograms": "kg",
    "kilogram": "kg",
    "kilos": "kg",
    "grams": "g",
    "metres": "m",
    "meters": "m",
    "miles": "mi",
    "mile": "mi",
    "hectares": "ha",
    "hectare": "ha",
    "litres": "l",
    "liters": "l",
    "percent": "%",
    "per cent": "%",
    "pounds": "lb",
    "ounces": "oz",
    "feet": "ft",
    "inches": "in",
    "hours": "h",
    "hrs": "h",
    "minutes": "min",
    "mins": "min",
    "degrees celsius": "°c",
    "degrees centigrade": "°c",
    "degrees fahrenheit": "°f",
    # a bare "degrees" after a number is a temperature in Celsius (session 50: "26°C" /
    # "twenty-six degrees"); an explicit scale is read above
    "degrees": "°c",
}
# A unit after a number, as its word or its symbol, spaced one way ("68kg", "68 kilograms",
# "a 30-centimetre wok").
_EN_UNIT = re.compile(
    r"(?<=[0-9])(?:\s*|-)("
    + "|".join(
        sorted({*_EN_UNITS, *(u for u in _EN_UNITS.values() if u != "%")}, key=len, reverse=True)
    )
    + r")\b",
    re.IGNORECASE,
)
# English contractions and their full forms.
_EN_CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\bcan't\b", "cannot"),
        (r"\bcan not\b", "cannot"),
        (r"\bwon't\b", "will not"),
        (r"\bain't\b", "is not"),
        (r"\b(\w+)n't\b", r"\1 not"),
        (r"\b(i)'m\b", r"\1 am"),
        (r"\b(\w+)'re\b", r"\1 are"),
        (r"\b(\w+)'d've\b", r"\1 would have"),
        (r"\b(\w+)'ve\b", r"\1 have"),
        (r"\b(\w+)'ll\b", r"\1 will"),
        (r"\bgonna\b", "going to"),
        (r"\bwanna\b", "want to"),
        (r"\bgotta\b", "got to"),
    )
)
# The user spoken of in the third person or the first: one form.
_EN_USER = (
    (re.compile(r"\b(?:the )?user's\b", re.IGNORECASE), "my"),
    (re.compile(r"\b(?:the )?user is\b", re.IGNORECASE), "I am"),
    (re.compile(r"\b(?:the )?user has\b", re.IGNORECASE), "I have"),
    # (not in a compound: "user experience", "user-friendly", "username"; "the user
    # needs" is a verb as often as not, read as one since the sixteenth round)
    (
        re.compile(
            r"\b(?:the )?user\b(?![-'’]|\s+(?:experience|interface|research|"
            r"manual|guide|account|base|group|stor(?:y|ies)|testing|feedback|"
            r"data)\b)",
            re.IGNORECASE,
        ),
        "I",
    ),
    (re.compile(r"\bme\b", re.IGNORECASE), "I"),
)
# The user written "I" keeps the verb of "the user" ("the user runs": "I runs", as
# ``dedup_en_frames`` writes "they testify" as "I testifies"), so a text in the first person
# says its present verb after "I" (or after one adverb of frequency) in the third person too:
# "I run" is "I runs" (session 50). A word that is no present verb is left as it is: one
# that already ends in s, a past (-ed, irregular, or one spelt as its present: put, cut), an
# adverb in -ly, "am" and "have" (the notation's own "I am", "I have"), the modals, and the
# function words an object "I" (from "me") stands before.
_EN_I_VERB = re.compile(
    r"\b[Ii]\s+((?:always|also|usually|often|never|still|just|only|sometimes|normally|generally"
    r"|rarely|really|now|even|mostly|regularly|typically|occasionally|already)\s+)?([a-z]{2,})\b"
)
_EN_NOT_PRESENT = (
    lex.EN_PAST_IRREGULAR
    | lex.EN_PAST_IRREGULAR_MORE
    | word_set(
        # a past said as the present is (put, cut, set …): neither is read
        "put cut set hit let read quit shut cost hurt spread bet cast split burst upset fit rid "
        "shed slit spit thrust redid "
        # the notation's own "I am", "I have", the other forms of be / have / do, the modals
        "am are was were have had did can cannot could will would shall should may might must "
        "ought used "
        # the function words an object "I" (from "me") stands before
        "and but nor too myself alone then now first personally both together this that the for "
        "with from about once when while because who which where all any each every here there "
        "again later today yesterday tomorrow not into onto out off over back "
    )
)


def _i_verb(match: re.Match[str]) -> str:
    adverb, word = match.group(1) or "", match.group(2)
    if (
        word in _EN_NOT_PRESENT
        or word.endswith(("s", "ed", "ly"))
        or (len(word) == 2 and word not in ("go", "do"))
    ):
        return match.group(0)
    return f"I {adverb}{third_person(word)}"


# British and American spellings of one word: -ise / -ize, -our / -or, -tre / -ter, a doubled
# l before a suffix (travelled / traveled), -ogue / -og, -yse / -yze, programme / program. Both
# texts are rewritten alike, so a word that is no spelling variant ("exercise") only has to be
# rewritten the same way in both.
_EN_SPELLINGS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"\bpractis(e|es|ed|ing)\b", r"practic\1"),  # the verb and the noun, one spelling
        (r"\b([a-z]{3,})is(e|es|ed|ing|ation|ations|er|ers)\b", r"\1iz\2"),
        (r"\b([a-z]{3,})our([a-z]*)\b", r"\1or\2"),
        (r"\b([a-z]{3,})([bt])re(s)?\b", r"\1\2er\3"),
        (r"\b([a-z]{2,}e)ll(ed|ing|er|ers)\b", r"\1l\2"),
        (r"\b([a-z]{3,})ogue(s)?\b", r"\1og\2"),
        (r"\b([a-z]{3,})ys(e|es|ed|ing)\b", r"\1yz\2"),
        (r"\bprogramme(s)?\b", r"program\1"),
    )
)
# ae / oe before a consonant inside a lower-case word (names keep theirs: Michael, Phoebe):
# foetal / fetal, anaemia / anemia, paediatric / pediatric, oestrogen / estrogen.
_EN_DIGRAPH_WORD = re.compile(r"\b[a-z]{6,}\b")
_EN_DIGRAPH = re.compile(r"(?:ae|oe)(?=[b-df-hj-np-tv-z][a-z])")
# English abbreviations of a title before a name: "St. Louis" / "Saint Louis", "Mt. Fuji" /
# "Mount Fuji".
_EN_TITLES = tuple(
    (re.compile(rf"\b{short}\.?(?= [A-Z])"), full)
    for short, full in (
        ("St", "Saint"),
        ("Mt", "Mount"),
        ("Ft", "Fort"),
        ("Prof", "Professor"),
        ("Dr", "Doctor"),
    )
)
# Discourse fillers that frame a statement without changing it ("as it happens", "basically",
# "just to note:") and words that only say it holds now ("currently", "at the moment", "these
# days": a memory speaks of now). (eighteenth round: the same kind said as a clause: ``for what
# it's worth``, "as things stand", ``just so it's noted``)
_EN_FILLERS = re.compile(
    r"\b(?:as it happens|basically|just to note|just so you know|for the record|by the way|btw"
    r"|actually|honestly|of course|in fact|to be honest|incidentally|currently|at the moment"
    r"|these days|as of now|right now|nowadays|for what it's worth|as a matter of fact"
    r"|as things (?:currently )?stand|just so it's (?:noted|on record)|worth noting(?=:)"
    r"|to be clear(?=,)|in short(?=,)|^note that|^reminder(?=:))\b\s*[,:;]?\s*",
    re.IGNORECASE,
)
# "said that he …" is "said he …": the complementiser after a reporting verb.
_EN_SAID_THAT = re.compile(
    r"\b(said|says|mentioned|mentions|explained|added|thinks|believes)"
    r"\s+that\b(?=\s+(?:he|she|they|I|we|it|the|his|her|their|my)\b)"
)


def _en_unit(unit: str) -> str:
    symbol = _EN_UNITS.get(unit, unit)
    return symbol if symbol == "%" else " " + symbol


def en_notation(text: str) -> str:
    """One English text, its numbers already in one notation, in dedup's notation (see the
    module docstring)."""
    text = en_forms(text.replace("\u2019", "'"))
    text = _EN_FILLERS.sub("", text)
    for pattern, replacement in _EN_TITLES:
        text = pattern.sub(replacement, text)
    for pattern, replacement in _EN_CONTRACTIONS:
        text = pattern.sub(replacement, text)
    text = en_scaled(_EN_UNIT.sub(lambda m: _en_unit(m.group(1).lower()), text))
    for pattern, replacement in _EN_SPELLINGS:
        text = pattern.sub(replacement, text)
    text = _EN_DIGRAPH_WORD.sub(lambda m: _EN_DIGRAPH.sub("e", m.group()), text)
    text = en_synonyms(text)
    for pattern, replacement in _EN_USER:
        text = pattern.sub(replacement, text)
    return _EN_I_VERB.sub(_i_verb, en_frames(_EN_SAID_THAT.sub(r"\1", text)))

"""Dedup's notation across an English pair: a name written out where the other text holds it
shortened, by its initials or by its first letter (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring). Trigger: the two texts of a
near-copy differ where one writes an acronym and the other the words it stands for ("UN" /
"United Nations", "LISA" / "Lifetime ISA", "wpm" / "words per minute"), or one a word clipped
to its first letter before a hyphen and the other the whole word ("e-bike" / "electric bike").
Why: read apart, both looked like a changed word or an added one. Outcome: ``second``
rewritten in ``first``'s short form where its words spell it; a run whose initials spell
something else stays. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["abbreviated", "lettered"]

# An acronym: two to six capitals, or two to five lower-case consonants ("wpm", "mph", "bpm":
# no English word is written without a vowel).
_ACRONYM = re.compile(r"\b(?:[A-Z]{2,6}|[b-df-hj-np-tv-xz]{2,5})\b")
_ACRONYM_SKIP = frozenset({"of", "the", "and", "for", "&", "de"})
_WORDS = re.compile(r"[A-Za-z][A-Za-z'-]*")
_CAPITALS = re.compile(r"[A-Z]{2,6}")
# A word clipped to its first letter before a hyphen: e-bike, e-scooter.
_LETTERED = re.compile(r"\b([A-Za-z])-([A-Za-z]{2,})\b")


def _letters(word: str, first: bool) -> str:
    """What a word gives to an acronym: an acronym inside it whole ("ISA" in "LISA"), else its
    initial; a small word ("of") nothing unless it opens the run."""
    if _CAPITALS.fullmatch(word):
        return word.lower()
    lowered = word.lower()
    return lowered[0] if first or lowered not in _ACRONYM_SKIP else ""


def _initials_run(text: str, acronym: str) -> tuple[int, int] | None:
    """The span of a run of words in ``text`` whose initials spell ``acronym`` (small words
    such as "of" skipped inside it; an acronym among them gives all its letters): "United
    Nations" for UN, "human resources" for HR, "Lifetime ISA" for LISA."""
    words = list(_WORDS.finditer(text))
    target = acronym.lower()
    for start in range(len(words)):
        if words[start].group().lower() in _ACRONYM_SKIP:
            continue
        letters, end = "", start
        while end < len(words) and len(letters) < len(target) and target.startswith(letters):
            letters += _letters(words[end].group(), end == start)
            end += 1
        if letters == target and end - start >= 2:
            return words[start].start(), words[end - 1].end()
    return None


def abbreviated(first: str, second: str) -> str:
    """``second`` with each run of words that ``first`` holds as an acronym written as it."""
    for acronym in dict.fromkeys(_ACRONYM.findall(first)):
        if re.search(rf"\b{acronym}\b", second):
            continue
        span = _initials_run(second, acronym)
        if span is not None:
            second = second[:span[0]] + acronym + second[span[1]:]
    return second


def lettered(first: str, second: str) -> str:
    """``second`` with "X word" written "X-word" where ``first`` clips a word to its first
    letter X before the same word ("e-bike" / "electric bike")."""
    for letter, word in dict.fromkeys(_LETTERED.findall(first)):
        second = re.sub(rf"\b{re.escape(letter)}[a-z]{{2,}}\s+({re.escape(word)})\b",
                        f"{letter}-\\1", second, flags=re.IGNORECASE)
    return second

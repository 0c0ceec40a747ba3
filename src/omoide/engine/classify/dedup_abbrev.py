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

from omoide.engine.classify.lexicon import EN_ORDINALS_TO_TENTH
from omoide.engine.lang import EN_MONTHS

__all__ = ["abbreviated", "clipped", "lettered", "numbered", "spelt_out"]

# An acronym: two to six capitals, or two to five lower-case consonants ("wpm", "mph", "bpm":
# no English word is written without a vowel).
# Since the twenty-fourth round also with a digit among its capitals ("T1D", "2FA") and in the
# plural ("PRs" for "pull requests").
_ACRONYM = re.compile(
    r"\b(?:(?=[0-9]*[A-Z][0-9]*[A-Z])[A-Z0-9]{2,6}s?|"
    r"[b-df-hj-np-tv-xz]{2,5})\b"
)
_ACRONYM_SKIP = frozenset({"of", "the", "and", "for", "&", "de"})
_WORDS = re.compile(r"[A-Za-z0-9][A-Za-z0-9']*")
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
        plural = acronym.endswith("s") and acronym[:-1].isupper()
        span = _initials_run(second, acronym[:-1] if plural else acronym)
        if span is not None and (not plural or second[: span[1]].endswith("s")):
            second = second[: span[0]] + acronym + second[span[1] :]
    return second


# A capital and a number ("Y3", "U11") for a word with that initial and the number ("Year 3",
# "under-11").
_NUMBERED = re.compile(r"\b([A-Z])([0-9]{1,2})\b")


def numbered(first: str, second: str) -> str:
    """``second`` with "Word N" written "WN" where ``first`` writes the word's initial and the
    same number as one token ("Year 3" / "Y3", "under-11" / "U11"); another number stays."""
    for letter, number in dict.fromkeys(_NUMBERED.findall(first)):
        second = re.sub(
            rf"\b{letter}[a-z]+[\s-]{number}\b", f"{letter}{number}", second, flags=re.IGNORECASE
        )
    return second


# What a word may end with after a shorter word and still be another word (nurse / nursery,
# teach / teacher, paint / painting): never read as a clipping.
_ENDINGS = frozenset(
    {
        "s",
        "es",
        "ed",
        "d",
        "er",
        "ers",
        "ing",
        "ings",
        "ist",
        "ists",
        "ian",
        "ians",
        "or",
        "ors",
        "ery",
        "ry",
        "y",
        "ly",
        "al",
        "ment",
        "ments",
        "ness",
        "ity",
        "ies",
        "ation",
        "ations",
        "ive",
        "ful",
        "less",
        "ic",
        "ical",
        "able",
        "ship",
        "hood",
        "ie",
        "ee",
        "ees",
    }
)
_WORD = re.compile(r"[A-Za-z]+\.?")


def clipped(first: str, second: str) -> str:
    """``second`` with a word written as ``first`` clips it where both have the same word
    next to it: "spec" for "spectrometer", "eng." for "engineer" (the clipping four letters or
    more, or marked by a full stop; the rest four letters or more and not an ending such as
    -ness: "with" is not "without"; nor a word of ``first``: "part time" is not "parttime")."""
    a = [m.group() for m in _WORD.finditer(first)]
    b = list(_WORD.finditer(second))
    a_words = {w.rstrip(".").lower() for w in a}
    b_words = [m.group().rstrip(".").lower() for m in b]
    for k, short in enumerate(a):
        stem = short.rstrip(".").lower()
        if (len(stem) < 4 and not (short.endswith(".") and len(stem) >= 2)) or stem in b_words:
            continue
        neighbours = {w.rstrip(".").lower() for w in a[max(k - 1, 0) : k] + a[k + 1 : k + 2]}
        for j, word in enumerate(b_words):
            rest = word[len(stem) :]
            if (
                word.startswith(stem)
                and len(rest) >= 4
                and rest not in _ENDINGS
                and not any(w.startswith(rest) for w in a_words)
                and word not in a_words
                and neighbours & set(b_words[max(j - 1, 0) : j] + b_words[j + 1 : j + 2])
            ):
                m = b[j]
                second = second[: m.start()] + short.rstrip(".") + second[m.start() + len(word) :]
                return clipped(first, second)
    return second


def lettered(first: str, second: str) -> str:
    """``second`` with "X word" written "X-word" where ``first`` clips a word to its first
    letter X before the same word ("e-bike" / "electric bike")."""
    for letter, word in dict.fromkeys(_LETTERED.findall(first)):
        second = re.sub(
            rf"\b{re.escape(letter)}[a-z]{{2,}}\s+({re.escape(word)})\b",
            f"{letter}-\\1",
            second,
            flags=re.IGNORECASE,
        )
    return second


# (thirtieth round) A month clipped to its first letters ("Oct", "Sept.") and an ordinal in
# digits ("1st", "2nd") where the other text writes the month or the ordinal in full ("October",
# "first"): a short day name is read by ``dedup_en_forms``, a month only before a day or a year
# (``dedup_en_dates``); "every Oct", "since Jan", "the 2nd Saturday" were left as changed words.
_MONTH_CLIPS = {
    month: re.compile(
        rf"\b{month[:3]}{'(?:t)?' if month == 'September' else ''}"
        r"\b(?:\.(?!\s*$))?(?![-'’])"
    )  # a final stop ends the sentence
    for month in EN_MONTHS
    if len(month) > 3
}
_ORDINAL_WORDS = tuple(EN_ORDINALS_TO_TENTH)  # "1st" … "10th" spelt out, in order
_ORDINAL_DIGITS = re.compile(r"\b(10|[1-9])(?:st|nd|rd|th)\b")


def spelt_out(first: str, second: str) -> str:
    """``second`` with a clipped month or a digit ordinal written as ``first`` spells the same
    month or ordinal out ("Oct" / "October", "1st" / "first"); one that ``first`` does not
    spell out (another month, another ordinal) stays as it is."""
    for month, clip in _MONTH_CLIPS.items():
        if re.search(rf"\b{month}\b", first) and not re.search(rf"\b{month}\b", second):
            second = clip.sub(month, second)
    if _ORDINAL_DIGITS.search(first):  # ``first`` writes its own ordinals in digits
        return second

    def ordinal(match: re.Match[str]) -> str:
        word = _ORDINAL_WORDS[int(match.group(1)) - 1]
        spelt = re.search(rf"\b{word}\b", first, re.IGNORECASE)
        return word if spelt else match.group()

    return _ORDINAL_DIGITS.sub(ordinal, second)

"""Dedup's notation across a Japanese pair: a word in Latin letters and the same word in
katakana (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring). Trigger: the two texts of a
near-copy differ where one writes a name or loanword in Latin letters and the other in
katakana (Python / パイソン, iPhone / アイフォーン, ASICS / アシックス). Why: with no dictionary
of loanwords on the server, read apart they looked like two different names. Outcome:
``second``'s katakana word written as ``first``'s Latin one where the two sound alike: the
same consonants in the same order, read by broad classes (ラ and "l", バ and "v", フ and "ph",
ス and "th", the English c by the vowel after it; a silent "r" after a vowel optional), at
least two of them. A katakana word with other consonants (ピクセル / iPhone) stays apart.

An acronym against the katakana of the words it stands for (NY / ニューヨーク, PC / パソコン;
:func:`initialled`): each letter, in order, is the consonant class of a later
syllable of the katakana word, the first letter its first syllable's and each later letter's
no earlier than its share of the syllables (the words split the katakana: TV / タブレット stays
apart); a vowel letter (or Y, W) a syllable without a consonant; and the word has at least two
kana per letter (AI / アイス stays apart). C reads as K only (PC / プレステ stays apart).
Deterministic.
"""

from __future__ import annotations

import re
from itertools import product

__all__ = ["initialled", "transliterated"]

_KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]{3,}")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# Each katakana's consonant class ("" for a vowel; ン and ム both N: ランプ / "lamp").
_KANA_CLASS = {
    **dict.fromkeys("アイウエオァィゥェォーッャュョヮ", ""),
    **dict.fromkeys("カキクケコガギグゲゴ", "K"),
    **dict.fromkeys("サシスセソザズゼゾ", "S"),
    **dict.fromkeys("ジ", "J"),
    **dict.fromkeys("タテトダデド", "T"),
    **dict.fromkeys("チ", "C"),
    **dict.fromkeys("ツヅ", "S"),
    **dict.fromkeys("ヂ", "J"),
    **dict.fromkeys("ナニヌネノンマミムメモ", "N"),
    **dict.fromkeys("ハヒヘホ", "H"),
    **dict.fromkeys("フ", "F"),
    **dict.fromkeys("バビブベボヴパピプペポ", "P"),
    **dict.fromkeys("ヤユヨワヰヱヲ", ""),
    **dict.fromkeys("ラリルレロ", "R"),
}
# English letters (after the digraphs below) to the same classes; vowels, w, y and h after a
# consonant give nothing.
_LATIN_CLASS = {
    **dict.fromkeys("aeiouwy", ""),
    "b": "P",
    "p": "P",
    "v": "P",
    "d": "T",
    "t": "T",
    "f": "F",
    "g": "K",
    "k": "K",
    "q": "K",
    "c": "K",
    "j": "J",
    "l": "R",
    "r": "R",
    "m": "N",
    "n": "N",
    "s": "S",
    "z": "S",
    "x": "KS",
    "h": "H",
}
_DIGRAPHS = (("ph", "f"), ("th", "s"), ("ck", "k"), ("sh", "s"), ("ch", "C"), ("gh", ""))


def _kana_skeleton(word: str) -> str:
    out = "".join(_KANA_CLASS.get(ch, "?") for ch in word)
    return re.sub(r"(.)\1+", r"\1", out)


def _latin_skeletons(word: str) -> set[str]:
    """The word's consonant classes, with and without each "r" after a vowel and before a
    consonant or the end (car / カー, sport / スポーツ)."""
    word = word.lower()
    for digraph, single in _DIGRAPHS:
        word = word.replace(digraph, single)
    word = re.sub(r"c(?=[eiy])", "s", word)
    word = re.sub(r"g(?=[eiy])", "j", word)
    word = re.sub(r"(?<=[^aeiou])h", "", word)
    optional = {m.start() for m in re.finditer(r"(?<=[aeiou])r(?![aeiouy])", word)}
    out = set()
    for drop in product((False, True), repeat=min(len(optional), 3)):
        dropped = {i for i, d in zip(sorted(optional), drop, strict=False) if d}
        classes = "".join(
            "C" if ch == "C" else _LATIN_CLASS.get(ch, "?")
            for i, ch in enumerate(word)
            if i not in dropped
        )
        out.add(re.sub(r"(.)\1+", r"\1", classes))
    return out


def _sound_alike(latin: str, katakana: str) -> bool:
    kana = _kana_skeleton(katakana)
    return len(kana) >= 2 and "?" not in kana and kana in _latin_skeletons(latin)


def transliterated(first: str, second: str) -> str:
    """``second`` with a katakana word written in ``first``'s Latin letters where ``first``
    holds that word in Latin letters and ``second`` does not."""
    latin = [
        w
        for w in dict.fromkeys(_LATIN_WORD.findall(first))
        if not re.search(rf"(?i)\b{w}\b", second)
    ]
    for word in dict.fromkeys(_KATAKANA_RUN.findall(second)):
        if word in first:
            continue
        match = next((w for w in latin if _sound_alike(w, word)), None)
        if match is not None:
            second = second.replace(word, match)
    return second


_ACRONYM = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2,4}(?![A-Za-z0-9])")
# A letter of an acronym to the consonant class of the syllable its word begins with.
_LETTER_CLASS = {
    **dict.fromkeys("AEIOUYW", ""),
    "B": "P",
    "P": "P",
    "V": "P",
    "C": "K",
    "K": "K",
    "Q": "K",
    "G": "K",
    "D": "T",
    "T": "T",
    "F": "F",
    "H": "H",
    "J": "J",
    "L": "R",
    "R": "R",
    "M": "N",
    "N": "N",
    "S": "S",
    "Z": "S",
}
_NOT_ONSET = frozenset("ァィゥェォッャュョヮーン")


def _spells_initials(acronym: str, katakana: str) -> bool:
    """Whether ``acronym``'s letters are, in order, onsets of syllables of ``katakana``, the
    first letter its first syllable's, with at least two kana per letter."""
    if len(katakana) < 2 * len(acronym) or any(ch not in _LETTER_CLASS for ch in acronym):
        return False
    onsets = [_KANA_CLASS.get(ch, "?") for ch in katakana if ch not in _NOT_ONSET]
    if not onsets or onsets[0] != _LETTER_CLASS[acronym[0]]:
        return False
    at = 1
    for k, letter in enumerate(acronym[1:], start=1):
        # each word takes its share of the syllables: the k-th letter's syllable lies no
        # earlier than k / len(acronym) of the way (TV / タブレット stays apart)
        at = max(at, k * len(onsets) // len(acronym))
        want = _LETTER_CLASS[letter]
        while at < len(onsets) and onsets[at] != want:
            at += 1
        if at == len(onsets):
            return False
        at += 1
    return True


def initialled(first: str, second: str) -> str:
    """``second`` with a katakana word written as ``first``'s acronym where ``first`` holds
    the acronym, ``second`` does not, and the acronym's letters begin the word's syllables."""
    acronyms = [a for a in dict.fromkeys(_ACRONYM.findall(first)) if a not in second]
    if not acronyms:
        return second
    for word in dict.fromkeys(_KATAKANA_RUN.findall(second)):
        if word in first:
            continue
        match = next((a for a in acronyms if _spells_initials(a, word)), None)
        if match is not None:
            second = second.replace(word, match)
    return second

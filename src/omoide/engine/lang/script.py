"""Scripts and languages of a text: normalising, script runs, Japanese or English (pure).

Every language decision in Omoide goes through here: :func:`is_japanese` (and :func:`detect_lang`,
the same rule as a :class:`Lang`) for "which language is this text in", :func:`has_cjk` for "does
it hold any CJK script" (the vector index keeps one language centroid per script group).
Only the standard library; no I/O.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

__all__ = [
    "CJK_CLASS",
    "Lang",
    "Run",
    "Script",
    "as_hiragana",
    "detect_lang",
    "fold_latin",
    "has_cjk",
    "is_japanese",
    "normalise",
    "script_runs",
]


class Lang(StrEnum):
    """The languages Omoide writes and reads rules for. A ``StrEnum``: ``Lang.JA == "ja"``."""

    EN = "en"
    JA = "ja"


class Script(StrEnum):
    LATIN = "latin"  # letters and digits outside the CJK blocks, including accented Latin
    HAN = "han"  # kanji, plus 々 (the repetition mark belongs to the kanji before it)
    HIRAGANA = "hiragana"
    KATAKANA = "katakana"  # including ー, the long-vowel mark
    HANGUL = "hangul"
    OTHER = "other"  # spaces, punctuation, symbols: separators


@dataclass(frozen=True)
class Run:
    text: str
    script: Script


def normalise(text: str) -> str:
    """NFKC (full-width ASCII → half-width, half-width kana → full-width), minus characters that
    cannot be stored: NUL and lone surrogates."""
    text = "".join(ch for ch in text if ch != "\x00" and not 0xD800 <= ord(ch) <= 0xDFFF)
    return unicodedata.normalize("NFKC", text)


def as_hiragana(text: str) -> str:
    """``text`` with its katakana (ァ … ヶ) written as hiragana; everything else as it is."""
    return "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in text)


def fold_latin(text: str) -> str:
    """``text`` without the diacritics of Latin letters (café → cafe, Málaga → Malaga, NFD
    input too), in NFC: what keyword search compares, on every store (SQLite's ``unicode61
    remove_diacritics 2`` folds these, PostgreSQL's English parser does not). Marks on
    other scripts stay: kana's voicing marks (が is not か), Greek and Cyrillic letters
    (й is not и), as SQLite's tokenizer keeps them."""
    if text.isascii():
        return text
    out: list[str] = []
    latin = False
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if latin:
                continue
        else:
            latin = _latin(ch)
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


@lru_cache(maxsize=4096)
def _latin(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("LATIN ")


# The CJK code points by script, written once: :func:`_script` reads a character's script from
# them, the regex classes below (and PostgreSQL's, :data:`CJK_CLASS`) are built from them.
# Every character outside them is Latin when alphanumeric, else a separator.
_SPANS: tuple[tuple[int, int, Script], ...] = (
    (0x1100, 0x11FF, Script.HANGUL),  # jamo
    (0x3005, 0x3007, Script.HAN),  # 々 〆 〇
    (0x3040, 0x309F, Script.HIRAGANA),
    # not ゠ (U+30A0) or ・ (U+30FB): they separate words (トモエ・ミドリ)
    (0x30A1, 0x30FA, Script.KATAKANA),
    (0x30FC, 0x30FF, Script.KATAKANA),  # ー (the long-vowel mark), ヽ ヾ ヿ
    (0x3130, 0x318F, Script.HANGUL),  # compatibility jamo
    (0x31F0, 0x31FF, Script.KATAKANA),  # small katakana for Ainu
    (0x3400, 0x4DBF, Script.HAN),
    (0x4E00, 0x9FFF, Script.HAN),
    (0xAC00, 0xD7AF, Script.HANGUL),  # syllables
    (0xF900, 0xFAFF, Script.HAN),  # compatibility ideographs
    (0xFF70, 0xFF70, Script.KATAKANA),  # ｰ, the half-width long-vowel mark
    (0x20000, 0x2FFFF, Script.HAN),
)
_STARTS = [low for low, _, _ in _SPANS]  # sorted: _script finds a span by bisection


def _script(ch: str) -> Script:
    cp = ord(ch)
    i = bisect.bisect_right(_STARTS, cp) - 1
    if i >= 0 and cp <= _SPANS[i][1]:
        return _SPANS[i][2]
    return Script.LATIN if ch.isalnum() else Script.OTHER


_CJK = frozenset({Script.HAN, Script.HIRAGANA, Script.KATAKANA, Script.HANGUL})


def _class(scripts: frozenset[Script]) -> str:
    """The characters of ``scripts`` as a regex class (Python's syntax and PostgreSQL's)."""
    return "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b, s in _SPANS if s in scripts) + "]"


CJK_CLASS = _class(_CJK)
"""The characters for which :func:`has_cjk` is true, as a regex class: the PostgreSQL adapter
decides a text's script group in SQL with it."""


def script_runs(text: str) -> list[Run]:
    """Maximal runs of one script, separators dropped."""
    runs: list[Run] = []
    start, current = 0, None
    for i, ch in enumerate(text):
        script = _script(ch)
        if script != current:
            if current is not None and current != Script.OTHER:
                runs.append(Run(text[start:i], current))
            start, current = i, script
    if current is not None and current != Script.OTHER:
        runs.append(Run(text[start:], current))
    return runs


def is_cjk(script: Script) -> bool:
    return script in _CJK


# What :func:`_script` reads as CJK, kana, Han and Hangul, and half-width kana, as compiled
# classes: searching for them runs in the regex engine, not a call per character (a chat of
# long turns spent most of its offline summary here).
_CJK_SEARCH = re.compile(CJK_CLASS)
_KANA = re.compile(_class(frozenset({Script.HIRAGANA, Script.KATAKANA})))
_HALF_WIDTH_KANA = re.compile("[\uff66-\uff9f]")
_HAN = re.compile(_class(frozenset({Script.HAN})))
_HANGUL = re.compile(_class(frozenset({Script.HANGUL})))


def has_cjk(text: str) -> bool:
    """Whether any character of ``text`` is Han, kana or Hangul."""
    return _CJK_SEARCH.search(text) is not None


def is_japanese(text: str) -> bool:
    """Kana anywhere (half-width too), or kanji without Hangul (a kanji-only string is read as
    Japanese here)."""
    if _KANA.search(text):
        return True
    if _HAN.search(text):
        return not _HANGUL.search(text)
    return bool(_HALF_WIDTH_KANA.search(text))


def detect_lang(text: str) -> Lang:
    """:func:`is_japanese` as a :class:`Lang`: Japanese, else English."""
    return Lang.JA if is_japanese(text) else Lang.EN

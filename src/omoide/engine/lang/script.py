"""Scripts and languages of a text: normalising, script runs, Japanese or English (pure).

Every language decision in Omoide goes through here: :func:`is_japanese` (and :func:`detect_lang`,
the same rule as a :class:`Lang`) for "which language is this text in", :func:`has_cjk` for "does
it hold any CJK script" (the vector index keeps one language centroid per script group).
Only the standard library; no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

__all__ = [
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


def _script(ch: str) -> Script:
    cp = ord(ch)
    if 0x3040 <= cp <= 0x309F:
        return Script.HIRAGANA
    if cp in (0x30A0, 0x30FB):  # ゠ and ・ separate words (トモエ・ミドリ)
        return Script.OTHER
    if 0x30A0 <= cp <= 0x30FF or 0x31F0 <= cp <= 0x31FF or cp == 0xFF70:
        return Script.KATAKANA
    if 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2FFFF:
        return Script.HAN
    if 0xF900 <= cp <= 0xFAFF or cp in (0x3005, 0x3006, 0x3007):
        return Script.HAN
    if 0xAC00 <= cp <= 0xD7AF or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F:
        return Script.HANGUL
    if ch.isalnum():
        return Script.LATIN
    return Script.OTHER


_CJK = frozenset({Script.HAN, Script.HIRAGANA, Script.KATAKANA, Script.HANGUL})


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


def has_cjk(text: str) -> bool:
    return any(_script(ch) in _CJK for ch in text)


# What :func:`_script` reads as kana, Han and Hangul, and half-width kana, as character
# classes: searching for them runs in the regex engine, not a call per character (a chat of
# long turns spent most of its offline summary here).
_KANA = re.compile("[\u3040-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff70]")
_HALF_WIDTH_KANA = re.compile("[\uff66-\uff9f]")
_HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002ffff\uf900-\ufaff\u3005-\u3007]")
_HANGUL = re.compile("[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")


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

"""Dedup's check that a word written in kana can spell a word written in kanji, from a table of
each kanji's readings (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring). Trigger: the two texts of a
near-copy differ where one writes a content word in kanji and the other in kana (粘った /
ねばった, 履かない / はかない, 麓 / ふもと, 麻痺 / まひ, 餌 / エサ). Why: the server has no
morphological reader, so read apart the two looked like a word replaced (the veto's name
finding, or the judge's low part cosine), and most such pairs were refused; a rule "kanji
against kana is a spelling" would also read 猫 / うさぎ, 叔母 / いとこ or 買った / もらった as
one word. A kanji's on and kun readings (a table the caller loads: ``kanji_readings.json``,
from the Unicode Han Database, with the readings of IPADIC's words of one kanji since
session 50: 浸かる つかる, 貯まる たまる) tell them apart without a dictionary of words. Outcome:
``spells`` is True when the kana can be cut, in order, into one reading of each kanji (its
full reading, or for a kanji followed by kana and a reading in a verb's or adjective's
dictionary form, its stem: the reading less its last one to three kana, the kana after it
read as written; a noun's reading is never cut, 以前は is not いまは), with voicing and a
small っ for a final く / き / つ / ち (学校 / がっこう) folded; equal characters on both sides
read as themselves. Deterministic.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import cache

from omoide.engine.lang import as_hiragana

__all__ = ["KanjiReadings", "spells"]

KanjiReadings = Mapping[str, str]  # a kanji -> its readings in hiragana, space-separated

_GEMINATED = frozenset("くきつち")  # a reading's last kana that a small っ may replace
_STEM_CUT = 3  # at most this many kana of a reading are its inflected ending (つ|ける)
_INFLECTED_END = frozenset("うくぐすつぬぶむるい")  # a verb's or an adjective's dictionary form


def _is_kana(char: str) -> bool:
    return "\u3041" <= char <= "\u3096" or "\u30a1" <= char <= "\u30fa" or char == "ー"


def _fold(text: str) -> str:
    """Kana in one spelling: katakana as hiragana, no voicing mark, no long-vowel mark,
    ぢ / づ as じ / ず (Unihan writes either)."""
    text = as_hiragana(text).replace("ぢ", "じ").replace("づ", "ず").replace("ー", "")
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", decomposed.replace("\u3099", "").replace("\u309a", ""))


def _forms(reading: str, inflected: bool) -> set[str]:
    """What one reading of a kanji may be written as in kana: the reading, with a small っ for
    a final く / き / つ / ち, where kana follow the kanji (``inflected``) its stem, and
    otherwise a verb's continuative form, which stands as a noun or a compound's first part
    (書 かく: 葉書 はがき; 寝 ねる: 寝言 ねごと)."""
    forms = {reading}
    if reading[-1:] in _GEMINATED:
        forms.add(reading[:-1] + "っ")
    if inflected and reading[-1:] in _INFLECTED_END:
        forms.update(reading[:-cut] for cut in range(1, _STEM_CUT + 1) if len(reading) > cut)
    elif not inflected and len(reading) > 1:
        forms.update(_continuative(reading))
    return {_fold(f) for f in forms}


_U_TO_I = dict(zip("うくぐすつぬぶむる", "いきぎしちにびみり", strict=True))


def _continuative(reading: str) -> set[str]:
    """A verb reading's continuative forms: the last kana of its dictionary form moved from
    the u row to the i row (かく → かき), and for a reading in る also the stem (ねる → ね:
    the table does not tell the two conjugations apart). Empty for a reading that is no verb's
    dictionary form."""
    last = reading[-1]
    if last not in _U_TO_I:
        return set()
    out = {reading[:-1] + _U_TO_I[last]}
    if last == "る":
        out.add(reading[:-1])
    return out


def spells(kanji_text: str, kana_text: str, table: KanjiReadings) -> bool:
    """``kana_text`` can be read as ``kanji_text``: each kanji as one of its readings in the
    table, each other character as itself (module docstring)."""
    x, y = _fold(kanji_text), _fold(kana_text)

    @cache
    def match(i: int, j: int) -> bool:
        if i == len(x):
            return j == len(y)
        char = x[i]
        if j < len(y) and y[j] == char and match(i + 1, j + 1):
            return True
        readings = table.get(char)
        if not readings:
            return False
        inflected = i + 1 < len(x) and _is_kana(x[i + 1])
        return any(
            form and y.startswith(form, j) and match(i + 1, j + len(form))
            for reading in readings.split()
            for form in _forms(reading, inflected)
        )

    return match(0, 0)

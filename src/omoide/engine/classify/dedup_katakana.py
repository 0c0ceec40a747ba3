"""Dedup's katakana rule: one katakana name or loanword replaced by another, the rest of a
Japanese pair unchanged (pure).

Trigger: dedup asks whether a Japanese near-copy is a duplicate. Why: brands, models, products
and instruments written in katakana (the maker and the model of a car or a pair of shoes, a
trumpet for a trombone) change a fact while the rest of the sentence stays, and their cosine
is 0.96-0.99; the veto saw a word replaced but only as a signal the judge weighed against the
cosine. Outcome: ``katakana_swapped`` is True when the katakana words one text holds and the
other does not are replaced by others that are mostly other kana (the two spellings, long
vowels aside, match less than half: クラリネット / サックス, マツダのロードスター / ホンダの
シビック), and everything else, katakana words taken out, is equal. A respelling (バイオリン /
ヴァイオリン, ウェブ / ウエブ) matches more and stays with the judge; a clipped word (スマホ /
スマートフォン) was written whole by the notation first; a loanword synonym in other kana
(シェフ / コック) is read as a change too: a kept paraphrase costs a link, a dropped change a
fact. Deterministic and symmetric.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

__all__ = ["katakana_swapped", "latin_swapped"]

_RUN = re.compile(r"[\u30a1-\u30fa\u30fc\u30fb]{2,}")
# A name in Latin letters inside Japanese text (iPhone, TypeScript, CLIP STUDIO): letters and
# digits, words joined by a space, a dot, a plus, a hash or a hyphen.
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ .+#\-]*[A-Za-z0-9]+)*[+#]*")
_IGNORED = re.compile(r"[\s。、，,.!！?？「」『』()（）・]+")
_SAME_WORD = 0.5  # the share of matching kana from which two spellings may be one word


def katakana_swapped(first: str, second: str) -> bool:
    """True when ``second`` replaces ``first``'s katakana words by others, mostly other kana,
    and changes nothing else."""
    return _swapped(_RUN, first, second)


def latin_swapped(first: str, second: str) -> bool:
    """True when a Japanese ``second`` replaces ``first``'s words in Latin letters by others,
    mostly other letters (case aside), and changes nothing else: a product, a tool or a brand
    named in its own script (PythonとTypeScript / PythonとKotlin)."""
    return _swapped(_LATIN_RUN, first, second)


def _swapped(run: re.Pattern[str], first: str, second: str) -> bool:
    runs_a, runs_b = run.findall(first), run.findall(second)
    removed = [w for w in runs_a if w not in runs_b]
    added = [w for w in runs_b if w not in runs_a]
    if not removed or not added:
        return False
    if _IGNORED.sub("", run.sub("@", first)) != _IGNORED.sub("", run.sub("@", second)):
        return False
    old, new = ("".join(words).replace("ー", "").lower() for words in (removed, added))
    return SequenceMatcher(None, old, new, autojunk=False).ratio() < _SAME_WORD

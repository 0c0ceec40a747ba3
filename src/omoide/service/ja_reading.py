"""The hiragana reading of Japanese text (kanji and kana), for dedup's notation.

``engine.classify.dedup_notation`` spells a kanji word and its kana spelling alike when they
read alike (珈琲 / コーヒー, 寿司 / すし); the engine owns no dictionary, so this module reads
with ``janome`` (Apache-2.0, its packaged IPADIC dictionary; the tokenizer is built once on
first use, about 0.3 s, then a short span takes well under a millisecond). A word the
dictionary does not know is read as it is written.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

__all__ = ["hiragana_reading"]

_lock = threading.Lock()
_tokenizer: list[Any] = []


def _katakana_to_hiragana(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in text)


@lru_cache(maxsize=4096)
def hiragana_reading(text: str) -> str:
    """``text`` as hiragana: each word by its dictionary reading, an unknown one as written
    (katakana as hiragana; other characters as they are)."""
    with _lock:  # one tokenizer, built once, used by one thread at a time
        if not _tokenizer:
            # imported here: the dictionary loads only once dedup reads Japanese
            from janome.tokenizer import Tokenizer

            _tokenizer.append(Tokenizer())
        tokens = list(_tokenizer[0].tokenize(text))
    return _katakana_to_hiragana("".join(
        t.reading if t.reading and t.reading != "*" else t.surface for t in tokens))

"""The hiragana reading of Japanese text (kanji and kana), for dedup's notation.

``engine.classify.dedup_notation`` spells a kanji word and its kana spelling alike when they
read alike (珈琲 / コーヒー, 寿司 / すし); the engine owns no dictionary, so this module reads
with ``pykakasi`` (its packaged dictionary, loaded once on first use, about 0.7 s).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

__all__ = ["hiragana_reading"]

_lock = threading.Lock()
_converter: list[Any] = []


def _kakasi() -> Any:
    with _lock:
        if not _converter:
            # imported here: its dictionary loads only once dedup reads Japanese
            import pykakasi

            _converter.append(pykakasi.kakasi())
        return _converter[0]


@lru_cache(maxsize=4096)
def hiragana_reading(text: str) -> str:
    """``text`` as hiragana (kana unchanged but for katakana; other characters as they are)."""
    return "".join(str(item["hira"]) for item in _kakasi().convert(text))

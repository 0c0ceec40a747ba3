"""Character width: full-width ASCII forms read as ASCII (what a Japanese, Chinese or Korean
input method types for digits, signs and letters: ３０, －１, ０．５, ｔｒｕｅ is the text the user
meant), and a text's length in columns, which says about as much in Japanese as in English."""

from __future__ import annotations

import unicodedata

__all__ = ["WIDE_COLUMNS", "half_width", "text_columns"]

_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}

# A wide or full-width character (East Asian Width W or F: kanji, kana, Hangul, full-width forms,
# most emoji) fills two columns, as a terminal shows it. Two is also what the content measures:
# on the English and Japanese pairs written side by side for one value (bench/data
# classify_pairs.jsonl, its ``twin`` field), an English text is 2.1 times as many characters as
# its Japanese counterpart (bench/results/evolution_links.md).
WIDE_COLUMNS = 2


def half_width(text: str) -> str:
    """``text`` with the full-width ASCII forms (U+FF01–U+FF5E) and the ideographic space read
    as ASCII; nothing else changes (other scripts' digits stay as they are, to be refused)."""
    return text if text.isascii() else text.translate(_FULL_WIDTH)


def text_columns(text: str) -> int:
    """How long ``text`` is, a character counting one column and a wide or full-width one
    (East Asian Width W or F) :data:`WIDE_COLUMNS`: the same as ``len`` for English, and about
    as long for "the user moved to Kobe in May" as for 「ユーザーは5月に神戸へ引っ越した」.
    Every other character counts one (half-width katakana, accented letters, the ambiguous
    width class), so the length is additive over concatenation and never below ``len``."""
    if text.isascii():
        return len(text)
    return sum(WIDE_COLUMNS if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

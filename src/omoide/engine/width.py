"""Full-width ASCII forms read as ASCII: what a Japanese (or Chinese, Korean) input method types
for digits, signs and letters (３０, －１, ０．５, ｔｒｕｅ) is the text the user meant."""

from __future__ import annotations

__all__ = ["half_width"]

_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def half_width(text: str) -> str:
    """``text`` with the full-width ASCII forms (U+FF01–U+FF5E) and the ideographic space read
    as ASCII; nothing else changes (other scripts' digits stay as they are, to be refused)."""
    return text if text.isascii() else text.translate(_FULL_WIDTH)

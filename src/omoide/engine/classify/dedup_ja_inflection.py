"""Dedup reads a Japanese negative or connective inflection in one form (pure).

Trigger: dedup's Japanese notation (``dedup_ja_notation.ja_notation``) before the veto reads a
pair's polarity. Why: the veto reads a negated predicate from its ending (ない after kana, ずに,
辞めた), and some inflections of one meaning were read one way and their variants another:
the classical negative ず before a comma (眠れず、) and the negative connective なく / なくて
(自信がなく、, 行けなくて) were read as positive while 眠れない and ないで are negative, and the
continuative of a verb of ending before a comma (仕事を辞め、) as positive while its te-form
(辞めて、) is read as an ending; a polite connective (言われまして、/ 言われて、) kept a word
apart. Outcome: the negative connectives written as ないで (せず / しないで, 食べずに / 食べないで,
眠れず、/ 眠れないで、, 自信がなく、/ 自信がないで、), the negative ず closing a sentence as ない,
the bare continuative of やめる / 辞める / 止める before a comma as its te-form, and a polite
connective まして as て: the polarity of the two forms is read alike, and a negation said on
one side only still differs. Words that end in ず without negating (まず, はず, わずか, 必ず:
not after a verb's stem) are left alone. Deterministic.
"""

from __future__ import annotations

import re

__all__ = ["ja_inflections"]

_CLAUSE_END = r"(?=[、，,。．.!！?？」）)]|$)"
# する's negative stem: せず(に) is しないで.
_SEZU = re.compile(r"(?<![まはわ])せず(?:に)?(?=[^\u3040-\u309f]|$)")
# ず after a verb's negative stem (a-row kana, an e-row or i-row kana of an ichidan verb, or a
# kanji: 飲まず, 食べず, 眠れず, 見ず), before に, a comma or the end of a sentence. Not まず
# (first) on its own, はず, わずか, 必ず (after kanji, but no stem: listed).
_ZU = re.compile(
    r"(?<!必)(?<![^\u3040-\u309f\u4e00-\u9fff]ま)(?<!^ま)(?<![はわ])"
    r"(?<=[\u3040-\u309f\u4e00-\u9fff])ず(?:(に)|" + _CLAUSE_END + ")"
)
# The negative adjective's connective after kana (自信がなく、, 行けなくて): ないで.
_NAKU = re.compile(r"(?<=[\u3040-\u309f])なく(?:て(?!も)|(?=[、，,]))")
# A verb of ending in its bare continuative before a comma: its te-form (辞め、 / 辞めて、).
_ENDED = re.compile(r"(やめ|辞め|止め)(?=[、，,])")
# A polite connective: 言われまして / 言われて; a godan stem's i-row kana to its te-form.
_TE = {
    "い": "って",
    "ち": "って",
    "り": "って",
    "み": "んで",
    "に": "んで",
    "び": "んで",
    "き": "いて",
    "ぎ": "いで",
    "し": "して",
}
_E_ROW = "えけげせぜてでねへべぺめれ"
_POLITE_TE = re.compile(rf"([{_E_ROW}\u4e00-\u9fff]|[いちりみにびきぎし])まして")


def _polite_te(match: re.Match[str]) -> str:
    stem = match.group(1)
    return stem + "て" if stem not in _TE else _TE[stem]


def _zu(match: re.Match[str]) -> str:
    after = match.string[match.end() : match.end() + 1]
    return "ないで" if match.group(1) or after in ("、", "，", ",") else "ない"


def ja_inflections(text: str) -> str:
    """``text`` with its negative connectives, a verb of ending's bare continuative and polite
    connectives in one form (module docstring)."""
    text = _SEZU.sub("しないで", text)
    text = _ZU.sub(_zu, text)
    text = _NAKU.sub("ないで", text)
    text = _ENDED.sub(r"\1て", text)
    return _POLITE_TE.sub(_polite_te, text)

"""Dedup's prefix rule: a word on one side, the same word negated by a prefix on the other
(pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: 検定に合格した / 検定は不合格だった,
会費は未払いだ / 会費を払った, 常勤の講師 / 非常勤の講師, 駐車場は有料 / 無料, "an unpaid
internship" / "a paid internship" keep every word but one prefix, so the cosine is high and the
aligned difference is one or two characters; the veto sees the change, but only as a signal the
judge may weigh down (a related pair wrongly dropped on a fresh writer, round 23). Outcome:
``prefix_negated`` is True when

- **Japanese**: a kanji word opens with 不, 未, 非, 無 or 没 and the rest of it (two kanji or
  more: 合格, 常勤, 経験) stands as a word of its own on the other side (opening a kanji run);
  or 未 before one kanji verb stem with its kana (未払い) where the other side holds that stem
  with a kana ending (払った); or one side says 無X and the other 有X (無料 / 有料), or 未X and
  既X (未婚 / 既婚);
- **English**: a word with un- or non- (unpaid, non-member) whose stem (three letters or more)
  stands as a word on the other side (paid, member), or with in-, im-, il-, ir- or dis- before
  a stem of a short list of everyday adjectives and verbs (inactive, impossible, illegal,
  irregular, dishonest, dislike), since those prefixes open many words of their own (inform,
  invest, discover, display).

Not read: a side that says the word itself too, or says the other's prefixed word; the other
side holding any negation (合格しなかった / 不合格だった, "is not paid" / "is unpaid" are one
fact said twice); words whose prefix is not a negation (不動産, 不思議, 是非, 有無, "unless",
"uniform", "understand"); one-kanji stems (不安 / 安い, 無理, 非常に / 常に) but for the 有/無,
既/未 pairs and 未 before a verb. Deterministic and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.lang import is_japanese

__all__ = ["prefix_negated"]

_JA_PREFIX = "不未非無没"
_KANJI = r"\u4e00-\u9fff々"
_RUN = re.compile(f"[{_KANJI}]+")
# Words that open with a prefix kanji but are no negation of the rest (不動産 is not "not
# movable property"); the rest stands as a word in other texts.
_JA_LEXEMES = (
    "不動産",
    "不思議",
    "無理",
    "未来",
    "未満",
    "無事",
    "不具合",
    "没頭",
    "没収",
    "無論",
    "未然",
    "不届",
    "無駄",
    "無難",
    "無邪気",
)
# Opposite pairs of one-kanji prefixes: 無料 / 有料, 未婚 / 既婚.
_JA_OPPOSITES = (("無", "有"), ("未", "既"))
# A grammatical negation on either side of an opposite pair (有料ではない / 無料: one fact).
_JA_DENIED = re.compile(r"ない|なかった|なく|ません|ず|ぬ|無い|無し|なし")
# Any negation on the plain side: the fact is said twice (合格しなかった / 不合格だった).
_JA_NEGATION = re.compile(
    r"ない|なかった|なく|ません|ず|ぬ|無い|無し|なし|未|不|非|没|やめ|辞め|止め|落ち|失敗|嫌|苦手"
)

_EN_NEGATION = re.compile(r"\b(?:not|never|no|without|none|nor|cannot)\b|n't\b", re.IGNORECASE)
_EN_OPEN = re.compile(r"\b(un|non-?)([a-z]{3,})\b", re.IGNORECASE)
_EN_OPEN_LEXEMES = frozenset(
    {
        "unless",
        "until",
        "unto",
        "under",
        "unit",
        "unite",
        "united",
        "unity",
        "union",
        "unions",
        "unique",
        "uniform",
        "universe",
        "university",
        "universal",
        "unison",
        "nonsense",
        "nonetheless",
    }
)
_EN_LISTED = re.compile(r"\b(in|im|il|ir|dis)([a-z]{3,})\b", re.IGNORECASE)
# Stems the closed prefixes negate (adjectives and verbs of everyday statements).
_EN_STEMS = frozenset(
    {
        "active",
        "complete",
        "correct",
        "accurate",
        "expensive",
        "formal",
        "dependent",
        "direct",
        "visible",
        "eligible",
        "consistent",
        "convenient",
        "experienced",
        "secure",
        "capable",
        "competent",
        "sensitive",
        "flexible",
        "frequent",
        "appropriate",
        "adequate",
        "sufficient",
        "possible",
        "patient",
        "mature",
        "polite",
        "perfect",
        "practical",
        "partial",
        "legal",
        "literate",
        "regular",
        "responsible",
        "relevant",
        "reversible",
        "honest",
        "agree",
        "agrees",
        "agreed",
        "like",
        "likes",
        "liked",
        "connected",
        "continued",
        "satisfied",
        "organised",
        "organized",
        "qualified",
        "loyal",
        "trust",
        "trusts",
        "approve",
        "approves",
        "approved",
        "obey",
        "obeys",
        "allowed",
        "comfortable",
        "advantage",
        "abled",
        "able",
    }
)


def _runs(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in _RUN.finditer(text)]


def _opens_run(text: str, word: str) -> bool:
    """``word`` opens a kanji run of ``text`` (不 or another prefix not before it)."""
    return any(run.startswith(word) for _, run in _runs(text))


def _ja_one_way(prefixed: str, plain: str) -> bool:
    if _JA_NEGATION.search(plain):
        return False
    for start, run in _runs(prefixed):
        head = run[0]
        if head not in _JA_PREFIX or any(run.startswith(w) for w in _JA_LEXEMES):
            continue
        rest = run[1:]
        if len(rest) >= 2 and _opens_run(plain, rest[:2]) and not _opens_run(prefixed, rest[:2]):
            return True
        if head == "未" and len(rest) == 1:
            after = prefixed[start + len(run) : start + len(run) + 1]
            if re.match(r"[ぁ-ゖ]", after) and re.search(f"(?<![{_KANJI}]){rest}[ぁ-ゖ]", plain):
                return True
    return False


def _ja_opposite(first: str, second: str) -> bool:
    if _JA_DENIED.search(first) or _JA_DENIED.search(second):
        return False
    for neg, pos in _JA_OPPOSITES:
        for x, y in ((first, second), (second, first)):
            for _, run in _runs(x):
                if (
                    len(run) >= 2
                    and run[0] == neg
                    and _opens_run(y, pos + run[1])
                    and not _opens_run(y, neg + run[1])
                    and not _opens_run(x, pos + run[1])
                ):
                    return True
    return False


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+(?:-[a-z]+)*", text.lower())) | set(
        re.findall(r"[a-z]+", text.lower())
    )


def _en_one_way(prefixed: str, plain: str) -> bool:
    if _EN_NEGATION.search(plain) or _EN_NEGATION.search(prefixed):
        return False
    plain_words = _words(plain)
    for match in _EN_OPEN.finditer(prefixed):
        word, stem = match.group().lower(), match.group(2).lower()
        if word in _EN_OPEN_LEXEMES or word.startswith(("under", "uni")):
            continue
        if stem in plain_words and word not in plain_words and not _bare(prefixed, stem):
            return True
    for match in _EN_LISTED.finditer(prefixed):
        word, stem = match.group().lower(), match.group(2).lower()
        if (
            stem in _EN_STEMS
            and stem in plain_words
            and word not in plain_words
            and not _bare(prefixed, stem)
        ):
            return True
    return False


def _bare(text: str, stem: str) -> bool:
    """``stem`` stands as a word of its own in ``text`` (not only inside the prefixed one)."""
    return re.search(rf"(?<![a-z-]){re.escape(stem)}\b", text, re.IGNORECASE) is not None


def prefix_negated(first: str, second: str) -> bool:
    """True when a word on one side stands on the other negated by a prefix (module
    docstring)."""
    japanese = is_japanese(first)
    if japanese != is_japanese(second):
        return False
    if japanese:
        return (
            _ja_one_way(first, second) or _ja_one_way(second, first) or _ja_opposite(first, second)
        )
    return _en_one_way(first, second) or _en_one_way(second, first)

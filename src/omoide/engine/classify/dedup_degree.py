"""Dedup's veto, a how-often or a rank said on both sides with another value (pure).

A part of ``dedup_veto.find_dedup_change`` (twentieth round). Trigger: a near-copy that
repeats every value but one word of degree: how often a habit happens (いつも / ときどき,
"usually" / "rarely"), or the rank of a role or a grade (顧問 / 副顧問, 2級 / 準2級, "head" /
"deputy head", "captain" / "vice-captain"). Why: the number and name readers see neither, and
the rest of the two texts is equal, so the cosine and the judge call them the same; dropping the
second loses the fact. Outcome: a ``ValueChange`` when

- both texts name a frequency and the levels differ (always or usually, often, sometimes,
  rarely: "normally" and "always" are one level, ときどき and たまに one, いつも and たいてい one);
  a frequency said on one side only is left to the judge ("cycles to work" / "usually cycles
  to work" may be one habit);
- a role or grade word carries a rank prefix (deputy, vice, assistant, acting; 副, 準) on one
  side, and the other side holds the same word bare after the same word or character ("was
  named captain" / "was named vice captain"; not "accounts assistant job" / "the job").

- a Japanese word denied by 不 on one side (不合格 / 合格), held bare on the other, which
  denies nothing (未経験 / 経験がない is left to the polarity readers).

Levels said with a bare negation (never, めったに…ない) are the polarity readers'. Deterministic
and symmetric.
"""

from __future__ import annotations

import re

from omoide.engine.classify.value_change import ChangeKind, ValueChange

__all__ = ["degree_change"]

# "Always" and "usually" are one level: a habit said with either is one habit (いつも2時頃に寝る /
# たいてい2時ごろに寝る); "sometimes" against either is another.
_USUALLY, _OFTEN, _SOMETIMES, _RARELY = "usually", "often", "sometimes", "rarely"
_EN_LEVELS: tuple[tuple[str, str], ...] = (
    (r"always|every time|without fail|invariably", _USUALLY),
    (r"usually|normally|generally|typically|mostly|most often|as a rule", _USUALLY),
    (r"(?<!most )often|frequently|regularly", _OFTEN),
    (r"sometimes|occasionally|now and then|now and again|from time to time|at times", _SOMETIMES),
    (r"rarely|seldom|hardly ever|almost never", _RARELY),
)
_JA_LEVELS: tuple[tuple[str, str], ...] = (
    (r"いつも|常に|毎回|決まって", _USUALLY),
    (r"たいてい|大抵|普段は|ふだんは|大体|だいたい", _USUALLY),
    (r"しばしば|しょっちゅう|頻繁に", _OFTEN),
    (r"ときどき|時々|ときたま|時たま|たまに|時折|ときおり", _SOMETIMES),
    (r"めったに|滅多に|ほとんど(?=[^。、]{0,12}(?:ない|ません))", _RARELY),
)
_LEVELS = {
    "en": tuple((re.compile(rf"\b(?:{p})\b", re.IGNORECASE), level) for p, level in _EN_LEVELS),
    "ja": tuple((re.compile(p), level) for p, level in _JA_LEVELS),
}
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _lang(text: str) -> str:
    return "ja" if _JAPANESE.search(text) else "en"


def _levels(text: str, lang: str) -> frozenset[str]:
    return frozenset(level for pattern, level in _LEVELS[lang] if pattern.search(text))


def _frequency(first: str, second: str, lang: str) -> ValueChange | None:
    a, b = _levels(first, lang), _levels(second, lang)
    if a and b and a != b:
        return ValueChange(ChangeKind.NAME, tuple(sorted(a - b)), tuple(sorted(b - a)))
    return None


# A rank prefix and the word it ranks: "deputy head", "vice-captain", "assistant manager",
# 副会長, 副顧問, 準2級, 準優勝 (the word: an English word, a run of kanji, a grade).
_EN_RANK = re.compile(r"\b(deputy|vice|assistant|acting)[\s-]+([a-z]+)", re.IGNORECASE)
_JA_RANK = re.compile(r"(副|準)([0-9]+級|[\u4e00-\u9fff]{1,3})")


def _before(text: str, start: int, lang: str) -> str:
    """What stands before ``start``: the word (English) or the character (Japanese)."""
    if lang == "ja":
        return text[start - 1 : start]
    words = re.findall(r"[\w']+", text[:start])
    return words[-1].lower() if words else ""


def _bare(word: str, before: str, text: str, lang: str) -> bool:
    """``text`` holds ``word`` without a rank, after what stood before the ranked one."""
    if lang == "ja":
        found = re.finditer(rf"(?<![副準]){re.escape(word)}", text)
    else:
        found = re.finditer(rf"(?<![\w-]){re.escape(word)}\b", text, re.IGNORECASE)
    return any(_before(text, m.start(), lang) == before for m in found)


def _ranked(text: str, lang: str) -> set[tuple[str, str, str]]:
    """(prefix, word, what stands before) of each ranked word; a Japanese kanji run also as its
    shorter heads (副会長職 ranks 会長 too)."""
    if lang == "en":
        return {
            (m.group(1).lower(), m.group(2).lower(), _before(text, m.start(), lang))
            for m in _EN_RANK.finditer(text)
        }
    out = set()
    for m in _JA_RANK.finditer(text):
        word, before = m.group(2), _before(text, m.start(), lang)
        heads = [word] if word[0].isdigit() else [word[:n] for n in range(2, len(word) + 1)]
        out |= {(m.group(1), head, before) for head in heads}
    return out


def _rank(first: str, second: str, lang: str) -> ValueChange | None:
    for x, y, flip in ((first, second, False), (second, first, True)):
        mine, theirs = _ranked(x, lang), _ranked(y, lang)
        for prefix, word, before in sorted(mine - theirs):
            if _bare(word, before, y, lang) and not _bare(word, before, x, lang):
                old, new = (f"{prefix} {word}",), (word,)
                return ValueChange(ChangeKind.NAME, *((new, old) if flip else (old, new)))
    return None


# A Japanese word denied by 不 (不合格 / 合格, 不採用 / 採用), against a text that holds it bare and
# denies nothing (未経験 / 経験がない is one fact said twice).
_JA_DENIED = re.compile(r"不([\u4e00-\u9fff]{2})")
_JA_DENIAL = re.compile(r"ない|なかっ|ません|ず[、。に]|無")


def _denied(first: str, second: str) -> ValueChange | None:
    for x, y, flip in ((first, second, False), (second, first, True)):
        if _JA_DENIAL.search(y):
            continue
        for word in sorted({m.group(1) for m in _JA_DENIED.finditer(x)}):
            if re.search(rf"(?<!不){word}", y) and not re.search(rf"(?<!不){word}", x):
                old, new = (f"不{word}",), (word,)
                return ValueChange(ChangeKind.NEGATION, *((new, old) if flip else (old, new)))
    return None


def degree_change(first: str, second: str) -> ValueChange | None:
    """A frequency, a rank or a 不 the two texts hold with different values (module
    docstring)."""
    lang = _lang(first)
    if lang != _lang(second):
        return None
    return (
        _frequency(first, second, lang)
        or _rank(first, second, lang)
        or (_denied(first, second) if lang == "ja" else None)
    )

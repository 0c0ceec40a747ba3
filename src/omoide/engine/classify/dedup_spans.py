"""Dedup's notation across a Japanese pair: a kanji digit before a counter no list holds, a
clipped katakana word and a particle of the same meaning, written as the other text writes
them (pure).

A part of ``dedup_notation.pair_notation`` (see its docstring). Trigger: the two texts of a
near-copy differ where one writes 三教科 and the other 3教科, one スマホ and the other
スマートフォン, or one 母に and the other 母へ (合唱団で / 合唱団にて). Why: the readers list
their counters (人, 匹, 回, …), a katakana word clipped to a part of each of its parts has no
dictionary on the server, and the particle swap the notation reads is of は, が, を only; read
apart, each looked like a changed word. Outcome: ``second`` rewritten where ``first`` holds the
same count, the clipped word or the other particle of the pair (the pair's only difference);
a count that differs (四教科 / 3教科) or a word that is only a start of another (コーヒー /
コーヒーゼリー) stays apart. Deterministic.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

__all__ = ["aligned", "counted", "dropped_particle", "same_direction", "topic_marked", "unclipped"]

# A lone kanji digit before a kanji the lists of counters do not hold (三教科, 三校舎).
_LONE_KANJI_DIGIT = re.compile(
    r"(?<![〇一二三四五六七八九十百千万0-9])([一二三四五六七八九])"
    r"(?=[\u4e00-\u9fff])"
)
_DIGIT_OF = {k: str(i) for i, k in enumerate("〇一二三四五六七八九")}


def counted(first: str, second: str) -> str:
    """``second`` with a lone kanji digit written in digits where ``first`` writes that digit
    before the same kanji (三教科 / 3教科): a counter the readers do not list."""

    def one(match: re.Match[str]) -> str:
        digit = _DIGIT_OF[match.group(1)]
        after = second[match.end()]
        return digit if re.search(rf"(?<![0-9]){digit}{re.escape(after)}", first) else match.group()

    return _LONE_KANJI_DIGIT.sub(one, second)


# Katakana words clipped to a part of each of their parts (スマートフォン / スマホ, パーソナル
# コンピューター / パソコン) or to their start (コンビニエンスストア / コンビニ).
_KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]{3,}")
_SMALL_F = {"ファ": "ハ", "フィ": "ヒ", "フェ": "ヘ", "フォ": "ホ"}


def _clip_folded(word: str) -> str:
    for long, short in _SMALL_F.items():
        word = word.replace(long, short)
    return re.sub(r"[ーァィゥェォッャュョ]", "", word)


def _clipping(short: str, long: str) -> bool:
    """``short`` is ``long`` clipped: its kana, in order, from the start of ``long`` (long
    vowels, small kana and フォ / ホ aside), at least three of them, at most three quarters of
    ``long``; a clipping to the start alone keeps at least four (コーヒー is not コーヒーゼリー)."""
    s, w = _clip_folded(short), _clip_folded(long)
    if len(s) < 3 or len(s) > 0.75 * len(w) or s[0] != w[0]:
        return False
    if w.startswith(s):
        return len(s) >= 4
    k = 0
    for ch in w:
        if k < len(s) and ch == s[k]:
            k += 1
    return k == len(s)


def unclipped(first: str, second: str) -> str:
    """``second`` with a katakana word written clipped where ``first`` holds it clipped."""
    mine, theirs = set(_KATAKANA_RUN.findall(first)), set(_KATAKANA_RUN.findall(second))
    for word in dict.fromkeys(_KATAKANA_RUN.findall(second)):
        if word in mine:
            continue
        short = next((w for w in mine - theirs if _clipping(w, word)), None)
        if short is not None:
            second = second.replace(word, short)
    return second


# Two particles of one meaning: に / へ of a goal (母に電話する / 母へ電話する), で / にて of a
# place or means (合唱団で / 合唱団にて, the written form).
_SAME_PARTICLES = ({"に", "へ"}, {"で", "にて"})


def same_direction(first: str, second: str) -> str:
    """``second`` with its one particle that differs from ``first`` only as へ from に, or as
    にて from で, written as ``first`` writes it (after a word both texts share)."""
    blocks = [span[1:] for span in aligned(first, second) if span[0]]
    if len(blocks) != 1:
        return second
    i1, i2, j1, j2 = blocks[0]
    pair = {first[i1:i2], second[j1:j2]}
    if i1 == 0 or not any(pair == same for same in _SAME_PARTICLES):
        return second
    return second[:j1] + first[i1:i2] + second[j2:]


# A case particle casual speech leaves out between a noun and its verb (コーヒー買う /
# コーヒーを買う, スマホ持っていない / スマホは持っていない).
_DROPPABLE = frozenset({"を", "は", "が"})
_NOUN_END = re.compile(r"[\u4e00-\u9fff\u30a1-\u30fa\u30fcA-Za-z0-9]")


def dropped_particle(first: str, second: str) -> str:
    """``second`` without each lone は, が or を that it adds after a noun (a kanji, katakana
    or Latin character) where ``first`` has none, the rest around it equal: a particle casual
    speech drops. A particle in place of another is left to the swap readers."""
    out, last = [], 0
    for differs, i1, i2, j1, j2 in aligned(first, second):
        if (
            differs
            and i1 == i2
            and j2 == j1 + 1
            and second[j1] in _DROPPABLE
            and j1 > 0
            and _NOUN_END.match(second[j1 - 1])
            and j2 < len(second)
            and not second[j2].isspace()
        ):
            out.append(second[last:j1])
            last = j2
    return "".join(out) + second[last:]


# (thirty-first round) A comma, or a topic は after a case particle (家で / 家では, 夜に / 夜には,
# 教室で、 / 教室では): a pause or a contrast of style, not a changed fact. Read alike only when
# such marks are the pair's only difference (夜は / 夜しか and もう / まだ stay apart).
_CASE_BEFORE_TOPIC = frozenset("にでとへ")
_MARKS = frozenset("、は")


def _mark_only(text: str, whole: str, at: int) -> bool:
    """``text`` (the span at ``at`` of ``whole``) is commas and at most one は, the は right
    after a case particle."""
    if not text or not set(text) <= _MARKS or text.count("は") > 1:
        return False
    if "は" not in text:
        return True
    before = whole[:at] + text[: text.index("は")]
    return before.rstrip("、")[-1:] in _CASE_BEFORE_TOPIC


def topic_marked(first: str, second: str) -> str:
    """``second`` written as ``first`` when the two differ only in commas and in a topic は
    after a case particle (see ``_CASE_BEFORE_TOPIC``); else ``second`` as it is."""
    if first == second:
        return second
    for differs, i1, i2, j1, j2 in aligned(first, second):
        if differs and not (
            (i1 == i2 or _mark_only(first[i1:i2], first, i1))
            and (j1 == j2 or _mark_only(second[j1:j2], second, j1))
        ):
            return second
    return first


def aligned(first: str, second: str, gap: int = 0) -> list[tuple[bool, int, int, int, int]]:
    """The alignment of the two texts as (differs, i1, i2, j1, j2) spans; an equal run of at
    most ``gap`` characters between two differences is taken into one span with them
    (お|好|み|焼|き / お|この|み|や|き with ``gap=1``)."""
    spans: list[tuple[bool, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, first, second, autojunk=False).get_opcodes():
        differs = tag != "equal"
        if (
            differs
            and len(spans) >= 2
            and spans[-2][0]
            and not spans[-1][0]
            and spans[-1][2] - spans[-1][1] <= gap
        ):
            spans.pop()
            _, i0, _, j0, _ = spans.pop()
            spans.append((True, i0, i2, j0, j2))
        else:
            spans.append((differs, i1, i2, j1, j2))
    return spans

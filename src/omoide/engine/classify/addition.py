"""A second one of a kind told as an addition: "also", "too", 〜も (pure).

**Trigger** (``another_added``). The new memory marks what it tells as one more: English
"also", "as well" (not "as well as"), a "too" that closes its clause (not "too much"), "in
addition"; Japanese a noun with も before a verb (胃薬も飲み始めた; not いつも, 何も, 一度も,
a time word: 来年も, 夜も). The item so marked is not the old memory's own: English the first
content word after "also" or the last before "too" / "as well" is not in the old memory
and is no time word ("on Sundays too" is another time of the old act, left to the judge);
Japanese the noun before も (with its の modifier: 胃の薬) is not said there, and the act that
follows も is (its first kanji is in the old memory: 飲 of 飲んでいる). The old memory says
nothing exclusive ("only", "just", だけ, しか, のみ, a no) and is not negated; the new one has no
end, change-of-value or no word ("stopped", "instead", "switched", "no longer", "now",
やめた, 代わりに, 変えた, ない), and both are about one subject.

**Why.** "Takes a statin" and "has also started iron tablets" are two facts: one more of a
kind is an addition, not a replacement. The judge read such pairs as changes (round 26: a fresh
writer's second medicine told with も was closed at C 0.94). An addition does change an old
memory that said "only" ("the café opens on weekdays only" → "opens on Sundays too"), or when
the marked item is the old one's own ("swims at the pool on Mondays" → "is at the gym on Mondays
too"): both are left to the judge.

**Outcome.** ``another_added`` is 1 for such a pair: a cap on the judge's close
(``judge_signals.JUDGE_CAPS``); a sure rule still closes. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.negation_turn import CLAUSE, same_people
from omoide.engine.classify.one_off import EN_TIMES, undated
from omoide.engine.classify.text import Sentence

__all__ = ["ADDITION_FEATURES", "addition_features", "another_added"]

ADDITION_FEATURES: tuple[str, ...] = ("another_added",)

_EN_MARK = re.compile(r"\balso\b|\bas well\b(?! as)|\btoo\b(?=\s*(?:[.,;!?)]|$))|\bin addition\b")
_EN_TIME = re.compile(rf"(?:{EN_TIMES}|day|morning|evening|afternoon)s?")
# A noun (with its の modifier) marked by も right before a kanji (the act).
_JA_MARK = re.compile(
    r"(?:(?P<mod>[\u3400-\u9fff々\u30a0-\u30ffA-Za-z0-9]+)の)?"
    r"(?P<head>[\u3400-\u9fff々\u30a0-\u30ffA-Za-z0-9ー]+)も(?=[\u3400-\u9fff])"
)
# Not an item: a question word, a count, a time (来年も, 日曜も, 夜も).
_JA_NOT_ITEM = (
    "いつ",
    "何",
    "誰",
    "どこ",
    "一度",
    "一回",
    "一つ",
    "一人",
    "少し",
    "今",
    "日",
    "年",
    "週",
    "月",
    "夜",
    "朝",
    "昼",
    "晩",
    "曜",
)
_EXCLUSIVE = {
    "en": re.compile(
        r"\bonly\b|\bjust\b|\bnothing but\b|\bexcept\b|\bsolely\b"
        r"|\bnot\b|\bno\b|\bnever\b"
    ),
    "ja": re.compile(r"だけ|しか|のみ|以外|ない|ません|ず[、。]"),
}
_REPLACES = {
    "en": re.compile(
        lex.STOPPED["en"] + r"|\binstead\b|\bswitch|\breplac|\bchanged?\b"
        r"|\bno longer\b|\bnot\b|\bnever\b|\bnow\b"
    ),
    "ja": re.compile(
        lex.STOPPED["ja"] + r"|代わり|切り替|変え|変わ|ない|ません|ず[、。]"
        r"|今は|もう"
    ),
}


def another_added(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells one more of a kind beside the old memory's (docstring)."""
    old, new = undated(old), undated(new)
    if old.lang != new.lang or not same_people(old, new) or old.negative or new.negative:
        return False
    lang = old.lang
    if _EXCLUSIVE[lang].search(old.text) or _REPLACES[lang].search(new.text):
        return False
    return _en_added(old, new) if lang == "en" else _ja_added(old, new)


def _en_added(old: Sentence, new: Sentence) -> bool:
    for mark in _EN_MARK.finditer(new.text):
        after = mark.group() == "also"
        span = new.text[mark.end() :] if after else new.text[: mark.start()]
        parts = CLAUSE["en"].split(span)
        words = [
            w
            for w in re.findall(r"[a-z]+", parts[0] if after else parts[-1])
            if len(w) > 2 and w not in lex.EN_GENERIC_VERBS
        ]
        item = (words[0] if after else words[-1]) if words else ""
        if item and not _EN_TIME.fullmatch(item) and item[:4] not in old.text:
            return True
    return False


def _ja_added(old: Sentence, new: Sentence) -> bool:
    for mark in _JA_MARK.finditer(new.text):
        mod, head = mark.group("mod") or "", mark.group("head")
        if head.endswith(_JA_NOT_ITEM) or head in lex.JA_TIME_WORDS:
            continue
        if new.text[mark.end()] not in old.text:
            continue  # the act after も is not the old memory's
        if head in old.text and (not mod or mod in old.text):
            continue  # the item is the old memory's own
        return True
    return False


def addition_features(old: Sentence, new: Sentence) -> list[float]:
    """The ADDITION_FEATURES row of a pair."""
    return [float(another_added(old, new))]

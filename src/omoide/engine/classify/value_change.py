"""Did a value change between two near-identical statements? Dedup's narrow veto (pure).

Trigger: a new memory scores above the calibrated dedup threshold against a current one.
Why: embeddings score "has 2 dogs" / "has 3 dogs" as high as a paraphrase, so cosine alone
would drop a changed fact. But any broader judgement (the 3-op classifier's EXTENDABLE) fires
on most paraphrases too. Outcome: the pair is a duplicate unless one of five values changed —

- a number (digits, English number words, kanji numerals, month names: "3" = "three" = "三"),
- a time named without a number (weekday, season, "next week", 先週, 毎朝),
- the polarity (not / never / no longer / quit / dislike; ない / ません / やめた / 嫌い),
- the person the statement is about (mother ↔ father, 姉 ↔ 兄, the user ↔ the user's wife),
- a name, place or other proper noun (capitalised words in English; kanji and katakana words
  in Japanese),
- in English, one content word swapped for another in an otherwise word-for-word identical
  statement ("learning the cello" / "learning the oboe": Japanese nouns are kanji or katakana
  words and are covered above), unless the two are spellings of one word ("favourite" /
  "favorite", "practise" / "practice"),

or one statement announces a change that the other does not ("now works at a bookshop", 転職した).

A number, time or name counts as *replaced* only when each statement holds one the other
lacks: a statement that merely adds a number, or reorders the same words ("大阪出身" /
"出身地は大阪"), keeps the same values. People are compared as sets: naming another or an extra
person changes whom the statement is about. A Japanese word is missing from the other statement
when fewer than half of its characters, or none of two in a row, appear there: 子供 / 子ども and
出身 / 出身地 stay the same word, 熊本出身 / 長崎出身 do not. Statements in two languages are
compared on numbers only. No I/O, no model: deterministic and symmetric. Each statement is
read into its values by ``value_statement`` (re-exported here); this module compares them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from omoide.engine.classify.value_numbers import find_numbers
from omoide.engine.classify.value_statement import Statement, read_statement
from omoide.engine.lang import SEARCH_STOPWORDS

__all__ = [
    "ChangeKind",
    "Statement",
    "ValueChange",
    "compare",
    "find_value_change",
    "read_statement",
]


class ChangeKind(StrEnum):
    NUMBER = "number"
    TIME = "time"
    NEGATION = "negation"
    PERSON = "person"
    NAME = "name"
    CHANGE = "change"  # one statement says something changed, the other does not


@dataclass(frozen=True)
class ValueChange:
    """What changed: the values only the first and only the second statement holds."""

    kind: ChangeKind
    first: tuple[str, ...]
    second: tuple[str, ...]

    @property
    def reason(self) -> str:
        before = ", ".join(self.first) or "–"
        after = ", ".join(self.second) or "–"
        return f"{self.kind.value} changed: {before} → {after}"


# --- comparing ----------------------------------------------------------------------------


def _replaced(first: Iterable[Any], second: Iterable[Any]) -> tuple[list, list] | None:
    """Values each side holds and the other lacks, when both sides hold one. Compared as
    multisets: a value said twice on one side and once on the other counts ("March 3")."""
    a, b = Counter(first), Counter(second)
    only_first, only_second = sorted(a - b), sorted(b - a)
    return (only_first, only_second) if only_first and only_second else None


# Characters too weak to tell two Japanese words apart (long vowel, small tsu, dot, repeat mark).
_WEAK_CHARS = frozenset("ーッ・々")


def _en_has(word: str, other: Statement) -> bool:
    forms = {word, word + "s", word + "es", word[:-1] if word.endswith("s") else word}
    return bool(forms & other.words)


def _ja_has(span: str, other: Statement) -> bool:
    if span.isascii():
        return span in other.text.lower()
    chars = [c for c in span if c not in _WEAK_CHARS] or list(span)
    present = [c in other.text for c in chars]
    # Two absent characters in a row are a word of their own: 熊本出身 / 長崎出身 share half
    # their characters, but 熊本 is gone.
    absent_word = any(not a and not b for a, b in pairwise(present))
    return sum(present) * 2 >= len(chars) and not absent_word


def _missing(first: Statement, second: Statement) -> list[str]:
    has = _ja_has if first.lang == "ja" else _en_has
    return [name for name in first.names if not has(name, second)]


def _names_replaced(first: Statement, second: Statement) -> tuple[list, list] | None:
    gone, new = _missing(first, second), _missing(second, first)
    if not gone or not new:
        return None
    if first.lang == "ja" and not _same_script_or_words(gone, new):
        return None
    return gone, new


def _same_script_or_words(gone: list[str], new: list[str]) -> bool:
    """A kanji word swapped for a katakana one is a replaced name (東京 → ソウル) only when both
    are words of two or more characters: 猫 / ネコ is one animal in two spellings."""

    def scripts(spans: list[str]) -> set[str]:
        return {
            "kata"
            if re.fullmatch(r"[\u30a1-\u30fa\u30fc]+", s)
            else "latin"
            if s.isascii()
            else "kanji"
            for s in spans
        }

    if scripts(gone) & scripts(new):
        return True
    return max(map(len, gone)) >= 2 and max(map(len, new)) >= 2


_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
# After these a word describes (adjective, participle): wording, not a value to compare.
_DESCRIBING = frozenset(
    {
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "feel",
        "feels",
        "felt",
        "seem",
        "seems",
        "get",
        "gets",
        "got",
        "become",
        "becomes",
        "very",
        "so",
        "really",
        "quite",
        "too",
    }
)


def _swapped_word(first: str, second: str) -> tuple[str, str] | None:
    """The one content word that differs between two English statements that are otherwise the
    same words in the same order, unless the two are spellings of one word."""
    a, b = _TOKEN.findall(first.lower()), _TOKEN.findall(second.lower())
    if len(a) != len(b):
        return None
    differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(differ) != 1:
        return None
    at = differ[0]
    x, y = a[at], b[at]
    if at and a[at - 1] in _DESCRIBING:
        return None  # "is used to" / "is accustomed to": a description in other words
    if x in SEARCH_STOPWORDS or y in SEARCH_STOPWORDS or _one_spelling(x, y):
        return None
    if find_numbers(x, "en") or find_numbers(y, "en"):
        return None  # "two" / "2": numbers are compared as values above
    if x.endswith("ing") and y.endswith("ing"):
        return None  # one activity in other words ("studying" / "learning Korean")
    return x, y


def _one_spelling(x: str, y: str) -> bool:
    """British/American spellings and inflections of one word: the same first four letters
    and at most two letters apart (favourite/favorite, practise/practice, color/colour)."""
    if x[:4] != y[:4]:
        return False
    return _distance(x, y) <= 2


def _distance(x: str, y: str) -> int:
    """Levenshtein distance (short words only: this runs on one pair of words)."""
    row = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        prev, row[0] = row[0], i
        for j, cy in enumerate(y, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (cx != cy))
    return row[-1]


def compare(first: Statement, second: Statement) -> ValueChange | None:
    """The first value that changed between two parsed statements, or None."""
    swapped = _replaced(first.numbers, second.numbers)
    if swapped:
        return ValueChange(ChangeKind.NUMBER, *(tuple(f"{v:g}" for v in side) for side in swapped))
    if first.lang != second.lang:
        return None  # words do not cross languages; numbers do
    swapped = _replaced(first.times, second.times)
    if swapped:
        return ValueChange(ChangeKind.TIME, tuple(swapped[0]), tuple(swapped[1]))
    if first.negative != second.negative:
        polarity = ("negative",), ("positive",)
        return ValueChange(ChangeKind.NEGATION, *(polarity if first.negative else polarity[::-1]))
    if first.people != second.people:
        return ValueChange(
            ChangeKind.PERSON,
            tuple(sorted(first.people - second.people)),
            tuple(sorted(second.people - first.people)),
        )
    names = _names_replaced(first, second)
    if names:
        return ValueChange(ChangeKind.NAME, tuple(names[0]), tuple(names[1]))
    if first.lang == "en":
        word = _swapped_word(first.text, second.text)
        if word:
            return ValueChange(ChangeKind.NAME, (word[0],), (word[1],))
    if first.announces_change != second.announces_change:
        stated = ("stated",), ()
        return ValueChange(ChangeKind.CHANGE, *(stated if first.announces_change else stated[::-1]))
    return None


def find_value_change(first: str, second: str) -> ValueChange | None:
    """The value that differs between two statements of (nearly) the same fact, or None when
    they state the same values. Symmetric: swapping the arguments swaps ``first``/``second``."""
    return compare(read_statement(first), read_statement(second))

"""Dedup's contrast rule: one word of a near-copy swapped for its converse or for another
degree of one scale, all else the same (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: a pair that keeps every word but
one, where that one says the other side of a role (learns / teaches, 習う / 教える, buys /
sells, lends / borrows), how often or how many (most days / every day, sometimes / always),
a result turned round (won / lost, 増えた / 減った), a tenure (owns /
rents, 持ち家 / 賃貸), a liking (loves / hates, 得意 / 苦手) or another step of a scale (mild /
severe, 軽度 / 重度, beginner / experienced, 初級 / 中級, a fixed rate / a variable rate,
vegetarian / vegan), sits at a cosine of 0.96-0.99 with a difference of one word, where the
judge had learnt paraphrases; the words themselves say the fact changed. Outcome:
``contrast_swapped`` is True when the two texts, read in one notation and aligned
(``dedup_judge.notation_tokens``), differ in one place where content words are swapped, up
to three a side (:func:`swapped_words`), and the removed words hold a member of one class of
a contrast set below and the added words a member of another class of the same set (and
neither side also holds the other's); or, in English, the swap names a rank of a role on
one side only ("a pharmacist" / "a pharmacy technician", "a junior architect" / "a senior
architect"). The sets are general language: converse verbs,
antonyms and the steps of common scales, each class a few forms of one meaning; a word
whose meaning turns with its context (open / close: "closes at 9" / "is open until 9") is in
none. Like the status and polarity rules, a pair it finds is never a duplicate.
Deterministic and symmetric.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from omoide.engine.classify.dedup_judge import notation_tokens
from omoide.engine.lang import FACT_TOPIC_STOPWORDS, is_japanese

__all__ = ["contrast_swapped", "swapped_words"]

# Japanese content: kanji, katakana (with the long-vowel mark), Latin letters and digits; a
# run of hiragana alone is grammar (いる / ます, に / で).
_JA_CONTENT = re.compile(r"[\u4e00-\u9fff\u3005\u30a1-\u30fa\u30fcA-Za-z0-9]")


# English function words: the fact-topic stop words and the forms of "be", "have" and "do"
# they leave out ("has a fixed tariff" / "is on a variable tariff" swap one content word).
def _forms(text: str) -> frozenset[str]:
    return frozenset(text.split())


# How many or how often ("most days" / "every day", "usually" / "always") is read as content:
# the stop words hold it, and a set below contrasts it.
_EN_QUANTIFIERS = (
    _forms("every each all always daily"),
    _forms("most mostly usually generally often typically"),
    _forms("some sometimes occasionally rarely seldom"),
)
_EN_FUNCTION = (
    FACT_TOPIC_STOPWORDS | _forms("is are was were am been being has had having does did doing")
) - frozenset().union(*_EN_QUANTIFIERS)
_EN_MAX_WORDS = 3  # "on most days" / "every single day"; more is a rewording
_JA_MAX_CHARS = 4  # a word: 重度 / 軽, 流暢 / 少; more is a rewording


def _content(tokens: list[str], japanese: bool) -> list[str]:
    if japanese:
        return [t for t in tokens if _JA_CONTENT.match(t)]
    return [t for t in tokens if t not in _EN_FUNCTION and not t.isdigit()]


def swapped_words(x: list[str], y: list[str], japanese: bool) -> tuple[list[str], list[str]] | None:
    """The one place where the token lists ``x`` and ``y`` (English words or Japanese
    characters) swap content words (at most two words, or four characters, a side), as
    (removed tokens, added tokens), when they differ elsewhere only in function words
    (English) or kana (Japanese); else None."""
    swap = None
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        old, new = _content(x[i1:i2], japanese), _content(y[j1:j2], japanese)
        if not old and not new:
            continue  # grammar or function words only
        limit = _JA_MAX_CHARS if japanese else _EN_MAX_WORDS
        if (
            swap is not None
            or not old
            or not new
            or old == new
            or len(old) > limit
            or len(new) > limit
        ):
            return None  # content added or removed, reworded, or swapped in two places
        swap = (x[i1:i2], y[j1:j2])
    return swap


# Each set: classes of one scale or of the two sides of a role; a word of one class and a word
# of another class of the same set say different facts. English: whole words (inflected forms
# listed); Japanese: a stem the swapped run holds (kanji, or a kana word of its own).
_EN_SETS: tuple[tuple[frozenset[str], ...], ...] = (
    (
        _forms("learn learns learning learned learnt studies studying"),
        _forms("teach teaches teaching taught"),
    ),
    (_forms("buy buys buying bought"), _forms("sell sells selling sold")),
    (_forms("lend lends lending lent"), _forms("borrow borrows borrowing borrowed")),
    (_forms("win wins winning won"), _forms("lose loses losing lost")),
    (
        _forms("gain gains gaining gained increase increases increased rise rises rose risen"),
        _forms(
            "lose loses losing lost decrease decreases decreased fall falls fell fallen "
            "drop drops dropped"
        ),
    ),
    (
        _forms("own owns owned owning bought"),
        _forms("rent rents rented renting lease leases leased leasing"),
    ),
    (
        _forms("love loves loved like likes liked enjoy enjoys enjoyed"),
        _forms("hate hates hated dislike dislikes disliked"),
    ),
    (
        _forms("mild mildly slight slightly"),
        _forms("moderate moderately"),
        _forms("severe severely serious seriously"),
    ),
    (
        _forms("beginner beginners novice basic elementary"),
        _forms("intermediate conversational"),
        _forms("advanced experienced expert fluent fluently proficient"),
    ),
    (_forms("fixed"), _forms("variable")),
    (_forms("vegetarian"), _forms("vegan")),
    (_forms("early earlier"), _forms("late later")),
    _EN_QUANTIFIERS,
)
_JA_SETS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("習",), ("教",)),
    (("買", "購入"), ("売",)),
    (("借",), ("貸",)),
    (("勝",), ("負",)),
    (("増",), ("減",)),
    (("持ち家", "所有"), ("賃貸",)),
    (("好",), ("嫌",)),
    (("得意",), ("苦手",)),
    (("軽",), ("中等",), ("重",)),
    (("初級", "初心", "入門", "少"), ("中級",), ("上級", "流暢")),
    (("固定",), ("変動",)),
    (("早",), ("遅",)),
)


# A rank said on one side of a role only: "a pharmacist" / "a pharmacy technician", "a chef"
# / "a sous-chef", "a teacher" / "a teaching assistant" name another job. A word opening
# with one holds it ("an apprenticeship" / "an apprentice", "assistants").
_EN_RANKS = (
    "assistant",
    "technician",
    "trainee",
    "apprentice",
    "intern",
    "junior",
    "deputy",
    "sous",
)


def _ranks(words: list[str]) -> set[str]:
    return {rank for rank in _EN_RANKS if any(w.startswith(rank) for w in words)}


def _ranked(old: list[str], new: list[str]) -> bool:
    return _ranks(old) != _ranks(new)


def _classes_en(words: list[str], classes: tuple[frozenset[str], ...]) -> set[int]:
    return {k for k, forms in enumerate(classes) if forms & set(words)}


def _classes_ja(run: str, classes: tuple[tuple[str, ...], ...]) -> set[int]:
    return {k for k, stems in enumerate(classes) if any(s in run for s in stems)}


def contrast_swapped(first: str, second: str) -> bool:
    """True when the pair differs in one swapped content word (or two) whose two sides fall
    in different classes of one contrast set (module docstring)."""
    x, y, _ = notation_tokens(first, second)
    japanese = is_japanese(first) or is_japanese(second)
    swap = swapped_words(x, y, japanese)
    if swap is None:
        return False
    old, new = swap
    if japanese:
        old_run, new_run = "".join(old), "".join(new)
        found = [(_classes_ja(old_run, c), _classes_ja(new_run, c)) for c in _JA_SETS]
    else:
        if _ranked(old, new):
            return True
        found = [(_classes_en(old, c), _classes_en(new, c)) for c in _EN_SETS]
    return any(a and b and not (a & b) for a, b in found)

"""The old memory's name told about again: the new memory says where a name, nickname or form
of address the old one gives came from, who uses it or why (pure).

**Trigger** (``old_name_told``). The old memory gives a name: a quotation of a naming slot
(Japanese: 「…」と呼ぶ / と読む / と名乗る / という名前 / 名前は「…」; English: the value of
"call(s) …", "is called", "goes by", "known as", "named", "name is" — a quotation alone may be
a title, not a name), and the new
memory says that value again. The new memory names no person the old one does not (so "my
brother is called Nobu too" is not read as more about the old Nobu) and tells no addition
(also, too, も: another person who has the same name is another fact). An English value
must be said as a name in the new memory (quoted, or right after name, nickname, called,
spelt …): a bare word such as "boss" or "chef" is often something else.

**Why.** Such a memory adds the story of the old name ("the nickname Otter came from his swimming",
「ばぁば」と呼ぶように教えたのは娘です) but shares few words with it, so the judge read most
as unrelated.

**Outcome.** ``old_name_told`` is 1 for such a pair; it only turns the judge's INDEPENDENT
into EXTENDABLE (``judge_signals.EXTEND_ONLY``): it never closes a memory nor keeps one open,
and a sure or deciding rule's verdict stands. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.name_change import (
    JA_QUOTE,
    en_named_values,
    ja_persons,
    ja_quote_values,
)
from omoide.engine.classify.text import Sentence, cue

__all__ = ["NAME_TOLD_FEATURES", "name_told_features", "old_name_told"]

NAME_TOLD_FEATURES: tuple[str, ...] = ("old_name_told",)

_EN_QUOTE = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
_EN_WORD = re.compile(r"[a-z][a-z'\-]*")
# A value said as a name in the new memory: right after a naming word.
_EN_NAME_SAID = re.compile(
    r"\b(?:name|nickname|surname|called|calling|calls? (?:her|him|them|me)|spel(?:led|t|ls?)"
    r"|pronounced|goes by|go by) ([a-z][a-z'\-]*)"
)


def old_name_told(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory says the old memory's name again, adding to it (see the
    module's trigger)."""
    if old.lang != new.lang or cue(lex.ADDITIVE, new):
        return False
    if old.lang == "ja":
        return _ja_told(old.text, new.text)
    return _en_told(old.text, new.text)


def _ja_told(old: str, new: str) -> bool:
    if "も" in JA_QUOTE.sub("", new):
        return False
    values = ja_quote_values(old)
    return any(v in new for v in values) and ja_persons(new) <= ja_persons(old)


def _en_told(old: str, new: str) -> bool:
    values = {first for first, _ in en_named_values(old)} - lex.EN_PERSONS
    said = _en_quoted_words(new) | {m.group(1) for m in _EN_NAME_SAID.finditer(new)}
    if not values & said:
        return False
    return _en_persons(new) <= _en_persons(old)


def _en_quoted_words(text: str) -> set[str]:
    """The first word of each quotation."""
    quoted = (next(g for g in m.groups() if g).strip(" .,") for m in _EN_QUOTE.finditer(text))
    return {q.split()[0] for q in quoted if q}


def _en_persons(text: str) -> set[str]:
    words = {w.removesuffix("'s") for w in _EN_WORD.findall(text)}
    plural = {w[:-1] for w in words if w.endswith("s")}
    return {w for w in words | plural if w in lex.EN_PERSONS}


def name_told_features(old: Sentence, new: Sentence) -> list[float]:
    """The NAME_TOLD_FEATURES row of a pair."""
    return [float(old_name_told(old, new))]

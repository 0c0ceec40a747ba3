"""A name or form of address told changed: the new memory says someone now goes by, is now
called or was renamed a value the old memory's naming slot does not hold (pure).

**Trigger** (``name_changed_to``). The old memory states a name: a naming predicate and its
value (English: "call(s) her", "is called", "goes by", "name is" … and the words after it;
Japanese: a quotation followed by と呼ぶ / と呼ばれる / と名乗る / と書く, or after 名前は /
あだ名は …). The new memory tells a change of that slot to a value the old one does not hold:

* English: "started calling", "began to call", "now calls", "now goes by", "is now called /
  known as", "renamed", "changed … name to", "switched to";
* Japanese: a quotation followed by a naming predicate and a change (と呼ぶようになった, と呼ば
  れ始めた, と名乗ることにした), or by 〜に改名 / に変えた / に戻した.

The new memory brings in no person the old one does not name (a person word of the lexicon,
the user's words, or a name with さん / くん / ちゃん), so "the neighbour's child started calling
her Auntie" is not read against "the grandchildren call her Nana"; neither memory is negated
or a plan, and the new memory tells no addition (also, too, も).

**Why.** The spec keeps names, nicknames and forms of address with their history; a change
told as a change ("has started calling Lyn 'Mum'", 「お母さん」と呼ぶようになった) ends the old
value, but the statement's frame differs from the old one, so the one-slot swaps
(``value_swap``, ``name_swap``) do not see it and the judge weighs it as added detail.

**Outcome.** ``name_changed_to`` is 1 for such a pair: a sure close the model does not weigh
(``judge_signals.SURE_ONLY``); the vetoes and the subject check still win. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.subject import JA_USER_WORDS
from omoide.engine.classify.text import Sentence, cue

__all__ = [
    "JA_QUOTE",
    "NAME_CHANGE_FEATURES",
    "en_named_values",
    "ja_persons",
    "ja_quote_values",
    "name_change_features",
    "name_changed_to",
]

NAME_CHANGE_FEATURES: tuple[str, ...] = ("name_changed_to",)

_EN_VALUE = r"((?:[a-z][a-z'\-.]*)(?: [a-z][a-z'\-.]*){0,2})"
# Whom the name is given to, before it: a pronoun, "the cat", "his partner", or a name
# followed by the quoted new one ("calling Lyn 'Mum'").
_EN_OBJECT = (
    r"(?:(?:her|him|them|me|us|it|the [a-z]+|[a-z]+'s [a-z]+|his [a-z]+) |[a-z]+ (?=['\"]))?"
)
# The old memory's naming slot and its value (the words right after the predicate).
_EN_NAMED = re.compile(
    r"\b(?:calls?|called|call)\s+" + _EN_OBJECT + r"(?:by (?:her|his|their) [a-z ]+?,? )?"
    r"['\"]?" + _EN_VALUE + "|"
    r"\b(?:is|are|be|being|was) called\s+['\"]?" + _EN_VALUE + "|"
    r"\b(?:goes|go) by\s+['\"]?" + _EN_VALUE + "|"
    r"\b(?:known|listed) as\s+['\"]?" + _EN_VALUE + "|"
    r"\bnamed\s+['\"]?" + _EN_VALUE + "|"
    r"\bnames? (?:is|are)\s+['\"]?" + _EN_VALUE
)
# The new memory's change of the slot to a value.
_EN_CHANGED = re.compile(
    r"\b(?:started|starting|begun|began|taken to)\s+(?:calling|to call)\s+"
    + _EN_OBJECT
    + r"['\"]?"
    + _EN_VALUE
    + "|"
    r"\bnow\s+(?:calls?|goes by|go by|uses|signs (?:[a-z]+ )?as)\s+" + _EN_OBJECT + r"['\"]?"
    r"" + _EN_VALUE + "|"
    r"\b(?:is|are) now (?:called|known as)\s+['\"]?" + _EN_VALUE + "|"
    r"\brenamed\s+" + _EN_OBJECT + r"['\"]?" + _EN_VALUE + "|"
    r"\bchanged (?:[a-z']+ ){0,2}(?:name|nickname|surname|handle) to\s+['\"]?" + _EN_VALUE
)
_EN_WORDS_OUT = frozenset({"the", "a", "an", "by", "at", "on", "in", "to", "for", "from"})
_EN_USER = frozenset({"user", "user's", "i", "me", "my"})
_EN_NOT_ONCE = re.compile(r"\b(?:also|too|as well|sometimes|occasionally|once)\b")

# A Japanese quotation (「…」 or 『…』), its text as group 1: the names modules' one pattern.
JA_QUOTE = re.compile(r"[「『]([^」』]*)[」』]")
# A noun of a name: a word ending in 名 or 号 (表示名, チャンネル名, 芸名, 俳号, 屋号).
_JA_NAME_NOUN = r"[\u3400-\u9fff\u30a0-\u30ffA-Za-z]{1,6}(?:名|号)"
_JA_NAMING = re.compile(
    r"^(?:と|って)(?:呼|読|名乗|書|表記)|^(?:を|に)(?:使|名乗)"
    r"|^という(?:名前|あだ名|愛称|ニックネーム|通称|" + _JA_NAME_NOUN + ")"
)
_JA_NAME_BEFORE = re.compile(
    r"(?:名前|名字|苗字|旧姓|あだ名|愛称|ニックネーム|呼び名|通称|"
    + _JA_NAME_NOUN
    + r")(?:は|が|を|:)$"
)
_JA_CHANGE_AFTER = re.compile(
    r"^(?:と|って)[^。、「」]{0,6}?(?:呼|名乗|書|表記)[^。、]{0,8}(?:ようにな|始め|だし|出し|ことにし)"
    r"|^(?:に|へ|と)(?:改名|改め|変え|変わ|変更|戻し|戻っ|なっ)"
)
# Someone named by a modified 子 / 人 / 方 ("近所の子が", "店の人は").
_JA_SOMEONE = re.compile(r"[^\s、。]{1,6}の(?:子|人|方)(?=[がはもにを、])")
_JA_NAMED_PERSON = re.compile(r"[\u3400-\u9fff\u30a0-\u30ff]{1,4}(?:さん|くん|君|ちゃん|様)")


def name_changed_to(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells the old memory's name or form of address changed to
    another value (see the module's trigger)."""
    if old.lang != new.lang or old.negative or new.negative:
        return False
    if cue(lex.PLAN, old) or cue(lex.PLAN, new) or cue(lex.ADDITIVE, new):
        return False
    if old.lang == "ja":
        return _ja_changed(old.text, new.text)
    return _en_changed(old.text, new.text)


def _en_changed(old: str, new: str) -> bool:
    if _EN_NOT_ONCE.search(new):
        return False
    olds = _en_values(_EN_NAMED, old)
    news = _en_values(_EN_CHANGED, new)
    if not olds or not news:
        return False
    old_words = set(re.findall(r"[a-z][a-z'\-]*", old))
    if any(first in old_words for first, _ in news):
        return False  # the new value is one the old memory already holds
    told = {w for _, value in news for w in value.split()}
    return _en_persons(new) - _en_persons(" ".join(told)) <= _en_persons(old)


def _en_values(pattern: re.Pattern[str], text: str) -> list[tuple[str, str]]:
    """Each value the pattern finds: its first word (articles and prepositions left out) and
    the whole."""
    values = []
    for m in pattern.finditer(text):
        value = next(g for g in m.groups() if g)
        words = [w.strip(".'") for w in value.split() if w.strip(".'") not in _EN_WORDS_OUT]
        if words:
            values.append((words[0], value))
    return values


def _en_persons(text: str) -> set[str]:
    words = {w.removesuffix("'s") for w in re.findall(r"[a-z][a-z'\-]*", text)}
    plural = {w[:-1] for w in words if w.endswith("s")}
    return {w for w in words | plural if w in lex.EN_PERSONS or w in _EN_USER}


def _ja_changed(old: str, new: str) -> bool:
    olds = _ja_values(old, changed=False)
    news = _ja_values(new, changed=True)
    if not olds or not news or news & olds:
        return False
    return ja_persons(new) <= ja_persons(old)


def _ja_values(text: str, *, changed: bool) -> set[str]:
    """The quoted values of a naming slot (``changed``: of a naming slot told changed)."""
    parts = JA_QUOTE.split(text)
    values = set()
    for i in range(1, len(parts), 2):
        before, after = "".join(parts[:i]), "".join(parts[i + 1 :])
        if changed:
            named = bool(_JA_CHANGE_AFTER.search(after))
        else:
            named = bool(_JA_NAMING.search(after) or _JA_NAME_BEFORE.search(before))
        if named and parts[i].strip():
            values.add(parts[i].strip())
    return values


def ja_quote_values(text: str) -> set[str]:
    """The quoted values of a Japanese memory's naming slots."""
    return _ja_values(text, changed=False)


def en_named_values(text: str) -> list[tuple[str, str]]:
    """The values of an English memory's naming slots: each one's first word and the whole."""
    return _en_values(_EN_NAMED, text)


def ja_persons(text: str) -> set[str]:
    """The persons a Japanese memory names outside its quotations."""
    bare = JA_QUOTE.sub("", text)
    found = {p for p in lex.JA_PERSONS if p in bare}
    found |= {"user"} if JA_USER_WORDS.search(bare) else set()
    found |= {m.group() for m in _JA_SOMEONE.finditer(bare)}
    return found | set(_JA_NAMED_PERSON.findall(bare))


def name_change_features(old: Sentence, new: Sentence) -> list[float]:
    """The NAME_CHANGE_FEATURES row of a pair."""
    return [float(name_changed_to(old, new))]

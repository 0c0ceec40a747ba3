"""A name said again with another: the old statement repeated with the name, nickname, form of
address, spelling or reading it gives replaced (pure).

**Trigger** (``name_swapped``). The two statements are the same but for the one value a naming
predicate gives — what someone or something is called, named, known or listed as, how a name
is spelt, read or pronounced ("the grandchildren call her Nana" → "… call her Granny",
"wants to be called Anselm" → "… Ansel"; 孫たちは私を「ばぁば」と呼ぶ → 「おばあちゃん」と呼ぶ,
名前の「涼」を「りょう」と読ませている → 「すず」と読ませている):

* English: the statements align word for word but for one short span on each side
  (:func:`one_slot.one_slot`), and the shared words right before it end on a naming
  predicate (``_EN_NAMING``); each span is one to three words with no verb, negation or
  preposition (a context such as "at work" / "at home" differing is two facts) and the two
  share no word;
* Japanese: the statements are the same outside their quotations (「」『』), exactly one
  quotation differs, and it is the value of a naming predicate: the shared words right after it
  call, read, name or write (と呼ぶ, と読む, と名乗る, と表記する, と書く, にしている), or the
  words right before it name a name (名前は, あだ名は, ローマ字は) and nothing but the copula
  follows.

Neither statement is negated or told as an addition (also, too, …も), a plan, or one
occasion (a past tense other than a past state: と呼んだ is one time, と呼ばれていた a state);
the owner is the same. The new value does not merely add to the old one ("Nana" → "Nana Jo",
ユキ → ユキさん make it precise) unless both are one word (Shouta → Shota is a respelling); a
Japanese value written in kana on one side and with kanji on the other may be one name in two
scripts (ゆうこ / 優子), so it counts only where the shared words are about the written form
(表記, 書く, 漢字, ひらがな, ローマ字).

**Why.** The spec keeps the user's name, nickname and preferred address with their full
history: another value for the same naming slot ends the old one. The value swap of
``value_swap`` misses these: English naming verbs ("call", "be called") are not its
predicates, and a Japanese name is often kana (ほのか, さやか), which it reads as a verb's
ending once the quotation marks are dropped.

**Outcome.** ``name_swapped`` is 1 for such a pair: a sure close the model does not weigh
(``judge_signals.SURE_ONLY``); the vetoes and the subject check still win. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify.name_change import JA_QUOTE, name_changed_to
from omoide.engine.classify.one_slot import one_slot
from omoide.engine.classify.text import Sentence, parse
from omoide.engine.lang import as_hiragana

__all__ = ["NAME_SWAP_FEATURES", "name_swap_features", "name_swapped", "names_differ"]

NAME_SWAP_FEATURES: tuple[str, ...] = ("name_swapped",)

# English: the shared words right before the span end on a naming predicate (after "call",
# whom: a pronoun or a possessed noun, "call her", "calls his wife"; "the call centre" is no
# naming).
_EN_NAMING = re.compile(
    r"(?:(?<![\-])\bcall(?:s|ed|ing)? (?:her|him|them|me|us|it|you|(?:the|his|her|their|my|our"
    r"|your|[a-z]+'s) [a-z\-]+)|\b(?:be|being|is|are|was|were|gets?) called"
    r"|\bnamed|\b(?:first |middle |last |given |family |full |legal |married |maiden |pet "
    r"|sur|nick|user|screen |display |stage |pen )?names? (?:is|are)"
    r"|\bgo(?:es)? by|\bknown as|\blisted as|\bsigns?(?: [a-z'\-]+){0,2} as"
    r"|\bspel(?:led|t|ls?)(?: as)?|\bpronounced?(?: as)?|\bpronounces(?: [a-z'\-]+){0,2} as"
    r"|\b(?:handle|username|nickname|surname) (?:is|was))$"
)
# A span right after a preposition is its object ("the call centre on Tuesdays"), not a name.
_EN_ENDS_ON_PREPOSITION = re.compile(r"\b(?:on|in|at|to|for|from|with|of|about)$")
_EN_MAX_WORDS = 3
# A verb, an auxiliary, a negation or a preposition in a span: more than the name differs.
_EN_NOT_A_NAME = re.compile(
    r"\b(?:is|are|am|was|were|be|been|has|have|had|does|do|did|not|never|no|will|can|could"
    r"|would|should|[a-z]{3,}ing|in|at|on|to|by|near|from|for|with|into|since|until|after"
    r"|before|during|instead|rather|than|or|and)\b"
)
# An addition, a habit of now and then, a plan or an occasion in the shared words or the spans.
_EN_NOT_ONE_VALUE = re.compile(
    r"\b(?:also|too|another|as well|sometimes|occasionally|once|again|plans? to|planning"
    r"|will|going to|hopes? to|ago|yesterday|tomorrow|(?:last|next) (?:week|month|year|time))\b"
)

# Japanese: a quotation, and the naming predicate said right after it or the name right
# before it.
_JA_NAMING_AFTER = re.compile(
    r"^(?:と|って)(?:呼|読|名乗|表記|綴|書|記|登録|署名|サイン)|^に(?:して|する|しており)"
)
_JA_NAME_BEFORE = re.compile(
    r"(?:名前|名字|苗字|旧姓|姓|下の名|あだ名|愛称|ニックネーム|呼び名|呼び方|読み方|読み"
    r"|ローマ字|表記|綴り|スペル|ハンドル(?:ネーム)?|ユーザー名|アカウント名|表示名|芸名"
    r"|ペンネーム|通称)(?:は|が|:)$"
)
_JA_COPULA_END = re.compile(r"^(?:だ|です|である|でした|だった)?[。.!！]?$")
# Told as an addition (とも呼ぶ, 「A」も), a plan, or one occasion: a past tense that is not a
# past state (と呼んだ, but not と呼ばれていた).
_JA_NOT_ONE_VALUE = re.compile(r"^(?:と)?も|予定|つもり|計画|ことがある|たことが")
_JA_PAST = re.compile(r"(?:た|んだ|いだ|ました)[。.!！]?$")
_JA_PAST_STATE = re.compile(
    r"(?:て|で)(?:い|お)(?:た|ました)[。.!！]?$|(?:だった|でした)[。.!！]?$"
)
_JA_WRITTEN_FORM = re.compile(r"表記|書|漢字|ひらがな|平仮名|カタカナ|片仮名|ローマ字|綴|スペル")
_SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎ", "あいうえおつやゆよわ")
_KANJI = re.compile(r"[\u3400-\u9fff々]")
_KANA_ONLY = re.compile(r"^[\u3041-\u30ffー]+$")
_ONE_RUN = re.compile(
    r"^(?:[\u3400-\u9fff々]+|[\u3041-\u309fー]+|[\u30a0-\u30ffー]+|[A-Za-z][A-Za-z'\-]*)$"
)


def name_swapped(old: Sentence, new: Sentence) -> bool:
    """Whether the new statement repeats the old one with the value of its naming predicate
    replaced by another (see the module's trigger)."""
    if old.owner != new.owner or old.negative or new.negative or old.lang != new.lang:
        return False
    if old.lang == "ja":
        return _ja_swapped(old.text, new.text)
    return _en_swapped(old, new)


def _en_swapped(old: Sentence, new: Sentence) -> bool:
    slot = one_slot(old, new)
    if slot is None or not slot.old_span or not slot.new_span or not slot.before:
        return False
    a, b = slot.old_span.split(), slot.new_span.split()
    if len(a) > _EN_MAX_WORDS or len(b) > _EN_MAX_WORDS or set(a) & set(b):
        return False
    if not _EN_NAMING.search(slot.before) or _EN_ENDS_ON_PREPOSITION.search(slot.before):
        return False
    spans = f"{slot.old_span} {slot.new_span}"
    if _EN_NOT_A_NAME.search(spans):
        return False
    if _EN_NOT_ONE_VALUE.search(f"{slot.before} | {slot.after} | {spans}"):
        return False
    if re.sub(r"[^a-z0-9]", "", slot.old_span) == re.sub(r"[^a-z0-9]", "", slot.new_span):
        return False  # one name written apart: Mary-Jane / Mary Jane
    return not _adds_to(slot.old_span, slot.new_span, one_word=len(a) == len(b) == 1)


def _ja_swapped(old: str, new: str) -> bool:
    a, b = JA_QUOTE.split(old.strip()), JA_QUOTE.split(new.strip())
    if len(a) != len(b) or len(a) < 3:
        return False
    outside = [_ja_plain(p) for p in a[0::2]] == [_ja_plain(p) for p in b[0::2]]
    differ = [i for i in range(1, len(a), 2) if a[i].strip() != b[i].strip()]
    if not outside or len(differ) != 1:
        return False
    i = differ[0]
    before, after = "".join(a[:i]), "".join(a[i + 1 :])
    old_value, new_value = a[i].strip(), b[i].strip()
    if not old_value or not new_value:
        return False
    if not (
        _JA_NAMING_AFTER.search(after)
        or (_JA_NAME_BEFORE.search(_ja_plain(before)) and _JA_COPULA_END.match(after))
    ):
        return False
    if _JA_NOT_ONE_VALUE.search(after):
        return False
    if _JA_PAST.search(after) and not _JA_PAST_STATE.search(after):
        return False
    written = bool(_JA_WRITTEN_FORM.search(before + after))
    if not written and (_other_script(old_value, new_value) or _same_sound(old_value, new_value)):
        return False
    one_word = bool(_ONE_RUN.match(old_value) and _ONE_RUN.match(new_value))
    return not _adds_to(old_value, new_value, one_word=one_word)


def _ja_plain(text: str) -> str:
    """A Japanese stretch compared without spaces or its closing full stop."""
    return re.sub(r"\s", "", text).rstrip("。.!！")


def _same_sound(a: str, b: str) -> bool:
    """The two values are one spoken form written apart: katakana against hiragana, a small
    kana against a full one, a long-vowel mark, a dot or a letter's case (ユキ / ゆき)."""
    return _sound(a) == _sound(b)


def _sound(text: str) -> str:
    full = as_hiragana(text).translate(_SMALL_KANA)
    return re.sub(r"[ー・\s\-'.]", "", full).lower()


def _other_script(a: str, b: str) -> bool:
    """One value written with kanji, the other in kana only: perhaps one name in two scripts."""
    return bool(
        (_KANJI.search(a) and _KANA_ONLY.match(b)) or (_KANJI.search(b) and _KANA_ONLY.match(a))
    )


def _adds_to(old_value: str, new_value: str, *, one_word: bool) -> bool:
    """The new value holds the old one and more (or the reverse): made precise, unless both
    are one word (a respelling: Shouta → Shota)."""
    held = old_value in new_value or new_value in old_value
    return held and not one_word


def name_swap_features(old: Sentence, new: Sentence) -> list[float]:
    """The NAME_SWAP_FEATURES row of a pair."""
    return [float(name_swapped(old, new))]


def names_differ(first: str, second: str) -> bool:
    """Dedup's reading of two near-copies: one gives another name or form of address than the
    other, said in the same statement (``name_swapped``) or told changed
    (``name_change.name_changed_to``), either way round. A name is a value: 「白鳥」 / 「黒鳥」
    or Ash / Ashworth is not a paraphrase, however near the two embed."""
    a, b = parse(first), parse(second)
    return any(
        check(x, y) for check in (name_swapped, name_changed_to) for x, y in ((a, b), (b, a))
    )

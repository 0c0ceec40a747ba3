"""A change told without a change word: the old frame kept, one value in it swapped (pure).

Writers often save a change by restating the old memory with the new value in the old one's
place and nothing that says "changed": "The user's smartwatch is an Apple Watch." → "The user's
smartwatch is a Fitbit now, bought in March."; ユーザーは薪窯で焼成している → ガス窯で焼成している.
:mod:`one_slot` reads the strict form (the two statements alike but for one span). Here the
two are aligned as sequences (English words without articles, Japanese script runs), so the
new memory may also add words elsewhere ("From next quarter on, …", a reason, a date) and may
swap more than one value:

* ``swap_kept_frame``: the share of the old memory's tokens (in Japanese its kanji, katakana
  and Latin runs; bracketed asides and dates left out) the new one keeps in order, when at
  least one short value of the old memory (a span of one to four words, or up to ten
  characters, with no verb, auxiliary or negation) is replaced in place by another value, the
  swap is not in the subject (the statement's first span, a Japanese span with は / が) and the
  new memory is not told as an addition ("also", "another", …も) or as a second occasion of an
  event; 0 otherwise;
* ``swap_state``: that, and a swapped value sits in a single-valued state's slot (where one
  lives, works, studies, what one drives, the copula: :data:`one_slot.EN_STATE_FRAMES`,
  :data:`one_slot.JA_STATE_FRAMES`);
* ``swap_part``: the old memory is a compound (:func:`compound.split_compound`: "lives in Tokyo
  and works at a bank", 名古屋に住んでいて、…) and one of its parts, read with the subject, has
  a value swapped by the new memory (``swap_kept_frame`` ≥ 0.6 against that part), while the new
  memory touches none of the other parts' topic words: one conjunct replaced.

Each is a number the learned judge weighs, never a rule. No I/O; deterministic.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.compound import split_compound
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.one_slot import EN_STATE_FRAMES, JA_STATE_FRAMES
from omoide.engine.classify.quantity import strip_quantities
from omoide.engine.classify.text import Sentence, cue, parse

__all__ = ["SWAP_FEATURES", "swap_features", "swapped"]

SWAP_FEATURES: tuple[str, ...] = ("swap_kept_frame", "swap_state", "swap_part")

_EN_TOKEN = re.compile(r"[a-z0-9][a-z0-9'&.\-]*|[,;]")
_EN_MAX, _JA_MAX = 4, 10  # the longest swapped value: words, characters
_EN_VERBAL = re.compile(r"\b(?:" + lex.EN_NOT_A_VALUE + r")\b")
# A word that may be the statement's verb (a plural noun reads as one too: the subject test then
# errs towards reading a swap as a value, which the judge weighs, never a rule).
_EN_VERB = re.compile(lex.EN_VERB_FORM)
_EN_EVENT = re.compile(r"\b(?:" + lex.EN_OCCASION_OR_ADDITION + r")\b")
_EN_STATE = re.compile(
    "(?:" + "|".join(EN_STATE_FRAMES.values()) + r"|'s [a-z]+(?: [a-z]+)? (?:is|are)|\bis|\bare)$"
)
_JA_RUN = re.compile(r"[\u3400-\u9fff々〆ヶ]+|[\u30a0-\u30ffー]+|[A-Za-z0-9.]+|[\u3040-\u309f]")
_JA_KANA = re.compile(r"[\u3040-\u309f]")
_BRACKETED = re.compile(r"\([^()]*\)|（[^（）]*）")
_JA_VERBAL = re.compile(r"[\u3040-\u309f](?<![のとや])")
_JA_EVENT = re.compile(
    r"た。?$|たことが|予定|つもり|たい|また|もう一|二つ目|2つ目|来週|先週|昨日|明日|先月|去年"
)
_JA_STATE = re.compile("^(?:" + "|".join(JA_STATE_FRAMES.values()) + ")")
_JA_TOPIC = re.compile(r"[はが]")


def _tokens(text: str, lang: str) -> list[str]:
    text = _BRACKETED.sub(" ", text)  # an aside or a note's date is no slot of the fact
    if lang == "ja":
        return _JA_RUN.findall(text)
    return [t.strip(".") for t in _EN_TOKEN.findall(text) if t not in lex.EN_SWAP_FILLERS]


def _lemmas(tokens: list[str], lang: str) -> list[str]:
    return tokens if lang == "ja" else [en_lemma(t) for t in tokens]


def swapped(old: str, new: str, lang: str) -> tuple[float, bool]:
    """(the share of the old tokens kept in order, whether a swapped value sits in a state's
    slot) when a value of the old memory is replaced in place, else (0.0, False)."""
    a, b = _tokens(old, lang), _tokens(new, lang)
    if len(a) < 3 or not b:
        return 0.0, False
    blocks = SequenceMatcher(None, _lemmas(a, lang), _lemmas(b, lang), autojunk=False).get_opcodes()
    content = [not _JA_KANA.fullmatch(t) for t in a] if lang == "ja" else [True] * len(a)
    if sum(content) < 2:
        return 0.0, False
    kept = sum(sum(content[i1:i2]) for tag, i1, i2, _, _ in blocks if tag == "equal") / sum(content)
    found, state = False, False
    amounts = _amount_tokens(old, lang) | _amount_tokens(new, lang)
    for tag, i1, i2, j1, j2 in blocks:
        if tag != "replace" or i1 == 0 or j1 == 0:
            continue  # not a swap, or the statement's opening span (its subject)
        if _in_subject(a, i1, i2, lang):
            return 0.0, False  # another thing or person of the old one's kind
        olds, news = a[i1:i2], _up_to_a_break(b[j1:j2])
        if not _a_value(olds, news, lang, amounts):
            continue
        found = True
        before, after = a[:i1], a[i2:]
        if lang == "ja":
            state = state or bool(_JA_STATE.match("".join(after)))
        else:
            state = state or bool(_EN_STATE.search(" ".join(before)))
    return (kept, state) if found else (0.0, False)


def _up_to_a_break(span: list[str]) -> list[str]:
    """The new span up to a comma or a clause's conjunction: what follows is an added aside or
    reason ("an iPhone now, a gift from her aunt", "Nantes since her transfer"), not the value."""
    for i, token in enumerate(span):
        if token in lex.EN_VALUE_BREAKS:
            return span[:i]
    return span


def _in_subject(a: list[str], i1: int, i2: int, lang: str) -> bool:
    """Whether the span is (in) the subject: in English before the statement's first verb
    ("Dana's sister lives", "the user's best squat is"), in Japanese right before the topic
    particle (姉は, 書道教室は)."""
    if lang == "ja":
        return i2 < len(a) and a[i2] in ("は", "が")
    return not any(_EN_VERB.fullmatch(t) for t in a[:i1])


def _amount_tokens(text: str, lang: str) -> frozenset[str]:
    """The tokens of the text's amounts ("twice a day", 週に3回): gone once they are blanked."""
    return frozenset(_tokens(text, lang)) - frozenset(_tokens(strip_quantities(text, lang), lang))


def _an_amount(span: list[str], amounts: frozenset[str]) -> bool:
    return any(c.isdigit() for c in "".join(span)) or any(t in amounts for t in span)


def _a_value(olds: list[str], news: list[str], lang: str, amounts: frozenset[str]) -> bool:
    """Both spans short values of one kind (an amount on both sides or on neither): no verb,
    auxiliary, conjunction or negation of their own."""
    if _an_amount(olds, amounts) != _an_amount(news, amounts):
        return False  # an amount against a place or a manner: two slots, not one
    if lang == "ja":
        o, n = "".join(olds), "".join(news)
        return (
            0 < len(o) <= _JA_MAX
            and 0 < len(n) <= _JA_MAX
            and not _JA_VERBAL.search(o + n)
            and not _JA_TOPIC.search(o + n)
        )
    return (
        len(olds) <= _EN_MAX
        and len(news) <= _EN_MAX
        and not _EN_VERBAL.search(" ".join(olds + news))
    )


def _told_as_another(old: Sentence, new: Sentence) -> bool:
    """The new memory adds a second value or occasion rather than replacing one: an additive
    word, a negation on one side, or an old memory of an event, a plan or a wish (its frame
    holds many values: "visited Lisbon" / "visited Porto")."""
    if cue(lex.ADDITIVE, new) or old.negative != new.negative:
        return True
    if old.lang == "ja":
        return cue(lex.PLAN, old) or bool(_JA_EVENT.search(old.text))
    return bool(_EN_EVENT.search(old.text))


def _part_swapped(old: Sentence, new: Sentence) -> bool:
    compound = split_compound(old.text, old.lang)
    if compound is None or compound.sentences:
        return False
    for i, part in enumerate(compound.parts):
        text = f"{compound.subject}{part}" if old.lang == "ja" else f"{compound.subject} {part}"
        kept, _ = swapped(text, new.text, old.lang)
        if kept < 0.6:
            continue
        others = [p for j, p in enumerate(compound.parts) if j != i]
        if not any(_touches(p, new) for p in others):
            return True
    return False


def _touches(part: str, new: Sentence) -> bool:
    """Whether the new memory repeats a topic word of the part."""
    units = parse(part, new.lang).content
    return any(u in new.words or u in new.text for u in units)


def swap_features(old: Sentence, new: Sentence) -> list[float]:
    """The SWAP_FEATURES row of a pair."""
    if old.owner != new.owner or _told_as_another(old, new):
        return [0.0] * len(SWAP_FEATURES)
    kept, state = swapped(old.text, new.text, old.lang)
    return [kept, float(state and kept > 0), float(_part_swapped(old, new))]

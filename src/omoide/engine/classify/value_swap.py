"""One part replaced: the old statement said again with one value swapped in the predicate's
slot ("takes drug A for her migraines" → "takes drug B for her migraines"; 電気窯で焼いている
→ ガス窯で焼いている) (pure).

**Trigger** (``value_swapped``). The two statements are alike but for one short span on each
side (:func:`one_slot.one_slot`), both spans are values (no verb, auxiliary or no of their
own), the span is not the subject, the new value neither contains nor makes precise the old
one, nothing is told as an event, a plan, an occasion or an addition ("also", …も), and
neither side is negated (:func:`one_slot.one_slot_features`: ``slot_value_replaced``). On
top of that, the slot must hold one value at a time:

* the span comes after the predicate (English: the shared words before it hold a verb or the
  copula, or end on a record's label, "rent: …", with no person in the spans; Japanese: the
  span is not the topic, and the shared words after it go on to the predicate), so it is not
  the thing the statement is about ("the user's studio" / "the user's garage … is on the
  mezzanine");
* the predicate is not one that holds many things of one kind at once: having, owning,
  keeping, buying, reading, watching, subscribing, liking, speaking, meeting, visiting
  (English: the shared words right before the span; Japanese: right after it) — "has a red
  scarf" / "has a green scarf" are two things;
* each span is a short value (English one to three words, not opening on a preposition, the
  old one not vague; Japanese a run with no の, or の on both sides: 駅前のA医院 → 港町のB医院)
  and the two share no word (English), no whole
  run nor their first character (Japanese): 二年生 → 二年三組 makes the value precise, 電気窯
  → ガス窯 replaces it; no number is spelled out in words; the English new span neither points
  back at the old value ("it", "them", "there") nor narrows it ("mostly", "mainly",
  "especially"): "paints landscapes" → "paints mostly seascapes" is left to the judge
  (session 30). A habit's frequency opening both
  Japanese spans (毎週, 毎朝, 毎月) is not part of the value: 毎週火曜 → 毎週木曜 compares
  火曜 with 木曜 (session 26).

**Why.** The judge weighs the one-slot shape but leaves most such pairs under its thresholds
(``bench/results/classify_round25.md``): a restated frame with one value changed reads to
the embedding as a near paraphrase.

**Outcome.** ``value_swapped`` is 1 for such a pair: a sure close the model does not weigh
(``judge_signals.SURE_ONLY``); the vetoes and the subject check still win. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.one_slot import ONE_SLOT_FEATURES, one_slot, one_slot_features
from omoide.engine.classify.text import Sentence
from omoide.engine.lang import EN_MONTHS

__all__ = ["VALUE_SWAP_FEATURES", "value_swap_features", "value_swapped"]

VALUE_SWAP_FEATURES: tuple[str, ...] = ("value_swapped",)

_REPLACED = ONE_SLOT_FEATURES.index("slot_value_replaced")
_EN_MAX_WORDS = 3
# A verb or the copula among the shared words before the span: the span follows the predicate.
_EN_PREDICATE = re.compile(
    r"\b(?:is|are|am|was|were|[a-z]{2,}(?<!'s)(?<!ss)(?<!us)(?<!is)s|[a-z]{3,}ed|[a-z]{3,}ing"
    r"|i|we|you|they)\b"
)
# A record's label before the span ("rent: 700 a month", "the user's sister: midwife in …"):
# the value of the label's one slot, as after a predicate (session 26).
_EN_LABEL = re.compile(r"(?:^|\s):(?: [a-z0-9'&.\-]+){0,4}$")
# A predicate that holds many things of one kind at once, right before the span.
_EN_MANY = re.compile(
    r"\b(?:has|have|had|having|owns?|owned|keeps?|kept|buys?|bought|orders?|ordered|reads?"
    r"|reading|watch(?:es|ing)?|subscribed|subscribes|follows?|likes?|loves?|enjoys?|speaks?"
    r"|knows?|collects?|meets?|meeting|visits?|visiting|about|celebrated|booked|pays?|paid"
    r"|for)\b(?: [a-z'\-]+){0,3}$"
)
# A number spelled out in words: "40" and "forty" are one value.
_EN_NUMBER_WORD = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty"
    r"|fifty|sixty|seventy|eighty|ninety|hundred)\b"
)
# A span that opens on a preposition is an adjunct, not the slot's value ("at a clinic in town"
# → "at the clinic near the park" places it; "delayed to June" → "delayed by the weather" says
# another relation), and a vague old value ("several books" → "about six books") is made
# precise, not replaced.
_EN_ADJUNCT = re.compile(
    r"^(?:in|at|on|to|by|near|next|from|for|with|into|outside|inside"
    r"|around|across|off|over|under|within|without|since|until|after"
    r"|before|during)\b"
)
_EN_VAGUE = re.compile(r"\b(?:some|several|many|few|a few|various|lots?|plenty|much)\b")
# A calendar date in a span names an occasion ("a gig on 4 March" → "a gig on 9 May": two
# gigs), not one value of a standing fact.
_EN_DATE = re.compile(r"\b(?:" + "|".join(EN_MONTHS) + r")\b", re.IGNORECASE)
# The new span said of the old value, not instead of it: a word pointing back at it ("plays
# the cello" → "plays mostly folk tunes on it") or one narrowing it ("mostly", "especially"):
# the value made more specific, the old one kept (session 30).
_EN_KEPT = re.compile(
    r"\b(?:it|them|there|mostly|mainly|largely|chiefly|primarily|especially"
    r"|particularly|usually|often)\b"
)
_EN_STOP = frozenset(
    {
        "of",
        "in",
        "at",
        "on",
        "to",
        "for",
        "with",
        "and",
        "her",
        "his",
        "their",
        "my",
        "our",
        "your",
        "by",
        "from",
    }
)

# Japanese: the shared words right after the span say a predicate of many things (持つ, 読む,
# 購読, 買う, 好き, 話せる, 会う, 訪れる, 飼う), or open a topic (は / が / も).
_JA_MANY = re.compile(
    r"^(?:[^はがをにで]{0,6})?(?:を|が|も|に|と)?(?:持って|持つ|所有|読んで|読む"
    r"|についての|に関する|購読|買っ|買う|購入|好き|話せ|話す|会っ|会う|訪れ"
    r"|行っ|飼って|飼う|集め|観て|見て|注文|予約)"
)
_JA_TOPIC = re.compile(r"^[はがも]")
# An occasion named in a span (来週名古屋 → 再来週仙台, a calendar date): two trips, not one
# value replaced.
_JA_OCCASION = re.compile(
    r"来週|先週|今週|明日|明後日|昨日|今日|今度|来月|先月|今月|去年|来年"
    r"|今年|昨年|[0-9一二三四五六七八九十]+月[0-9一二三四五六七八九十]+日"
)
# A habit's frequency opening both spans (毎週, 毎朝, 毎月): not part of the value.
_JA_HABIT_OPENING = re.compile(r"^(?:毎週|毎朝|毎晩|毎日|毎月|毎年)(?=.)")
_JA_RUN = re.compile(r"[\u3400-\u9fff]+|[\u30a0-\u30ff]+|[A-Za-z0-9]+")


def value_swapped(old: Sentence, new: Sentence) -> bool:
    """Whether the new statement repeats the old one with one single-valued slot's value
    swapped for another (see the module's trigger)."""
    if old.owner != new.owner or not one_slot_features(old, new)[_REPLACED]:
        return False
    slot = one_slot(old, new)
    if slot is None or not slot.old_span or not slot.new_span:
        return False
    if old.lang == "ja":
        return _ja_swapped(slot.old_span, slot.new_span, slot.after)
    return _en_swapped(slot.old_span, slot.new_span, slot.before)


def _en_swapped(old_span: str, new_span: str, before: str) -> bool:
    a, b = old_span.split(), new_span.split()
    if not (len(a) <= _EN_MAX_WORDS and len(b) <= _EN_MAX_WORDS):
        return False
    predicate = bool(_EN_PREDICATE.search(before))
    if not (predicate or _EN_LABEL.search(before)) or _EN_MANY.search(before):
        return False
    if not predicate and any(w in lex.EN_PERSONS for w in a + b):
        return False  # a record naming a person in the span: whose value, not which value
    if _EN_ADJUNCT.match(old_span) or _EN_ADJUNCT.match(new_span) or _EN_VAGUE.search(old_span):
        return False
    if _EN_DATE.search(old_span) or _EN_DATE.search(new_span) or _EN_KEPT.search(new_span):
        return False
    if (set(a) & set(b)) - _EN_STOP:
        return False
    return not (_EN_NUMBER_WORD.search(old_span) or _EN_NUMBER_WORD.search(new_span))


def _ja_swapped(old_span: str, new_span: str, after: str) -> bool:
    opening = _JA_HABIT_OPENING.match(old_span)
    if opening and new_span.startswith(opening.group()) and len(new_span) > opening.end():
        # a habit's frequency said on both sides (毎週水曜 → 毎週金曜): the value is the rest
        old_span, new_span = old_span[opening.end() :], new_span[opening.end() :]
    # a modifier (の) on one side only makes the value precise or tells another slot; on both
    # sides (駅前のA歯科 → 商店街のB歯科) it is the same kind of value, replaced (session 26)
    if ("の" in old_span) != ("の" in new_span) or _JA_TOPIC.match(after) or _JA_MANY.match(after):
        return False
    if _JA_OCCASION.search(old_span + new_span):
        return False
    # one run said again, or the same opening (二年生 → 二年三組): the value made precise; a
    # shared head (電気窯 → ガス窯) is two values of one kind
    runs = set(_JA_RUN.findall(old_span)) & set(_JA_RUN.findall(new_span))
    return not runs and old_span[0] != new_span[0]


def value_swap_features(old: Sentence, new: Sentence) -> list[float]:
    """The VALUE_SWAP_FEATURES row of a pair."""
    return [float(value_swapped(old, new))]

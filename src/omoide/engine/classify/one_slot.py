"""One slot of a statement filled again: a value replaced, an occasion added, a subject (pure).

The simplest replacement a memory store sees is the same statement with one value swapped:
"The user lives in Fukui." → "The user lives in Tottori."; ユーザーは福井に住んでいる →
鳥取に住んでいる. Two memories of the very same shape are just as often two things of one kind
("visited Tokyo" / "visited Osaka") or one thing of two people ("the user's sister lives in
Tokyo" / "the user's brother lives in Tokyo"). What tells them apart is not the value but the
frame both sides share:

* **the slot's position**: a differing subject (before the predicate; in Japanese, a span that
  holds or precedes the topic particle は / が) makes two facts about two people;
* **the predicate's kind**: a single-valued *state* — where one lives, works or studies, whom
  one is married to, what one drives, what one is (the copula), where one is from — holds one
  value at a time, so a new value ends the old one; an *event*, a *plan* or a *habit* (a past
  tense, "plans to", "every week", 行った, 予定, 毎週) or an additive marker ("also",
  "another", …も) holds for many values at once;
* **precision**: a new value that contains the old one ("lives in Japan" → "lives in Osaka,
  Japan") makes it precise, it does not replace it.

The differing spans are found by aligning the two statements token by token (English words
without articles; Japanese characters widened to whole script runs), keeping a common prefix
and suffix and at most a few tokens between them. The frames are closed lists of how English
and Japanese say a single-valued relation, not of values: no place, employer or brand is
listed. Five features for the learned judge, and one rule (:func:`state_replaced`, the last
contradiction signal of :mod:`offline`): a single-valued state whose one short value is
replaced. Whether the rule decides alone is the judge's training to say (a sure rule is one
right on every training pair where it fired). No I/O; deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.base import Relation
from omoide.engine.classify.signals import Finding
from omoide.engine.classify.text import Sentence, cue

__all__ = [
    "EN_STATE_FRAMES",
    "JA_STATE_FRAMES",
    "ONE_SLOT_FEATURES",
    "OneSlot",
    "one_slot",
    "one_slot_features",
    "shared_ends",
    "state_replaced",
]

ONE_SLOT_FEATURES: tuple[str, ...] = (
    "slot_value_replaced",
    "slot_state_replaced",
    "slot_event_replaced",
    "slot_subject_replaced",
    "slot_value_precised",
)

_EN_MAX_SPAN = 4  # words on either side between the shared prefix and suffix
_JA_MAX_SPAN = 10  # characters
_EN_MIN_SHARED = 2
_JA_MIN_SHARED = 4

_EN_TOKEN = re.compile(r"[a-z0-9][a-z0-9'&.\-]*(?::\d+)*|:")
# Left out of the alignment: articles, and the adverbs that put a statement in the present
# ("now sends 350" against "sends 200": the value differs, not the verb).
_EN_DROP = frozenset({"a", "an", "the", "now", "currently", "still", "just"})
_JA_PUNCT = re.compile(r"[\s。、,.!?！？「」『』（）()・]")

# A single-valued relation, as the shared words right before the slot say it (English, the
# lower-cased prefix's end), by kind; :mod:`note_close_en_patterns` reads the kinds a note may
# close on. The copula ("is", "'s … is") holds one value of a subject.
EN_STATE_FRAMES: dict[str, str] = {
    "home": r"\b(?:lives?|living|resides?|residing|is based|based|is located|stays?|settled)"
    r" (?:in|at|on|near|out of)",
    "work": r"\b(?:works?|working|is employed|employed|is working) (?:at|for|as|in|with|on)",
    "role": r"\b(?:is|works as|serves as|is employed as|job is|role is|title is|occupation is)",
    "study": r"\b(?:studies|studying|is enrolled|enrolled|is a student|majors?|majoring) (?:at|in)",
    "attend": r"\b(?:attends|is in|goes to)",
    "partner": r"\b(?:married|engaged|is dating|dating|partner is|husband is|wife is|boyfriend is"
    r"|girlfriend is)(?: to)?",
    "vehicle": r"\b(?:drives|rides|commutes by|commutes to|commutes on)",
    "origin": r"\b(?:is from|comes from|was born in|born in|grew up in|hometown is)",
    "name": r"\b(?:name is|is called|is named|named|called|goes by)",
    "favourite": r"\b(?:favou?rite [a-z]+(?: [a-z]+)? is)",
    "membership": r"\b(?:supports|roots for|banks with|is insured with|is with)",
}
_EN_STATE_BEFORE = re.compile(
    "(?:"
    + "|".join(EN_STATE_FRAMES.values())
    + r"|'s [a-z]+(?: [a-z]+)? (?:is|are)(?: [a-z]+\.?)?|:(?: [a-z0-9'&.\-]+){0,4})$"
)
# An event, a plan, an occasion or an addition: the frame holds for many values. (A habit's
# frequency — every week, twice a day — is no such marker: "visits every Saturday" → "every
# Sunday" replaces the day.)
_EN_EVENT = re.compile(
    r"\b(?:visited|went|traveled|travelled|toured|tried|bought|ordered|attended|saw|met"
    r"|watched|ate|cooked|took|won|ran|got|received|gave|sent|yesterday|tomorrow|ago"
    r"|(?:last|next) (?:week|month|year|night|time|weekend|spring|summer|fall|autumn|winter)"
    r"|also|too|another|one more|second|again|plans? to|planning|will|going to|wants? to"
    r"|would like|hopes? to|thinking of|is considering|considering|was|were)\b"
)
# A verb, an auxiliary or a negation inside a span: the predicate itself differs, not one value.
_EN_VERBAL = re.compile(
    r"\b(?:is|are|am|was|were|be|been|has|have|had|does|do|did|not|never|no|will|can|could"
    r"|would|should|[a-z]+ed|[a-z]+ing)\b"
)

# Japanese: the words right after the slot (the suffix's start) saying a single-valued relation,
# by kind as in English.
JA_STATE_FRAMES: dict[str, str] = {
    "home": r"に住んで|に住む|に住ん|在住|に暮らして|で暮らして",
    "work": r"に勤めて|に勤務|で働いて|に勤め|の社員",
    "study": r"に通って|に在学|に在籍|の学生|の生徒",
    "membership": r"に所属",
    "partner": r"と結婚して|と付き合って|と交際",
    "vehicle": r"に乗って|を運転して",
    "origin": r"の出身|出身|生まれ|育ち",
    "name": r"という名前|と呼ばれ",
    "fan": r"を応援して|のファン",
    "role": r"だ$|である$|です$|だよ$|でした$|だった$|になった$|として働いて|をして(?:いる|います)",
}
_JA_STATE_AFTER = re.compile(
    r"^(?:の[^はがをにで]{1,8})?(?:" + "|".join(JA_STATE_FRAMES.values()) + ")"
)
_JA_EVENT = re.compile(
    r"た$|たことが|ことがある|予定|つもり|たい|計画|行った|訪れ|買っ|また|もう一|二台目|二人目"
    r"|2台目|2人目|来週|再来週|先週|明日|昨日|今度|来月|先月|去年|来年"
)
_JA_TOPIC = re.compile(r"[はが]")
# A vague or bounded old value that the new one makes precise ("abroad" → "in Montreal",
# "more than 20" → 34, 都内 → 渋谷).
_EN_VAGUE = re.compile(
    r"\b(?:abroad|overseas|somewhere|elsewhere|several|some|many|few|hundreds"
    r"|thousands|dozens|more than|over|under|less than|at least|around|about"
    r"|approximately|nearly|almost|roughly)\b"
)
_JA_VAGUE = re.compile(
    r"以上|未満|以下|約|数[十百千万]|海外|都内|県内|市内|近く|くらい|ぐらい"
    r"|ほど|何"
)
# A Japanese value: no kana but the particles that join nouns (の, と, や), and what follows
# it is a case particle or the copula.
_JA_VERBAL = re.compile(r"[\u3040-\u309f](?<![のとや])")
_JA_PARTICLE_AFTER = re.compile(
    r"^(?:に|で|を|が|は|と|の|から|まで|へ|より|だ|です|である|さん|:|$)"
)


@dataclass(frozen=True)
class OneSlot:
    """Two statements alike but for one short span on each side."""

    old_span: str
    new_span: str
    before: str  # the shared words before the spans
    after: str  # the shared words after them


def one_slot(old: Sentence, new: Sentence) -> OneSlot | None:
    """The one span each side differs in (the old one empty when the new memory only inserts
    a few words), or None when the two differ in more, or in nothing, or only drop words."""
    if old.lang == "ja":
        return _ja_slot(old.text, new.text)
    return _en_slot(old.text, new.text)


def _en_slot(old: str, new: str) -> OneSlot | None:
    a = [t.strip(".") for t in _EN_TOKEN.findall(old) if t not in _EN_DROP]
    b = [t.strip(".") for t in _EN_TOKEN.findall(new) if t not in _EN_DROP]
    p, s = shared_ends(a, b)
    ma, mb = a[p : len(a) - s], b[p : len(b) - s]
    if not (len(ma) <= _EN_MAX_SPAN and 0 < len(mb) <= _EN_MAX_SPAN):
        return None
    if p + s < _EN_MIN_SHARED:
        return None
    return OneSlot(" ".join(ma), " ".join(mb), " ".join(a[:p]), " ".join(a[len(a) - s :]))


def _ja_slot(old: str, new: str) -> OneSlot | None:
    a, b = _JA_PUNCT.sub("", old), _JA_PUNCT.sub("", new)
    p, s = shared_ends(list(a), list(b))
    # Widen the spans to whole runs of one script (東京 / 東北 differ in 京 / 北 only).
    while 0 < p < len(a) - s and _run_goes_on(a[p - 1], a[p]):
        p -= 1
    while s > 0 and p < len(a) - s and _run_goes_on(a[len(a) - s], a[len(a) - s - 1]):
        s -= 1
    ma, mb = a[p : len(a) - s], b[p : len(b) - s]
    if not (len(ma) <= _JA_MAX_SPAN and 0 < len(mb) <= _JA_MAX_SPAN):
        return None
    if p + s < _JA_MIN_SHARED:
        return None
    return OneSlot(ma, mb, a[:p], a[len(a) - s :])


def _run_goes_on(shared: str, span_end: str) -> bool:
    """Whether a shared character continues the span's script run (kanji, katakana, Latin)."""
    return _kind(shared) not in ("kana", "other") and _kind(shared) == _kind(span_end)


def _kind(ch: str) -> str:
    if "\u30a0" <= ch <= "\u30ff":
        return "katakana"
    if "\u3040" <= ch <= "\u309f":
        return "kana"
    if "\u3400" <= ch <= "\u9fff":
        return "kanji"
    return "latin" if ch.isascii() and ch.isalnum() else "other"


def shared_ends(a: list[str], b: list[str]) -> tuple[int, int]:
    """The lengths of the common prefix and the common suffix (not overlapping)."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, s


def _in_subject(slot: OneSlot, old: Sentence, new: Sentence) -> bool:
    """Whether the differing span is (part of) the subject: the statements' owners differ
    (the parser's reading: "the user's sister" / "the user's brother"), the span opens the
    statement or holds a record's label ("Ken: 62 kg" / "Ken's wife: 80 kg"), or, in Japanese,
    it holds the topic particle (犬は5歳 / 猫は9歳)."""
    if old.owner != new.owner or not slot.before or ":" in slot.old_span + slot.new_span:
        return True
    return old.lang == "ja" and bool(_JA_TOPIC.search(slot.old_span + slot.new_span))


def _a_value(slot: OneSlot, lang: str) -> bool:
    """Whether both spans are values (no verb, auxiliary or negation of their own)."""
    if lang == "ja":
        return not _JA_VERBAL.search(slot.old_span + slot.new_span) and bool(
            _JA_PARTICLE_AFTER.match(slot.after)
        )
    return not _EN_VERBAL.search(f"{slot.old_span} {slot.new_span}")


def _is_state(slot: OneSlot, lang: str) -> bool:
    if lang == "ja":
        return bool(_JA_STATE_AFTER.search(slot.after))
    return bool(_EN_STATE_BEFORE.search(slot.before))


def _is_event(slot: OneSlot, old: Sentence, new: Sentence) -> bool:
    """An event, a plan, a habit or an addition in the shared frame or the new span."""
    if cue(lex.ADDITIVE, new):
        return True
    if old.lang == "ja":
        if cue(lex.PLAN, old) or cue(lex.PLAN, new):
            return True
        return bool(
            _JA_EVENT.search(slot.after)
            or _JA_EVENT.search(slot.before)
            or slot.new_span.endswith("も")
            or slot.after.startswith("も")
        )
    return bool(_EN_EVENT.search(f"{slot.before} | {slot.after} | {slot.new_span}"))


def _precised(slot: OneSlot, lang: str) -> bool:
    """The new span makes the old one precise: it contains it ("Japan" → "Osaka, Japan"), or
    the old one is vague or a bound ("abroad", "more than 20", 都内) and the new one is not."""
    if not slot.old_span:
        return True  # words inserted into the same statement ("lives in north Osaka")
    if lang == "ja":
        return slot.old_span in slot.new_span or (
            bool(_JA_VAGUE.search(slot.old_span)) and not _JA_VAGUE.search(slot.new_span)
        )
    old_words = set(slot.old_span.split())
    if old_words and old_words <= set(slot.new_span.split()):
        return True
    return bool(_EN_VAGUE.search(slot.old_span)) and not _EN_VAGUE.search(slot.new_span)


def _one_value(slot: OneSlot, lang: str) -> bool:
    """Whether each span is one short value: at most two English words, or a Japanese run
    without a modifier (の) of its own ("釧路市の大学" → "釧路大学の獣医学部" is more than one)."""
    if lang == "ja":
        return "の" not in slot.old_span + slot.new_span
    return len(slot.old_span.split()) <= 2 and len(slot.new_span.split()) <= 2


def one_slot_features(old: Sentence, new: Sentence) -> list[float]:
    """The ONE_SLOT_FEATURES row of a pair (all 0 when the pair is not of the one-slot shape)."""
    slot = one_slot(old, new)
    if slot is None or not _a_value(slot, old.lang):
        return [0.0] * len(ONE_SLOT_FEATURES)
    subject = _in_subject(slot, old, new)
    precised = not subject and _precised(slot, old.lang)
    event = not subject and not precised and _is_event(slot, old, new)
    value = not (subject or precised or event or old.negative or new.negative)
    state = value and _is_state(slot, old.lang) and _one_value(slot, old.lang)
    return [float(value), float(state), float(event), float(subject), float(precised)]


def state_replaced(old: Sentence, new: Sentence) -> Finding | None:
    """The rules' signal: the same single-valued state with its one short value replaced
    ("lives in Tokyo" → "lives in Osaka", 東京に住んでいる → 大阪に住んでいる)."""
    if not one_slot_features(old, new)[ONE_SLOT_FEATURES.index("slot_state_replaced")]:
        return None
    slot = one_slot(old, new)
    assert slot is not None
    return Finding(
        Relation.CONTRADICTORY,
        0.7,
        f"one value of a state replaced: {slot.old_span} → {slot.new_span}",
    )

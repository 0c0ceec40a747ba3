"""A fact turned by meaning, with few words in common: a preference, a plan, a current state (pure).

Four shapes of contradiction the held-out writers use, where the rules' single cues are weak
because the verdict lies in how the two statements relate, not in either one:

* **a preference turned:** the old memory states a liking or a dislike, the new one the other
  way round ("can't stand anchovies" → "has come round to anchovies"; パクチーが大嫌い →
  最近パクチーにハマって), or says in so many words that the liking changed ("come to love",
  "got tired of", 好きになった, 飽きて);
* **a plan carried out:** the old memory is a plan, a wish or something pending ("plans to run
  the 10k in May", "is applying for", "waiting to adopt", 予定, つもり, 検討中, 審査中) and the new
  one, not itself a plan, tells it as done ("ran the 10k in 58 minutes", 入居済み, 承認された):
  the pending fact is over. Both must name the same thing (a shared topic word);
* **the same frame made current:** the new memory puts the old one's topic in the present with
  a marker of now ("now", "these days", "currently", 今は, 最近, ようになった) that the old one
  lacks, about the same person (no other subject): the older statement is the state before.

* **and against a change, the fact going on:** the new memory says of the old one's topic
  that it still holds ("still", "as ever", 今も, 相変わらず);
* **an amount moved:** the old memory holds a number and the new one says the amount moved
  to another, in any unit's spelling ("practises four hours a day" → "cut practice to two
  hours a day"; 月に2回 → 2か月に1回ほどに減った).

Five features for the learned judge, and one rule (:func:`amount_moved`, the last
contradiction signal of :mod:`offline`): the amount moved, which no labelled pair of another
class showed; whether it decides alone is the training's sure-rule test. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.base import Relation
from omoide.engine.classify.signals import Finding, anchors, different_subject, topic_coverage
from omoide.engine.classify.subject import subject_features
from omoide.engine.classify.text import Sentence, cue

__all__ = [
    "TURN_FEATURES",
    "amount_moved",
    "now_and_different",
    "plan_carried_out",
    "preference_turned",
    "quantity_moved_to",
    "still_holds",
    "turn_features",
]

TURN_FEATURES: tuple[str, ...] = (
    "preference_turned",
    "plan_carried_out",
    "now_and_different",
    "quantity_moved_to",
    "still_holds",
)

# Words that say a liking itself changed.
_PREF_TURN = {
    "en": r"\b(?:come|came|grown|grew|learned|learnt) (?:round |around )?to (?:love|like|enjoy"
    r"|prefer|appreciate|hate|dislike)\b|\bcome (?:round|around) to\b|\bwarmed (?:up )?to\b"
    r"|\bgot (?:hooked on|into)\b|\bhooked on\b|\b(?:tired|sick|bored) of\b|\bgone off\b"
    r"|\blost (?:interest|the taste|(?:her|his|their) taste)\b|\bgrown out of\b"
    r"|\bno longer (?:likes?|loves?|enjoys?|prefers?|minds?|wants?)\b"
    r"|\bnow (?:loves?|likes?|enjoys?|prefers?|hates?|dislikes?|avoids?|asks?|wants?)\b",
    "ja": r"好きになっ|嫌いになっ|苦手になっ|平気になっ|ハマっ|はまっ|飽き|気に入っ"
    r"|興味が(?:出|湧|わい)|克服|嫌がらず|(?:食べ|飲め|使え|乗れ|でき)るようになっ",
}
# A plan, a wish or something pending (beyond the lexicon's plans: goals, applications,
# waiting, considering).
_PENDING = {
    "en": r"\bgoal\b|\baim(?:s|ing)? (?:to|for)\b|\bapplying\b|\bapplied for\b|\bwaiting\b"
    r"|\bconsidering\b|\bhoping\b|\bsaving (?:up )?for\b|\bbooked\b|\bentered for\b"
    r"|\bsigned up\b|\bhas a place\b|\bis due\b|\bscheduled\b|\bsomeday\b|\bone day\b",
    "ja": r"検討|審査中|申請中|申し込|目指|迷って|貯金して|待って|てみたい|予約|エントリー"
    r"|受ける|受験|希望|いつか",
}
# Told as done: a past or perfect verb, or a result.
_DONE = {
    "en": r"\b\w{3,}ed\b|\bran\b|\bwent\b|\bgot\b|\bwon\b|\bmade\b|\bbought\b|\btook\b"
    r"|\bcame\b|\bflew\b|\bmet\b|\bsaw\b|\bheld\b|\bbegan\b|\bgave\b|\bbrought\b|\bsold\b",
    "ja": r"済み|済ませ|完了|承認|合格|できた|決まった|ました|てきた|終えた|た[。、!！]?$"
    r"|んだ[。、!！]?$|[しっ]た[。、]",
}
_SECOND = {
    "en": r"\balso\b|\banother\b|\bagain\b|\bnext\b|\btoo\b|\bas well\b|\bsecond\b",
    "ja": r"次は|次の|また|もう一|二回目|2回目|も(?:予定|申し込|受ける)",
}
_NOW = {
    "en": r"\bnow\b|\bthese days\b|\bnowadays\b|\bcurrently\b|\bat the moment\b|\blately\b"
    r"|\bthis (?:year|season|term|month)\b",
    "ja": r"今は|今では|最近|現在|このごろ|この頃|ようになっ|今年から|今月から",
}


# Told as long past, before any plan of now could be made ("last year", "years ago", 去年).
_LONG_PAST = {
    "en": r"\blast year\b|\byears? ago\b|\bback in\b|\bas a (?:child|kid|teen)\b"
    r"|\bwhen (?:she|he|they|i) (?:was|were)\b|\bin (?:19|20)\d\d\b(?! \w+ (?:19|20)\d\d)",
    "ja": r"去年|昨年|一昨年|\d+年前|何年も前|昔|子供の頃|子どもの頃|学生時代|当時",
}
# The old fact goes on: "still", "as ever", 今も, 相変わらず (a continuity the new one tells).
_STILL = {
    "en": r"\bstill\b|\bas ever\b|\bas usual\b|\bcontinues? to\b|\bkeeps? (?:on )?\w+ing\b"
    r"|\bremains?\b|\bhasn't changed\b|\bhas not changed\b",
    "ja": r"今も|今でも|相変わらず|引き続き|変わらず|変わらない|継続|ずっと",
}
# A number the new memory says something moved to ("cut to two hours", "is down to 47",
# "now every 9 weeks", 月6万円に上げた, 8人になりました); "up to" is a bound, not a move.
_MOVED_TO = {
    "en": r"\b(?:cut|raised|upped|increased|reduced|lowered|dropped|rose|fell|shortened"
    r"|extended|expanded|grown|grew|bumped|changed|switched|moved|went (?:up|down)|put up"
    r"|is down|are down|now down|brought down|scaled back)\b(?: \S+){0,5}? (?:to|by) "
    r"(?:about |around |roughly |just |only )?[$£€¥]?\d"
    r"|\bnow (?:\S+ ){0,4}?(?:about |around )?[$£€¥]?\d"
    r"|\b(?:down|up) to [$£€¥]?\d",
    "ja": r"\d[^、。]{0,10}?(?:に|へ)(?:上が|下が|増え|減|上げ|下げ|広げ|増や|減ら|なっ|なり|変わ"
    r"|変更|引き上げ|引き下げ|縮|延ば|伸び)|(?:今は|現在は|最近は)[^、。]{0,8}\d",
}

# Something that happened once, as an experience (月2万5千円になったことがある).
_ONCE = re.compile(r"ことが(?:ある|あった|あります|ありました)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:万(?:\d+千)?|千)?")  # 8万 and 8万5千 differ


def _numbers(sentence: Sentence) -> set[str]:
    return set(_NUMBER.findall(sentence.text))


def _another_subject(old: Sentence, new: Sentence) -> bool:
    """Two people: the rules' different subject, or another subject chain (X's brother)."""
    return different_subject(old, new) is not None or subject_features(old, new)[1] > 0


def _has(pattern: dict[str, str], sentence: Sentence) -> bool:
    return re.search(pattern[sentence.lang], sentence.reading) is not None


def _polar(sentence: Sentence) -> int:
    """+1 a liking, -1 a dislike or a negated liking, 0 neither."""
    pos, neg = cue(lex.PREF_POS, sentence), cue(lex.PREF_NEG, sentence)
    if neg or (pos and sentence.negative):
        return -1
    return 1 if pos else 0


def preference_turned(old: Sentence, new: Sentence) -> bool:
    """The old memory's liking or dislike turned the other way in the new one (see module)."""
    if _another_subject(old, new) or cue(lex.ADDITIVE, new) or not anchors(old, new):
        return False
    if _has(_PREF_TURN, new) and not _has(_PREF_TURN, old):
        return True
    before, after = _polar(old), _polar(new)
    return before != 0 and after == -before


def plan_carried_out(old: Sentence, new: Sentence) -> bool:
    """A plan, wish or pending matter of the old memory told as done by the new (see module)."""
    if not (cue(lex.PLAN, old) or cue(lex.PURSUIT, old) or _has(_PENDING, old)):
        return False
    if cue(lex.PLAN, new) or _has(_PENDING, new) or _has(_SECOND, new) or new.negative:
        return False
    if not (cue(lex.COMPLETED, new) or _has(_DONE, new)) or (
        _has(_LONG_PAST, new) and not _has(_LONG_PAST, old)
    ):
        return False  # not told as done, or done long before the plan (another occasion)
    return bool(anchors(old, new)) and topic_coverage(old, new) >= 0.3


def now_and_different(old: Sentence, new: Sentence) -> bool:
    """The new memory states the old one's topic as it is now, the old one did not (see
    module): same person, a shared topic word, something of the old one left out."""
    if old.past_occasion or _has(_NOW, old) or not _has(_NOW, new) or _another_subject(old, new):
        return False
    if cue(lex.ADDITIVE, new) or cue(lex.NARROWING, new):
        return False
    shared = anchors(old, new)
    return bool(shared) and len(shared) < len([u for u in old.content if u])


def quantity_moved_to(old: Sentence, new: Sentence) -> bool:
    """The old memory holds a number and the new one says the amount moved to another ("cut
    harp practice to three hours", 週8ポンドに上がった), about the same person and thing (a
    shared topic word); "up to" in the new memory is a bound, not a move."""
    if not old.quantities or not new.quantities or old.past_occasion:
        return False
    if _ONCE.search(new.reading) or _numbers(old) <= _numbers(new):
        return False  # once, as an experience; or every old number still told (a bound kept)
    if re.search(r"\bup to\b", new.reading) and not re.search(
        r"\b(?:went|is|are) up to\b", new.reading
    ):
        return False
    return (
        _has(_MOVED_TO, new)
        and not _has(_MOVED_TO, old)
        and bool(anchors(old, new))
        and not _another_subject(old, new)
    )


def amount_moved(old: Sentence, new: Sentence) -> Finding | None:
    """The rule over :func:`quantity_moved_to` (the last contradiction signal of
    :mod:`offline`): an amount the old memory holds, moved to another by the new one."""
    if not quantity_moved_to(old, new):
        return None
    return Finding(
        Relation.CONTRADICTORY, 0.85, f"amount moved: {', '.join(anchors(old, new)[:3])}"
    )


def still_holds(old: Sentence, new: Sentence) -> bool:
    """The new memory says, about the old one's topic, that it goes on ("still", 今も): a
    mark against a change of that fact (a feature, not a veto: "still maining Jett" may sit
    next to a changed rank)."""
    return _has(_STILL, new) and not _has(_STILL, old) and bool(anchors(old, new))


def turn_features(old: Sentence, new: Sentence) -> list[float]:
    """The TURN_FEATURES row of a pair."""
    return [
        float(preference_turned(old, new)),
        float(plan_carried_out(old, new)),
        float(now_and_different(old, new)),
        float(quantity_moved_to(old, new)),
        float(still_holds(old, new)),
    ]

"""History beside the present fact: a new memory set in an earlier period of life (pure).

**Trigger.** The new memory is framed in an earlier period of the person's life — a period
marker ("when I was a choirboy", "as a student", "back in college", "my previous / former / ex-"
before a role noun, 若いころ, 学生時代, 昔, 以前は, 前の / 元の before a role noun such as 彼氏
or 職場) — and is told in the past tense; the old memory has no such frame and is not past; and
the slot's value differs: the new memory, read without its period marker, drops a topic word
of the old one and adds one of its own. A word of the present ("now", "these days",
"anymore", 今は, 現在, 最近) or an end ("quit", "gave up", やめた) in the new memory, or the
same frame in the old one, keeps the reading off (an end told of a previous one of a role, "split
up with an ex", 前の彼氏と別れた, is that one's end, and does not).

A date is no period of life: "back in May", "two years ago" date a change and are not read
(nor "got used to", 駅前の, a place name such as 元町).

**Why.** "Teaches Latin at a grammar school" and "As a student she waited tables in a café"
are two facts: what held then, and what holds now. The new
memory's verb (waited, 住んでいた) and its other value look like a change, and the judge closed
such pairs; but a period of the past told with another value is history next to the present
fact, not a new value of it. The same frame with the SAME value is a change ("used to smoke"
against "smokes", 以前は東京に住んでいた against 東京に住んでいる): the old fact is said to
hold no longer, and the reading leaves it alone (nothing is dropped).

**Outcome.** ``earlier_period_other_value`` is 1 for such a pair: a veto, not a feature the
model reads (``judge_signals.VETO_ONLY``): the pair is never CONTRADICTORY, and the judge's other
two classes decide between INDEPENDENT and EXTENDABLE. No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.signals import EN_GENERIC, found_in
from omoide.engine.classify.text import Sentence, cue, parse

__all__ = [
    "EARLIER_PERIOD_FEATURES",
    "USED_TO",
    "earlier_period",
    "earlier_period_features",
    "earlier_period_other_value",
    "past_tense",
]

EARLIER_PERIOD_FEATURES: tuple[str, ...] = ("earlier_period_other_value",)

# Role nouns a "previous / former / ex-" or 前の / 元の names another one of: a partner, a
# workplace, a home, a school, a carer.
_EN_ROLES = (
    r"(?:boy|girl)friends?|partners?|husbands?|wife|wives|spouses?|fianc[ée]e?s?"
    r"|jobs?|employers?|company|companies|firms?|workplaces?|office|bosses?"
    r"|managers?|colleagues?|teams?|roles?|positions?|careers?|apartments?|flats?"
    r"|houses?|homes?|places?|schools?|universit(?:y|ies)|doctors?|dentists?"
    r"|landlords?|cars?|relationships?|marriages?"
)
_JA_ROLES = (
    r"彼氏|彼女|カレ|カノ|夫|妻|旦那|奥さん|恋人|パートナー|婚約者|職場|会社|勤め先|仕事"
    r"|上司|同僚|部署|家|住まい|アパート|マンション|部屋|学校|病院|主治医|担当|バイト"
    r"|パート|店|車"
)
# "A previous / former / ex-" one of a role: the new memory is about another one of it.
_PREVIOUS = {
    "en": rf"\b(?:previous|former|ex-?)\s*(?:{_EN_ROLES})\b|\bex\b",
    "ja": (
        r"(?<![0-9\u4e00-\u9fff])前の(?:" + _JA_ROLES + r")"
        r"|(?<![\u4e00-\u9fff])元(?:の)?(?:" + _JA_ROLES + r")|元カレ|元カノ|元彼"
    ),
}
# "Used to" of a habit or state of the past, not "got used to" (accustomed).
USED_TO = (
    r"(?<!\bgot )(?<!\bget )(?<!\bgets )(?<!\bbe )(?<!\bis )(?<!\bare )(?<!\bam )"
    r"(?<!\bwas )(?<!\bwere )(?<!\bbeen )\bused to\b"
)
_PREVIOUS_ONE = {lang: re.compile(pattern) for lang, pattern in _PREVIOUS.items()}
_MARKER = {
    "en": re.compile(
        r"\bwhen (?:i|he|she|they|the user|user) (?:was|were) (?:young|younger|little|small"
        r"|a (?:kid|child|boy|girl|teen(?:ager)?|student|baby)|in (?:school|college|high school"
        r"|university|(?:his|her|my|their) (?:teens|twenties|thirties)))\b"
        r"|\bas a (?:kid|child|boy|girl|teen(?:ager)?|student|young (?:man|woman))\b"
        r"|\bback (?:then|in the day|in (?:college|school|high school|university))\b"
        r"|\bback when (?:i|he|she|they|we|the user|user) (?:was|were)\b"
        r"|\bin (?:his|her|my|their) (?:youth|teens|twenties|thirties|student days"
        r"|school days|college days)\b|\bgrowing up\b|\bin (?:the|those) (?:old )?days\b"
        r"|" + USED_TO + r"|" + _PREVIOUS["en"]
    ),
    "ja": re.compile(
        r"(?:若い|幼い|小さい|子供の|子どもの|こどもの|独身の|新人の|学生の|新婚の)(?:ころ|頃|時|とき)"
        r"|(?:学生|大学|高校|中学|小学校|独身|新人|現役|新婚|若手|子供|子ども)時代|昔|以前(?![よとに])|かつて"
        r"|当時|若かった|" + _PREVIOUS["ja"]
    ),
}
# A past-tense predicate: English, a past auxiliary, "used to", a past verb form (or an
# irregular past, ``lexicon.EN_PAST_IRREGULAR``); Japanese,
# a past ending at the end of a clause.
_EN_PAST = re.compile(r"\b(?:was|were|had|did|used to|[a-z]{2,}ed)\b")
_JA_PAST = re.compile(
    r"(?:た|だった|でした|ました|ていた|てた|かった)"
    r"(?:けど|が|し|よ|ね|な|わ|[、,。.!！]|$)"
)
# Words of the present: the new memory then tells what holds now, not only what held then.
_PRESENT = {
    "en": re.compile(
        r"\bnow\b|\bnowadays\b|\bthese days\b|\bcurrently\b|\btoday\b"
        r"|\banymore\b|\bno longer\b|\binstead\b|\bstill\b"
    ),
    "ja": re.compile(r"今は|今では|今も|現在|最近|この頃|このごろ|今度は|今の|いまは|まだ"),
}


def earlier_period(sentence: Sentence) -> bool:
    """Whether ``sentence`` is set in an earlier period of life: a period marker and a past
    tense (see the module docstring)."""
    return _MARKER[sentence.lang].search(sentence.text) is not None and past_tense(sentence)


def past_tense(sentence: Sentence) -> bool:
    """Whether ``sentence`` has a past-tense predicate: English a past auxiliary, "used to", a
    past verb form or an irregular past (``lexicon.EN_PAST_IRREGULAR``); Japanese a past ending
    at the end of a clause."""
    if sentence.lang == "ja":
        return _JA_PAST.search(sentence.text) is not None
    return _EN_PAST.search(sentence.text) is not None or any(
        w in lex.EN_PAST_IRREGULAR for w in re.findall(r"[a-z]+", sentence.text)
    )


def _without_marker(sentence: Sentence) -> Sentence:
    """The sentence read again with its period markers taken out (they are no value)."""
    return parse(_MARKER[sentence.lang].sub(" ", sentence.text), sentence.lang)


def _old_is_present(old: Sentence) -> bool:
    """The old memory has no period frame and is not about a finished past occasion."""
    return _MARKER[old.lang].search(old.text) is None and not old.past_occasion


def earlier_period_other_value(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory tells another value in an earlier period of life beside the old
    memory's present fact (see the module docstring)."""
    if old.lang != new.lang or not earlier_period(new) or not _old_is_present(old):
        return False
    if _PRESENT[new.lang].search(new.text) is not None:
        return False
    if cue(lex.STOPPED, new) and _PREVIOUS_ONE[new.lang].search(new.text) is None:
        return False  # "used to smoke but quit": the old fact ended, a change
    body = _without_marker(new)
    generic = lex.JA_GENERIC_STEMS if new.lang == "ja" else EN_GENERIC
    added = [u for u in body.content if u not in generic and not _said(u, old)]
    lost = [u for u in old.content if u not in generic and not _said(u, body)]
    return bool(added) and bool(lost)


def _said(unit: str, sentence: Sentence) -> bool:
    """``signals.found_in``, or (English) a word of ``sentence`` with the unit's first four
    letters: two inflections of one verb ("lives" / "used to live") are one value."""
    if found_in(unit, sentence):
        return True
    return (
        sentence.lang == "en" and len(unit) >= 4 and any(w[:4] == unit[:4] for w in sentence.words)
    )


def earlier_period_features(old: Sentence, new: Sentence) -> list[float]:
    """The EARLIER_PERIOD_FEATURES row of a pair."""
    return [float(earlier_period_other_value(old, new))]

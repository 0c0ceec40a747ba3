"""The present fact said again as a former state: "used to smoke" against "smokes" (pure).

**Trigger.** The new memory says the old memory's value again — every topic word of the old
memory is said in it, and the clause that holds the frame adds no topic word or amount of its
own ("used to play tennis twice a week" is a narrower value; a reason in another clause, "after
surgery, …", adds nothing) — but frames it as a former state: a former marker with a past tense
("used to", "previously", "formerly", "in the past", 以前は, かつて, 昔は, 前は, with ていた /
だった / でした), or a present told as ended ("no longer", "not … anymore", もう…ない). The old
memory has no such frame, no period of life (``earlier_period``), no past tense and no
negation; both are about one subject (the owner read by ``text.parse``, and no person in the
new memory's subject that the old one's lacks, ``subject.new_person_in_subject``; the judge's
subject check and vetoes also apply, ``judge_signals.sure_close``). A word saying the value still
holds ("still", "now", 今も, まだ, 今は), another one or a part of it ("too", "only", だけ), or a
plan or condition ("will", "if", 予定, つもり, たら) keeps it off.

**Why.** Saying a present fact's own value as a former state tells that it holds no longer:
"The user used to smoke" against "The user smokes", 以前は名古屋に住んでいた against 名古屋に住
んでいる. The judge, trained mostly on changes that name a new value, left such pairs open (C
0.46–0.86, under the thresholds). Round 23b's veto (``earlier_period_other_value``) is the
mirror: another value in a past frame is history beside the present fact.

**Outcome.** ``former_same_value`` is 1 for such a pair: a sure close, not a feature the model
reads (``judge_signals.SURE_ONLY``, as round 20c's ``from_to.changed_from_old``). No I/O;
deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.earlier_period import USED_TO, earlier_period, past_tense
from omoide.engine.classify.signals import EN_GENERIC
from omoide.engine.classify.subject import new_person_in_subject
from omoide.engine.classify.text import Sentence, parse

__all__ = [
    "FORMER_STATE_FEATURES",
    "NOT_MADE",
    "former_frame",
    "former_same_value",
    "former_state_features",
    "old_is_present",
    "said_in",
]

FORMER_STATE_FEATURES: tuple[str, ...] = ("former_same_value",)

# A former marker that needs a past tense beside it.
_FORMER = {
    "en": re.compile(USED_TO + r"|\bpreviously\b|\bformerly\b|\bin the past\b"),
    # (not 名前は "the name is", nor 結婚前は / 震災の前は / その前は "before X": a period)
    "ja": re.compile(
        r"以前(?:は|まで)|かつて(?:は)?|昔は"
        r"|(?<![0-9\u4e00-\u9fffのそ])前(?:は|まで)"
    ),
}
# A present told as ended: the marker is the frame, no past tense needed.
_ENDED = {
    "en": re.compile(r"\bno longer\b|\b(?:not|n't|never)\b[^.;,]{0,30}\bany ?more\b"),
    "ja": re.compile(r"もう[^。、]{0,15}(?:ない|ません|なくなった|なくなりました)"),
}
# A past verb in the old memory: a past auxiliary, or an -ed word not after a form of "be" /
# "get" (a state: "is married", "got engaged" is read as past, "is retired" is not).
_EN_OLD_PAST = re.compile(
    r"\b(?:was|were|had|did)\b|(?<!\bis )(?<!\bare )(?<!\bam )(?<!\bbe )"
    r"(?<!\bbeen )(?<!'s )(?<!\ba )(?<!\ban )(?<!\bthe )\b[a-z]{2,}ed\b"
)
# Words saying the value still holds (the former frame is then not an end), or that the frame
# is about another one of a kind ("too", "also") or a part of the value ("only", だけ).
_STILL = {
    "en": re.compile(
        r"\bstill\b|\bto this day\b|\bever since\b|\bcontinues?\b|\bagain\b"
        r"|\bnow\b|\bthese days\b|\bcurrently\b"
        r"|\btoo\b|\balso\b|\bas well\b|\bonly\b|\bjust\b"
    ),
    "ja": re.compile(
        r"今も|今でも|いまも|まだ|相変わらず|引き続き|再び|また|今は|現在|最近"
        r"|だけ|のみ"
    ),
}
# A change not (yet) made: planned, wished for, considered, possible (``from_to``'s list),
# or a condition.
NOT_MADE = re.compile(
    r"予定|つもり|たい|かもしれ|検討|考えて|なら|たら|\bplan|\bwill\b"
    r"|\bmight\b|\bconsider|\bthinking\b|\bwants? to\b|\bmay\b|\bwould\b"
    r"|\bif\b"
)


def former_frame(sentence: Sentence) -> bool:
    """Whether ``sentence`` frames what it says as a former state: a former marker with a past
    tense, or a present told as ended (see the module docstring)."""
    lang = sentence.lang
    if _ENDED[lang].search(sentence.text) is not None:
        return True
    return _FORMER[lang].search(sentence.text) is not None and past_tense(sentence)


def old_is_present(old: Sentence) -> bool:
    """The old memory states a present fact: no former frame, no period of life, no finished
    past occasion, no past tense ("retired at 62" is a past event, "is retired" a state), not
    negated."""
    if former_frame(old) or earlier_period(old) or old.past_occasion or old.negative:
        return False
    if _FORMER[old.lang].search(old.text) is not None:
        return False
    if old.lang == "ja":
        return not past_tense(old)
    return _EN_OLD_PAST.search(old.text) is None


def _body(sentence: Sentence) -> Sentence:
    """The sentence read again without its former and ended markers (they are no value)."""
    text = _FORMER[sentence.lang].sub(" ", sentence.text)
    if sentence.lang == "en":
        text = re.sub(r"\bno longer\b|\bany ?more\b", " ", text)
    else:
        text = text.replace("もう", " ")
    return parse(text, sentence.lang)


def former_same_value(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory says the old memory's present value again as a former state
    (see the module docstring)."""
    if old.lang != new.lang or old.owner != new.owner or not former_frame(new):
        return False
    if new_person_in_subject(old, new) or not old_is_present(old):
        return False
    if _STILL[new.lang].search(new.text) or NOT_MADE.search(new.text):
        return False
    body = _body(new)
    generic = lex.JA_GENERIC_STEMS if new.lang == "ja" else EN_GENERIC
    topic = [u for u in old.content if u not in generic]
    if not topic or not all(said_in(u, body) for u in topic):
        return False
    return not _frame_adds(old, new, generic)


def _frame_adds(old: Sentence, new: Sentence, generic: frozenset[str] | set[str]) -> bool:
    """Whether the clause that holds the former frame adds a value of its own: a topic word or
    an amount the old memory lacks ("used to work at Acme's rival", "used to play tennis twice
    a week", 以前は別の会社で働いていた, 昔は犬を二匹飼っていた). The past frame then covers that
    narrower or other value, not the old fact. A reason or a step told in another clause
    ("after surgery, …", 解約し、もう…) adds nothing to the frame."""
    clause = next((c for c in _clauses(new) if former_frame(parse(c, new.lang))), new.text)
    framed = _body(parse(clause, new.lang))
    if any(q not in old.quantities for q in framed.quantities):
        return True
    return any(u not in generic and not said_in(u, old) for u in framed.content)


# Clause boundaries: punctuation, and (English) a conjunction that starts another clause.
_CLAUSE = {
    "en": re.compile(
        r"[,;:]|(?=(?:since|after|because|and|but|so|when|before|"
        r"until|as|though|although|while)\b)"
    ),
    "ja": re.compile(r"[、，,;；。]"),
}


def _clauses(sentence: Sentence) -> list[str]:
    """The sentence's clauses (see ``_CLAUSE``); the whole text when it has one."""
    parts = [c for c in _CLAUSE[sentence.lang].split(sentence.text) if c.strip()]
    return parts or [sentence.text]


def said_in(unit: str, sentence: Sentence) -> bool:
    """A unit of the old memory said in ``sentence``: as a unit or word, or (English) a word
    (lemma or as written) with its first four letters ("smokes" / "used to smoke", "lives" /
    "lived")."""
    if unit in sentence.content or unit in sentence.words:
        return True
    if sentence.lang == "ja":
        return unit in sentence.text
    written = sentence.words | set(re.findall(r"[a-z]+", sentence.text))
    return len(unit) >= 4 and any(w[:4] == unit[:4] for w in written)


def former_state_features(old: Sentence, new: Sentence) -> list[float]:
    """The FORMER_STATE_FEATURES row of a pair."""
    return [float(former_same_value(old, new))]

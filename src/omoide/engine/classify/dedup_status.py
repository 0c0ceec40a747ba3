"""Dedup's status rule: a plan, a pursuit or a state that one text says ended, was done or was
called off, and the other does not (pure).

Trigger: dedup asks whether a near-copy is a duplicate. Why: "Rosa is flying to Tokyo on 20
October" / "Rosa's 20 October flight to Tokyo was cancelled", "will sit the exam on 14 June" /
"sat the exam on 14 June", 合格を目指している / 合格した repeat every value (the
place, the date, the thing) and add one word that changes what is true, so the cosine, the veto
and the size of the aligned difference all call them the same; saving the second only as a
duplicate would lose the news. Outcome: ``status_changed`` — the two texts differ in which of
these families of status words they hold (the 3-op classifier's lexicon):

- an ending, or a plan called off or moved (stopped, quit, cancelled, pushed back, on hold,
  もう…ない, やめた, 中止, 延期, 見送り), read as the classifier reads it
  (``refusal.stop_cues``, as ``text.ends_something``): an end word under negation goes on
  ("won't quit", "is not gonna give up golf", 辞めるつもりはない), and a bare negation ("will not",
  せず) is the veto's polarity, not an ending;
- a completion (passed, finished, got into, 合格, 終えた);
- a plan (will, plans to, going to, 予定, つもり) or a pursuit (studying for, applying to,
  目指して).

Dedup adds general words of its own to the families (fifteenth round): waiting on an outcome
(applied for, 応募, 受講, 準備, 検討) with the plans; an outcome reached (accepted, delivered,
arrived, handed in, 決まった, 修了, 審査が通った, 再開) with the completions; a stop (retired, 退職,
一時停止, 解約) and a state said as former (previously, formerly; 以前 — not 以前から, which
goes on —, かつて or 昔は before a past state, 〜ていた / だった; session 22) with the
endings; the twentieth round adds a place on a waiting list and standing for election (with
the plans), stepping down, resigning and a request turned down or refused (with the endings),
and an English verb in the present on one side said in the past on the other, word for word
("lives in halls" / "lived in halls": a state said as former);
the sixteenth round adds studying for a thing (ために勉強) with
the plans (the thirtieth round "intends to", a plan word: "is planning to" / "intends to" read
as a plan on one side only), and a single-valued status named on both sides with
different values (``lexicon.STATUS_SLOTS``: engaged / married, 小学校 / 中学校) is a change.
And a plan said as a future on one side only (will, going
to, 予定) against the same event with no past tense and no status word ("is moving to Oslo in
March" / "will relocate to Oslo in March", 来月行く / 来月行く予定) is one fact in two tenses,
not a change (against a past, "planned a trip" / "booked a trip", the plan was carried out).

A paraphrase keeps its status words ("plans to" / "is going to" are one family), so it is a
narrow rule; it is never a duplicate's veto when both texts hold the same families.
Deterministic and symmetric.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.dedup_aspect import aspect_turned
from omoide.engine.classify.dedup_tense import tense_turned
from omoide.engine.classify.refusal import stop_cues
from omoide.engine.classify.text import parse
from omoide.engine.classify.transition import UNDONE

__all__ = ["status_changed", "status_families"]

_ENDED, _COMPLETED, _PLANNED = "ended", "completed", "planned"
_UNDONE = {lang: re.compile(pattern, re.IGNORECASE) for lang, pattern in UNDONE.items()}
# Cues of a plan called off that are a negation and nothing more: "will not go" denies what
# "will go" says (the veto's polarity), and "will not quit" is no ending at all.
_BARE_NEGATION = {
    "en": re.compile(r"will not|not (?:going|happening)"),
    "ja": re.compile(r"せず|しないこと"),
}
# Dedup's own status words beside the classifier's (general words of waiting, applying and
# deciding; of an outcome reached; of a stop), read into the same families.
_PENDING = {
    "en": r"\bappl(?:ied|ies) (?:for|to)\b|\bsaving (?:up |money )?for\b"
    r"|\b(?:putting|setting) (?:money )?aside for\b|\bconsidering\b|\bstill comparing\b"
    r"|\bdeciding (?:whether|between)\b|\bworking towards?\b|\b(?:is|am|are) in training\b"
    r"|\b(?:studying|training|revising|preparing) (?:\w+ ){1,3}for the\b"
    r"|\bas (?:the|a|their|my|her|his) (?:goal|aim|target)\b|\baims? to\b"
    r"|\bon (?:the|a) waiting list\b|\bwaiting to (?:be|have)\b"
    r"|\b(?:standing|running) (?:to be|for (?:election|re-?election|office)|as a candidate)\b"
    r"|\bintend(?:s|ing)? to\b",
    "ja": r"応募|希望し|迷っ|待機|準備|検討|受講|ために(?:勉強|練習|貯金)|目標",
}
_OUTCOME = {
    "en": r"(?<!\bbe )(?<!\bbeing )\b(?:accepted|granted|delivered|arrived|healed|published"
    r"|resolved|submitted)\b|\bhas been closed\b|\b(?:handed|turned) in\b",
    "ja": r"決まった|決めた|決定し|修了|審査が?通|成立|(?<!で)済ませ|が済ん|届い|受け取っ|退院|完治"
    r"|治っ|再開|走りきっ|走り切っ",
}
_STOPPED = {
    "en": r"\bretir(?:ed|ing|e)\b|\bstop(?:ped|s)? working\b|\b(?:previously|formerly)\b"
    r"|\bstep(?:ped|s)? down\b|\bresign(?:ed|s)\b"
    r"|\b(?:turned down|rejected)\b|\b(?:was|were|been|got) (?:refused|declined)\b",
    "ja": r"退職|引退|閉店|廃業|休んで|一時停止|解約"
    r"|(?:以前(?!から)|かつて|昔は|(?:^|(?<=[はが、]))前は).*?(?:[てで]い(?:た|ました)|だった|でした)",
}
_OTHER = {
    _COMPLETED: {
        lang: re.compile(f"{lex.COMPLETED[lang]}|{_OUTCOME[lang]}", re.IGNORECASE)
        for lang in ("en", "ja")
    },
    _PLANNED: {
        lang: re.compile(f"{lex.PLAN[lang]}|{lex.PURSUIT[lang]}|{_PENDING[lang]}", re.IGNORECASE)
        for lang in ("en", "ja")
    },
}
_STOP_WORDS = {lang: re.compile(p, re.IGNORECASE) for lang, p in _STOPPED.items()}
# A plan said as a future (will, going to, 予定) against a statement of the same event with no
# past tense ("is moving to Lisbon in October" / "will relocate to Lisbon in October", 10月に
# 行く / 10月に行く予定) is one fact in two tenses; against a past ("planned a trip" / "booked a
# trip", 計画している / 予約した) the plan was carried out.
_FUTURE = {
    "en": re.compile(
        r"\bwill\b|\bgoing to\b|\bwould like\b|\bwants? to\b|\bplan(?:s|ned)? "
        r"(?:to|for)\b|\bintends? to\b|\bis due\b",
        re.IGNORECASE,
    ),
    "ja": re.compile(r"予定|つもり|したい|考えている"),
}
_EN_PAST = re.compile(
    r"\b(?:was|were|did|had)\b|\b(?:has|have)\s+(?:already\s+|just\s+)?[a-z]+(?:ed|en|t)\b"
    r"|(?<!\bis )(?<!\bam )(?<!\bare )(?<!\bbe )(?<!\bbeing )\b[a-z]{3,}ed\b"
    r"|\b(?:" + "|".join(sorted(lex.EN_PAST_IRREGULAR | lex.EN_PAST_IRREGULAR_MORE)) + r")\b",
    re.IGNORECASE,
)
# A reported statement's frame (と話していた, とのこと) is not the event's tense.
_JA_FRAME = re.compile(
    r"(?:と|って)(?:話して|言って|聞い|書いて)(?:い)?た.*$|とのこと.*$"
    r"|そう(?:だ|です)?。?$|という.*$"
)
# A past ending: before punctuation or a conjunction, or an experience (行ったことがある: the
# event lies in the past, a plan to do it again is another fact).
_JA_PAST = re.compile(r"(?:た|だ)(?=[。、,.!！)）]|$|と|けど|が|ので|から|こと[がはも]?あ)")
# A reported statement's frame ("Elena said", "mentioned that", "according to Zebedee,") is
# not the event's tense, as in Japanese.
_EN_FRAME = re.compile(
    r"^.*?\b(?:said|says|mentioned|mentions|told [a-z]+|explained)\b(?: that)?"
    r"|\baccording to [a-z]+,?",
    re.IGNORECASE,
)


def _ends(text: str, lang: str) -> bool:
    """An ending the classifier reads (negation-aware), or a plan called off by a word the end
    lexicon does not hold (postponed, on hold, 保留), that is not a bare negation. The end
    cues are read once: an un-negated one is an ending; a negated one hides the plan words it
    overlaps."""
    cues = stop_cues(text, lang)
    if any(negated is None for _, negated in cues):
        return True
    stops = [m.span() for m, _ in cues]
    return any(
        not _BARE_NEGATION[lang].fullmatch(m.group(0))
        and not any(start < m.end() and m.start() < end for start, end in stops)
        for m in _UNDONE[lang].finditer(text)
    )


@lru_cache(maxsize=256)  # a new memory meets each candidate with the same text
def status_families(text: str) -> frozenset[str]:
    """The families of status words ``text`` holds."""
    sentence = parse(text)  # NFKC; English in lower case with "won't" as "will not"
    reading, lang = sentence.text, str(sentence.lang)
    found = {name for name, by in _OTHER.items() if by[lang].search(reading)}
    if _ends(reading, lang) or _STOP_WORDS[lang].search(reading):
        found.add(_ENDED)
    return frozenset(found)


def _slots(text: str) -> dict[str, frozenset[str]]:
    """The single-valued statuses ``text`` names (``lexicon.STATUS_SLOTS``: engaged, married;
    high school, university), slot by slot."""
    sentence = parse(text)
    reading, lang = sentence.text, str(sentence.lang)
    out = {}
    for slot, by_lang in lex.STATUS_SLOTS.items():
        values = frozenset(v for v, p in by_lang[lang] if re.search(p, reading, re.IGNORECASE))
        if values:
            out[slot] = values
    return out


def _slot_moved(first: str, second: str) -> bool:
    """Both texts name one value of one single-valued status and the values differ (engaged /
    married): a status moved on is another fact (tried in the fifteenth round, kept since the
    sixteenth, when two of the nested drops were engaged / married)."""
    a, b = _slots(first), _slots(second)
    return any(
        len(a[slot]) == len(b[slot]) == 1 and a[slot] != b[slot] for slot in a.keys() & b.keys()
    )


def _past(text: str) -> bool:
    sentence = parse(text)
    if str(sentence.lang) == "ja":
        return _JA_PAST.search(_JA_FRAME.sub("", sentence.text)) is not None
    return _EN_PAST.search(_EN_FRAME.sub("", sentence.text)) is not None


def _future_restated(first: str, second: str) -> bool:
    """One text says as a future (will, 予定) what the other says with no past tense."""
    for plan, other in ((first, second), (second, first)):
        sentence = parse(plan)
        if (
            _FUTURE[str(sentence.lang)].search(sentence.text)
            and status_families(other) == frozenset()
            and not _past(other)
        ):
            return True
    return False


_EN_WORDS = re.compile(r"[a-z]+")


def _past_of(present: str, past: str) -> bool:
    """``past`` is the regular past of the present ``present`` (lives / lived, studies /
    studied, works / worked)."""
    if not present.endswith("s") or present.endswith("ss") or not past.endswith("ed"):
        return False
    stems = {present[:-1], present[:-2] if present.endswith("es") else present[:-1]}
    if present.endswith("ies"):
        stems.add(present[:-3] + "i")
    return any(past in (stem + "d", stem + "ed") for stem in stems if len(stem) >= 3)


def _said_as_past(first: str, second: str) -> bool:
    """An English verb in the present on one side is in the past on the other, word for word
    ("studies … and rents a bedsit" / "studied … and rented a bedsit": a state said as former;
    twentieth round)."""
    a, b = (_EN_WORDS.findall(parse(t).text) for t in (first, second))
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if (
            tag == "replace"
            and i2 - i1 == j2 - j1
            and any(
                _past_of(x, y) or _past_of(y, x) for x, y in zip(a[i1:i2], b[j1:j2], strict=True)
            )
        ):
            return True
    return False


def status_changed(first: str, second: str) -> bool:
    """True when one text holds a family of status words the other does not (but a future
    said as a plan on one side only, the other not in the past), the two name different
    values of one single-valued status, or one verb is said in the present on one side and
    in the past on the other (English ``_said_as_past``, Japanese ``dedup_tense``)."""
    families = status_families(first) ^ status_families(second)
    if families == {_PLANNED} and _future_restated(first, second):
        return _slot_moved(first, second)
    return (
        bool(families)
        or _slot_moved(first, second)
        or _said_as_past(first, second)
        or tense_turned(first, second)
        or aspect_turned(first, second)
    )

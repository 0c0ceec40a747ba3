"""A new memory that tells what already was when the old one was written (pure).

Two caps on the learned judge's close (``judge_signals.JUDGE_CAPS``): the model may not close
the pair, its other two classes decide; a sure rule still closes. Both read a pair whose new
memory tells a past event, where the judge read a past verb beside a present fact as the fact
replaced.

- ``event_before_old_date``: the old memory carries its own date (a consolidated note's
  trailing date in brackets, "… (4 May 2031)", 「…（2031年5月4日）」), and every year the new
  memory names in its body lies before that date's year ("the shop closed down in 2024", "has
  stood in the hall since 2027", 2025年に): an event that had already happened when the old
  memory was written cannot be a change of it since. Left out: an old memory that names a year
  of its own (the year may be the value told again otherwise: "emigrated in 1950" → "in
  1952"), a plan, a wish or a no; a new memory with a present or correcting word anywhere
  ("now", "no longer", "after all", "instead", 今は, もう, 結局), or in its main clause (English:
  up to "when", "after", "because" … or a comma) a no, an end or a change word the old memory
  does not say too ("closed down" beside "has closed down" is the old memory's own).
- ``old_event_told_again`` (English): the old memory holds its fact since an event ("has not
  sung a note since leaving the choir", "quarrelled at the wedding and have not called since"),
  and the new memory's main clause (up to "when", "after", "because", "as", "since", "while",
  "before", "to" or a comma) tells that event again ("left the choir when her hours changed",
  "quarrelled after the toasts …"): its past verb's stem stands in the old memory in a past or
  "-ing" form, or after "since"; every other word of the clause is the old memory's, at least
  one besides the subject; no no, change or present word ("now", "again", "instead"). The new
  memory adds when or why the old event happened; the old fact stands. A Japanese clause has
  no such verb head to read.

Read on the note's body: the trailing dates are no part of the telling. Written from the
statement reading of the notes sets the packaged nets never fitted (``bench/results/
judge46.md``). No I/O; deterministic.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.negation_turn import same_people
from omoide.engine.classify.one_off import undated
from omoide.engine.classify.text import Sentence

__all__ = [
    "DATED_TOLD_FEATURES",
    "dated_told_features",
    "event_before_old_date",
    "old_event_told_again",
]

DATED_TOLD_FEATURES: tuple[str, ...] = ("event_before_old_date", "old_event_told_again")

# A note's own date: the trailing bracketed group, read for its year.
_STAMP = re.compile(r"[(（]([^()（）]*)[)）]\s*$")
_YEAR = {
    "en": re.compile(r"(?<![\d-])((?:19|20)\d\d)(?![\d-])"),
    "ja": re.compile(r"(?<!\d)((?:19|20)\d\d)年"),
}
# A word that makes the new memory more than a past event told: the present, a correction, a
# turn (ends, changes and nos are read by the lexicon and the parser).
_NOW = {
    "en": re.compile(
        r"\b(?:now|nowadays|these days|no longer|anymore|any more|after all|instead|again"
        r"|actually|turned out|first time|still)\b"
    ),
    "ja": re.compile(r"今は|今では|いまは|もう|結局|実は|初めて|やっぱり|再び|また"),
}
_NO = {
    "en": re.compile(r"\b(?:not|never|no|none|nothing)\b|n't\b"),
    "ja": re.compile(r"ない|なかった|ません|ず[、。に]|一度も"),
}
_PLAN = {
    "en": re.compile(
        r"\b(?:plans?|planning|going to|intends?|wants? to|hopes? to|would like|will)\b"
    ),
    "ja": re.compile(r"予定|つもり|たい|計画|しよう"),
}

# The end of an English main clause: a connective of time, reason or purpose, or a comma.
_EN_CLAUSE_END = re.compile(r"\s(?:when|after|because|as|since|while|before|so that|to)\s|[,;:]")
_EN_PAST_VERB = re.compile(r"\b([a-z]{3,})ed\b")
# Common irregular pasts, by the stem their other forms share ("left" beside "leaving").
_EN_IRREGULAR_PAST: dict[str, str] = {
    "left": "leav",
    "met": "meet",
    "took": "tak",
    "got": "get",
    "began": "begin",
    "bought": "buy",
    "sold": "sell",
    "found": "find",
    "won": "win",
    "lost": "los",
    "quit": "quit",
    "gave": "giv",
    "made": "mak",
    "broke": "break",
    "fell": "fall",
}
# The old memory holds its present fact since some event.
_SINCE = re.compile(r"\bsince\b")
# The old memory tells the event: its verb in a past or "-ing" form, or after "since".
_EN_OLD_FORM = r"\b{stem}\w*(?:ed|ing)\b|\b(?:since|after) {stem}"
# Words of no content in the main clause.
_EN_FILLER = lex.word_set(
    "the a an her his their my our its with and of from up out off apart away back down at in on"
)


def _stamp_year(sentence: Sentence) -> int | None:
    """The year of the memory's own trailing date, if it carries one."""
    match = _STAMP.search(sentence.text)
    if match is None:
        return None
    years = _YEAR[sentence.lang].findall(match.group(1))
    return int(years[0]) if len(years) == 1 else None


def _body_years(sentence: Sentence) -> list[int]:
    """The years the memory names outside its trailing date."""
    return [int(y) for y in _YEAR[sentence.lang].findall(undated(sentence).text)]


def _main_clause(sentence: Sentence) -> str:
    """The memory's main clause: English up to its first connective of time, reason or purpose
    (or comma); Japanese the whole memory."""
    if sentence.lang != "en":
        return sentence.text
    return _EN_CLAUSE_END.split(sentence.text, maxsplit=1)[0]


def _more_than_told(old: Sentence, new: Sentence) -> bool:
    """A present or correcting marker anywhere in the new memory, or in its main clause a no,
    an end or a change word the old memory does not hold too ("closed down" beside "has closed
    down" is the old memory's own)."""
    lang = new.lang
    if _NOW[lang].search(new.text) is not None:
        return True
    main = _main_clause(new)
    if _NO[lang].search(main) is not None:
        return True
    for pattern in (lex.STOPPED[lang], lex.CHANGE[lang]):
        for match in re.finditer(pattern, main):
            if match.group(0).strip() and match.group(0).strip() not in old.text:
                return True
    return False


def event_before_old_date(old: Sentence, new: Sentence) -> bool:
    """Whether every year the new memory names lies before the old memory's own date
    (docstring)."""
    if old.lang != new.lang:
        return False
    year = _stamp_year(old)
    if year is None:
        return False
    told = _body_years(new)
    if not told or max(told) >= year or _body_years(old):
        return False
    body_old, body_new = undated(old), undated(new)
    if body_old.negative or _PLAN[old.lang].search(body_old.text) is not None:
        return False
    return not _more_than_told(body_old, body_new)


def _stem(word: str) -> str:
    return word[:5] if len(word) > 5 else word


def old_event_told_again(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory's main clause is a past event the old memory already tells as
    the start of its present fact (docstring)."""
    if old.lang != "en" or new.lang != "en":
        return False
    old, new = undated(old), undated(new)
    if not same_people(old, new) or _PLAN["en"].search(old.text) or not _SINCE.search(old.text):
        return False
    if _NOW["en"].search(new.text):
        return False
    head = _main_clause(new)
    if _NO["en"].search(head) or re.search(lex.CHANGE["en"], head):
        return False
    words = [w for w in re.findall(r"[\w£$%'-]+", head) if w not in _EN_FILLER]
    verb = next((w for w in words if w in _EN_IRREGULAR_PAST or _EN_PAST_VERB.fullmatch(w)), None)
    if verb is None:
        return False
    stem = _EN_IRREGULAR_PAST.get(verb) or _stem(verb[:-2])
    if re.search(_EN_OLD_FORM.format(stem=re.escape(stem)), old.text) is None:
        return False
    held = {_stem(w) for w in re.findall(r"[\w£$%'-]+", old.text)}
    rest = [w for w in words if w != verb and w.removesuffix("'s") not in (old.owner, "user")]
    return bool(rest) and all(_stem(w) in held for w in rest)


def dated_told_features(old: Sentence, new: Sentence) -> list[float]:
    """The DATED_TOLD_FEATURES row of a pair."""
    return [float(event_before_old_date(old, new)), float(old_event_told_again(old, new))]

"""The old memory's present fact said again with a no: "takes statins" → "does not take
statins"; 眼鏡をかけている → 眼鏡をかけていない (pure).

**Trigger** (``now_negated``). The old memory states a present fact with no negation, no past,
no former frame and no amount (``former_state.old_is_present``); the new memory says no in a
clause that says every topic word of the old memory again and adds none of its own (not the
narrower "doesn't eat white bread" against "eats bread") and no amount; not a limit ("no more
than", 満たない); no plan, wish, condition or pursuit ("will", "if", 予定, に向けて). One owner,
no person in the new subject the old one lacks, and no link of the new subject the old one
lacks ("The user's co-author …"). "No longer" / もう…ない is ``former_state``'s (a former frame
keeps this reading off, so the two never both fire).

**Why.** A flat negation of the same predicate on the same thing ("The user's gym allows
dogs" → "… does not allow dogs") was left open by the judge when its wording moved (C 0.13–0.87
under the EN 0.91 threshold, round 23's leave-one-writer-out). The mirror, a "never" turned
round ("has never tried oysters" → "now eats oysters every Sunday"), is the note reader's
(``note_flip`` through ``note_shapes``); a looser reading of it here was measured and left out
(``bench/results/classify_round24_sure.md``).

**Outcome.** ``now_negated`` is 1 for such a pair: a sure close the model does not weigh
(``judge_signals.SURE_ONLY``); the judge's vetoes and subject check still win. No I/O.
"""

from __future__ import annotations

import re

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify.former_state import NOT_MADE, former_frame, old_is_present, said_in
from omoide.engine.classify.signals import EN_GENERIC
from omoide.engine.classify.subject import new_person_in_subject, subject_chain
from omoide.engine.classify.text import Sentence, parse

__all__ = [
    "CLAUSE",
    "NEGATION_TURN_FEATURES",
    "negation_turn_features",
    "now_negated",
    "same_people",
    "topic_words",
]

NEGATION_TURN_FEATURES: tuple[str, ...] = ("now_negated",)

# An explicit "no" (``Sentence.text`` is lower case, with "n't" written "not").
_NO = {
    "en": re.compile(r"\bnot\b|\bnever\b|\bno\b|\bnone\b|\bnothing\b|\bwithout\b"),
    "ja": re.compile(r"ない|なかった|ません|ず[、。に]|ずに|ておらず|なく"),
}
# A limit, not a no ("no more than a fortnight", 30万円に満たない, 1時間かからない).
_LIMIT = {
    "en": re.compile(
        r"\bno (?:more|less|later|earlier|longer) than\b|\bnot (?:more|less)"
        r" than\b|\bnot only\b|\bnot just\b|\bnot even\b"
    ),
    "ja": re.compile(r"満たない|かからない|以上|以下|以内|未満|だけでなく|しか"),
}
# Words of a no that name nothing ("never once", "not yet", 一度も, まだ).
_NO_FILLER = {
    "en": re.compile(
        r"\b(?:yet|ever|once|single|even|at all|any|in (?:his|her|their|my)"
        r" life)\b"
    ),
    "ja": re.compile(r"一度も|一回も|まだ|全く|まったく|一切|ほとんど"),
}
_JA_RUN = re.compile(r"[\u3400-\u9fff々\u30a0-\u30ffー]")
CLAUSE = {
    "en": re.compile(
        r"[,;:]|(?=\b(?:since|after|because|and|but|so|when|before|until"
        r"|though|although|while)\b)"
    ),
    "ja": re.compile(r"[、，,;；。]|が、"),
}


def now_negated(old: Sentence, new: Sentence) -> bool:
    """Whether the new memory says no to the old memory's present fact as it stands (see the
    module docstring)."""
    lang = new.lang
    if not same_people(old, new) or old.negative or not new.negative or _unsure(new):
        return False
    if not old_is_present(old) or former_frame(new) or old.quantities:
        return False
    clause = _no_clause(new)
    if clause is None or _LIMIT[lang].search(clause):
        return False
    said = parse(_NO_FILLER[lang].sub(" ", clause), lang)
    topic = topic_words(old)
    if not topic or said.quantities or not all(_named(u, said) for u in topic):
        return False
    return all(said_in(u, old) for u in topic_words(said))


def same_people(old: Sentence, new: Sentence) -> bool:
    """One owner, and no person or link in the new subject that the old one lacks."""
    if old.owner != new.owner or new_person_in_subject(old, new):
        return False
    return set(subject_chain(new)) <= set(subject_chain(old)) | {"user"}


def _unsure(sentence: Sentence) -> bool:
    """A plan, a wish, a condition or a pursuit: nothing said as done or held."""
    return (
        NOT_MADE.search(sentence.text) is not None
        or re.search(lex.PURSUIT[sentence.lang], sentence.text) is not None
    )


def _no_clause(sentence: Sentence) -> str | None:
    """The first clause of the sentence that says no."""
    parts = [c for c in CLAUSE[sentence.lang].split(sentence.text) if c.strip()]
    return next((c for c in parts if _NO[sentence.lang].search(c)), None)


def topic_words(sentence: Sentence) -> list[str]:
    """The sentence's topic units, generic verbs and stems left out."""
    generic = lex.JA_GENERIC_STEMS if sentence.lang == "ja" else EN_GENERIC
    return [u for u in sentence.content if u not in generic]


def _named(unit: str, sentence: Sentence) -> bool:
    """A topic unit said in ``sentence`` (``former_state.said_in``); a Japanese unit not as the
    tail of a longer word (車 is not said by 自転車)."""
    if sentence.lang != "ja":
        return said_in(unit, sentence)
    text = sentence.text
    start = text.find(unit)
    while start >= 0:
        if start == 0 or not _JA_RUN.match(text[start - 1]):
            return True
        start = text.find(unit, start + 1)
    return False


def negation_turn_features(old: Sentence, new: Sentence) -> list[float]:
    """The NEGATION_TURN_FEATURES row of a pair."""
    return [float(now_negated(old, new))]

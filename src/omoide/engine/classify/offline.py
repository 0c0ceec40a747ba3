"""Offline 3-op classifier: rules over English and Japanese cues, no model, no network (pure).

The default engine when no LLM is configured. Each pair goes through an ordered list of
signals (``signals``): first the ones that show the two memories are about
different people or different things (INDEPENDENT), then the cues of a change
(CONTRADICTORY), then the ones that show added detail (EXTENDABLE); nothing firing means
INDEPENDENT. A wrong CONTRADICTORY closes a memory that is still true, so every
contradiction signal needs both a cue and a shared topic, and an old memory about a finished
past occasion is never contradicted. Candidate similarity is not used: it comes from
whichever embedder is configured, on its own scale. No I/O, no clock: deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from omoide.engine.classify import change as change
from omoide.engine.classify import signals as sig
from omoide.engine.classify.base import Candidate, PassageVectors, Relation, Verdict
from omoide.engine.classify.compound import sentence_count
from omoide.engine.classify.frame import unframe
from omoide.engine.classify.note_close import claims as note_claims
from omoide.engine.classify.note_close import note_verdict
from omoide.engine.classify.one_slot import state_replaced
from omoide.engine.classify.text import Sentence, languages_differ, parse
from omoide.engine.classify.turn import amount_moved

__all__ = [
    "CROSS_LANGUAGE",
    "SIGNAL_NAMES",
    "UNRELATED",
    "OfflineClassifier",
    "classify_pair",
    "decide",
    "one_statement",
]

Signal = Callable[[Sentence, Sentence], sig.Finding | None]

# Order matters: the first signal that fires decides.
_SUBJECT: tuple[Signal, ...] = (sig.different_subject,)
_CONTRADICTION: tuple[Signal, ...] = (
    change.stopped,
    change.resumed,
    change.moved,
    change.quantity_changed,
    change.stance_flip,
    change.status_changed,
    change.favorite_changed,
    change.completed,
    change.switched,
    change.replaced,
    state_replaced,
    amount_moved,
)
_BEFORE_DETAIL: tuple[Signal, ...] = (
    sig.already_ended,
    sig.detail_about_mentioned,
    sig.about_old_thing,
    sig.second_item,
    sig.different_occasion,
    sig.narrower,
    sig.different_kind,
)
# A new memory that repeats at least half of the old one's topic words either adds detail or
# merely restates it. Half, because a detail often rephrases part of the old memory
# ("is a fan of Kurosawa films" → "favourite Kurosawa film is …").
_DETAIL: tuple[Signal, ...] = (
    partial(sig.adds_detail, min_coverage=0.5),
    partial(sig.restates, min_coverage=0.5),
)

CROSS_LANGUAGE = sig.Finding(Relation.INDEPENDENT, 0.3, "different languages: not compared offline")
# The rules' reading when no signal fires (``decide``): nothing shared, nothing changed.
UNRELATED = "unrelated"
_UNRELATED = sig.Finding(Relation.INDEPENDENT, 0.6, "no shared topic or change cue")
_PAST_NOTE = " (the old memory is a past occasion)"


def classify_pair(old: str, new: str, *, lang: str = "auto") -> tuple[Relation, float, str]:
    """Judge ``new`` against ``old``: (relation, confidence 0..1, short reason).

    ``lang`` is "en", "ja" or "auto" (detected per memory). A pair in two different languages
    is left INDEPENDENT: the rules compare words, and words do not cross languages.
    """
    if languages_differ(old, new, lang):
        return CROSS_LANGUAGE.relation, CROSS_LANGUAGE.confidence, CROSS_LANGUAGE.reason
    _, finding = decide(parse(unframe(old, lang), lang), parse(unframe(new, lang), lang))
    return finding.relation, finding.confidence, finding.reason


def _name(signal: Signal) -> str:
    return signal.func.__name__ if isinstance(signal, partial) else signal.__name__


# Every signal by name, in decision order, then the fall-through; the learned judge
# (``features``) one-hot encodes which one decided.
SIGNAL_NAMES: tuple[str, ...] = (
    *(_name(s) for s in _SUBJECT + _CONTRADICTION + _BEFORE_DETAIL + _DETAIL),
    UNRELATED,
)


def decide(old: Sentence, new: Sentence) -> tuple[str, sig.Finding]:
    """The first signal that fires, by name (one of ``SIGNAL_NAMES``), and its finding."""
    signals = list(_SUBJECT)
    if not old.past_occasion:
        signals += _CONTRADICTION
    signals += _BEFORE_DETAIL + _DETAIL
    for signal in signals:
        finding = signal(old, new)
        if finding is not None:
            return _name(signal), finding
    if old.past_occasion:
        return UNRELATED, sig.Finding(Relation.INDEPENDENT, 0.6, _UNRELATED.reason + _PAST_NOTE)
    return UNRELATED, _UNRELATED


def one_statement(new: str, lang: str = "auto") -> bool:
    """Whether ``new`` may close another memory: a memory of one sentence. A note of several
    sentences (a consolidated chat turn: "Florian won't quit. Uma's words keep him going.") holds
    many statements, and the rules and the judge, built on one-statement facts, read a cue of
    one of them as a change of the whole; measured on consolidated conversation notes, nearly
    every such CONTRADICTORY was false. Its neighbours are linked and extended as ever; the
    learned judge may still close one through a single sentence read alone
    (``learned.judge_note``), the rules alone never do."""
    return sentence_count(new, lang) <= 1


class OfflineClassifier:
    """The ``Classifier`` protocol over ``classify_pair``; candidate similarity is ignored."""

    def classify(
        self,
        new: str,
        candidates: list[Candidate],
        *,
        lang: str = "auto",
        note: bool = False,
        known: PassageVectors | None = None,
    ) -> list[Verdict]:
        """One verdict per candidate, in the candidates' order; a consolidated ``note`` is
        CONTRADICTORY only through a sure shape of ``note_close`` (the rules' other signals have
        no measured bar for notes). ``known`` is unused: the rules embed nothing."""
        verdicts = []
        may_contradict = one_statement(new, lang) and not note
        after = note_claims(new, lang) if note and candidates else []
        for candidate in candidates:
            relation, confidence, reason = classify_pair(candidate.content, new, lang=lang)
            if relation is Relation.CONTRADICTORY and not may_contradict:
                why = "a note" if note else "several statements"
                relation, confidence, reason = (
                    Relation.EXTENDABLE,
                    0.5,
                    f"{why}: no change is sure",
                )
            sure = (
                note_verdict(candidate, after, lang)
                if (note and reason != CROSS_LANGUAGE.reason)
                else None
            )
            verdicts.append(
                sure if sure is not None else Verdict(candidate.key, relation, confidence, reason)
            )
        return verdicts

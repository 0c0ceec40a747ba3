"""The learned judge on a consolidated note of one sentence: held to the notes' own bar (pure).

A note of one sentence ("The user moved to Leeds. (8 May 2026)") is read by the judge as a
statement is, and its verdict stands unless it is CONTRADICTORY by probability: then the
judge must be sure of the pair read both ways, as written and without the two notes' trailing
dates (``compound.undated``), at the note threshold of the pair's language
(``NOTE_THRESHOLDS``). A date suffix reads to the text signals as a changed number and to the
cosines as a changed part, so a close only one of the readings believes is left open. The
judge's sure rules and vetoes decide as on statements. Below the bar the verdict is the judge's
likelier of INDEPENDENT / EXTENDABLE, as before.

Chosen on the notes folds ``classify_notes11`` … ``classify_notes16`` by ``bench/note_path.py``:
per language the lowest threshold from which the closes this path adds to the note rules keep
precision ≥ 0.99 all the way up (leave-one-set-out for the held-out numbers, then on all six;
``bench/results/note_path_round25.md``). The statements' thresholds (0.92 / 0.80) closed true
facts on notes (six of 26 Japanese closes on one writer). Several-sentence notes are unchanged
(``learned.judge_note``). Checked again in session 31 (``bench/results/note_bar_s31.md``): pair
by pair a lower English bar held out, but end to end it also closed other memories of the store
(a neighbouring fact of the same domain), so the bar stayed. In the languages whose bar is
read undated alone (``UNDATED_ONLY``, session 32) the undated reading also decides a pair the
written one left under the statements' threshold by probability (``reads_undated``, session 33,
``bench/results/classify_notes33.md``). A lower bar for a replaced value
(``NOTE_REPLACED_THRESHOLDS``, Japanese, the nearest candidate only) closes a replaced value
under the note bar (session 33). No I/O.
"""

from __future__ import annotations

import math

from omoide.engine.classify.base import Relation
from omoide.engine.classify.features import PairText, Similarities
from omoide.engine.classify.judge_signals import (
    judge_capped,
    nothing_differs,
    pair_lang,
    retold,
    value_replaced,
    vetoed,
)
from omoide.engine.classify.learned import Judge, Judgement, judge, sentence_score
from omoide.engine.classify.offline import UNRELATED

__all__ = [
    "NOTE_NEAREST_LEAD",
    "NOTE_NEAREST_THRESHOLDS",
    "NOTE_REPLACED_THRESHOLDS",
    "NOTE_THRESHOLDS",
    "UNDATED_ONLY",
    "judge_one_note",
    "leads",
    "needs_undated",
    "reads_undated",
]

# The judge's CONTRADICTORY probability a one-sentence note needs, per language, in both
# readings (as written, undated), or in the undated one alone (``UNDATED_ONLY``).
NOTE_THRESHOLDS: dict[str, float] = {"en": 0.99, "ja": 0.94}

# A lower bar of a language for a note the judge reads as EXTENDABLE where the rules read the
# undated pair as related and a value of the old memory replaced (``replaced_note``), for the
# candidate nearest the note only: the note path's counterpart of
# ``JudgeModel.replaced_thresholds`` (session 33, ``bench/note_replaced.py``,
# ``bench/results/classify_notes_replaced33.md``). Japanese only: the English bar the rule chose
# (0.60) closed gold EXTENDABLE pairs end to end (0.81 of its closes right on notes22-28).
NOTE_REPLACED_THRESHOLDS: dict[str, float] = {"ja": 0.50}

# A lower bar of a language for the candidate nearest the note, when that candidate leads the
# next one by ``NOTE_NEAREST_LEAD`` of raw cosine (``leads``), read as the notes' bar is
# (undated in an ``UNDATED_ONLY`` language, else both readings). The notes' bar keeps the judge
# off every candidate because a lower bar also closed neighbouring facts of the store (session
# 31, ``bench/results/note_bar_s31.md``); those closes fell on a nearest memory barely ahead of
# another of the same domain, the note about the domain rather than one memory. Chosen end to
# end on notes22-33 by ``bench/note_nearest.py`` (session 36, ``bench/results/classify_en36.md``):
# per lead the lowest bar from which the closes' C precision keeps a Wilson bound (z = 1) of
# 0.95, the lead with the most true closes. English only: Japanese was not measured. A note
# that tells the old fact again in a frame of the past (``judge_signals.retold``: an earlier
# period, its start or length, one occurrence of the habit) is kept from this bar (session 37,
# ``bench/results/classify_en37.md``): session 36's false closes were of that kind.
NOTE_NEAREST_THRESHOLDS: dict[str, float] = {"en": 0.90}
NOTE_NEAREST_LEAD = 0.02

# The languages whose bar is read on the undated pair alone (session 32,
# ``bench/results/classify_notes32.md``): two different note dates lower the judge's
# probability of a true change more often than they raise a false one's, so in English the
# written reading held back closes the undated one was right about. Japanese keeps both.
UNDATED_ONLY: frozenset[str] = frozenset({"en"})


def needs_undated(verdict: Judgement) -> bool:
    """Whether the judge's statement verdict on a one-sentence note is a close by probability
    (not by a sure rule), which the undated reading must confirm."""
    return verdict.relation is Relation.CONTRADICTORY and not verdict.reason.startswith("rule: ")


def reads_undated(verdict: Judgement, text: PairText) -> bool:
    """Whether a one-sentence note's verdict against one memory is read again undated: a close
    by probability (``needs_undated``) in every language; in an ``UNDATED_ONLY`` language also
    any other verdict of the model's probability on a pair it may close (no sure rule decided,
    no veto, cap or wording-only difference), since the two dates can hold the written
    probability under the statements' threshold too (session 33,
    ``bench/results/classify_notes33.md``)."""
    if needs_undated(verdict):
        return True
    return (
        pair_lang(text) in UNDATED_ONLY
        and verdict.relation is not Relation.CONTRADICTORY
        and not verdict.reason.startswith("rule: ")
        and not (vetoed(text) or nothing_differs(text) or judge_capped(text))
    )


def judge_one_note(
    written: tuple[PairText, Similarities | None],
    plain: tuple[PairText, Similarities | None] | None,
    model: Judge,
    *,
    verdict: Judgement | None = None,
    nearest: bool = True,
    clear: bool = True,
) -> Judgement:
    """The verdict for a consolidated note of one sentence against one old memory: ``written``
    the pair as stored, ``plain`` the same pair read ``undated`` (needed only when
    ``reads_undated``; None reads as not sure). The judge's verdict on ``written`` as a
    statement (``verdict``, when the caller has it already), except that a close by
    probability needs ``NOTE_THRESHOLDS`` in both readings, or in an ``UNDATED_ONLY`` language
    in the undated one alone, which may then close a pair the written reading left open; under
    it, the language's ``NOTE_REPLACED_THRESHOLDS`` closes a replaced value (``replaced_note``)
    when the candidate is the one ``nearest`` the note, and ``NOTE_NEAREST_THRESHOLDS`` closes
    the nearest when it also stands ``clear`` of the next candidate (``leads``) and the note
    does not tell the old fact again in a frame of the past (``retold``)."""
    text, sims = written
    verdict = verdict if verdict is not None else judge(text, sims, model)
    if not reads_undated(verdict, text):
        return verdict
    if plain is None:
        return judge(text, sims, model, may_contradict=False)
    lang = pair_lang(text)
    sure = sentence_score(*plain, model)
    if lang not in UNDATED_ONLY:
        sure = min(sentence_score(text, sims, model), sure)
    read = "undated" if lang in UNDATED_ONLY else "both readings"
    if sure >= NOTE_THRESHOLDS[lang]:
        return Judgement(
            Relation.CONTRADICTORY,
            round(sure, 4),
            f"note: {verdict.reason} ({read} ≥ {NOTE_THRESHOLDS[lang]:.2f})",
        )
    nearer = NOTE_NEAREST_THRESHOLDS.get(lang, math.inf)
    if nearest and clear and sure >= nearer and not retold(text):
        return Judgement(
            Relation.CONTRADICTORY,
            round(sure, 4),
            f"note: {verdict.reason}; the nearest ({read} ≥ {nearer:.2f})",
        )
    held = judge(text, sims, model, may_contradict=False)
    bar = NOTE_REPLACED_THRESHOLDS.get(lang, math.inf)
    if nearest and sure >= bar and replaced_note(held, plain[0]):
        return Judgement(
            Relation.CONTRADICTORY,
            round(sure, 4),
            f"note: {held.reason}; a value replaced ({read} ≥ {bar:.2f})",
        )
    return held


def leads(similarities: list[float]) -> bool:
    """Whether the nearest of a note's candidates (their similarities, raw cosine) leads the
    next by ``NOTE_NEAREST_LEAD``; one candidate alone leads.

    >>> leads([0.91, 0.88]), leads([0.91, 0.90]), leads([0.9])
    (True, False, True)
    """
    ranked = sorted(similarities, reverse=True)
    return len(ranked) < 2 or ranked[0] - ranked[1] >= NOTE_NEAREST_LEAD


def replaced_note(held: Judgement, plain: PairText) -> bool:
    """Whether a note the judge did not close reads as a replaced value: the judge's likelier
    of the other two is EXTENDABLE, and on the undated pair (the notes' dates are no value) the
    rules read the two as related and a value of the old memory replaced (``value_replaced``)."""
    return (
        held.relation is Relation.EXTENDABLE and plain.rule != UNRELATED and value_replaced(plain)
    )

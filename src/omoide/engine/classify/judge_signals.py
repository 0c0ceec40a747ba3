"""The rule signals around the learned judge (pure): which text features only veto a close
(``VETO_FEATURES``), only close (``SURE_ONLY``, with the subject check), only cap the model
(``JUDGE_CAPS``) or only turn its INDEPENDENT into EXTENDABLE (``EXTEND_ONLY``), and the
predicates ``judge`` (``engine/classify/learned.py``) and training read them through. The judge
does not weigh these features; training leaves them out of every feature set. No I/O.
"""

from __future__ import annotations

from omoide.engine.classify.dated_told import DATED_TOLD_FEATURES
from omoide.engine.classify.features import TEXT_FEATURES, PairText
from omoide.engine.classify.ja_told import JA_TOLD_FEATURES

__all__ = [
    "EXTEND_ONLY",
    "JUDGE_CAPS",
    "NOTE_NEAREST_GUARDS",
    "SURE_ONLY",
    "VETO_FEATURES",
    "VETO_ONLY",
    "amount_left_alone",
    "another_persons_fact",
    "extends",
    "judge_capped",
    "nothing_differs",
    "pair_lang",
    "retold",
    "rule_decides",
    "sure_close",
    "sure_reason",
    "value_replaced",
    "vetoed",
]


_SUBJECT_DIFFERS = TEXT_FEATURES.index("subject_differs")
_NEGATION_FLIP = TEXT_FEATURES.index("negation_flip")
_OTHER_PERSON_ALONE = TEXT_FEATURES.index("other_person_alone")
_AMOUNT_UNTOUCHED = TEXT_FEATURES.index("amount_untouched")
_LANG_JA = TEXT_FEATURES.index("lang_ja")
_NAME_SWAPPED = TEXT_FEATURES.index("name_swapped")
# Text features that only veto: the judge does not weigh them (training leaves them out of
# every feature set): a cleft that presupposes the old fact and tells why
# (``backstory.reason_presupposed``); two things of one kind named by identifiers in the
# subject (``ident.two_identified_things``); another value told in an earlier period of life
# beside the old present fact (``earlier_period.earlier_period_other_value``).
# The old memory's negated act told in the new one only of another person ("doesn't drink" /
# "booked a table for a friend who drinks", ``others_act.negated_act_of_other``, round 26):
# the judge and the note reader's diet turn both closed such pairs.
# Two people's own facts, neither naming the other's person (``subject.two_people_apart``,
# session 35): a close there hides a neighbour's true fact.
VETO_ONLY: tuple[str, ...] = (
    "reason_presupposed",
    "two_identified_things",
    "earlier_period_other_value",
    "negated_act_of_other",
    "two_people_apart",
)
# Text features that only close: a change told from a value the old memory states to one it
# does not (``from_to.changed_from_old``). The judge does not weigh them either; on the seen
# training sources (session 18: the pairs, 26 writers, 10 notes sets, each sentence of a note
# also read alone) it fires on 21 pairs, all CONTRADICTORY
# (``bench/classify_veto_fires.py --signal changed_from_old``). The old memory's present
# value said again as a former state, "used to smoke" / "no longer smokes" against "smokes"
# (``former_state.former_same_value``, round 23c): 18 seen pairs, all CONTRADICTORY. A change
# the note path is sure of, read on a one-statement pair: an end, a plan called off or done, a
# "never" turned round, a state with another value (``note_shapes.note_shape_close``, round
# 24); the old present fact said again with a no (``negation_turn.now_negated``); the old
# fact told ended later in the sentence (``habit_end.habit_ended``). On round 23's nested
# leave-one-writer-out the three fire on 555 writers' pairs, all CONTRADICTORY. The old
# statement said again with one single-valued slot's value swapped
# (``value_swap.value_swapped``, round 25): 317 seen pairs (whole or a note's sentence),
# all CONTRADICTORY (``bench/results/classify_round25.md``). The old statement said again with
# its one amount changed (``amount_swap.amount_swapped``, session 26;
# ``bench/results/classify_val26.md``).
# A name or form of address said again with another value (``name_swap.name_swapped``) or told
# changed to one the old memory does not hold (``name_change.name_changed_to``), session 35:
# on every seen classify set but the names set they were read from, 2 and 0 fires, all
# CONTRADICTORY (``bench/results/classify_names35.md``).
SURE_ONLY: tuple[str, ...] = (
    "changed_from_old",
    "former_same_value",
    "note_shape_close",
    "now_negated",
    "habit_ended",
    "value_swapped",
    "amount_swapped",
    "name_swapped",
    "name_changed_to",
)
# Text features that cap the judge only: a sure rule still closes, the model may not. One
# occasion told beside a habit (``one_off.one_off_beside_habit``, round 25b); round 26's, each
# kept for removing more false closes than true ones on sources it was not written from
# (``bench/results/classify_prec26.md``): one occasion counted once beside a present fact,
# an occasion years back beside a present fact or plan (``one_off``), one more of a kind told
# as an addition (``addition.another_added``), the old fact said again with a reason, or how
# long the old state has held (``reason_told``). Session 43 (``bench/results/judge43.md``): a
# detail of the thing the old memory names, named as known, and what is done instead of a
# thing the old memory says is not done (``detail_told``; on the training sources the English
# net never saw, 7 false closes removed and no right one lost). Session 44
# (``bench/results/judge44.md``): a mishap on one occasion beside a present fact, an earlier
# occasion beside a plan placed ahead, a thing bought for a plan (``occasion_told``).
# Session 45 (``bench/results/judge45.md``): Japanese only, an occasion counted once, a thing
# nearly done, the old fact's origin, its duration, the old plan dated, the old thing told
# bought, the user's relative's own doing (``ja_told``; on the training sources the Japanese
# net never fitted, 9 false closes removed and no right one lost).
# Session 46 (``bench/results/judge46.md``): an event the new memory dates before the old
# memory's own date, and the old memory's starting event told again (``dated_told``); and the
# notes' guard ``retold_in_frame`` (the old fact told again in a frame of the past) caps the
# judge on statements too, where a note's own bar had kept such pairs open.
JUDGE_CAPS: tuple[str, ...] = (
    "one_off_beside_habit",
    "once_beside_state",
    "long_ago_beside_present",
    "another_added",
    "reason_for_old_fact",
    "duration_of_old_state",
    "detail_of_old_thing",
    "alternative_to_refused",
    "mishap_on_one_occasion",
    "earlier_occasion_beside_plan",
    "bought_for_plan",
    *JA_TOLD_FEATURES,
    "retold_in_frame",
    *DATED_TOLD_FEATURES,
)
_CAP_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in JUDGE_CAPS)


# Text features that only move the judge's INDEPENDENT to EXTENDABLE: the new memory is about
# a thing the old one names (``subject.subject_named_before``, session 32). The judge does not
# weigh them; they never close and never keep a close from happening, and a sure or deciding
# rule's verdict stands.
# The new memory tells the old memory's name again, with where it came from, who uses it or
# why (``name_told.old_name_told``, session 35).
EXTEND_ONLY: tuple[str, ...] = ("new_subject_named", "old_name_told")
_EXTEND_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in EXTEND_ONLY)


def extends(text: PairText) -> bool:
    """Whether a pair the judge calls INDEPENDENT is EXTENDABLE all the same (an
    ``EXTEND_ONLY`` signal is set)."""
    return any(text.features[i] for i in _EXTEND_COLUMNS)


def judge_capped(text: PairText) -> bool:
    """Whether the model may not close the pair (a ``JUDGE_CAPS`` signal is set); a sure rule
    and a deciding rule still may."""
    return any(text.features[i] for i in _CAP_COLUMNS)


# Text features that only keep a one-sentence note's nearest candidate under the notes' own
# bar (``note_judge.NOTE_NEAREST_THRESHOLDS``): the note tells the old fact again in a frame of
# the past, an earlier period, its start or length, one occurrence of the habit
# (``note_retold.retold_in_frame``, session 37, ``bench/results/classify_en37.md``). On every
# seen English classify pair (notes1-34, holdout2-55) it fires on no gold CONTRADICTORY pair.
# The judge does not weigh it. Since session 46 it is a ``JUDGE_CAPS`` signal too (so no bar
# closes such a pair by probability; the sure rules still close).
NOTE_NEAREST_GUARDS: tuple[str, ...] = ("retold_in_frame",)
_GUARD_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in NOTE_NEAREST_GUARDS)


def retold(text: PairText) -> bool:
    """Whether a note's pair is kept from the nearest candidate's lower bar (a
    ``NOTE_NEAREST_GUARDS`` signal is set)."""
    return any(text.features[i] for i in _GUARD_COLUMNS)


# The text features that each veto a close (``vetoed``), one list for the server and training.
VETO_FEATURES: tuple[str, ...] = ("other_person_alone", "amount_untouched", *VETO_ONLY)
_VETO_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in VETO_FEATURES)
_SURE_COLUMNS = tuple(TEXT_FEATURES.index(name) for name in SURE_ONLY)


def sure_close(text: PairText) -> bool:
    """Whether the pair closes whatever the model says: a ``SURE_ONLY`` signal is set and both
    memories are about one subject ("Ken switched from tea to coffee" does not close "Yumi
    drinks tea"). Vetoes still win (``judge``)."""
    return any(text.features[i] for i in _SURE_COLUMNS) and not text.features[_SUBJECT_DIFFERS]


_SURE_REASONS = {
    "changed_from_old": "changed from the old value to another",
    "former_same_value": "the old value said as a former state",
    "note_shape_close": "a change the note reader is sure of",
    "now_negated": "the old fact said again with a no",
    "habit_ended": "the old fact told ended",
    "value_swapped": "the old statement again with one value swapped",
    "amount_swapped": "the old statement again with its amount changed",
    "name_swapped": "the old statement again with another name or form of address",
    "name_changed_to": "the old name or form of address told changed to another",
}


def sure_reason(text: PairText) -> str:
    """The reason a sure close gives: the first ``SURE_ONLY`` signal set."""
    name = next(n for n, i in zip(SURE_ONLY, _SURE_COLUMNS, strict=True) if text.features[i])
    return _SURE_REASONS[name]


def rule_decides(text: PairText, overrides: tuple[str, ...]) -> bool:
    """Whether the rules' verdict stands without the model: a rule in ``overrides`` decided
    about one subject (when the memories are about two subjects, "Ken lives in Tokyo" / "Yumi
    moved to Osaka", the model weighs it), or only a measured number changed."""
    if _only_a_number_changed(text):
        return True
    return text.rule in overrides and not text.features[_SUBJECT_DIFFERS]


def _only_a_number_changed(text: PairText) -> bool:
    """The same statement with another value of the same measured unit ("has 2 dogs" → "has
    3 dogs"): nothing else differs, not even a number the quantity reader does not parse, so
    there is nothing for the model to weigh. (An id such as an order number is no measured
    unit, so two orders never get here.)"""
    if text.rule != "quantity_changed":
        return False
    values = dict(zip(TEXT_FEATURES, text.features, strict=True))
    return (
        values["coverage"] == 1.0 and values["reverse_coverage"] == 1.0 and text.values_changed <= 1
    )


def nothing_differs(text: PairText) -> bool:
    """Whether the two memories differ in wording only: neither says a content word the other
    lacks (``PairText.old_part`` / ``new_part``), no written value changed and no negation
    flipped ("User lives in Sapporo." saved again, or as "The user lives in Sapporo."). Such a pair
    cannot contradict, whatever the model's probability: no training pair is one, and the
    judge read them as CONTRADICTORY at 0.73–0.94. A name said again with another spelling
    (OOTA → OTA, 森くん → 森さん: ``name_swap.name_swapped``) is a value changed, though
    the two may share every run of two characters."""
    return (
        not text.old_part
        and not text.new_part
        and text.values_changed == 0
        and not text.features[_NEGATION_FLIP]
        and not text.features[_NAME_SWAPPED]
    )


def another_persons_fact(text: PairText) -> bool:
    """Whether the new memory is another person's own fact told beside the old one: a person
    the old memory does not name, added to its subject ("The user runs a bike shop" / "The user's
    former colleague runs a bike shop in Lisbon", ユーザーの元部下は…), saying nothing back about
    the old memory's subject (``subject.other_person_alone``). It cannot close the old memory,
    whatever the model's probability: on the training writers 3 of the judge's false closes
    were of this shape, and of the 311 training pairs of it 5 were CONTRADICTORY, none of them
    closed by the judge."""
    return bool(text.features[_OTHER_PERSON_ALONE])


def amount_left_alone(text: PairText) -> bool:
    """Whether the new memory repeats the old one but its amount, in one clause, adds a place,
    a companion or a manner and says nothing of how often, how much or how long ("walks the
    dog 4 times a day" → "walks the dog along the river", ``quantity_compare.amount_untouched``). It
    cannot close the old memory: the amount is left as it was. Of the training pairs of this
    shape none is CONTRADICTORY (the four of the sixteenth round's wider reading each told the
    change in a second clause or sentence, which the reading now leaves out)."""
    return bool(text.features[_AMOUNT_UNTOUCHED])


def vetoed(text: PairText) -> bool:
    """Whether the pair never closes, whatever the model says: one of the ``VETO_FEATURES``
    is set (another person's own fact, ``another_persons_fact``; an amount left alone,
    ``amount_left_alone``; and the ``VETO_ONLY`` signals). Training caps the same pairs by the
    same list."""
    return any(text.features[i] for i in _VETO_COLUMNS)


# The slots whose value the new memory replaces (``slots.slot_features``: each side holds a
# value of the slot the other lacks): a number, a time word, a measured quantity, a name.
_REPLACED_COLUMNS = tuple(
    TEXT_FEATURES.index(f"slot_{slot}_different")
    for slot in ("numbers", "times", "quantities", "names")
)


def value_replaced(text: PairText) -> bool:
    """Whether the new memory holds a number, time, quantity or name in place of one the old
    memory holds (``slots``): the shape of a changed value said again ("first Sunday" → "last
    Sunday", 50mm → 35mm, 週1 → 月2), which the judge often reads as adding detail. It only
    lowers the judge's threshold for an EXTENDABLE reading (``JudgeModel.replaced_thresholds``)."""
    return any(text.features[i] for i in _REPLACED_COLUMNS)


def pair_lang(text: PairText) -> str:
    """The pair's language as the judge's thresholds are keyed: ``ja`` when its ``lang_ja``
    text feature is set, else ``en``."""
    return "ja" if text.features[_LANG_JA] else "en"

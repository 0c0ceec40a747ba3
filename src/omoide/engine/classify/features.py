"""Features of one (old, new) memory pair for the learned 3-op judge (pure).

Two kinds of numbers describe a pair. The text features come from the offline rules: which
rule decided and how sure it was, how much of the old memory the new one repeats, what it
drops and adds, negation on either side, the change / stop / plan cues, whose fact each one
is, changed quantities, an exact amount inside an old bound ("more than 20" → 26), past
occasions and the language, and the typed slot comparison of
:mod:`slots` (numbers, times, quantities, names, people: same / different / added / removed)
and the head-versus-rest and negation-scope comparison of :mod:`scope`, and whether the new
memory leaves what the old one names (:mod:`departure`), and whether the two are one statement
with one slot filled again — a single-valued state's value replaced, an occasion added, a
subject changed or a value made precise (:mod:`one_slot`), and whether a liking turned, a plan
was carried out, the old topic was put in the present, an amount moved or the fact goes on
(:mod:`turn`), and whether the new memory tells a reason or a date about the old fact
(:mod:`backstory`) or leaves the old amount as it was beside an added place or companion
(``quantity_compare.amount_untouched``), and whether it keeps the old frame with a value swapped in
place, in the whole memory or in one part of a compound one (:mod:`swap`), and whether the
new memory is about a thing the old one names (``subject.subject_named_before``).
The embedding features are cosines
the caller measured with its embedder — of the whole statements and of their *differing
parts* (what each says that the other does not, see :func:`differing_parts`) — and are passed
in as plain numbers, so this module never embeds anything. No I/O; deterministic.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from omoide.engine.classify import lexicon as lex
from omoide.engine.classify import signals as sig
from omoide.engine.classify.addition import ADDITION_FEATURES, addition_features
from omoide.engine.classify.align import ALIGN_FEATURES, align_features
from omoide.engine.classify.amount_swap import AMOUNT_SWAP_FEATURES, amount_swap_features
from omoide.engine.classify.backstory import BACKSTORY_FEATURES, backstory_features
from omoide.engine.classify.base import Relation
from omoide.engine.classify.dated_told import DATED_TOLD_FEATURES, dated_told_features
from omoide.engine.classify.departure import DEPARTURE_FEATURES, departure_features
from omoide.engine.classify.detail_told import DETAIL_TOLD_FEATURES, detail_told_features
from omoide.engine.classify.earlier_period import (
    EARLIER_PERIOD_FEATURES,
    earlier_period_features,
)
from omoide.engine.classify.former_state import FORMER_STATE_FEATURES, former_state_features
from omoide.engine.classify.frame import unframe
from omoide.engine.classify.from_to import FROM_TO_FEATURES, from_to_features
from omoide.engine.classify.habit_end import HABIT_END_FEATURES, habit_end_features
from omoide.engine.classify.ident import IDENT_FEATURES, ident_features
from omoide.engine.classify.ja_told import JA_TOLD_FEATURES, ja_told_features
from omoide.engine.classify.leads_to import LEADS_TO_FEATURES, leads_to_features
from omoide.engine.classify.morph import en_lemma
from omoide.engine.classify.name_change import NAME_CHANGE_FEATURES, name_change_features
from omoide.engine.classify.name_swap import NAME_SWAP_FEATURES, name_swap_features
from omoide.engine.classify.name_told import NAME_TOLD_FEATURES, name_told_features
from omoide.engine.classify.negation_turn import NEGATION_TURN_FEATURES, negation_turn_features
from omoide.engine.classify.note_retold import NOTE_RETOLD_FEATURES, note_retold_features
from omoide.engine.classify.note_shapes import NOTE_SHAPE_FEATURES, note_shape_features
from omoide.engine.classify.occasion_told import OCCASION_TOLD_FEATURES, occasion_told_features
from omoide.engine.classify.offline import SIGNAL_NAMES, decide
from omoide.engine.classify.one_off import ONE_OFF_FEATURES, one_off_features
from omoide.engine.classify.one_slot import ONE_SLOT_FEATURES, one_slot_features
from omoide.engine.classify.others_act import OTHERS_ACT_FEATURES, others_act_features
from omoide.engine.classify.quantity_compare import (
    amount_untouched,
    changed_units,
    changed_values,
    within_bound,
)
from omoide.engine.classify.reason_told import REASON_TOLD_FEATURES, reason_told_features
from omoide.engine.classify.scope import SCOPE_FEATURES, scope_features
from omoide.engine.classify.slots import SLOT_FEATURES, slot_features
from omoide.engine.classify.subject import (
    NAMED_SUBJECT_FEATURES,
    PEOPLE_APART_FEATURES,
    SUBJECT_FEATURES,
    named_subject_features,
    people_apart_features,
    subject_features,
)
from omoide.engine.classify.swap import SWAP_FEATURES, swap_features
from omoide.engine.classify.text import USER, Sentence, cue, parse
from omoide.engine.classify.transition import TRANSITION_FEATURES, transition_features
from omoide.engine.classify.turn import TURN_FEATURES, turn_features
from omoide.engine.classify.value_swap import VALUE_SWAP_FEATURES, value_swap_features
from omoide.engine.lang import FACT_TOPIC_STOPWORDS

__all__ = [
    "EMBEDDING_FEATURES",
    "TEXT_FEATURES",
    "VECTOR_BLOCKS",
    "PairText",
    "Similarities",
    "differing_parts",
    "embedding_features",
    "read_pair",
]

_CUES: tuple[tuple[str, dict[str, str]], ...] = (
    ("stopped", lex.STOPPED),
    ("ended", lex.ENDED),
    ("resumed", lex.RESUMPTION),
    ("change", lex.CHANGE),
    ("residence_start", lex.RESIDENCE_START),
    ("additive", lex.ADDITIVE),
    ("narrowing", lex.NARROWING),
    ("favorite", lex.FAVORITE),
    ("plan", lex.PLAN),
    ("pursuit", lex.PURSUIT),
    ("completed", lex.COMPLETED),
    ("past_fact", lex.PAST_FACT),
    ("reason", lex.REASON),
    ("origin", lex.ORIGIN),
)
_MEASURES = (
    "lang_ja",
    "same_owner",
    "both_user",
    "coverage",
    "topic_coverage",
    "reverse_coverage",
    "anchors",
    "lost_share",
    "added_share",
    "old_negative",
    "new_negative",
    "negation_flip",
    "quantity_changed",
    "more_quantities",
    "sibling_swap",
    "old_past",
    "new_past",
    "length_ratio",
    "rule_confidence",
    "within_bound",
    "amount_untouched",
)
TEXT_FEATURES: tuple[str, ...] = (
    *_MEASURES,
    *(f"new_{name}" for name, _ in _CUES),
    *(f"old_{name}" for name, _ in _CUES),
    *(f"rule_{name}" for name in SIGNAL_NAMES),
    *(f"rule_says_{r.value.lower()}" for r in Relation),
    *SLOT_FEATURES,
    *SCOPE_FEATURES,
    *SUBJECT_FEATURES,
    *ALIGN_FEATURES,
    *TRANSITION_FEATURES,
    *DEPARTURE_FEATURES,
    *ONE_SLOT_FEATURES,
    *TURN_FEATURES,
    *BACKSTORY_FEATURES,
    *SWAP_FEATURES,
    *IDENT_FEATURES,
    *LEADS_TO_FEATURES,
    *FROM_TO_FEATURES,
    *EARLIER_PERIOD_FEATURES,
    *FORMER_STATE_FEATURES,
    *NOTE_SHAPE_FEATURES,
    *NEGATION_TURN_FEATURES,
    *HABIT_END_FEATURES,
    *VALUE_SWAP_FEATURES,
    *ONE_OFF_FEATURES,
    *AMOUNT_SWAP_FEATURES,
    *ADDITION_FEATURES,
    *OTHERS_ACT_FEATURES,
    *REASON_TOLD_FEATURES,
    *DETAIL_TOLD_FEATURES,
    *OCCASION_TOLD_FEATURES,
    *JA_TOLD_FEATURES,
    *NAMED_SUBJECT_FEATURES,
    *NAME_SWAP_FEATURES,
    *NAME_CHANGE_FEATURES,
    *NAME_TOLD_FEATURES,
    *PEOPLE_APART_FEATURES,
    *NOTE_RETOLD_FEATURES,
    *DATED_TOLD_FEATURES,
)
EMBEDDING_FEATURES: tuple[str, ...] = (
    "sim_whole",
    "sim_parts",
    "sim_old_part_new",
    "sim_new_part_old",
    "old_part_empty",
    "new_part_empty",
    "sim_whole_x_lost",
    "sim_parts_x_lost",
)

# Embedding vectors a model may read whole: the new memory minus the old one, and the two
# differing parts. They carry *what* changed ("quit", "moved to", "cancelled", in any wording
# or language the embedder knows), which a cosine alone cannot. ``absdiff`` (|new − old|) and
# ``prod`` (new ∘ old, which sums to the whole cosine) are symmetric: along which directions the
# two memories differ or agree, whatever their order.
VECTOR_BLOCKS: tuple[str, ...] = ("diff", "new_part", "old_part", "absdiff", "prod")


@dataclass(frozen=True)
class Similarities:
    """Cosines measured by the caller's embedder (raw, the embedder's own scale).

    ``parts`` compares the two differing parts; ``old_part_new`` the old memory's differing
    part with the whole new memory, ``new_part_old`` the reverse. A part that is empty (one
    memory says nothing the other does not) has no cosine: pass ``None``. ``vectors`` holds
    the VECTOR_BLOCKS by name (an empty part's vector is missing).
    """

    whole: float
    parts: float | None
    old_part_new: float | None
    new_part_old: float | None
    vectors: Mapping[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class PairText:
    """The text side of a pair: its features, the rules' verdict and the differing parts."""

    features: np.ndarray  # in TEXT_FEATURES order
    rule: str  # the name of the rule that decided (one of SIGNAL_NAMES)
    finding: sig.Finding
    old_part: str
    new_part: str
    values_changed: int = 1  # written values on one side and not the other (``changed_values``)


def read_pair(old: str, new: str, *, lang: str = "auto") -> PairText:
    """Parse both memories and compute the text features and the differing parts."""
    old, new = unframe(old, lang), unframe(new, lang)  # the facts, not who said them or when
    old_s, new_s = parse(old, lang), parse(new, lang)
    rule, finding = decide(old_s, new_s)
    values = [*_measures(old_s, new_s, finding.confidence)]
    values += [float(cue(kind, new_s)) for _, kind in _CUES]
    values += [float(cue(kind, old_s)) for _, kind in _CUES]
    values += [float(rule == name) for name in SIGNAL_NAMES]
    values += [float(finding.relation is r) for r in Relation]
    values += slot_features(old, new, old_s.quantities, new_s.quantities)
    values += scope_features(old_s, new_s)
    values += subject_features(old_s, new_s)
    values += align_features(old, new, old_s.lang)
    values += transition_features(old_s, new_s)
    values += departure_features(old_s, new_s)
    values += one_slot_features(old_s, new_s)
    values += turn_features(old_s, new_s)
    values += backstory_features(old_s, new_s)
    values += swap_features(old_s, new_s)
    values += ident_features(old_s, new_s)
    values += leads_to_features(old_s, new_s)
    values += from_to_features(old_s, new_s)
    values += earlier_period_features(old_s, new_s)
    values += former_state_features(old_s, new_s)
    values += note_shape_features(old, new, old_s.lang)
    values += negation_turn_features(old_s, new_s)
    values += habit_end_features(old_s, new_s)
    values += value_swap_features(old_s, new_s)
    values += one_off_features(old_s, new_s)
    values += amount_swap_features(old_s, new_s)
    values += addition_features(old_s, new_s)
    values += others_act_features(old_s, new_s)
    values += reason_told_features(old_s, new_s)
    values += detail_told_features(old_s, new_s)
    values += occasion_told_features(old_s, new_s)
    values += ja_told_features(old_s, new_s)
    values += named_subject_features(old_s, new_s)
    values += name_swap_features(old_s, new_s)
    values += name_change_features(old_s, new_s)
    values += name_told_features(old_s, new_s)
    values += people_apart_features(old, new, old_s, new_s)
    values += note_retold_features(old_s, new_s)
    values += dated_told_features(old_s, new_s)
    old_part, new_part = differing_parts(old_s, new_s)
    return PairText(
        np.asarray(values, dtype=np.float64),
        rule,
        finding,
        old_part,
        new_part,
        changed_values(old_s.text, new_s.text, old_s.lang),
    )


def _measures(old: Sentence, new: Sentence, confidence: float) -> list[float]:
    topic = [u for u in old.content if u not in _generic(old)]
    lost = sig.lost_units(old, new)
    added = [u for u in new.content if not sig.found_in(u, old)]
    old_units = {q.unit for q in old.quantities}
    return [
        float(old.lang == "ja"),
        float(old.owner == new.owner),
        float(old.owner == USER == new.owner),
        sig.coverage(old, new),
        sig.topic_coverage(old, new),
        sig.coverage(new, old),
        min(len(sig.anchors(old, new)), 5) / 5,
        len(lost) / len(topic) if topic else 0.0,
        len(added) / len(new.content) if new.content else 0.0,
        float(old.negative),
        float(new.negative),
        float(old.negative != new.negative),
        float(bool(changed_units(old.quantities, new.quantities))),
        float(bool({q.unit for q in new.quantities} - old_units)),
        float(sig.sibling_swap(old, new) is not None),
        float(old.past_occasion),
        float(new.past_occasion),
        math.log((len(new.text) + 1) / (len(old.text) + 1)),
        confidence,
        float(within_bound(old.quantities, new.quantities)),
        float(amount_untouched(old.text, new.text, old.quantities, new.quantities, old.lang)),
    ]


def _generic(sentence: Sentence) -> frozenset[str]:
    return sig.EN_GENERIC if sentence.lang == "en" else lex.JA_GENERIC_STEMS


def embedding_features(sims: Similarities, text: PairText) -> np.ndarray:
    """The EMBEDDING_FEATURES row for one pair (a missing part cosine counts as 1: nothing
    differs there)."""
    lost = text.features[TEXT_FEATURES.index("lost_share")]
    parts = 1.0 if sims.parts is None else sims.parts
    values = [
        sims.whole,
        parts,
        1.0 if sims.old_part_new is None else sims.old_part_new,
        1.0 if sims.new_part_old is None else sims.new_part_old,
        float(not text.old_part),
        float(not text.new_part),
        sims.whole * lost,
        parts * lost,
    ]
    return np.asarray(values, dtype=np.float64)


# --- differing parts ------------------------------------------------------------------------

_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*|\$?\d[\d,.:]*")
_JA_SHARED_MIN = 2


def differing_parts(old: Sentence, new: Sentence) -> tuple[str, str]:
    """What each memory says that the other does not: the old memory's words missing from the
    new one, and the reverse, each in its own order ("" when nothing differs).

    English compares lemmas and leaves out stopwords; Japanese removes every run of two or
    more characters the other text also contains, so particles left alone drop out.
    """
    if old.lang == "ja":
        return _ja_rest(old.text, new.text), _ja_rest(new.text, old.text)
    return _en_rest(old, new), _en_rest(new, old)


def _en_rest(this: Sentence, other: Sentence) -> str:
    kept = []
    for word in _EN_WORD.findall(this.text):
        bare = word.lower().removesuffix("'s")
        if bare in FACT_TOPIC_STOPWORDS or bare == "user":
            continue
        lemma = en_lemma(bare)
        if lemma in other.words or bare in other.words:
            continue
        kept.append(word)
    return " ".join(kept)


def _ja_rest(this: str, other: str) -> str:
    covered = [False] * len(this)
    for start in range(len(this)):
        end = start + _JA_SHARED_MIN
        while end <= len(this) and this[start:end] in other:
            end += 1
        if end - 1 - start >= _JA_SHARED_MIN:
            for i in range(start, end - 1):
                covered[i] = True
    runs = re.split(r"\s+", "".join(" " if c else ch for ch, c in zip(this, covered, strict=True)))
    kept = [r.strip("、。,. はがをにでともの") for r in runs]
    return " ".join(r for r in kept if len(r) >= 2 or re.match(r"[\u3400-\u9fff]", r or " "))

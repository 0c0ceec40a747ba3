"""3-op contradiction classification and the value-change veto (pure).

The public face of the classifier: the types both engines share (:class:`Relation`,
:class:`Candidate`, :class:`Verdict`, the :class:`Classifier` port), the offline rules
(:class:`OfflineClassifier`), the learned judge over their signals (:class:`JudgeModel`,
:func:`judge`, :func:`read_pair`), compound-memory splitting, :func:`find_value_change` (values
replaced) and :func:`find_dedup_change`, the dedup veto built on it, and dedup's learned judge
(:class:`DedupModel`, :func:`dedup_features`, :func:`changed_parts`). Modules inside the
package are private: both read the fact inside a reporting frame first (``frame``), the rules
are a stack ``offline → change → signals → text → quantity → morph → lexicon``, the judge is
``learned → features → slots, scope, subject, align, transition`` (weights in ``judge.json``;
the slots read values as the veto does), the veto is ``value_change → value_statement →
value_numbers`` (``value_numbers_en``, ``value_numbers_ja``), dedup's judge
``dedup_judge → dedup_veto`` (with ``dedup_order`` for parts that traded places, ``dedup_status``
and ``dedup_polarity`` for a status or a Japanese polarity said on one side only, and
``dedup_change_told`` for a change the new memory tells that the old one does not). A
consolidated note closes an older memory only through ``note_close`` (a sure shape read in one
sentence), in both engines, each reading the note once (``note_claims``) and calling its one
entry ``note_verdict``.
"""

from omoide.engine.classify.align import ALIGN_FEATURES
from omoide.engine.classify.base import (
    Candidate,
    Classifier,
    PassageVectors,
    Relation,
    Verdict,
)
from omoide.engine.classify.compound import (
    Compound,
    remainder,
    sentence_count,
    split_compound,
    statements,
    undated,
)
from omoide.engine.classify.dedup_added import added_information
from omoide.engine.classify.dedup_change_told import change_told
from omoide.engine.classify.dedup_judge import (
    DEDUP_FEATURES,
    DedupModel,
    changed_parts,
    dedup_features,
    fit_logistic,
    notation_tokens,
)
from omoide.engine.classify.dedup_notation import pair_notation
from omoide.engine.classify.dedup_order import swapped_parts
from omoide.engine.classify.dedup_polarity import polarity_changed
from omoide.engine.classify.dedup_status import status_changed
from omoide.engine.classify.dedup_veto import find_dedup_change, value_replaced
from omoide.engine.classify.features import (
    EMBEDDING_FEATURES,
    TEXT_FEATURES,
    VECTOR_BLOCKS,
    PairText,
    Similarities,
    read_pair,
)
from omoide.engine.classify.hidden import BlockProjection, HiddenLayer
from omoide.engine.classify.judge_model import judge_models
from omoide.engine.classify.judge_signals import retold
from omoide.engine.classify.learned import (
    EXTEND_ONLY,
    JUDGE_CAPS,
    NOTE_NEAREST_GUARDS,
    SURE_ONLY,
    VETO_FEATURES,
    VETO_ONLY,
    Judge,
    Judgement,
    JudgeModel,
    LanguageJudge,
    decide_relation,
    extends,
    judge,
    judge_from_dict,
    judge_note,
    nothing_differs,
    pair_vector,
    rule_decides,
    sentence_score,
    sure_close,
    vetoed,
)
from omoide.engine.classify.name_swap import names_differ
from omoide.engine.classify.note_close import claims as note_claims
from omoide.engine.classify.note_close import note_closes, note_verdict
from omoide.engine.classify.note_judge import (
    NOTE_NEAREST_LEAD,
    NOTE_NEAREST_THRESHOLDS,
    NOTE_REPLACED_THRESHOLDS,
    NOTE_THRESHOLDS,
    UNDATED_ONLY,
    judge_one_note,
    leads,
    needs_undated,
    reads_undated,
)
from omoide.engine.classify.offline import (
    CROSS_LANGUAGE,
    OfflineClassifier,
    classify_pair,
    one_statement,
)
from omoide.engine.classify.scope import SCOPE_FEATURES
from omoide.engine.classify.slots import SLOT_FEATURES
from omoide.engine.classify.subject import SUBJECT_FEATURES
from omoide.engine.classify.text import languages_differ
from omoide.engine.classify.transition import TRANSITION_FEATURES
from omoide.engine.classify.value_change import ChangeKind, ValueChange, find_value_change

__all__ = [
    "ALIGN_FEATURES",
    "CROSS_LANGUAGE",
    "DEDUP_FEATURES",
    "EMBEDDING_FEATURES",
    "EXTEND_ONLY",
    "JUDGE_CAPS",
    "NOTE_NEAREST_GUARDS",
    "NOTE_NEAREST_LEAD",
    "NOTE_NEAREST_THRESHOLDS",
    "NOTE_REPLACED_THRESHOLDS",
    "NOTE_THRESHOLDS",
    "SCOPE_FEATURES",
    "SLOT_FEATURES",
    "SUBJECT_FEATURES",
    "SURE_ONLY",
    "TEXT_FEATURES",
    "TRANSITION_FEATURES",
    "UNDATED_ONLY",
    "VECTOR_BLOCKS",
    "VETO_FEATURES",
    "VETO_ONLY",
    "BlockProjection",
    "Candidate",
    "ChangeKind",
    "Classifier",
    "Compound",
    "DedupModel",
    "HiddenLayer",
    "Judge",
    "JudgeModel",
    "Judgement",
    "LanguageJudge",
    "OfflineClassifier",
    "PairText",
    "PassageVectors",
    "Relation",
    "Similarities",
    "ValueChange",
    "Verdict",
    "added_information",
    "change_told",
    "changed_parts",
    "classify_pair",
    "decide_relation",
    "dedup_features",
    "extends",
    "find_dedup_change",
    "find_value_change",
    "fit_logistic",
    "judge",
    "judge_from_dict",
    "judge_models",
    "judge_note",
    "judge_one_note",
    "languages_differ",
    "leads",
    "names_differ",
    "needs_undated",
    "notation_tokens",
    "note_claims",
    "note_closes",
    "note_verdict",
    "nothing_differs",
    "one_statement",
    "pair_notation",
    "pair_vector",
    "polarity_changed",
    "read_pair",
    "reads_undated",
    "remainder",
    "retold",
    "rule_decides",
    "sentence_count",
    "sentence_score",
    "split_compound",
    "statements",
    "status_changed",
    "sure_close",
    "swapped_parts",
    "undated",
    "value_replaced",
    "vetoed",
]

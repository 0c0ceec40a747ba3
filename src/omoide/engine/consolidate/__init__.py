"""Episode consolidation: a closed episode's turns → notes and profile updates (pure).

The public face: the :class:`Consolidator` port and its types, and the offline engine
(:class:`OfflineConsolidator`, :func:`consolidate_offline`). Private modules inside:
``offline`` (the pipeline) over ``turn_note`` (one turn's note), ``rules`` (sentence
scoring) over ``cues`` (the signals a sentence carries) and ``statements`` (a sentence's
shape: a question, a piece with content, a statement of its own), ``kinds`` (a note's kind),
``interjections`` (what says nothing), ``answers`` (a user's answer to the persona's
question), ``assent`` (a turn that only accepts the persona's proposal), ``subjects`` (a
dropped "I", an opening "she"/"he"), ``render`` (how a note reads), ``rewrite`` (third
person, dates; the verb's agreement in ``agreement`` over ``verb_forms``), ``profile``
(self-identification) and ``text`` (sentences and words).
"""

from omoide.engine.consolidate.offline import (
    DEFAULT_NOTES_PER_TURN,
    OfflineConsolidator,
    consolidate_offline,
    count_persona_turns,
    note_budget,
)
from omoide.engine.consolidate.text import split_sentences, strip_speaker_labels
from omoide.engine.consolidate.types import (
    Consolidation,
    Consolidator,
    EventText,
    NoteDraft,
    NoteKind,
    ProfileUpdate,
)

__all__ = [
    "DEFAULT_NOTES_PER_TURN",
    "Consolidation",
    "Consolidator",
    "EventText",
    "NoteDraft",
    "NoteKind",
    "OfflineConsolidator",
    "ProfileUpdate",
    "consolidate_offline",
    "count_persona_turns",
    "note_budget",
    "split_sentences",
    "strip_speaker_labels",
]

"""Offline episode consolidation: a closed episode's turns → notes and profile updates (pure).

Spec §"Episode + Note 2-tier Memory": each closed episode yields K_fact, K_pref and K_profile
notes with provenance. Offline, without an LLM:

1. split every turn into sentences (English ``.!?``, Japanese ``。！？``; a ``Name:`` label at
   a line start is dropped) and score each one (:mod:`omoide.engine.consolidate.rules`);
   questions, greetings, thanks and praise score 0. A shared image's caption is one more piece;
   the persona's own turns (role ``assistant``) never become notes: what the persona said is
   not a fact about the user. It can inform one: a user's short answer to the persona's
   question becomes a note quoting both (:mod:`omoide.engine.consolidate.answers`). A user's
   turn that only accepts what the persona proposed ("sure, I'll try that") makes no note
   (:mod:`omoide.engine.consolidate.assent`);
2. a turn with at least one sentence over ``min_sentence_score`` is a candidate note made of
   its best sentences over ``min_companion_score`` (at most ``max_sentences_per_note``, in
   their original order), so the details around the main statement stay with it;
3. only the best-scoring candidates are kept, at most ``notes_per_turn`` × turns rounded up
   (and always fewer notes than turns), so a note summarises instead of copying the episode.
   When the persona takes part, its turns are not the user's to summarise: the budget is then
   one note per turn of the people (:func:`note_budget`), so a run of the user's turns between
   two of the persona's is not cut to half;
4. each kept note is rewritten to stand alone (:mod:`omoide.engine.consolidate.rewrite`):
   first person → the speaker's name ("the user" / 「ユーザー」 when the turn is labelled
   only with the user's role, see :func:`~omoide.engine.consolidate.voice.spoken_name`),
   relative dates followed by the date they mean, and when
   the turn's time is known the note ends with it: " (8 May 2023)". A note whose words do not
   name the speaker says who said it in the same brackets (" (Ken, 8 May 2023)"); in Japanese,
   which drops the subject, the speaker becomes the topic ("花子は、…"). Never a ``Name:``
   label.

The turn level (steps 1 and 2, a photo's caption, a profile note, a short answer read with
the persona's question) is :mod:`omoide.engine.consolidate.turn_note`.

A turn that is mostly a pasted table, log or price list
(:mod:`omoide.engine.consolidate.machine`) makes no note; it stays in its episode.

Explicit self-identification by the user ("my name is", "call me", "…って呼んで") becomes a
:class:`ProfileUpdate`. Must not do I/O, read a clock or settings, or use randomness: the same
events always give the same consolidation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from omoide.engine.consolidate.profile import find_profile_statements
from omoide.engine.consolidate.subjects import referents_by_turn
from omoide.engine.consolidate.turn_note import Selection, turn_candidate
from omoide.engine.consolidate.types import Consolidation, EventText, ProfileUpdate
from omoide.engine.consolidate.voice import is_role_label

__all__ = [
    "DEFAULT_NOTES_PER_TURN",
    "OfflineConsolidator",
    "consolidate_offline",
    "count_persona_turns",
    "note_budget",
]

DEFAULT_NOTES_PER_TURN = 0.5
DEFAULT_MIN_SENTENCE_SCORE = 1.6
DEFAULT_MIN_COMPANION_SCORE = 0.8
DEFAULT_MAX_SENTENCES_PER_NOTE = 4


@dataclass(frozen=True)
class OfflineConsolidator:
    """:func:`consolidate_offline` with its thresholds fixed, behind the Consolidator port."""

    notes_per_turn: float = DEFAULT_NOTES_PER_TURN
    min_sentence_score: float = DEFAULT_MIN_SENTENCE_SCORE
    min_companion_score: float = DEFAULT_MIN_COMPANION_SCORE
    max_sentences_per_note: int = DEFAULT_MAX_SENTENCES_PER_NOTE

    def consolidate(
        self, events: Sequence[EventText], *, max_notes: int | None = None
    ) -> Consolidation:
        return consolidate_offline(
            events,
            max_notes=max_notes,
            notes_per_turn=self.notes_per_turn,
            min_sentence_score=self.min_sentence_score,
            min_companion_score=self.min_companion_score,
            max_sentences_per_note=self.max_sentences_per_note,
        )


def consolidate_offline(
    events: Sequence[EventText],
    *,
    max_notes: int | None = None,
    notes_per_turn: float = DEFAULT_NOTES_PER_TURN,
    min_sentence_score: float = DEFAULT_MIN_SENTENCE_SCORE,
    min_companion_score: float = DEFAULT_MIN_COMPANION_SCORE,
    max_sentences_per_note: int = DEFAULT_MAX_SENTENCES_PER_NOTE,
) -> Consolidation:
    """Notes in conversation order (the most informative turns win when over budget) and
    profile updates.

    At most ``max_notes`` notes, at most ``notes_per_turn`` × len(events) rounded up, and fewer
    notes than events whenever there are two or more events.
    """
    selection = Selection(
        participants=frozenset(
            event.speaker for event in events if not is_role_label(event.speaker)
        ),
        min_score=min_sentence_score,
        min_companion_score=min_companion_score,
        max_sentences=max_sentences_per_note,
    )
    addressees = _addressees(events)
    referents = referents_by_turn(events)
    candidates = [
        candidate
        for position in range(len(events))
        if (
            candidate := turn_candidate(
                position, events, addressees[position], selection, referents[position]
            )
        )
        is not None
    ]
    budget = note_budget(
        len(events),
        notes_per_turn=notes_per_turn,
        max_notes=max_notes,
        persona_turns=count_persona_turns(events),
    )
    best = sorted(candidates, key=lambda c: (-c.score, c.position))[:budget]
    notes = tuple(c.note for c in sorted(best, key=lambda c: c.position))
    return Consolidation(notes=notes, profile=_profile_updates(events))


def note_budget(
    turns: int, *, notes_per_turn: float, max_notes: int | None = None, persona_turns: int = 0
) -> int:
    """How many notes an episode of ``turns`` turns may yield: ``notes_per_turn`` × turns rounded
    up (a short exchange of user, persona, user keeps both of the user's facts at 0.5), at least
    1, fewer than the turns when there are two or more, and at most ``max_notes``.

    ``persona_turns`` of them are the persona's (role ``assistant``), which never make a note:
    then every turn of the people may make one (the score bar decides), since half of all turns
    starves a chat where the user speaks several times in a row (seven informative user turns
    among ten gave five notes). Between people only (no persona turn, as LoCoMo is posted) the
    budget is ``notes_per_turn`` × turns, where each turn is half of an exchange."""
    if persona_turns:
        budget = max(1, turns - persona_turns)
    else:
        budget = max(1, math.ceil(turns * notes_per_turn)) if turns else 0
    if turns >= 2:
        budget = min(budget, turns - 1)
    return budget if max_notes is None else min(budget, max(max_notes, 0))


def count_persona_turns(events: Sequence[EventText]) -> int:
    """How many of ``events`` the persona said (role ``assistant``): see :func:`note_budget`."""
    return sum(event.role == "assistant" for event in events)


def _addressees(events: Sequence[EventText]) -> list[str | None]:
    """Who "you" is in each turn: the last other speaker before it, else the next one after."""
    out: list[str | None] = []
    for position, event in enumerate(events):
        before = (e.speaker for e in reversed(events[:position]) if e.speaker != event.speaker)
        after = (e.speaker for e in events[position + 1 :] if e.speaker != event.speaker)
        out.append(next(before, None) or next(after, None))
    return out


def _profile_updates(events: Sequence[EventText]) -> tuple[ProfileUpdate, ...]:
    """Only the user's own words update their profile; the persona saying "call me Haru" is
    the persona's name, not the user's."""
    return tuple(
        ProfileUpdate(key=key, value=value, source_event_id=event.event_id)
        for event in events
        if event.role == "user"
        for key, value in find_profile_statements(event.text, speaker=event.speaker)
    )

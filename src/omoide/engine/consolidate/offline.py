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

A turn that is mostly a pasted table, log or price list
(:mod:`omoide.engine.consolidate.machine`) makes no note; it stays in its episode.

Explicit self-identification by the user ("my name is", "call me", "…って呼んで") becomes a
:class:`ProfileUpdate`. Must not do I/O, read a clock or settings, or use randomness: the same
events always give the same consolidation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from omoide.engine.consolidate.answers import answer_note, leans_on_the_question
from omoide.engine.consolidate.assent import only_accepts
from omoide.engine.consolidate.machine import is_machine_text
from omoide.engine.consolidate.profile import (
    beyond_profile,
    describe_profile,
    find_profile_statements,
)
from omoide.engine.consolidate.render import note_importance, note_kind, render_note
from omoide.engine.consolidate.rules import (
    Cue,
    SentenceScore,
    carries_content,
    mentions_speaker,
    names_itself,
    score_sentence,
    score_turn,
)
from omoide.engine.consolidate.subjects import (
    Referents,
    referents_by_turn,
    with_subjects,
)
from omoide.engine.consolidate.text import voiced_sentences
from omoide.engine.consolidate.types import (
    Consolidation,
    EventText,
    NoteDraft,
    NoteKind,
    ProfileUpdate,
)
from omoide.engine.consolidate.voice import (
    Voices,
    is_role_label,
    sentence_start,
    spoken_name,
)
from omoide.engine.lang import is_japanese

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
# The user saying who they are is never cut by the note budget.
_PROFILE_PRIORITY = 100.0
_PROFILE_IMPORTANCE = 0.9
# The persona's own lines are not facts about the user: they never make a note by themselves.
_NOTE_ROLES = frozenset({"user", "other"})
_PHOTO_SCORE = 0.8


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


@dataclass(frozen=True)
class _Selection:
    participants: frozenset[str]  # speaker names, which open sentences as vocatives
    min_score: float  # a turn needs one sentence at least this informative
    min_companion_score: float  # further sentences of a chosen turn need this much
    max_sentences: int


@dataclass(frozen=True)
class _Candidate:
    position: int  # the event's index in the episode, to restore conversation order
    score: float
    note: NoteDraft
    opens_unnamed: bool = False  # its words name nobody, its first sentence has no subject


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
    selection = _Selection(
        participants=frozenset(event.speaker for event in events
                               if not is_role_label(event.speaker)),
        min_score=min_sentence_score,
        min_companion_score=min_companion_score,
        max_sentences=max_sentences_per_note,
    )
    addressees = _addressees(events)
    referents = referents_by_turn(events)
    candidates = [
        candidate
        for position in range(len(events))
        if (candidate := _turn_candidate(position, events, addressees[position], selection,
                                         referents[position])) is not None
    ]
    budget = note_budget(len(events), notes_per_turn=notes_per_turn, max_notes=max_notes,
                         persona_turns=count_persona_turns(events))
    best = sorted(candidates, key=lambda c: (-c.score, c.position))[:budget]
    notes = tuple(c.note for c in sorted(best, key=lambda c: c.position))
    return Consolidation(notes=notes, profile=_profile_updates(events))


def note_budget(turns: int, *, notes_per_turn: float, max_notes: int | None = None,
                persona_turns: int = 0) -> int:
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


def _candidate(
    position: int, event: EventText, addressee: str | None, selection: _Selection,
    referents: Referents | None = None,
) -> _Candidate | None:
    if event.role not in _NOTE_ROLES or is_machine_text(event.text):
        return None  # a pasted table or log stays in the episode, but is no statement
    voiced = voiced_sentences(event.text)
    voices = Voices(event.speaker, addressee, {s: v for s, v in voiced if v is not None})
    scored = [score_sentence(s, selection.participants) for s, _ in voiced]
    if event.image_caption:
        scored.append(_caption_piece(event.image_caption, event.text, selection))
    statements = (find_profile_statements(event.text, speaker=event.speaker)
                  if event.role == "user" else [])
    if statements:
        return _profile_candidate(position, event, voices, scored, statements, selection)
    chosen = _choose(scored, selection)
    if not chosen:
        return None
    restored, bound = with_subjects([s.text for s in scored], referents or Referents(),
                                     own_voice=not voices.labelled)
    where = [next(i for i, s in enumerate(scored) if s is c) for c in chosen]
    # English: the first sentence kept; Japanese: the turn's first one that says something,
    # kept or not (a noun alone, 「仙台。」, is not kept, yet it is what the turn answers)
    opening = where[0] if not is_japanese(event.text) else next(
        (i for i, s in enumerate(scored) if carries_content(s.text, selection.participants)),
        where[0])
    opens_unnamed = not names_itself(restored[opening]) and not mentions_speaker(
        [restored[i] for i in where])
    chosen = [replace(scored[i], text=bound[i]) for i in where]
    score = score_turn(chosen, event.text)
    cues = frozenset().union(*(s.cues for s in chosen))
    best = max(chosen, key=lambda s: s.score)
    note = NoteDraft(
        content=render_note(event, voices, chosen),
        kind=note_kind(best),
        source_event_ids=(event.event_id,),
        importance=note_importance(score, cues),
        tags=_tags(cues),
    )
    return _Candidate(position, score, note, opens_unnamed=opens_unnamed)


def _turn_candidate(position: int, events: Sequence[EventText], addressee: str | None,
                    selection: _Selection, referents: Referents) -> _Candidate | None:
    """The turn's note: its own sentences, or, when it is a short answer to the persona's
    question, the answer read with the question. A short answer wins over the turn's own
    sentences when a piece of it would be lost without the question ("March. The new job gave
    me my evenings back." after "When did you take up the violin again?": the
    month says nothing alone and would be dropped), and when its words say nobody's name and
    open with no subject ("every Wednesday, 45 minutes" after "How often are your lessons?";
    a Japanese piece, 「仙台。宮城の」), and when a Japanese answer repeats none of the
    question's words: Japanese leaves out the topic the question set (「寝る前とか？」 —
    「うん。布団で三十分くらい」); it keeps the priority and the kind the turn's own
    sentences earned."""
    if position and only_accepts(events[position - 1], events[position],
                                 selection.participants):
        return None  # "sure, I'll try that": the proposal was the persona's, not a fact
    own = _candidate(position, events[position], addressee, selection, referents)
    answer = _answer_candidate(position, events, selection)
    if own is None or answer is None:
        return own or answer
    if own.score >= _PROFILE_PRIORITY or not (
            own.opens_unnamed or _loses_a_piece(events[position], selection)
            or leans_on_the_question(events[position - 1], events[position])):
        return own
    return _Candidate(position, own.score, replace(answer.note, kind=own.note.kind))


def _loses_a_piece(event: EventText, selection: _Selection) -> bool:
    """Some sentence of the turn says something, yet scores too low to ride along."""
    return any(
        score_sentence(sentence, selection.participants).score < selection.min_companion_score
        and carries_content(sentence, selection.participants)
        for sentence, _ in voiced_sentences(event.text))


def _caption_piece(caption: str, words: str, selection: _Selection) -> SentenceScore:
    """A shared image's caption as a piece of its turn.

    What was shown is often what the turn is about, so the caption rides along with a turn
    worth a note, but beside words it never makes one (scoring every caption as a sentence cost
    coverage and quality on the tuning split: bench/consolidate.py). A turn that says nothing
    in words (only an emoji or punctuation: the image was the message) is read through its
    caption, scored as the sentence it would be if said: "Ken holding his new road bike at the
    finish line" makes a note, "a photo of a dog" does not (it stays in the episode)."""
    if any(ch.isalnum() for ch in words):
        return SentenceScore(caption, _PHOTO_SCORE, frozenset({Cue.PHOTO}))
    alone = score_sentence(caption, selection.participants)
    return SentenceScore(caption, max(alone.score, _PHOTO_SCORE), alone.cues | {Cue.PHOTO})


def _answer_candidate(
    position: int, events: Sequence[EventText], selection: _Selection
) -> _Candidate | None:
    """A short answer to the persona's question, read with the question (lowest priority)."""
    if position == 0:
        return None
    note = answer_note(events[position - 1], events[position], selection.participants)
    return None if note is None else _Candidate(position, selection.min_score, note)


def _profile_candidate(
    position: int,
    event: EventText,
    voices: Voices,
    scored: list[SentenceScore],
    statements: list[tuple[str, str]],
    selection: _Selection,
) -> _Candidate:
    """The user said who they are: always a PROFILE note, stated plainly ("Rau's name is
    Laura."), followed by whatever else the turn said that is worth keeping."""
    japanese = is_japanese(event.text)
    name = spoken_name(event.speaker, japanese=japanese)
    lead = [sentence_start(describe_profile(k, v, name, japanese=japanese))
            for k, v in statements]
    rest = [
        s
        for s in (_without_profile(s, event.speaker, selection) for s in scored)
        if s is not None and s.score >= selection.min_companion_score
    ][: max(selection.max_sentences - len(lead), 0)]
    cues = frozenset({Cue.PROFILE}).union(*(s.cues for s in rest))
    note = NoteDraft(
        content=render_note(event, voices, rest, lead=lead),
        kind=NoteKind.PROFILE,
        source_event_ids=(event.event_id,),
        importance=_PROFILE_IMPORTANCE,
        tags=_tags(cues),
    )
    return _Candidate(position, _PROFILE_PRIORITY, note)


def _without_profile(scored: SentenceScore, speaker: str, selection: _Selection
                     ) -> SentenceScore | None:
    """A sentence of a self-introduction, without the clauses the profile lead already
    states ("I'm Ada Byrne, I teach maths in Cork." keeps "I teach maths in Cork."), scored
    again; None when it says nothing else."""
    if not find_profile_statements(scored.text, speaker=speaker):
        return scored
    rest = beyond_profile(scored.text, speaker=speaker)
    return None if rest is None else score_sentence(rest, selection.participants)


def _tags(cues: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(cues - {Cue.FIRST_PERSON, Cue.ENTITY, Cue.NUMBER}))


def _choose(scored: list[SentenceScore], selection: _Selection) -> list[SentenceScore]:
    """The turn's best sentences, back in their original order, when one clears the bar.

    Once one sentence makes the turn worth a note, weaker ones that still carry content
    ("Her name is Pepper!") come along: they are the details a later search asks about. A
    photo tag rides along too (what was shown is often what the turn is about) but never
    makes a turn worth a note on its own.
    """
    if not any(s.score >= selection.min_score for s in scored):
        return []
    companions = [
        i
        for i, s in enumerate(scored)
        if s.score >= selection.min_companion_score and Cue.PHOTO not in s.cues
    ]
    top = sorted(companions, key=lambda i: (-scored[i].score, i))[: selection.max_sentences]
    photos = [i for i, s in enumerate(scored) if Cue.PHOTO in s.cues]
    return [scored[i] for i in sorted({*top, *photos})]


def _profile_updates(events: Sequence[EventText]) -> tuple[ProfileUpdate, ...]:
    """Only the user's own words update their profile; the persona saying "call me Haru" is
    the persona's name, not the user's."""
    return tuple(
        ProfileUpdate(key=key, value=value, source_event_id=event.event_id)
        for event in events
        if event.role == "user"
        for key, value in find_profile_statements(event.text, speaker=event.speaker)
    )

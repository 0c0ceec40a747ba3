"""One turn's candidate note: its best sentences, or its answer read with the persona's question
(pure, offline).

:mod:`omoide.engine.consolidate.offline` runs the episode (who "you" is in each turn, the note
budget, the profile updates) and asks this module for each turn's :class:`Candidate`: steps 1
and 2 of its docstring (score the sentences, choose the best ones over the bars), a photo's
caption as a piece of its turn, the PROFILE note of a user saying who they are, and the choice
between a turn's own sentences and a short answer to the persona's question. No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from omoide.engine.consolidate.answers import answer_note, leans_on_the_question
from omoide.engine.consolidate.assent import only_accepts
from omoide.engine.consolidate.cues import Cue
from omoide.engine.consolidate.machine import is_machine_text
from omoide.engine.consolidate.profile import (
    beyond_profile,
    describe_profile,
    find_profile_statements,
)
from omoide.engine.consolidate.render import note_importance, note_kind, render_note
from omoide.engine.consolidate.rules import SentenceScore, score_sentence, score_turn
from omoide.engine.consolidate.statements import carries_content, mentions_speaker, names_itself
from omoide.engine.consolidate.subjects import Referents, with_subjects
from omoide.engine.consolidate.text import voiced_sentences
from omoide.engine.consolidate.types import EventText, NoteDraft, NoteKind
from omoide.engine.consolidate.voice import Voices, sentence_start, spoken_name
from omoide.engine.lang import is_japanese

__all__ = ["Candidate", "Selection", "turn_candidate"]

# The user saying who they are is never cut by the note budget.
_PROFILE_PRIORITY = 100.0
_PROFILE_IMPORTANCE = 0.9
# The persona's own lines are not facts about the user: they never make a note by themselves.
_NOTE_ROLES = frozenset({"user", "other"})
_PHOTO_SCORE = 0.8


@dataclass(frozen=True)
class Selection:
    """The bars a turn's sentences must clear, fixed for the episode."""

    participants: frozenset[str]  # speaker names, which open sentences as vocatives
    min_score: float  # a turn needs one sentence at least this informative
    min_companion_score: float  # further sentences of a chosen turn need this much
    max_sentences: int


@dataclass(frozen=True)
class Candidate:
    """A turn's note with the score that ranks it against the other turns' notes."""

    position: int  # the event's index in the episode, to restore conversation order
    score: float
    note: NoteDraft
    opens_unnamed: bool = False  # its words name nobody, its first sentence has no subject


def _candidate(
    position: int,
    event: EventText,
    addressee: str | None,
    selection: Selection,
    referents: Referents | None = None,
) -> Candidate | None:
    if event.role not in _NOTE_ROLES or is_machine_text(event.text):
        return None  # a pasted table or log stays in the episode, but is no statement
    voiced = voiced_sentences(event.text)
    voices = Voices(event.speaker, addressee, {s: v for s, v in voiced if v is not None})
    scored = [score_sentence(s, selection.participants) for s, _ in voiced]
    if event.image_caption:
        scored.append(_caption_piece(event.image_caption, event.text, selection))
    statements = (
        find_profile_statements(event.text, speaker=event.speaker) if event.role == "user" else []
    )
    if statements:
        return _profile_candidate(position, event, voices, scored, statements, selection)
    chosen = _choose(scored, selection)
    if not chosen:
        return None
    restored, bound = with_subjects(
        [s.text for s in scored], referents or Referents(), own_voice=not voices.labelled
    )
    where = [next(i for i, s in enumerate(scored) if s is c) for c in chosen]
    # English: the first sentence kept; Japanese: the turn's first one that says something,
    # kept or not (a noun alone, 「仙台。」, is not kept, yet it is what the turn answers)
    opening = (
        where[0]
        if not is_japanese(event.text)
        else next(
            (i for i, s in enumerate(scored) if carries_content(s.text, selection.participants)),
            where[0],
        )
    )
    opens_unnamed = not names_itself(restored[opening]) and not mentions_speaker(
        [restored[i] for i in where]
    )
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
    return Candidate(position, score, note, opens_unnamed=opens_unnamed)


def turn_candidate(
    position: int,
    events: Sequence[EventText],
    addressee: str | None,
    selection: Selection,
    referents: Referents,
) -> Candidate | None:
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
    if position and only_accepts(events[position - 1], events[position], selection.participants):
        return None  # "sure, I'll try that": the proposal was the persona's, not a fact
    own = _candidate(position, events[position], addressee, selection, referents)
    answer = _answer_candidate(position, events, selection)
    if own is None or answer is None:
        return own or answer
    if own.score >= _PROFILE_PRIORITY or not (
        own.opens_unnamed
        or _loses_a_piece(events[position], selection)
        or leans_on_the_question(events[position - 1], events[position])
    ):
        return own
    return Candidate(position, own.score, replace(answer.note, kind=own.note.kind))


def _loses_a_piece(event: EventText, selection: Selection) -> bool:
    """Some sentence of the turn says something, yet scores too low to ride along."""
    return any(
        score_sentence(sentence, selection.participants).score < selection.min_companion_score
        and carries_content(sentence, selection.participants)
        for sentence, _ in voiced_sentences(event.text)
    )


def _caption_piece(caption: str, words: str, selection: Selection) -> SentenceScore:
    """A shared image's caption as a piece of its turn.

    What was shown is often what the turn is about, so the caption rides along with a turn
    worth a note, but beside words it never makes one (scoring every caption as a sentence cost
    coverage and quality on the tuning split: bench/consolidate.py). A turn that says nothing
    in words (only an emoji or punctuation: the image was the message) is read through its
    caption, scored as the sentence it would be if said: "Ken holding his new road bike at the
    finish line" makes a note, "a photo of a teapot" does not (it stays in the episode)."""
    if any(ch.isalnum() for ch in words):
        return SentenceScore(caption, _PHOTO_SCORE, frozenset({Cue.PHOTO}))
    alone = score_sentence(caption, selection.participants)
    return SentenceScore(caption, max(alone.score, _PHOTO_SCORE), alone.cues | {Cue.PHOTO})


def _answer_candidate(
    position: int, events: Sequence[EventText], selection: Selection
) -> Candidate | None:
    """A short answer to the persona's question, read with the question (lowest priority)."""
    if position == 0:
        return None
    note = answer_note(events[position - 1], events[position], selection.participants)
    return None if note is None else Candidate(position, selection.min_score, note)


def _profile_candidate(
    position: int,
    event: EventText,
    voices: Voices,
    scored: list[SentenceScore],
    statements: list[tuple[str, str]],
    selection: Selection,
) -> Candidate:
    """The user said who they are: always a PROFILE note, stated plainly ("Rau's name is
    Laura."), followed by whatever else the turn said that is worth keeping."""
    japanese = is_japanese(event.text)
    name = spoken_name(event.speaker, japanese=japanese)
    lead = [sentence_start(describe_profile(k, v, name, japanese=japanese)) for k, v in statements]
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
    return Candidate(position, _PROFILE_PRIORITY, note)


def _without_profile(
    scored: SentenceScore, speaker: str, selection: Selection
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


def _choose(scored: list[SentenceScore], selection: Selection) -> list[SentenceScore]:
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

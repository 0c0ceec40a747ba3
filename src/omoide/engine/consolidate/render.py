"""How a chosen turn reads as a note: third person, dates, who said it; and its kind and
importance (pure, offline).

:mod:`omoide.engine.consolidate.turn_note` chooses the sentences; this module puts them
together (see :mod:`omoide.engine.consolidate.offline`'s docstring, step 4). No I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from omoide.engine.consolidate.cues import Cue
from omoide.engine.consolidate.kinds import main_cue
from omoide.engine.consolidate.relative_dates import resolve_relative_dates, said_on
from omoide.engine.consolidate.rewrite import to_third_person
from omoide.engine.consolidate.rules import SentenceScore
from omoide.engine.consolidate.types import EventText, NoteKind
from omoide.engine.consolidate.voice import (
    Voices,
    has_own_topic,
    joined,
    names_speaker,
    spoken_name,
)
from omoide.engine.lang import is_japanese

__all__ = ["capitalised", "note_importance", "note_kind", "render_note"]


def render_note(
    event: EventText,
    voices: Voices,
    sentences: Sequence[SentenceScore],
    *,
    lead: Sequence[str] = (),
) -> str:
    """Third person, dates resolved, a closing date; ``lead`` is already in third person.
    A note that does not name its speaker says who said it in its closing brackets (a
    ``Name:`` label would read as a transcript line). Each sentence keeps its own language
    (a turn may switch between English and Japanese) and its own voice (:class:`Voices`)."""
    words = [s.text for s in sentences if Cue.PHOTO not in s.cues]
    captions = [s.text for s in sentences if Cue.PHOTO in s.cues]
    japanese = (
        is_japanese(" ".join([*lead, *words]))
        if words or lead
        else is_japanese(" ".join([event.text, *captions]))
    )
    parts = [(text, is_japanese(text)) for text in lead]
    for sentence in words:
        in_japanese = is_japanese(sentence)
        speaker, addressee = voices.of(sentence)
        text = capitalised(
            to_third_person(
                sentence,
                spoken_name(speaker, japanese=in_japanese),
                addressee=None
                if addressee is None
                else spoken_name(addressee, japanese=in_japanese),
                japanese=in_japanese,
            )
        )
        if event.timestamp is not None:
            text = resolve_relative_dates(text, event.timestamp, japanese=in_japanese)
        parts.append((text, in_japanese))
    content = joined(parts)
    shown_by = spoken_name(event.speaker, japanese=japanese)
    for caption in captions:
        if not content:  # the image was the whole turn: its caption is the statement
            content = (
                f"{shown_by}が共有した画像は「{caption}」"
                if japanese
                else capitalised(f"{shown_by} shared an image showing {caption}")
            )
            continue
        clause = (
            f"（{shown_by}が共有した画像は「{caption}」）"
            if japanese
            else f"({shown_by} shared an image showing {caption})"
        )
        content = f"{content}{'' if japanese else ' '}{clause}"
    unnamed = bool(event.speaker) and not names_speaker(content, event.speaker)
    first = parts[0] if parts else ("", False)
    if unnamed and japanese and first[1] and not has_own_topic(first[0]):
        # Japanese drops the subject: give it back as the topic (the first sentence's voice)
        topic = voices.of(words[0])[0] if words and not lead else event.speaker
        content = f"{spoken_name(topic, japanese=True)}は、{content}"
        unnamed = not names_speaker(content, event.speaker)
    return content + said_on(
        event.timestamp,
        japanese=japanese,
        speaker=spoken_name(event.speaker, japanese=japanese) if unnamed else None,
        content=content,
    )


# "Oh, and we're moving …": once the note stands alone, a leading "and" joins it to nothing.
_LEADING_AND = re.compile(r"^and\s+(?=\S)", re.IGNORECASE)


def capitalised(sentence: str) -> str:
    """A sentence whose leading interjection was dropped ("Ha, honestly I prefer …") starts
    with a capital again, without a leading "and"; a word capitalised inside ("iPhone") is
    left as written."""
    sentence = _LEADING_AND.sub("", sentence)
    if sentence[:1].islower() and not sentence[1:2].isupper():
        return sentence[0].upper() + sentence[1:]
    return sentence


def note_kind(best: SentenceScore) -> NoteKind:
    """The kind of the turn's most informative sentence; a profile cue only counts when the
    speaker talks about themselves ("my sister", "I work as"), which the cues already check."""
    cue = main_cue(best.text)
    if cue == Cue.PREFERENCE and Cue.PREFERENCE in best.cues:
        return NoteKind.PREFERENCE
    if cue == Cue.PROFILE and Cue.PROFILE in best.cues:
        return NoteKind.PROFILE
    return NoteKind.FACT


def note_importance(score: float, cues: frozenset[str]) -> float:
    """Saturating map of the turn score; profile facts and life events weigh a bit more."""
    base = 1.0 - math.exp(-score / 4.0)
    bonus = 0.1 * len(cues & {Cue.PROFILE, Cue.LIFE_EVENT})
    return round(min(0.95, max(0.1, base + bonus)), 3)

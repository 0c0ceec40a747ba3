"""Episode consolidation by an LLM: one JSON call turns a closed episode into notes.

Implements the engine's :class:`~omoide.engine.consolidate.Consolidator` port with the
same result as the offline extractor. The prompt lists the episode's events by id and asks for
standalone third-person notes (fact / preference / profile) that cite their source events, plus
profile updates from the user's explicit self-identification. The answer is checked: a source
id that is not in the episode is dropped (a note left citing nothing is dropped), a profile
update must cite one of the user's own events, and the note budget of the offline engine
applies. An unusable answer or an unreachable endpoint logs one WARNING and hands the episode
to the offline ``fallback``, so consolidation never stops working. Conversation text is never
logged.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from omoide.engine.attachments import IMAGE_CAPTION, turn_text
from omoide.engine.consolidate import (
    DEFAULT_NOTES_PER_TURN,
    Consolidation,
    Consolidator,
    EventText,
    NoteDraft,
    NoteKind,
    OfflineConsolidator,
    ProfileUpdate,
    count_persona_turns,
    note_budget,
    strip_speaker_labels,
)
from omoide.errors import UpstreamUnavailable
from omoide.llm.base import LLM, LLMOutputError, Message, complete_json

__all__ = ["SYSTEM", "LLMConsolidator"]

logger = logging.getLogger(__name__)

CONTENT_LIMIT = 1000
VALUE_LIMIT = 100
MAX_TAGS = 8
TAG_LIMIT = 40
DEFAULT_IMPORTANCE = 0.5
_PROFILE_KEY = re.compile(r"[a-z][a-z_]{0,39}")

SYSTEM = """\
You keep the long-term memory of an AI persona. Below is one closed episode of a conversation, \
one event per line: [id] date speaker (role): text. Consolidate it into notes.

Notes:
- Each note stands alone: third person with the speaker's name, never "I" or "you", and \
never a "Name:" speaker prefix. A speaker shown only as "User" is a user whose name is \
not known: call them "the user" (「ユーザー」 in Japanese, with no honorific: never \
「ユーザーさん」), not "User".
- Assistant events (role "assistant") are the persona speaking: they may explain what a user \
meant, but never state a fact about the user on their own; cite a user event for every fact \
about the user.
- Hobbies, skills and instruments are facts ("plays the saxophone"). Keep a full name next to \
a nickname ("Kenji Sato, called Ken").
- Keep the specifics: names, places, dates, objects, numbers. Turn relative dates ("yesterday", \
"last month", 先週) into absolute ones using the event's date.
- One note may combine several events about the same thing. Skip greetings, thanks, praise, \
small talk and questions that carry no fact, and pasted tables, logs, price lists and dumps.
- "kind": "fact" (events, situations, plans), "preference" (likes, dislikes, favourites) or \
"profile" (lasting facts about a person: name, job, home, family, pets, identity).
- "sources": the ids of exactly the events the note's content comes from.
- "importance": 0 to 1, how much the note matters for knowing the person in the long run.
- At most {budget} notes; fewer when the episode says little.
- Write each note in the language of the conversation.

Profile updates: only when a user (role "user") explicitly gives their own name, nickname or \
how they want to be addressed ("my name is …", "call me …", "私の名前は…", "…って呼んで"). \
Keys: "name", "nickname", "preferred_address". "source": that event's id.

Reply with one JSON object and nothing else:
{{"notes": [{{"content": "…", "kind": "fact", "sources": [3], "importance": 0.6, \
"tags": ["travel"]}}], "profile": [{{"key": "name", "value": "…", "source": 3}}]}}"""


class LLMConsolidator:
    """The LLM engine for episode consolidation, falling back to an offline one."""

    def __init__(
        self,
        llm: LLM,
        *,
        fallback: Consolidator | None = None,
        notes_per_turn: float = DEFAULT_NOTES_PER_TURN,
    ) -> None:
        self._llm = llm
        self._fallback = fallback or OfflineConsolidator(notes_per_turn=notes_per_turn)
        self._notes_per_turn = notes_per_turn

    def consolidate(
        self, events: Sequence[EventText], *, max_notes: int | None = None
    ) -> Consolidation:
        if not events:
            return Consolidation(notes=(), profile=())
        budget = note_budget(
            len(events),
            notes_per_turn=self._notes_per_turn,
            max_notes=max_notes,
            persona_turns=count_persona_turns(events),
        )
        try:
            answer = complete_json(
                self._llm,
                [Message("user", _prompt(events))],
                system=SYSTEM.format(budget=budget),
                max_tokens=min(4096, 300 + 150 * budget),
            )
            return _consolidation(answer, events, budget)
        except (LLMOutputError, UpstreamUnavailable) as exc:
            logger.warning("LLM consolidation failed, using the offline extractor: %s", exc)
            return self._fallback.consolidate(events, max_notes=max_notes)


def _prompt(events: Sequence[EventText]) -> str:
    return "\n".join(
        f"[{e.event_id}] {e.timestamp.date().isoformat() if e.timestamp else '?'} "
        f"{_one_line(e.speaker)} ({e.role}): "
        f"{_one_line(turn_text(e.text, {IMAGE_CAPTION: e.image_caption}))}"
        for e in events
    )


def _one_line(text: str) -> str:
    # A newline inside a turn would read as the start of the next event.
    return " ".join(text.split())


def _consolidation(answer: Any, events: Sequence[EventText], budget: int) -> Consolidation:
    if not isinstance(answer, dict):
        raise LLMOutputError("the answer is not a JSON object")
    raw_notes = _list(answer, "notes")
    known = {e.event_id for e in events}
    notes = [note for item in raw_notes if (note := _note(item, known)) is not None]
    if raw_notes and not notes:
        raise LLMOutputError("no note cites an event of the episode")
    # The persona's own turns inform a note but never make one by themselves.
    persona_events = {e.event_id for e in events if e.role == "assistant"}
    notes = [n for n in notes if not set(n.source_event_ids) <= persona_events]
    user_events = {e.event_id for e in events if e.role == "user"}
    profile = [p for item in _list(answer, "profile") if (p := _profile(item, user_events))]
    return Consolidation(notes=_within_budget(notes, budget), profile=tuple(profile))


def _list(answer: dict[str, Any], key: str) -> list[Any]:
    value = answer.get(key, [])
    if not isinstance(value, list):
        raise LLMOutputError(f'"{key}" is not a list')
    return value


def _note(item: Any, known: set[int]) -> NoteDraft | None:
    """One validated note; None when none of its sources belongs to the episode."""
    if not isinstance(item, dict):
        raise LLMOutputError("a note is not a JSON object")
    content = _one_line(strip_speaker_labels(str(item.get("content") or "")))[:CONTENT_LIMIT]
    if not content:
        raise LLMOutputError("a note has no content")
    sources = tuple(sorted({i for i in _ints(item.get("sources")) if i in known}))
    if not sources:
        return None
    return NoteDraft(
        content=content,
        kind=_kind(item.get("kind")),
        source_event_ids=sources,
        importance=_importance(item.get("importance")),
        tags=_tags(item.get("tags")),
    )


def _ints(value: Any) -> list[int]:
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            out.append(item)
        elif isinstance(item, str) and item.strip().strip("[]#").isdigit():
            out.append(int(item.strip().strip("[]#")))
    return out


def _kind(value: Any) -> NoteKind:
    name = str(value or "").strip().lower()
    try:
        return NoteKind(name)
    except ValueError:
        shown = name if name.isalpha() and len(name) <= 20 else "(not a kind)"
        raise LLMOutputError(f"unknown note kind {shown}") from None


def _importance(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return DEFAULT_IMPORTANCE
    return round(min(1.0, max(0.0, float(value))), 3)


def _tags(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    tags = (_one_line(str(t))[:TAG_LIMIT] for t in value if isinstance(t, str))
    return tuple(dict.fromkeys(t for t in tags if t))[:MAX_TAGS]


def _profile(item: Any, user_events: set[int]) -> ProfileUpdate | None:
    """A profile update citing one of the user's own events; anything else is dropped."""
    if not isinstance(item, dict):
        return None
    key = str(item.get("key") or "").strip().lower()
    value = _one_line(str(item.get("value") or ""))[:VALUE_LIMIT]
    sources = [i for i in _ints(item.get("source")) if i in user_events]
    if not _PROFILE_KEY.fullmatch(key) or not value or not sources:
        return None
    return ProfileUpdate(key=key, value=value, source_event_id=sources[0])


def _within_budget(notes: list[NoteDraft], budget: int) -> tuple[NoteDraft, ...]:
    """The most important notes when the model wrote too many, in the order it wrote them."""
    if len(notes) <= budget:
        return tuple(notes)
    ranked = sorted(range(len(notes)), key=lambda i: (-notes[i].importance, i))[:budget]
    return tuple(notes[i] for i in sorted(ranked))

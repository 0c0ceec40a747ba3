"""Who says each sentence of a turn, and how a note's sentences are put together (pure).

A turn may paste an exchange with someone else ("Ana: I got in!") and may switch between
English and Japanese; :mod:`omoide.engine.consolidate.turn_note` renders each sentence with
its own voice and language using these helpers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Voices",
    "has_own_topic",
    "is_role_label",
    "joined",
    "names_speaker",
    "sentence_start",
    "spoken_name",
]


# What a turn's speaker is called when nobody gave the user's name: the chat proxy records
# "User" until the user state holds a name, and an API client may post "user". That is a role,
# not a name: a note says "the user" (「ユーザー」 in Japanese), as the store speaks of them.
_ROLE_LABELS = frozenset({"user", "ユーザー"})
_UNNAMED_USER_EN = "the user"
_UNNAMED_USER_JA = "ユーザー"


def is_role_label(speaker: str) -> bool:
    """True when ``speaker`` names the user's role, not a person ("User", "user", "ユーザー")."""
    return speaker.strip().casefold() in _ROLE_LABELS


def spoken_name(speaker: str, *, japanese: bool) -> str:
    """How a note calls ``speaker``: their name, or "the user" / 「ユーザー」 for a role label
    (in lower case: a sentence that opens with it is capitalised where it is put together)."""
    if not is_role_label(speaker):
        return speaker
    return _UNNAMED_USER_JA if japanese else _UNNAMED_USER_EN


def names_speaker(content: str, speaker: str) -> bool:
    """Whether ``content`` names ``speaker`` (for a role label: "the user" / 「ユーザー」)."""
    if not is_role_label(speaker):
        return speaker in content
    return _UNNAMED_USER_EN in content.lower() or _UNNAMED_USER_JA in content


def sentence_start(text: str) -> str:
    """``text`` opening a sentence: "the user's …" → "The user's …" (a name is left as
    written)."""
    if text.startswith(_UNNAMED_USER_EN):
        return "T" + text[1:]
    return text


@dataclass(frozen=True)
class Voices:
    """Who says each sentence of a turn and whom "you" means: the turn's speaker and addressee,
    except for the lines of a pasted exchange, said by their labels' names ("Ana: I got in!"
    is Ana's, not the user's), where "you" is the exchange's other voice (else the speaker)."""

    speaker: str
    addressee: str | None
    labelled: dict[str, str]

    def of(self, sentence: str) -> tuple[str, str | None]:
        voice = self.labelled.get(sentence)
        if voice is None or voice == self.speaker:
            return self.speaker, self.addressee
        others = [v for v in self.labelled.values() if v != voice]
        return voice, others[0] if others else self.speaker


# A Japanese sentence that opens with its own topic ("同僚のリナは…", "とにかく、エムは…", after
# at most one short lead-in clause): the speaker is not its topic, so it is not prepended. A
# time as the topic ("週末は…", "最近は…", "夏休みは…") sets the scene and is not a subject.
_JA_NOUN = r"[一-龯々〆ァ-ヶーｦ-ﾟA-Za-z0-9]+(?:さん|ちゃん|くん|様|たち)?"
_JA_OWN_TOPIC = re.compile(rf"^(?:[^、。！？]{{1,10}}、)?(?P<topic>(?:{_JA_NOUN}の)*{_JA_NOUN})は")
_JA_TIME_TOPIC = re.compile(
    r"(?:^(?:毎|今|先|来|昨|去|再来|最近|昔|普段|当時|以前|前|後)"
    r"|(?:日|週|週末|月|年|朝|昼|夜|晩|時|頃|ごろ|中|間|休み|後|前|以来)$)"
)


def has_own_topic(sentence: str) -> bool:
    match = _JA_OWN_TOPIC.match(sentence)
    return match is not None and not _JA_TIME_TOPIC.search(match.group("topic"))


def joined(parts: Sequence[tuple[str, bool]]) -> str:
    """Sentences in order: two Japanese ones run together, any other pair has a space."""
    out = ""
    for i, (text, japanese) in enumerate(parts):
        if i and not (japanese and parts[i - 1][1]):
            out += " "
        out += text
    return out
